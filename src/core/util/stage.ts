/**
 * Plumbing every stage of the answer path shares — selection, verification, answering and the
 * inquiry: the lookup every stage reads (chunks, document metadata, optional vectors), trace
 * helpers that copy instead of mutate, deterministic ordering, option checks, and the small text
 * and vector utilities several stages use. It sits below the stages, so none of them depends on
 * another for it.
 */
import type { Candidate, Chunk, DocumentMeta, TraceEntry } from '../types';
import { EvidentError } from '../errors';

/** What selection may read about candidates. Everything is optional except the maps. */
export interface EvidenceLookup {
  readonly chunks: ReadonlyMap<string, Chunk>;
  readonly documents: ReadonlyMap<string, DocumentMeta>;
  /** Unit-normalised embedding of a chunk id, when the caller has vectors. */
  readonly vectorOf?: (id: string) => Float32Array | undefined;
}

// One helper per name: cancellation lives in abort.ts; the stages import it from here.
export { throwIfAborted, type AbortSignalLike } from './abort';

/** Metadata of a document; documents the lookup does not know are `unknown`, `current`. */
export function metaOf(lookup: EvidenceLookup, docId: string): DocumentMeta {
  return lookup.documents.get(docId) ?? { id: docId, title: docId, sourceType: 'unknown', status: 'current' };
}

/** Text of a candidate's chunk; '' when the id is not a chunk the lookup knows (document-level runs). */
export function textOf(lookup: EvidenceLookup, id: string): string {
  return lookup.chunks.get(id)?.text ?? '';
}

/** A copy of `c` with `entry` appended to its trace and, when given, a new ordering score. */
export function withEntry(
  c: Candidate,
  entry: TraceEntry,
  patch?: Partial<Pick<Candidate, 'score' | 'scores'>>,
): Candidate {
  return { ...c, ...patch, trace: [...c.trace, entry] };
}

/** Total, deterministic order: higher score first, NaN last, then smaller id. */
export function byScoreDesc(a: Candidate, b: Candidate): number {
  const sa = Number.isNaN(a.score) ? -Infinity : a.score;
  const sb = Number.isNaN(b.score) ? -Infinity : b.score;
  if (sa !== sb) return sb - sa;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Throws `invalid_option` unless `value` is a finite number within [min, max]. */
export function checkRange(what: string, name: string, value: number, min: number, max: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new EvidentError(
      'invalid_option',
      `${what}: option "${name}" must be a number in [${min}, ${max}], got ${String(value)}.`,
    );
  }
}

/** Throws `invalid_option` unless `value` is an integer within [min, max]. */
export function checkInt(what: string, name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new EvidentError(
      'invalid_option',
      `${what}: option "${name}" must be an integer in [${min}, ${max}], got ${String(value)}.`,
    );
  }
}

/** Throws `invalid_option` unless `value` is one of `allowed`, naming the allowed set. */
export function checkOneOf<T extends string>(what: string, name: string, value: T, allowed: readonly T[]): void {
  if (!allowed.includes(value)) {
    throw new EvidentError(
      'invalid_option',
      `${what}: option "${name}" must be one of ${allowed.join(', ')}, got "${String(value)}".`,
    );
  }
}

/** Milliseconds from a monotonic clock when the runtime has one (Node, browsers, workers). */
export function clock(): number {
  const perf = (globalThis as { performance?: { now(): number } }).performance;
  return perf ? perf.now() : Date.now();
}

/** Dot product of two vectors of the same length; for unit vectors this is the cosine. */
export function cosine(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let dot = 0;
  for (let i = 0; i < n; i++) dot += (a[i] as number) * (b[i] as number);
  return dot;
}

/** Jaccard similarity of two sets; two empty sets count as disjoint (nothing in common to show). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let inter = 0;
  for (const x of small) if (large.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

/** A word of a text with its original spelling and UTF-16 offsets. */
export interface Token {
  readonly raw: string;
  readonly lower: string;
  readonly start: number;
  readonly end: number;
}

// Numbers keep their decimal and thousands separators (2.5, 1,000); words keep inner apostrophes.
const TOKEN = /\p{N}+(?:[.,]\p{N}+)+|[\p{L}\p{N}]+(?:['’]\p{L}+)*/gu;

/** Word tokens (letters and digits, Unicode-aware); hyphens and other punctuation separate tokens. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const start = m.index;
    out.push({ raw: m[0], lower: m[0].toLowerCase(), start, end: start + m[0].length });
  }
  return out;
}

/** Lowercased word tokens, as `tokenize` cuts them. */
export function words(text: string): string[] {
  return tokenize(text).map((t) => t.lower);
}

/**
 * Text normalised for duplicate detection: Unicode NFKC, lowercase, punctuation removed,
 * whitespace collapsed. Two chunks that differ only in case, spacing or punctuation normalise equal.
 */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** 32-bit FNV-1a over UTF-16 code units (Fowler–Noll–Vo; offset basis 2166136261, prime 16777619). */
export function fnv1a32(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** MurmurHash3's 32-bit finaliser: a cheap bijective mix, used to derive independent hash functions. */
export function fmix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Heading trail as one display line, outermost first. */
export function headingLine(headings: readonly string[]): string {
  return headings.join(' › ');
}

/** Key of the section a chunk belongs to: its document plus its full heading trail. */
export function sectionKey(docId: string, headings: readonly string[]): string {
  return `${docId}\u0000${headings.join('\u0001')}`;
}

/** Min-max normalisation to [0, 1]. Zero spread (one value, or all equal) maps everything to 1: no candidate is worse than another. */
export function minMax(values: readonly number[]): number[] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const spread = hi - lo;
  return values.map((v) => {
    if (!Number.isFinite(v)) return 0;
    return spread > 0 ? (v - lo) / spread : 1;
  });
}
