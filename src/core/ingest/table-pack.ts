/**
 * Packing the rows of one table into chunks, each with its context: the table's title and column
 * header wherever the chunk does not hold them itself (see table.ts).
 *
 * - A chunk holds whole pieces only: the lead (the section heading and the title lines directly
 *   above the table, when nothing else of the section came before them), the header rows (as one
 *   piece when they fit together), and rows. Rows are never cut here; a row that alone exceeds
 *   `maxTokens` never reaches this packer (the chunker splits it like any oversized unit).
 * - What the embedder reads is `context + "\n" + text` (`contextualText`), so that is what must fit:
 *   `countTokens(contextualText(chunk)) <= maxTokens`. Rows are packed greedily while the estimate
 *   stays within `targetTokens`, then the whole is counted and rows are given back until it fits
 *   `maxTokens`; a long context means fewer rows per chunk.
 * - The context is first cut to `contextTokens` (at a word end, else at a character, never inside a
 *   surrogate pair); when even one row does not fit beside it, it is cut further for that chunk —
 *   the context is truncated, never a row.
 */

import { isSpace, type Span } from '../text/sentences';
import type { TableLayout } from './table';

/** A range of the source with its token count (each piece alone is within `max`). */
export interface TablePiece {
  readonly start: number;
  readonly end: number;
  readonly tokens: number;
}

export interface TablePackContext {
  readonly text: string;
  readonly target: number;
  readonly max: number;
  /** Most tokens a context takes before any row is packed beside it. */
  readonly contextTokens: number;
  /** Tokens the tokenizer adds to every string (count of ""). */
  readonly base: number;
  readonly countString: (s: string) => number;
}

export type EmitWithContext = (piece: TablePiece, context: string) => void;

/** Characters of a title or header kept for counting at all (a 4 MB header line is not read whole). */
const MAX_CONTEXT_CHARS = 2_000;

/**
 * Packs `pieces` (the lead, the header and the rows of one table, in order) into chunks and emits
 * each with its context ('' when the chunk holds its title and header itself, or has neither).
 */
export function packTable(
  pieces: readonly TablePiece[],
  layout: TableLayout,
  headerSpan: Span | null,
  ctx: TablePackContext,
  emit: EmitWithContext,
): void {
  const { text, target, max, base, countString } = ctx;
  const capped = new Map<string, { context: string; tokens: number }>();
  const contextOf = (start: number, end: number): { context: string; tokens: number } => {
    const parts: string[] = [];
    const t = layout.titleSpan;
    if (layout.title !== '' && !(t !== null && start <= t.start && end >= t.end)) parts.push(layout.title);
    if (layout.header !== '' && !(headerSpan !== null && start <= headerSpan.start && end >= headerSpan.end))
      parts.push(layout.header);
    const full = parts.join('\n');
    let c = capped.get(full);
    if (c === undefined) {
      const context = truncateTokens(clip(full, MAX_CONTEXT_CHARS), (s) => countString(s) <= ctx.contextTokens);
      c = { context, tokens: context === '' ? 0 : countString(context) };
      capped.set(full, c);
    }
    return c;
  };
  const joined = (context: string, a: number, e: number): string => {
    const body = text.slice((pieces[a] as TablePiece).start, (pieces[e - 1] as TablePiece).end);
    return context === '' ? body : `${context}\n${body}`;
  };
  const n = pieces.length;
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++)
    prefix[i + 1] = (prefix[i] as number) + Math.max(0, (pieces[i] as TablePiece).tokens - base);
  const estimate = (a: number, e: number): number => {
    const c = contextOf((pieces[a] as TablePiece).start, (pieces[e - 1] as TablePiece).end);
    return base + (c.tokens > 0 ? c.tokens - base : 0) + (prefix[e] as number) - (prefix[a] as number);
  };

  let next = 0;
  while (next < n) {
    const a = next;
    let e = a + 1;
    while (e < n && estimate(a, e + 1) <= target) e++;
    let context = contextOf((pieces[a] as TablePiece).start, (pieces[e - 1] as TablePiece).end).context;
    while (e > a + 1 && countString(joined(context, a, e)) > max) {
      e--;
      context = contextOf((pieces[a] as TablePiece).start, (pieces[e - 1] as TablePiece).end).context;
    }
    if (countString(joined(context, a, e)) > max) {
      const body = joined('', a, e);
      context = truncateTokens(context, (s) => countString(`${s}\n${body}`) <= max);
    }
    const first = pieces[a] as TablePiece;
    const last = pieces[e - 1] as TablePiece;
    const tokens = e - a === 1 ? first.tokens : countString(text.slice(first.start, last.end));
    emit({ start: first.start, end: last.end, tokens }, context);
    next = e;
  }
}

/** At most `chars` UTF-16 units of `s`, never ending inside a surrogate pair. */
function clip(s: string, chars: number): string {
  if (s.length <= chars) return s;
  const high = s.charCodeAt(chars - 1);
  return s.slice(0, high >= 0xd800 && high <= 0xdbff ? chars - 1 : chars);
}

/**
 * The longest prefix of `s` that `fits`, ending at a word end when any word end fits, else at a
 * character (not inside a surrogate pair); '' when nothing fits. `fits` is assumed monotone.
 */
export function truncateTokens(s: string, fits: (s: string) => boolean): string {
  if (s === '' || fits(s)) return s;
  const ends: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (!isSpace(s.charCodeAt(i)) && (i + 1 === s.length || isSpace(s.charCodeAt(i + 1)))) ends.push(i + 1);
  }
  const best = largest(ends.length, (k) => fits(s.slice(0, ends[k] as number)));
  if (best >= 0) return s.slice(0, ends[best] as number);
  const firstEnd = ends[0] ?? s.length;
  const cut = largest(firstEnd, (k) => {
    const len = snapLength(s, k + 1);
    return len > 0 && fits(s.slice(0, len));
  });
  return cut >= 0 ? s.slice(0, snapLength(s, cut + 1)) : '';
}

/** Largest k in [0, n) with ok(k), assuming ok is true then false; -1 when ok(0) is false. */
function largest(n: number, ok: (k: number) => boolean): number {
  let lo = -1;
  let hi = n;
  while (hi - lo > 1) {
    const mid = lo + ((hi - lo) >> 1);
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

function snapLength(s: string, len: number): number {
  const high = s.charCodeAt(len - 1);
  const low = s.charCodeAt(len);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff ? len - 1 : len;
}
