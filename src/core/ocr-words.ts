/**
 * The words OCR read on a scanned page, kept with the PDF's original (`OriginalPage.words`) so the
 * page view can mark a cited span on the image: a scan has no text layer for pdf.js to build.
 * Parallel flat arrays, one entry per word in OCR's reading order (compact in IndexedDB and in
 * the export file's JSON header). Runtime-neutral; `src/parse/ocr-words.ts` makes and reads them.
 */

export interface OcrWords {
  /** The words as OCR read them. */
  readonly text: readonly string[];
  /**
   * `x0, y0, x1, y1` of each word (four numbers a word): points from the top-left corner of the
   * page as drawn, its `/Rotate` applied — pdf.js viewport units at scale 1 — and the line's height.
   */
  readonly boxes: readonly number[];
  /**
   * `start, end` of each word (two numbers a word): its letters and digits in the page's text,
   * as offsets from the page range's `start`; `-1, -1` for a word the text does not hold (a
   * running head or page number the layout kept out).
   */
  readonly spans: readonly number[];
}

/** Words one page may hold in a file (a dense A4 page in 6-point type has ~3,000). */
export const MAX_OCR_WORDS = 50_000;
/** Characters of one word in a file. */
const MAX_WORD_CHARS = 500;
/** Coordinates beyond this (points, ~35 m) are no page's. */
const MAX_COORDINATE = 100_000;

/**
 * `x` as `OcrWords` for a page whose text is `pageLength` characters long, or the reason it is not
 * one (for the export file's reader, which trusts nothing). Copies only the three arrays.
 */
export function checkOcrWords(x: unknown, pageLength: number): OcrWords | string {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return 'is not an object';
  const o = x as Record<string, unknown>;
  const { text, boxes, spans } = o;
  if (!Array.isArray(text) || !Array.isArray(boxes) || !Array.isArray(spans))
    return 'needs text, boxes and spans lists';
  const n = text.length;
  if (n > MAX_OCR_WORDS) return `has more than ${MAX_OCR_WORDS} words`;
  if (boxes.length !== 4 * n || spans.length !== 2 * n)
    return `has ${n} words but ${boxes.length} box and ${spans.length} span numbers`;
  for (const w of text) {
    if (typeof w !== 'string' || w === '' || w.length > MAX_WORD_CHARS)
      return 'has a word that is not text of 1–500 characters';
  }
  for (let i = 0; i < n; i++) {
    const [x0, y0, x1, y1] = [boxes[4 * i], boxes[4 * i + 1], boxes[4 * i + 2], boxes[4 * i + 3]];
    const coordinates = [x0, y0, x1, y1];
    if (!coordinates.every((c) => typeof c === 'number' && Number.isFinite(c) && Math.abs(c) <= MAX_COORDINATE)) {
      return `has a box that is not four coordinates (word ${i + 1})`;
    }
    if ((x1 as number) < (x0 as number) || (y1 as number) < (y0 as number))
      return `has an inverted box (word ${i + 1})`;
    const s = spans[2 * i];
    const e = spans[2 * i + 1];
    if (!Number.isInteger(s) || !Number.isInteger(e)) return `has a span that is not two integers (word ${i + 1})`;
    const unplaced = s === -1 && e === -1;
    if (!unplaced && !((s as number) >= 0 && (s as number) < (e as number) && (e as number) <= pageLength)) {
      return `has a span outside its page's text (word ${i + 1})`;
    }
  }
  return { text: [...(text as string[])], boxes: [...(boxes as number[])], spans: [...(spans as number[])] };
}
