/**
 * OCR of scanned pages in Node, on PDFs the test makes (text drawn onto an image, no text
 * layer): words recovered with a character error rate bounded per page, the OCR marker and
 * confidence on each page, cancel within a second, text PDFs unchanged, and the shared Russian
 * scan refused with a plain message.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  characterErrorRate,
  cleanPage,
  editDistance,
  noisyPage,
  rotatedPage,
  scannedPdf,
  tablePage,
  twoColumnPage,
  type ScannedPage,
} from '../../test/fixtures/scanned-pdf';
import { pdf } from '../../test/fixtures/documents';
import { nodeOcrAssets } from '../node/ocr-assets';
import { nodePdfAssets } from '../node/pdf-assets';
import { describeShared, sharedPath } from '../node/shared-data';
import { parseDocument, type ParsedDocument } from '.';
import { LOW_CONFIDENCE, MIN_PAGE_CONFIDENCE, isReadable, wordsOf } from './pdf-ocr';

const pdfAssets = nodePdfAssets();
const ocr = { assets: nodeOcrAssets() };
/** The bound on clean, machine-printed fixtures. */
const MAX_CER = 0.05;
const OCR_TIMEOUT = 120_000;

function pageText(doc: ParsedDocument, page: number): string {
  const r = doc.pages!.find((p) => p.page === page)!;
  return doc.text.slice(r.start, r.end);
}

describe('characterErrorRate', () => {
  it('is the edit distance over the truth length, Markdown marks and spacing ignored', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(characterErrorRate('# Title\n\n| a | b |', 'Title a b')).toBe(0);
    expect(characterErrorRate('Tit1e', 'Title')).toBeCloseTo(0.2, 4);
  });
});

describe('wordsOf / isReadable', () => {
  const line = (words: [string, number][]) => ({
    bbox: { x0: 0, y0: 100, x1: 400, y1: 130 },
    words: words.map(([text, confidence], i) => ({
      text,
      confidence,
      bbox: { x0: i * 100, y0: 100, x1: i * 100 + 80, y1: 130 },
    })),
  });
  it('puts the words of a line on one baseline in PDF space and averages their confidence by length', () => {
    const page = wordsOf(
      {
        confidence: 0,
        blocks: [
          {
            paragraphs: [
              {
                lines: [
                  line([
                    ['Harbour', 90],
                    ['report', 80],
                    ['x', 10],
                  ]),
                ],
              },
            ],
          },
        ],
      },
      792,
    );
    expect(page.items.map((i) => i.str)).toEqual(['Harbour', 'report', 'x']);
    expect(new Set(page.items.map((i) => i.y))).toEqual(new Set([792 - 65]));
    // (7 × 90 + 6 × 80 + 1 × 10) / 14 = 80: the one-letter speck weighs little.
    expect(page.confidence).toBe(80);
    expect(page.readWords).toBe(2);
    // Boxes in points from the page's top-left: each word's left and right, its line's top and bottom.
    expect(page.boxes).toEqual([0, 50, 40, 65, 50, 50, 90, 65, 100, 50, 140, 65]);
  });
  it('a page of confident words is readable; garbage at low confidence, or no words, is not', () => {
    const good = wordsOf(
      {
        confidence: 0,
        blocks: [
          {
            paragraphs: [
              {
                lines: [
                  line([
                    ['one', 90],
                    ['two', 90],
                    ['three', 90],
                  ]),
                ],
              },
            ],
          },
        ],
      },
      792,
    );
    const garbage = wordsOf(
      {
        confidence: 0,
        blocks: [
          {
            paragraphs: [
              {
                lines: [
                  line([
                    ['Pesy', 20],
                    ['Tb', 30],
                    ['TaTbl', 55],
                    ['Kapra', 60],
                    ['Mmar', 10],
                  ]),
                ],
              },
            ],
          },
        ],
      },
      792,
    );
    expect(isReadable(good)).toBe(true);
    expect(isReadable(garbage)).toBe(false);
    expect(isReadable(wordsOf({ confidence: 0, blocks: null }, 792))).toBe(false);
  });
});

describe('OCR of a scanned PDF made in the test (Node)', () => {
  const pages: ScannedPage[] = [cleanPage(), twoColumnPage(), rotatedPage(), tablePage()];
  const bytes = scannedPdf(pages);
  let doc: ParsedDocument;
  const progress: { page: number; done: number; total: number }[] = [];

  beforeAll(async () => {
    doc = await parseDocument(bytes, {
      fileName: 'scan.pdf',
      ...pdfAssets,
      ocr: { ...ocr, onPage: (p) => progress.push(p) },
    });
  }, OCR_TIMEOUT);

  it('without OCR the same PDF fails as before, with the scanned-PDF message', async () => {
    await expect(parseDocument(bytes, { fileName: 'scan.pdf', ...pdfAssets })).rejects.toMatchObject({
      code: 'pdf_no_text',
      message: expect.stringMatching(/no extractable text \(scanned\?\)/),
    });
    await expect(
      parseDocument(bytes, { fileName: 'scan.pdf', ...pdfAssets, ocr: { ...ocr, enabled: false } }),
    ).rejects.toMatchObject({ code: 'pdf_no_text', message: expect.stringMatching(/scanned\?/) });
  });

  it('reads every page within the CER bound: one column, two columns (left first), rotated, a table', () => {
    const cers = pages.map((p, i) => characterErrorRate(pageText(doc, i + 1), p.truth.join(' ')));
    for (const [i, cer] of cers.entries()) expect(cer, `page ${i + 1}`).toBeLessThanOrEqual(MAX_CER);
    const two = pageText(doc, 2);
    expect(two.indexOf('dries in spring')).toBeLessThan(two.indexOf('Cherry growers'));
    expect(pageText(doc, 4)).toMatch(/\|\s*Lisbon\s*\|\s*545000\s*\|/);
  });

  it('marks each OCR page with its confidence, reports per-page progress and says so in a warning', () => {
    expect(doc.pages!.map((p) => p.page)).toEqual([1, 2, 3, 4]);
    for (const p of doc.pages!) expect(p.ocr?.confidence).toBeGreaterThan(80);
    expect(progress.map((p) => p.done)).toEqual([1, 2, 3, 4]);
    expect(progress.every((p) => p.total === 4)).toBe(true);
    expect(doc.warnings.map((w) => w.code)).toContain('pages_ocr');
    expect(doc.warnings.map((w) => w.code)).not.toContain('ocr_low_confidence');
    expect(doc.title).toBe('Quarterly Report on Harbour Maintenance');
  });

  it('keeps each page’s words with boxes where the scan shows them and their places in the page’s text', () => {
    const fold = (w: string): string =>
      w
        .normalize('NFKC')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]/gu, '');
    for (const p of doc.pages!) {
      const w = p.words!;
      expect(w.boxes).toHaveLength(4 * w.text.length);
      expect(w.spans).toHaveLength(2 * w.text.length);
      const text = doc.text.slice(p.start, p.end);
      const keyed = w.text.map((word, i) => ({ word, i })).filter(({ word }) => fold(word) !== '');
      // Each placed word's span holds that word: nearly every word is placed, and exactly.
      const exact = keyed.filter(({ word, i }) => {
        const s = w.spans[2 * i] as number;
        return s >= 0 && fold(text.slice(s, w.spans[2 * i + 1])) === fold(word);
      });
      expect(exact.length / keyed.length, `page ${p.page}`).toBeGreaterThanOrEqual(0.95);
      // Boxes lie on the page (US Letter as drawn: 612 × 792 points).
      for (let i = 0; i < w.text.length; i++) {
        const [x0, y0, x1, y1] = w.boxes.slice(4 * i, 4 * i + 4) as [number, number, number, number];
        expect(x0 >= 0 && x1 > x0 && x1 <= 612 && y0 >= 0 && y1 > y0 && y1 <= 792, `page ${p.page} word ${i}`).toBe(
          true,
        );
      }
    }
    /** The box of the first word `word` on `page` (1-based). */
    const box = (page: number, word: string): number[] => {
      const w = doc.pages![page - 1]!.words!;
      const i = w.text.indexOf(word);
      expect(i, `${word} on page ${page}`).toBeGreaterThanOrEqual(0);
      return w.boxes.slice(4 * i, 4 * i + 4);
    };
    // Page 1: "forty" is on the fourth body line, drawn from x = 72 pt on the baseline at 189.5 pt.
    const [fx0, fy0, , fy1] = box(1, 'forty') as [number, number, number, number];
    const [rx0, , rx1] = box(1, 'recommend') as [number, number, number, number];
    expect(fy0).toBeLessThan(189.5);
    expect(fy1).toBeGreaterThan(189.5);
    expect(fy1 - fy0).toBeLessThan(16);
    expect(rx0).toBeGreaterThan(72);
    expect(fx0).toBeGreaterThan(rx1);
    expect(Math.abs((box(1, 'The')[0] as number) - 72)).toBeLessThan(4);
    // Page 2: the right column starts at x = 330 pt.
    expect(Math.abs((box(2, 'Cherry')[0] as number) - 330)).toBeLessThan(4);
    // Page 3 is stored sideways: its boxes are where the page is drawn upright (x = 72, baseline 120).
    const [lx0, ly0, , ly1] = box(3, 'library') as [number, number, number, number];
    expect(Math.abs((box(3, 'The')[0] as number) - 72)).toBeLessThan(4);
    expect(lx0).toBeGreaterThan(72);
    expect(ly0 < 120 && ly1 > 120).toBe(true);
  });

  it(
    'cancel stops OCR within a second',
    async () => {
      const controller = new AbortController();
      let abortedAt = 0;
      const run = parseDocument(scannedPdf([cleanPage(), cleanPage(), cleanPage(), cleanPage()]), {
        fileName: 'long.pdf',
        ...pdfAssets,
        signal: controller.signal,
        ocr: {
          ...ocr,
          onPage: () => {
            // Abort while the second page is being recognized.
            setTimeout(() => {
              abortedAt = performance.now();
              controller.abort();
            }, 50);
          },
        },
      });
      await expect(run).rejects.toMatchObject({ code: 'aborted' });
      expect(abortedAt).toBeGreaterThan(0);
      expect(performance.now() - abortedAt).toBeLessThan(1000);
    },
    OCR_TIMEOUT,
  );

  it('a PDF with a text layer parses to the same result with OCR on (OCR never loads)', async () => {
    const textPdf = pdf([[{ text: 'Leave is approved by the line manager.', y: 700 }]], { title: 'Leave' });
    const plain = await parseDocument(textPdf, { fileName: 'leave.pdf', ...pdfAssets });
    const withOcr = await parseDocument(textPdf, {
      fileName: 'leave.pdf',
      ...pdfAssets,
      ocr: { ...ocr, onPage: () => expect.fail('no page needs OCR') },
    });
    expect(withOcr).toEqual(plain);
  });
});

describe('OCR of a poor scan', () => {
  it(
    'keeps the page but flags it: confidence under LOW_CONFIDENCE, an ocr_low_confidence warning',
    async () => {
      const doc = await parseDocument(scannedPdf([noisyPage()]), { fileName: 'poor.pdf', ...pdfAssets, ocr });
      const conf = doc.pages![0]!.ocr!.confidence;
      expect(conf).toBeGreaterThanOrEqual(MIN_PAGE_CONFIDENCE);
      expect(conf).toBeLessThan(LOW_CONFIDENCE);
      expect(doc.warnings.find((w) => w.code === 'ocr_low_confidence')?.message).toMatch(/unsure of page 1\b/);
      expect(doc.text).toMatch(/Harbour/);
    },
    OCR_TIMEOUT,
  );
});

describeShared('OCR of the shared Russian scan', 'testdocs/good/scanned-no-text-layer.pdf', () => {
  it(
    'ends with a plain message: no readable English text',
    async () => {
      const bytes = new Uint8Array(readFileSync(sharedPath('testdocs/good/scanned-no-text-layer.pdf')));
      await expect(parseDocument(bytes, { fileName: 'scan.pdf', ...pdfAssets, ocr })).rejects.toMatchObject({
        code: 'pdf_no_text',
        message: expect.stringMatching(/OCR found no readable English text/),
      });
    },
    OCR_TIMEOUT,
  );
});
