/**
 * Hidden text through the parsers: a format parser that finds text a reader cannot see wraps it
 * in sentinels — `hiddenOpen(kind)` before, `HIDDEN_CLOSE` after — inside the text it builds, so
 * the marks travel through the layout and Markdown stages untouched. `extractHidden` then removes
 * them and returns the hidden ranges as offsets into the final text (and page ranges shifted to
 * match). The sentinels are Unicode noncharacters (U+FDD0–U+FDEF), never valid in interchange
 * text; `stripSentinels` removes them from a file's own text before any mark is made, so a
 * document cannot forge or close a mark.
 */
import { HIDDEN_TEXT_KINDS, type HiddenTextKind } from '../core/types';
import type { PageRange, ParseWarning } from './types';

/** Characters [start, end) of `ParsedDocument.text` a reader of the document cannot see. */
export interface HiddenRange {
  readonly start: number;
  readonly end: number;
  readonly kind: HiddenTextKind;
}

const FIRST = 0xfdd0;
export const HIDDEN_CLOSE = '\uFDEF';
const SENTINELS = /[\uFDD0-\uFDEF]/g;
const HAS_SENTINEL = /[\uFDD0-\uFDEF]/;

/** The sentinel that opens a hidden span of `kind`. */
export function hiddenOpen(kind: HiddenTextKind): string {
  return String.fromCharCode(FIRST + HIDDEN_TEXT_KINDS.indexOf(kind));
}

/** `text` with any sentinel character removed (a file's own text, before marks are made). */
export function stripSentinels(text: string): string {
  return HAS_SENTINEL.test(text) ? text.replace(SENTINELS, '') : text;
}

/** `text` with marks removed, its hidden ranges, and offsets of the old text mapped to the new. */
export function extractHidden(text: string): {
  text: string;
  hidden: HiddenRange[];
  map: (offset: number) => number;
} {
  if (!HAS_SENTINEL.test(text)) return { text, hidden: [], map: (o) => o };
  const parts: string[] = [];
  const removedBefore: number[] = []; // old offsets of removed sentinels, ascending
  const hidden: HiddenRange[] = [];
  let depth = 0;
  let kind: HiddenTextKind = 'hidden_markup';
  let openAt = 0;
  let from = 0;
  let outLen = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < FIRST || c > 0xfdef) continue;
    parts.push(text.slice(from, i));
    outLen += i - from;
    from = i + 1;
    removedBefore.push(i);
    if (c === 0xfdef) {
      if (depth === 0) continue; // a close without an open: nothing to end
      depth--;
      if (depth === 0 && outLen > openAt) hidden.push({ start: openAt, end: outLen, kind });
      continue;
    }
    const k = HIDDEN_TEXT_KINDS[c - FIRST];
    if (k === undefined) continue;
    if (depth === 0) {
      kind = k;
      openAt = outLen;
    }
    depth++;
  }
  parts.push(text.slice(from));
  outLen += text.length - from;
  // An open mark never closed (reading stopped early) hides the rest.
  if (depth > 0 && outLen > openAt) hidden.push({ start: openAt, end: outLen, kind });
  const out = parts.join('');
  const map = (offset: number): number => {
    // Offsets minus the sentinels before them (binary search over `removedBefore`).
    let lo = 0;
    let hi = removedBefore.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((removedBefore[mid] as number) < offset) lo = mid + 1;
      else hi = mid;
    }
    return offset - lo;
  };
  return { text: out, hidden: trimRanges(out, hidden), map };
}

/** Ranges without their leading and trailing whitespace; empty ones dropped. */
function trimRanges(text: string, ranges: readonly HiddenRange[]): HiddenRange[] {
  const out: HiddenRange[] = [];
  for (const r of ranges) {
    let s = r.start;
    let e = r.end;
    while (s < e && /\s/.test(text[s] as string)) s++;
    while (e > s && /\s/.test(text[e - 1] as string)) e--;
    if (e > s) out.push({ start: s, end: e, kind: r.kind });
  }
  return out;
}

const KIND_LABEL: Readonly<Record<HiddenTextKind, string>> = {
  hidden_markup: 'hidden by its markup',
  tiny_text: 'in a zero or near-zero font size',
  off_page: 'placed off the page',
  invisible_text: 'drawn invisible',
  white_text: 'white on a white page',
  vanish: "formatted as Word's hidden text",
};

/** The warning for a document with hidden text, naming how it was hidden. */
export function hiddenWarning(hidden: readonly HiddenRange[]): ParseWarning | null {
  if (hidden.length === 0) return null;
  const kinds = [...new Set(hidden.map((h) => h.kind))].map((k) => KIND_LABEL[k]);
  const n = hidden.length;
  return {
    code: 'hidden_text',
    message: `${n} passage${n === 1 ? ' is' : 's are'} hidden from readers (${kinds.join(', ')}). ${n === 1 ? 'It is' : 'They are'} kept and marked "hidden", and never used as evidence for an answer.`,
    count: n,
  };
}

/** Page ranges of the marked text, moved onto the text without marks (an OCR'd page's word spans with them). */
export function mapPages(pages: readonly PageRange[], map: (offset: number) => number): PageRange[] {
  return pages.map((p) => {
    const start = map(p.start);
    const moved = { ...p, start, end: map(p.end) };
    if (p.words === undefined) return moved;
    // Spans count from the page's start: each end moves as the characters before it do.
    const spans: number[] = [];
    const from = p.words.spans;
    for (let i = 0; i + 1 < from.length; i += 2) {
      const s = from[i] as number;
      const e = from[i + 1] as number;
      const ms = s < 0 ? -1 : map(p.start + s) - start;
      const me = e < 0 ? -1 : map(p.start + e) - start;
      // A word whose characters were all marks has no place left.
      spans.push(...(ms >= 0 && me > ms ? [ms, me] : [-1, -1]));
    }
    return { ...moved, words: { ...p.words, spans } };
  });
}
