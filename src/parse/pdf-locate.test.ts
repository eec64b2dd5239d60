import { describe, expect, it } from 'vitest';
import { nodePdfAssets } from '../node/pdf-assets';
import { pdf, type PdfLine } from '../../test/fixtures/documents';
import { loadDefaultPdfjs, parsePdf } from './pdf';
import { locateSpan, pageParts, type ItemRange } from './pdf-locate';

const assets = nodePdfAssets();

/** Body lines 14 pt apart from `y` down, at `x`. */
function body(y: number, texts: readonly string[], x = 72): PdfLine[] {
  return texts.map((text, i) => ({ text, y: y - 14 * i, x }));
}

interface Pdfjs {
  getDocument(p: Record<string, unknown>): {
    promise: Promise<{
      getPage(n: number): Promise<{ getTextContent(): Promise<{ items: readonly { str?: string }[] }> }>;
    }>;
    destroy(): Promise<void>;
  };
}

/** The page's text item strings as the page view's text layer gets them (items with a `str`). */
async function itemStrings(bytes: Uint8Array, page: number): Promise<string[]> {
  const pdfjs = (await loadDefaultPdfjs()) as unknown as Pdfjs;
  const task = pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false, verbosity: 0 });
  try {
    const doc = await task.promise;
    const content = await (await doc.getPage(page)).getTextContent();
    return content.items.flatMap((it) => (typeof it.str === 'string' ? [it.str] : []));
  } finally {
    await task.destroy();
  }
}

/** What the page view highlights: each range's characters, in item order, spaces collapsed. */
function highlighted(items: readonly string[], ranges: readonly ItemRange[]): string {
  return ranges
    .map((r) => (items[r.item] as string).slice(r.start, r.end))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}
const flat = (s: string): string => s.replace(/\s+/g, ' ').trim();

const LEFT = [
  'Revenue grew in every segment of the business.',
  'Casino revenue rose eleven percent on strong',
  'table games volume in the second half.',
  'Hotel occupancy stayed above ninety percent.',
];
const RIGHT = [
  'Operating costs fell after the refinancing.',
  'Interest expense dropped by forty million',
  'dollars compared with the prior year.',
  'The board approved a new buyback program.',
];

const TWO_PAGES = pdf([
  [
    { text: 'Management Discussion', size: 18, y: 730 },
    ...body(690, [
      'The company opened two resorts during the year.',
      'Net revenues increased to a record level,',
      'driven by the new properties and by higher',
    ]),
  ],
  [...body(730, ['spending per visitor at the existing ones.', 'Costs rose less than revenues in the period.'])],
]);

describe('locateSpan on pdf.js text items of generated PDFs', () => {
  it('highlights exactly a sentence inside a page', async () => {
    const parsed = await parsePdf(TWO_PAGES, assets);
    const items = await itemStrings(TWO_PAGES, 1);
    const sentence = 'Net revenues increased to a record level,';
    const start = parsed.text.indexOf(sentence);
    expect(start).toBeGreaterThan(0);
    const parts = pageParts(parsed.pages ?? [], start, start + sentence.length);
    expect(parts.map((p) => p.page)).toEqual([1]);
    const ranges = locateSpan(parsed.text.slice(start, start + sentence.length), items);
    expect(highlighted(items, ranges)).toBe(sentence);
  });

  it('a span across the page break is split by page and highlighted on both pages', async () => {
    const parsed = await parsePdf(TWO_PAGES, assets);
    const from = parsed.text.indexOf('driven by');
    const to = parsed.text.indexOf('existing ones.') + 'existing ones.'.length;
    const parts = pageParts(parsed.pages ?? [], from, to, (s, e) => parsed.text.slice(s, e));
    expect(parts.map((p) => p.page)).toEqual([1, 2]);
    const shown: string[] = [];
    for (const part of parts) {
      const items = await itemStrings(TWO_PAGES, part.page);
      shown.push(highlighted(items, locateSpan(parsed.text.slice(part.start, part.end), items)));
    }
    expect(shown).toEqual(['driven by the new properties and by higher', 'spending per visitor at the existing ones.']);
    expect(flat(shown.join(' '))).toBe(flat(parsed.text.slice(from, to)));
  });

  it('finds a span whose items the PDF draws in another order (two columns drawn row by row)', async () => {
    // Interleaved: left line, right line, … — the stream order is not the reading order.
    const lines: PdfLine[] = [];
    LEFT.forEach((text, i) => {
      lines.push({ text, x: 60, y: 700 - 14 * i, size: 10 });
      lines.push({ text: RIGHT[i] as string, x: 330, y: 700 - 14 * i, size: 10 });
    });
    const bytes = pdf([lines]);
    const items = await itemStrings(bytes, 1);
    const span = RIGHT.slice(1, 3).join('\n');
    expect(highlighted(items, locateSpan(span, items))).toBe(flat(span));
    const left = LEFT.slice(1, 3).join(' ');
    expect(highlighted(items, locateSpan(left, items))).toBe(left);
  });

  it('reads through the Markdown the parser writes (heading marks, table pipes) and partial items', async () => {
    const items = ['Net revenues increased to a record level,', 'driven by the new'];
    const ranges = locateSpan('# a record level,\n| driven |', items);
    expect(ranges).toEqual([
      { item: 0, start: 'Net revenues increased to '.length, end: items[0]!.length },
      { item: 1, start: 0, end: 'driven'.length },
    ]);
  });

  it('finds nothing for text the page does not have, and nothing for an empty span', () => {
    expect(locateSpan('zzzz qqqq', ['alpha beta'])).toEqual([]);
    expect(locateSpan('', ['alpha'])).toEqual([]);
    expect(locateSpan('— | —', ['alpha'])).toEqual([]);
  });

  it('pageParts leaves out the blank lines between pages and keeps page order', () => {
    const pages = [
      { page: 1, start: 0, end: 10 },
      { page: 2, start: 12, end: 20 },
    ];
    const text = 'aaaaaaaaaa\n\nbbbbbbbb';
    expect(pageParts(pages, 5, 11, (s, e) => text.slice(s, e))).toEqual([{ page: 1, start: 5, end: 10 }]);
    expect(pageParts(pages, 5, 15, (s, e) => text.slice(s, e))).toEqual([
      { page: 1, start: 5, end: 10 },
      { page: 2, start: 12, end: 15 },
    ]);
  });
});
