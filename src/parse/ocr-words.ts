/**
 * A scanned page's OCR'd words and the page's text: where each word lies in the text (made at
 * parse time, `placeWords`), and which words a cited span covers (read by the page view,
 * `wordsInSpan`), so a citation of a scan is marked on the image word by word.
 *
 * The page's text is the layout's rewrite of the words (`pdf.ts`: lines in reading order,
 * columns one after the other, running heads and page numbers left out, `#` and `|` markup), so
 * a word's place is found as the page view finds a span among text items (`pdf-locate.ts`): both
 * sides folded to letters and digits and matched piece by piece. A word's span covers its letters
 * and digits in the text; a word the text does not hold gets none.
 *
 * Pure: no pdf.js, no DOM, no OCR engine.
 */
import type { OcrWords } from '../core/ocr-words';
import { keyOf, matchPieces } from './pdf-locate';

/**
 * `start, end` in `pageText` of each of `words` (two numbers a word, `-1, -1` where the text does
 * not hold it): `OcrWords.spans`. A character of the text belongs to one word at most: where two
 * pieces of the words found the same characters (a running head the layout dropped whose words
 * also occur in the body), the longer piece keeps them.
 */
export function placeWords(pageText: string, words: readonly string[]): number[] {
  const spans = new Array<number>(2 * words.length).fill(-1);
  const q = keyOf(words);
  const hay = keyOf([pageText]);
  if (q.text === '' || hay.text === '') return spans;
  // Each word's characters in the words' key: [first[w], first[w] + length[w]).
  const first = new Int32Array(words.length).fill(-1);
  const length = new Int32Array(words.length);
  for (let k = 0; k < q.text.length; k++) {
    const w = q.item[k] as number;
    if (first[w] === -1) first[w] = k;
    length[w] = (length[w] as number) + 1;
  }
  // Where each key character of the words was found (−1: not), and which word holds each of the page's.
  const at = new Int32Array(q.text.length).fill(-1);
  const owner = new Int32Array(hay.text.length).fill(-1);
  const wordEnds = new Uint8Array(q.text.length);
  for (let w = 0; w < words.length; w++)
    if ((first[w] as number) >= 0) wordEnds[(first[w] as number) + (length[w] as number) - 1] = 1;
  const pieces = matchPieces(q.text, hay.text, wordEnds).sort((a, b) => b.length - a.length || a.q - b.q);
  for (const p of pieces) {
    for (let j = 0; j < p.length; j++) {
      const h = p.hay + j;
      if (owner[h] !== -1) continue;
      owner[h] = q.item[p.q + j] as number;
      at[p.q + j] = h;
    }
  }
  // A piece may run past a word's end into the next word's first letters elsewhere ("valley" +
  // "c" of "cherry" for "valley" + "crops"): a word found in part is completed where the rest of
  // it stands next to the part found, when those characters are free.
  for (let w = 0; w < words.length; w++) {
    const k0 = first[w] as number;
    const n = length[w] as number;
    if (k0 < 0) continue;
    let anchor = -1;
    let missing = false;
    for (let k = k0; k < k0 + n; k++) {
      if ((at[k] as number) < 0) missing = true;
      else if (anchor < 0) anchor = k;
    }
    if (!missing || anchor < 0) continue;
    const h0 = (at[anchor] as number) - (anchor - k0);
    if (h0 < 0 || h0 + n > hay.text.length) continue;
    let fits = true;
    for (let j = 0; j < n && fits; j++) {
      const o = owner[h0 + j] as number;
      fits = hay.text[h0 + j] === q.text[k0 + j] && (o === -1 || (o === w && at[k0 + j] === h0 + j));
    }
    if (!fits) continue;
    for (let j = 0; j < n; j++) {
      owner[h0 + j] = w;
      at[k0 + j] = h0 + j;
    }
  }
  for (let w = 0; w < words.length; w++) {
    const k0 = first[w] as number;
    const n = length[w] as number;
    let found = 0;
    let s = -1;
    let e = -1;
    for (let k = k0; k >= 0 && k < k0 + n; k++) {
      const h = at[k] as number;
      if (h < 0) continue;
      found++;
      const start = hay.offset[h] as number;
      const end = start + ((pageText.codePointAt(start) as number) > 0xffff ? 2 : 1);
      s = s < 0 ? start : Math.min(s, start);
      e = Math.max(e, end);
    }
    // A word placed by less than half its letters, or spread over far more text than it has, was
    // not found whole: no span, rather than one that marks it for a passage it is not in.
    if (found === 0 || found * 2 < n || e - s > 2 * n + 8) continue;
    spans[2 * w] = s;
    spans[2 * w + 1] = e;
  }
  return spans;
}

/** The words (indexes, in order) whose span meets `[from, to)`, offsets in the page's text. */
export function wordsInSpan(words: OcrWords, from: number, to: number): number[] {
  const out: number[] = [];
  if (to <= from) return out;
  for (let i = 0; i < words.text.length; i++) {
    const s = words.spans[2 * i] as number;
    const e = words.spans[2 * i + 1] as number;
    if (s >= 0 && s < to && e > from) out.push(i);
  }
  return out;
}
