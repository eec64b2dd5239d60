import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../core/ingest/chunk';
import { parseSections } from '../core/ingest/markdown';
import { assignPages } from '../core/ingest/pages';
import { nodePdfAssets } from '../node/pdf-assets';
import { pdf, type PdfLine } from '../../test/fixtures/documents';
import { parsePdf } from './pdf';
import type { ParseProgress } from './types';

const assets = nodePdfAssets();
const words = (s: string): number => s.split(/\s+/).filter(Boolean).length;

/** Body lines 14 pt apart from `y` down. */
function body(y: number, ...texts: string[]): PdfLine[] {
  return texts.map((text, i) => ({ text, y: y - 14 * i }));
}

const POLICY = pdf(
  [
    [
      { text: 'Annual Leave Policy', size: 22, y: 730 },
      ...body(690, 'Employees accrue two days of leave per month.', 'Leave is approved by the line manager.'),
      { text: 'Carry-over', size: 16, y: 630 },
      ...body(605, 'Up to five unused days carry over to the next year.'),
    ],
    [
      { text: 'Sick leave', size: 16, y: 730 },
      ...body(705, "Sick leave needs a doctor's note after three days.", '# this line starts with a hash'),
      ...body(640, 'A separate paragraph after a wide gap.'),
    ],
  ],
  { title: 'Leave Policy (2024 edition)' },
);

describe('parsePdf on a PDF built in the test', () => {
  it('reads text per page with page ranges into the full text', async () => {
    const parsed = await parsePdf(POLICY, assets);
    expect(parsed.format).toBe('pdf');
    expect(parsed.pages?.map((p) => p.page)).toEqual([1, 2]);
    const [p1, p2] = parsed.pages!;
    expect(parsed.text.slice(p1!.start, p1!.end)).toContain('Employees accrue two days');
    expect(parsed.text.slice(p1!.start, p1!.end)).not.toContain('Sick leave');
    expect(parsed.text.slice(p2!.start, p2!.end)).toMatch(/^## Sick leave/);
    expect(p1!.end).toBeLessThanOrEqual(p2!.start);
  });

  it('recovers headings from font size, largest first, and the chunker sees them as sections', async () => {
    const parsed = await parsePdf(POLICY, assets);
    expect(parsed.headings).toEqual(['Annual Leave Policy', 'Carry-over', 'Sick leave']);
    expect(parsed.text.startsWith('# Annual Leave Policy\n\n')).toBe(true);
    const trails = parseSections(parsed.text, 'markdown').map((s) => s.headings);
    expect(trails).toEqual([
      ['Annual Leave Policy'],
      ['Annual Leave Policy', 'Carry-over'],
      ['Annual Leave Policy', 'Sick leave'],
    ]);
  });

  it('keeps body text that looks like Markdown from becoming structure, and splits paragraphs at wide gaps', async () => {
    const parsed = await parsePdf(POLICY, assets);
    expect(parsed.text).toContain('    # this line starts with a hash');
    expect(parsed.text).toContain('three days.\n    # this line starts with a hash\n\nA separate paragraph');
  });

  it('gives every chunk the page its text comes from', async () => {
    const parsed = await parsePdf(POLICY, assets);
    const chunks = assignPages(
      chunkDocument({ docId: 'd', text: parsed.text, format: 'markdown' }, { countTokens: words, maxTokens: 12 }),
      parsed.pages!,
    );
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) {
      const page = c.text.includes('Sick') || c.text.includes('hash') || c.text.includes('separate') ? 2 : 1;
      expect(c.page, c.text).toBe(page);
    }
  });

  it('takes the title from the document info and reports progress per page', async () => {
    const progress: ParseProgress[] = [];
    const parsed = await parsePdf(POLICY, { ...assets, onProgress: (p) => progress.push(p) });
    expect(parsed.title).toBe('Leave Policy (2024 edition)');
    expect(progress).toEqual([
      { phase: 'pages', done: 1, total: 2 },
      { phase: 'pages', done: 2, total: 2 },
    ]);
  });

  it('does not detach or change the caller’s bytes', async () => {
    const bytes = POLICY.slice();
    await parsePdf(bytes, assets);
    expect(bytes.byteLength).toBe(POLICY.byteLength);
    expect(bytes).toEqual(POLICY);
  });

  it('reports pages without a text layer, and fails with pdf_no_text when no page has text', async () => {
    const mixed = await parsePdf(pdf([[...body(700, 'Only the first page has text.')], []]), assets);
    expect(mixed.warnings.find((w) => w.code === 'pages_without_text')?.message).toMatch(/\b2\b/);
    const scanned = parsePdf(pdf([[], []]), assets);
    await expect(scanned).rejects.toMatchObject({ code: 'pdf_no_text' });
    await expect(parsePdf(pdf([[]]), assets)).rejects.toThrow(/no extractable text \(scanned\?\)/);
  });

  it('fails with pdf_corrupt on a truncated file', async () => {
    const cut = POLICY.subarray(0, Math.floor(POLICY.length * 0.4));
    await expect(parsePdf(cut, assets)).rejects.toMatchObject({ code: 'pdf_corrupt' });
  });

  it('stops with aborted when the signal fires', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(parsePdf(POLICY, { ...assets, signal: ac.signal })).rejects.toMatchObject({ code: 'aborted' });
    const mid = new AbortController();
    const run = parsePdf(POLICY, { ...assets, signal: mid.signal, onProgress: () => mid.abort() });
    await expect(run).rejects.toMatchObject({ code: 'aborted' });
  });

  it('fetches standard-font data through fetchAsset by the configured URL', async () => {
    const asked: string[] = [];
    await parsePdf(POLICY, {
      ...assets,
      fetchAsset: (url) => {
        asked.push(url);
        return assets.fetchAsset(url);
      },
    });
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((u) => u.startsWith(assets.standardFontDataUrl) || u.startsWith(assets.cMapUrl))).toBe(true);
  });
});

describe('parsePdf layout on a filing-like PDF built in the test', () => {
  const furniture = (n: number): PdfLine[] => [
    { text: 'Northwind Annual Report', y: 770, size: 9 },
    { text: String(n), x: 300, y: 30, size: 9 },
  ];
  const left = Array.from({ length: 18 }, (_, i) => ({
    text: `Left column line ${i} reads on.`,
    x: 72,
    y: 720 - 14 * i,
  }));
  const right = Array.from({ length: 18 }, (_, i) => ({
    text: `Right column line ${i} follows.`,
    x: 320,
    y: 720 - 14 * i,
  }));
  const rows: [string, string, string][] = [
    ['Cash and cash equivalents', '1,526', '1,499'],
    ['Accounts receivable, net', '657', '542'],
    ['Accounts payable', '303', '255'],
    ['Total current liabilities', '2,948', '3,138'],
  ];
  // Numbers right-aligned: same digit count, same right edge (Helvetica digits share a width).
  const at = (s: string, end: number): number => end - s.length * 5.6;
  const FILING = pdf([
    [
      ...furniture(1),
      { text: 'PART II', y: 720 },
      { text: 'Item 7. Management Discussion', y: 690 },
      ...body(660, 'Revenue grew in every segment.', 'Costs fell.'),
    ],
    [...furniture(2), ...left, ...right],
    [
      ...furniture(3),
      { text: 'Consolidated Balance Sheets', y: 720 },
      { text: '2018', x: at('2018', 420), y: 696 },
      { text: '2017', x: at('2017', 500), y: 696 },
      ...rows.flatMap(([label, a, b], i) => [
        { text: label, x: 72, y: 680 - 14 * i },
        { text: a, x: at(a, 420), y: 680 - 14 * i },
        { text: b, x: at(b, 500), y: 680 - 14 * i },
      ]),
    ],
  ]);

  it('keeps running headers and page numbers out of the text, as page metadata', async () => {
    const parsed = await parsePdf(FILING, assets);
    expect(parsed.text).not.toContain('Northwind Annual Report');
    expect(parsed.pages?.map((p) => [p.header, p.label])).toEqual([
      ['Northwind Annual Report', '1'],
      ['Northwind Annual Report', '2'],
      ['Northwind Annual Report', '3'],
    ]);
    expect(parsed.headings).not.toContain('Northwind Annual Report');
  });

  it('nests numbered headings Part › Item and puts the statement title over its table', async () => {
    const parsed = await parsePdf(FILING, assets);
    const sections = parseSections(parsed.text, 'markdown');
    const revenue = sections.find((s) => parsed.text.slice(s.start, s.end).includes('Revenue grew'));
    expect(revenue?.headings).toEqual(['PART II', 'Item 7. Management Discussion']);
    const balance = sections.find((s) => parsed.text.slice(s.start, s.end).includes('Accounts payable'));
    expect(balance?.headings).toEqual(['PART II', 'Item 7. Management Discussion', 'Consolidated Balance Sheets']);
  });

  // 3M's 2022 10-K sets "NOTE 5. Restructuring Actions" in the body's size on the line right under
  // Note 4's last line: read as body text, the pages of Note 5 kept Note 4's trail.
  it('starts a note set tight under the last line of the one before, so its pages carry its number', async () => {
    const notes = pdf([
      [
        ...furniture(1),
        { text: 'Item 8. Financial Statements', y: 720 },
        { text: 'NOTE 1. Organization', y: 690 },
        ...body(676, 'Northwind trades grain across the region.', 'The details are in Note 3 for readers.'),
        { text: 'NOTE 2. Revenue', y: 648 },
        ...body(634, 'Revenue is recognised on delivery of the grain.'),
      ],
      [...furniture(2), ...body(720, 'Sales of barley rose in the second half.', 'Prices held firm all year.')],
      [
        ...furniture(3),
        ...body(720, 'Returns stayed low.'),
        { text: 'NOTE 3. Leases', y: 706 },
        ...body(692, 'Silos are leased for ten years.'),
      ],
    ]);
    const parsed = await parsePdf(notes, assets);
    const sections = parseSections(parsed.text, 'markdown');
    const trail = (words: string) => sections.find((s) => parsed.text.slice(s.start, s.end).includes(words))?.headings;
    expect(trail('Northwind trades grain')).toEqual(['Item 8. Financial Statements', 'NOTE 1. Organization']);
    expect(trail('Sales of barley')).toEqual(['Item 8. Financial Statements', 'NOTE 2. Revenue']);
    expect(trail('Silos are leased')).toEqual(['Item 8. Financial Statements', 'NOTE 3. Leases']);
    // A reference in a sentence is no heading.
    expect(parsed.headings).not.toContain('The details are in Note 3 for readers.');
  });

  it('reads two columns one after the other', async () => {
    const parsed = await parsePdf(FILING, assets);
    const [, p2] = parsed.pages!;
    const page = parsed.text.slice(p2!.start, p2!.end);
    expect(page.indexOf('Left column line 17')).toBeLessThan(page.indexOf('Right column line 0'));
    expect(page).toContain('Left column line 0 reads on.\nLeft column line 1 reads on.');
    expect(page).not.toMatch(/Left column line \d+ reads on\. Right/);
  });

  it('writes a statement as a Markdown table: header row, delimiter row, one row per line', async () => {
    const parsed = await parsePdf(FILING, assets);
    expect(parsed.text).toContain(
      [
        '|  | 2018 | 2017 |',
        '| --- | --- | --- |',
        '| Cash and cash equivalents | 1,526 | 1,499 |',
        '| Accounts receivable, net | 657 | 542 |',
        '| Accounts payable | 303 | 255 |',
        '| Total current liabilities | 2,948 | 3,138 |',
      ].join('\n'),
    );
  });
});
