/**
 * Where a span of a PDF document's text lies among one page's pdf.js text items: the page view
 * (`src/ui/components/PdfPageDialog.tsx`) highlights a citation with it.
 *
 * The document text is the layout's rewrite of the items (`pdf.ts`): lines in reading order,
 * columns one after the other, page numbers and running heads left out, headings marked `#`,
 * tables written as `| a | b |` rows, ligatures and odd spaces normalized. Offsets into it do not
 * count the items' characters, but the letters and digits are the same ones in both, only
 * possibly in another order (columns, tables). So both sides are reduced to their letters and
 * digits (NFKC, lower case), and the span's key is found in the page's key piece by piece: the
 * longest piece that occurs, preferring the occurrence right after the previous piece (the
 * common case, one piece for a whole paragraph), and a short piece (under `MIN_LOOSE_PIECE`
 * characters: a lone number, an initial) only near the previous one, since such a piece occurs
 * all over a page. Each matched character names its item and its offset in the item's string,
 * and every item gets the range from its first to its last matched character.
 *
 * Pure: no pdf.js, no DOM. Tested on pdf.js's text items of PDFs the tests write.
 */

/** Characters `[start, end)` of the `item`-th text item's string. */
export interface ItemRange {
  readonly item: number;
  readonly start: number;
  readonly end: number;
}

/** A short piece this far (in key characters) after the previous one still counts. */
const NEAR = 400;
/** Pieces shorter than this are accepted only near the previous piece. */
const MIN_LOOSE_PIECE = 4;

const KEY_CHAR = /[\p{L}\p{N}]/u;

export interface Key {
  /** Letters and digits, folded. */
  readonly text: string;
  /** For each character of `text`: its item (−1 for a plain string) and offset in that item's string. */
  readonly item: Int32Array;
  readonly offset: Int32Array;
}

/** The letters and digits of `strings`, folded, each with where it came from. */
export function keyOf(strings: readonly string[]): Key {
  let text = '';
  const items: number[] = [];
  const offsets: number[] = [];
  strings.forEach((s, i) => {
    let at = 0;
    for (const ch of s) {
      const folded = ch.normalize('NFKC').toLowerCase();
      for (const f of folded) {
        if (!KEY_CHAR.test(f)) continue;
        // One key unit per UTF-16 unit, so `indexOf` positions index the maps.
        for (let u = 0; u < f.length; u++) {
          text += f[u];
          items.push(i);
          offsets.push(at);
        }
      }
      at += ch.length;
    }
  });
  return { text, item: Int32Array.from(items), offset: Int32Array.from(offsets) };
}

/** The occurrence of `piece` in `hay` to take: at or after `from` first, else the last one before it. */
function occurrence(hay: string, piece: string, from: number): number {
  const after = hay.indexOf(piece, Math.max(0, from));
  if (after >= 0) return after;
  return from > 0 ? hay.lastIndexOf(piece, from - 1) : -1;
}

/** Length of the longest prefix of `q.slice(at)` that occurs in `hay` (binary search: occurrence is monotone). */
function longestPrefix(hay: string, q: string, at: number): number {
  let lo = 0;
  let hi = q.length - at;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (hay.includes(q.slice(at, at + mid))) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** `length` characters of a query key from `q` on, found in a page key at `hay`. */
export interface KeyPiece {
  readonly q: number;
  readonly hay: number;
  readonly length: number;
}

/**
 * Where the query key `q` lies in the page key `hay`, piece by piece, in the query's order: the
 * longest prefix of the rest that occurs, at its occurrence after the previous piece first; a
 * piece under `MIN_LOOSE_PIECE` only within `NEAR` after the previous one. Characters the page
 * does not have are skipped. With `wordEnds` (1 where a word of the query ends: after its last
 * key character), a piece of more than one word ends at a word's end: the key has no spaces, and
 * a piece that ran on into the next word's first letters would take them from wherever the page
 * has them.
 */
export function matchPieces(q: string, hay: string, wordEnds?: Uint8Array): KeyPiece[] {
  const pieces: KeyPiece[] = [];
  let prevEnd = -1;
  let at = 0;
  while (at < q.length) {
    let length = longestPrefix(hay, q, at);
    if (wordEnds !== undefined && length > 0 && wordEnds[at + length - 1] !== 1) {
      let end = at + length - 1;
      while (end > at && wordEnds[end - 1] !== 1) end--;
      if (end > at) length = end - at;
    }
    if (length === 0) {
      at++; // a character the page does not have (an OCR-free rewrite, a dropped glyph)
      continue;
    }
    const piece = q.slice(at, at + length);
    const pos = occurrence(hay, piece, prevEnd < 0 ? 0 : prevEnd);
    const near = prevEnd < 0 || (pos >= prevEnd && pos - prevEnd <= NEAR);
    if (length >= MIN_LOOSE_PIECE || near || length === q.length) {
      pieces.push({ q: at, hay: pos, length });
      prevEnd = pos + length;
    }
    at += length;
  }
  return pieces;
}

/**
 * The ranges of `items` (a page's text item strings, in pdf.js order) that hold `span` (a part of
 * the document text that lies on this page), by item. Empty when nothing of it is found.
 */
export function locateSpan(span: string, items: readonly string[]): ItemRange[] {
  const q = keyOf([span]).text;
  const page = keyOf(items);
  if (q === '' || page.text === '') return [];
  const matched: number[] = [];
  for (const p of matchPieces(q, page.text)) for (let k = p.hay; k < p.hay + p.length; k++) matched.push(k);
  const ranges = new Map<number, { start: number; end: number }>();
  for (const k of matched) {
    const item = page.item[k] as number;
    const offset = page.offset[k] as number;
    const end = offset + charLength(items[item] as string, offset);
    const r = ranges.get(item);
    if (r === undefined) ranges.set(item, { start: offset, end });
    else {
      r.start = Math.min(r.start, offset);
      r.end = Math.max(r.end, end);
    }
  }
  // Punctuation is no key character: a range takes the marks that touch its words ("level,",
  // "(1,577)", "$5"), except past the span's own ends when the span stops at a letter or digit.
  const trimmed = span.trim();
  const opensWithMark = trimmed !== '' && !KEY_CHAR.test(trimmed[0] as string);
  const closesWithMark = trimmed !== '' && !KEY_CHAR.test(trimmed[trimmed.length - 1] as string);
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  return sorted.map(([item, r], i) => {
    const s = items[item] as string;
    let { start, end } = r;
    if (i > 0 || opensWithMark) while (start > 0 && isMark(s[start - 1] as string)) start--;
    if (i < sorted.length - 1 || closesWithMark) while (end < s.length && isMark(s[end] as string)) end++;
    return { item, start, end };
  });
}

/** A visible character that is neither a letter nor a digit. */
function isMark(ch: string): boolean {
  return !/\s/.test(ch) && !KEY_CHAR.test(ch);
}

/** UTF-16 length of the code point at `offset` of `s`. */
function charLength(s: string, offset: number): number {
  const c = s.codePointAt(offset);
  return c !== undefined && c > 0xffff ? 2 : 1;
}

/** One page's part of a span: the characters of `[start, end)` of the document text on `page`. */
export interface PagePart {
  readonly page: number;
  /** Offsets in the document text. */
  readonly start: number;
  readonly end: number;
}

/**
 * The pages a span `[start, end)` of the document text lies on, with each page's part, in page
 * order: one part for a span inside a page, two (or more) for a span across a page break.
 * Parts holding no letter or digit (the blank lines between pages) are left out by the caller's
 * `text`, when given.
 */
export function pageParts(
  pages: readonly { readonly page: number; readonly start: number; readonly end: number }[],
  start: number,
  end: number,
  text?: (from: number, to: number) => string,
): PagePart[] {
  const out: PagePart[] = [];
  for (const p of pages) {
    const s = Math.max(start, p.start);
    const e = Math.min(end, p.end);
    if (e <= s) continue;
    if (text !== undefined && !KEY_CHAR.test(text(s, e))) continue;
    out.push({ page: p.page, start: s, end: e });
  }
  return out;
}
