/**
 * The page view's layer for a scanned page (`PdfPageView.tsx`): pdf.js has no text layer there,
 * so the words OCR read (`OcrWords`, kept with the original) are laid over the image as
 * positioned, transparent text, the cited ones in the same `mark.pdf-hit` as a text layer's.
 * Positions are percentages of the page, so the layer follows the zoom as the canvas does; the
 * font size follows pdf.js's `--total-scale-factor` on the layer.
 */
import type { OcrWords } from '../core/ocr-words';

/** A word's box widens by this share of its line's height on each side. */
const PAD = 0.15;

/** One word as the layer shows it. */
export interface OcrWordBox {
  /** The word, and a space when the next word is on the same line (copied text reads as words). */
  readonly text: string;
  /** Its box in page units (viewport at scale 1), with a margin: up to the next word when that one is on the same line. */
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
  /** Where the word itself ends (`x1` without the gap to the next word). */
  readonly wordX1: number;
  /** Marked: `word` marks the word, `all` its trailing space too (the next word is marked on the same line). */
  readonly mark: 'none' | 'word' | 'all';
}

/**
 * Word `j` follows word `i` on its line: OCR gives every word its line's top and bottom, and a
 * word space is well under the line's height (a column's gutter is not).
 */
function sameLine(words: OcrWords, i: number, j: number): boolean {
  const b = words.boxes;
  const gap = (b[4 * j] as number) - (b[4 * i + 2] as number);
  const height = (b[4 * i + 3] as number) - (b[4 * i + 1] as number);
  return b[4 * i + 1] === b[4 * j + 1] && b[4 * i + 3] === b[4 * j + 3] && gap >= 0 && gap <= height;
}

/**
 * The words of a page as boxes to draw, `hits` (word indexes) marked, so one line's marks join
 * into one band; in the order of the page's text (OCR reads two columns line by line across, the
 * text has them one after the other), so selected and copied text, and the marks, read as the
 * passage does. A word the text does not hold stays after the word OCR read before it.
 */
export function ocrWordBoxes(words: OcrWords, hits: ReadonlySet<number>): OcrWordBox[] {
  const out: OcrWordBox[] = [];
  const n = words.text.length;
  // Punctuation OCR read as a word of its own ("spring" "."), which has no place in the text,
  // is marked with the marked word it touches, as a text layer's marks take touching punctuation.
  const marked = new Set(hits);
  for (let i = 0; i < n; i++) {
    if (marked.has(i) || (words.spans[2 * i] as number) >= 0 || /[\p{L}\p{N}]/u.test(words.text[i] as string)) continue;
    if ((hits.has(i - 1) && sameLine(words, i - 1, i)) || (hits.has(i + 1) && sameLine(words, i, i + 1))) marked.add(i);
  }
  let key = -1;
  const keys: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = words.spans[2 * i] as number;
    if (s >= 0) key = s;
    keys.push(key);
  }
  const order = [...Array(n).keys()].sort((a, b) => (keys[a] as number) - (keys[b] as number) || a - b);
  for (const i of order) {
    const b = words.boxes;
    const joined = i + 1 < n && sameLine(words, i, i + 1);
    const on = marked.has(i);
    // OCR's boxes hug the ink (a final period's edge falls outside at 144 dpi): a little margin, as
    // a text layer's glyph boxes have; the words of one line share their height, so their margin.
    const pad = PAD * ((b[4 * i + 3] as number) - (b[4 * i + 1] as number));
    const x1 = joined ? (b[4 * (i + 1)] as number) - pad : (b[4 * i + 2] as number) + pad;
    out.push({
      text: joined ? `${words.text[i]} ` : (words.text[i] as string),
      x0: (b[4 * i] as number) - pad,
      y0: b[4 * i + 1] as number,
      x1,
      y1: b[4 * i + 3] as number,
      wordX1: Math.min(x1, (b[4 * i + 2] as number) + pad),
      mark: !on ? 'none' : joined && marked.has(i + 1) ? 'all' : 'word',
    });
  }
  return out;
}

const pct = (v: number, of: number): string => `${((100 * v) / of).toFixed(3)}%`;

/**
 * The layer's elements for `boxes` on a page `width` × `height` (viewport at scale 1): one
 * `span.pdf-ocr-word` a word, its text in a `mark.pdf-hit` when marked.
 */
export function ocrLayerElements(
  doc: Document,
  boxes: readonly OcrWordBox[],
  width: number,
  height: number,
): HTMLElement[] {
  return boxes.map((w) => {
    const el = doc.createElement('span');
    el.className = 'pdf-ocr-word';
    el.style.left = pct(w.x0, width);
    el.style.top = pct(w.y0, height);
    el.style.width = pct(Math.max(0, w.x1 - w.x0), width);
    el.style.height = pct(Math.max(0, w.y1 - w.y0), height);
    // The line box holds ascenders and descenders: text of ~0.8 its height fills it.
    el.style.setProperty('--font-height', `${((w.y1 - w.y0) * 0.8).toFixed(2)}px`);
    if (w.mark === 'none') {
      el.textContent = w.text;
      return el;
    }
    const mark = doc.createElement('mark');
    mark.className = 'pdf-hit';
    const word = w.mark === 'all' ? w.text : w.text.trimEnd();
    mark.textContent = word;
    // The mark is a band over the word (and the gap to the next marked word), not the glyphs' box.
    const markEnd = w.mark === 'all' ? w.x1 : w.wordX1;
    mark.style.width = w.x1 > w.x0 ? pct(markEnd - w.x0, w.x1 - w.x0) : '100%';
    el.append(mark, w.text.slice(word.length));
    return el;
  });
}
