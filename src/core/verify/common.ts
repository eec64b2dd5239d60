/**
 * Shared plumbing of the verify checks: the reliability λ of a candidate, and text with key values
 * masked (so two copies of a passage that differ only in a figure or a name still read as copies).
 */
import type { Candidate, DocumentMeta } from '../types';
import type { EvidenceLookup, Token } from '../util/stage';
import { cosine, metaOf, tokenize } from '../util/stage';
import { DEFAULT_SOURCE_LAMBDAS } from '../select/priors';
import { splitSentences, type Span } from '../text/sentences';
import type { KeyValue } from './values';
import { extractValues } from './values';
import { foldToken } from './diff';

/** Verify stage name, as it appears in `TraceEntry.stage`. */
export const VERIFY_STAGE = 'verify';

/** The candidate's λ: the priors stage's value when it ran, else the default table's value for its source type. */
export function lambdaOf(c: Candidate, lookup: EvidenceLookup): number {
  const p = c.scores.prior;
  if (typeof p === 'number' && Number.isFinite(p)) return p;
  return DEFAULT_SOURCE_LAMBDAS[metaOf(lookup, c.docId).sourceType];
}

export function metaFor(c: Candidate, lookup: EvidenceLookup): DocumentMeta {
  return metaOf(lookup, c.docId);
}

/** Placeholder key standing for one key value in masked token keys. */
export const VALUE_SLOT = '\u0000value';

/** A text analysed once: tokens, key values, and comparison keys with each value run collapsed into one slot. */
export interface AnalysedText {
  readonly text: string;
  readonly tokens: readonly Token[];
  readonly values: readonly KeyValue[];
  /** Folded token keys. */
  readonly keys: readonly string[];
  /** Keys with every maximal run of value tokens replaced by one `VALUE_SLOT`. */
  readonly masked: readonly string[];
}

export function analyseText(text: string): AnalysedText {
  const tokens = tokenize(text);
  const values = extractValues(text, tokens);
  const keys = tokens.map(foldToken);
  const masked: string[] = [];
  let inValue = false;
  let vi = 0;
  for (const t of tokens) {
    while (vi < values.length && (values[vi] as KeyValue).end <= t.start) vi++;
    const v = values[vi];
    const covered = v !== undefined && t.start < v.end && t.end > v.start;
    if (covered) {
      if (!inValue) masked.push(VALUE_SLOT);
      inValue = true;
    } else {
      masked.push(foldToken(t));
      inValue = false;
    }
  }
  return { text, tokens, values, keys, masked };
}

// Key lists are compared pairwise (O(n²) in the pool): each list's set is built once.
const keySets = new WeakMap<readonly string[], ReadonlySet<string>>();
function keySet(keys: readonly string[]): ReadonlySet<string> {
  let s = keySets.get(keys);
  if (!s) {
    s = new Set(keys);
    keySets.set(keys, s);
  }
  return s;
}

/** Word-set Jaccard of two key lists, a cheap filter before the diff. */
export function keyJaccard(a: readonly string[], b: readonly string[]): number {
  const sa = keySet(a);
  const sb = keySet(b);
  if (sa.size > sb.size) return keyJaccard(b, a);
  if (sa.size === 0 || sb.size === 0) return 0;
  let inter = 0;
  for (const x of sa) if (sb.has(x)) inter++;
  return inter / (sa.size + sb.size - inter);
}

/** Sorted distinct ids of a key list: its set, for a merge-based intersection. */
function internSorted(keys: readonly string[], ids: Map<string, number>): Int32Array {
  const out = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    let id = ids.get(k);
    if (id === undefined) {
      id = ids.size;
      ids.set(k, id);
    }
    out[i] = id;
  }
  out.sort();
  let n = 0;
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[n - 1]) out[n++] = out[i] as number;
  return out.slice(0, n);
}

/** Jaccard of two sorted distinct id lists; equals `keyJaccard` of the key lists they were interned from. */
export function sortedJaccard(a: Int32Array, b: Int32Array): number {
  if (a.length === 0 || b.length === 0) return 0;
  let inter = 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      inter++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return inter / (a.length + b.length - inter);
}

/**
 * The passages one verify call compares, each read once: lineage and conflicts compare every
 * pair of candidates (O(n²) in the pool), so each text is analysed, its masked keys interned
 * into a sorted id set and its vector fetched once per call, not once per pair. Every value is
 * what the per-pair computation gave (same text, same analysis, same set sizes and intersection).
 * Keyed by candidate id; texts come from `lookup` (pass the redacted one).
 */
export class PassageTable {
  private readonly analysedById = new Map<string, AnalysedText>();
  private readonly maskedIds = new Map<string, Int32Array>();
  private readonly vectors = new Map<string, Float32Array | undefined>();
  private readonly interned = new Map<string, number>();

  constructor(
    readonly lookup: EvidenceLookup,
    /** Texts analysed earlier, by id (used as given). */
    private readonly given?: ReadonlyMap<string, AnalysedText>,
  ) {}

  analysed(id: string): AnalysedText {
    let a = this.analysedById.get(id) ?? this.given?.get(id);
    if (!a) a = analyseText(this.lookup.chunks.get(id)?.text ?? '');
    this.analysedById.set(id, a);
    return a;
  }

  /** `keyJaccard(analysed(a).masked, analysed(b).masked)`. */
  maskedJaccard(a: string, b: string): number {
    const ra = this.row.get(a);
    const rb = this.row.get(b);
    if (ra === undefined || rb === undefined || !this.inter) return sortedJaccard(this.maskedSet(a), this.maskedSet(b));
    const sa = this.maskedSet(a).length;
    const sb = this.maskedSet(b).length;
    if (sa === 0 || sb === 0) return 0;
    const n = this.row.size;
    const inter = ra === rb ? sa : (this.inter[Math.min(ra, rb) * n + Math.max(ra, rb)] as number);
    return inter / (sa + sb - inter);
  }

  /**
   * Counts the shared masked keys of every pair of these passages at once (then `maskedJaccard`
   * reads them): each passage's keys are stamped into a table over the interned vocabulary and
   * every later passage's keys are looked up in it — no per-pair merge.
   */
  preparePairs(ids: readonly string[]): void {
    if (this.inter && ids.every((id) => this.row.has(id))) return;
    const rows = [...new Set([...this.row.keys(), ...ids])];
    const n = rows.length;
    // All key sets in one array: row r's keys are keys[at[r] .. at[r + 1]).
    const at = new Int32Array(n + 1);
    rows.forEach((id, r) => (at[r + 1] = (at[r] as number) + this.maskedSet(id).length));
    const keys = new Int32Array(at[n] as number);
    rows.forEach((id, r) => keys.set(this.maskedSet(id), at[r] as number));
    const inter = new Int32Array(n * n);
    const stamp = new Int32Array(this.interned.size).fill(-1);
    for (let a = 0; a < n; a++) {
      for (let i = at[a] as number, end = at[a + 1] as number; i < end; i++) stamp[keys[i] as number] = a;
      for (let b = a + 1; b < n; b++) {
        let count = 0;
        for (let i = at[b] as number, end = at[b + 1] as number; i < end; i++) {
          if (stamp[keys[i] as number] === a) count++;
        }
        inter[a * n + b] = count;
      }
    }
    this.row.clear();
    rows.forEach((id, r) => this.row.set(id, r));
    this.inter = inter;
  }

  private readonly row = new Map<string, number>();
  private inter: Int32Array | null = null;

  /** Distinct masked keys of a passage. */
  maskedSize(id: string): number {
    return this.maskedSet(id).length;
  }

  /** `lookup.vectorOf(id)`, fetched once. */
  vector(id: string): Float32Array | undefined {
    if (this.vectors.has(id)) return this.vectors.get(id);
    const v = this.lookup.vectorOf?.(id);
    this.vectors.set(id, v);
    return v;
  }

  /**
   * `cosine(vector(a), vector(b))` when it can reach `threshold`, else -Infinity (both vectors
   * present). The dot product is summed in `cosine`'s order, block by block; before each block,
   * Cauchy–Schwarz bounds what the rest can add (the product of the two tails' norms), and the
   * sum stops once even that cannot reach the threshold (a margin of 1e-9 covers rounding, which
   * is ~1e-13 for 512 dimensions). A returned value is exactly `cosine`'s.
   */
  cosineReaching(a: string, b: string, threshold: number): number | undefined {
    const va = this.vector(a);
    const vb = this.vector(b);
    if (!va || !vb) return undefined;
    if (va.length !== vb.length) return cosine(va, vb);
    const ta = this.tails(a, va);
    const tb = this.tails(b, vb);
    const n = va.length;
    const stop = threshold - 1e-9;
    let dot = 0;
    for (let blk = 0, i = 0; i < n; blk++) {
      if (dot + (ta[blk] as number) * (tb[blk] as number) < stop) return -Infinity;
      const end = Math.min(n, i + TAIL_BLOCK);
      for (; i < end; i++) dot += (va[i] as number) * (vb[i] as number);
    }
    return dot;
  }

  private readonly tailNorms = new Map<string, Float64Array>();
  /** Norm of each vector's tail from every block start on. */
  private tails(id: string, v: Float32Array): Float64Array {
    let t = this.tailNorms.get(id);
    if (!t) {
      const blocks = Math.ceil(v.length / TAIL_BLOCK);
      t = new Float64Array(blocks);
      let sum = 0;
      for (let blk = blocks - 1; blk >= 0; blk--) {
        for (let i = Math.min(v.length, (blk + 1) * TAIL_BLOCK) - 1; i >= blk * TAIL_BLOCK; i--) {
          sum += (v[i] as number) * (v[i] as number);
        }
        t[blk] = Math.sqrt(sum);
      }
      this.tailNorms.set(id, t);
    }
    return t;
  }

  private maskedSet(id: string): Int32Array {
    let s = this.maskedIds.get(id);
    if (!s) {
      s = internSorted(this.analysed(id).masked, this.interned);
      this.maskedIds.set(id, s);
    }
    return s;
  }
}

/** Dimensions per block of the bounded cosine (`PassageTable.cosineReaching`). */
const TAIL_BLOCK = 64;

/** Fewest tokens of a sentence unit (shorter fragments are merged, see `sentenceUnits`). */
export const MIN_UNIT_TOKENS = 3;

/**
 * Sentences as the verify and answer stages read them: `splitSentences`, with each run of
 * consecutive fragments shorter than `MIN_UNIT_TOKENS` merged into one unit. Search snippets and
 * scraped pages write labelled fields as one-word "sentences" ("Teams. Netherlands. Runner-up. 11.
 * Goals."); read one by one, the name and its label never meet. A merged run still shorter than
 * the minimum stays a unit of its own (callers skip it).
 */
export function sentenceUnits(text: string): Span[] {
  const out: Span[] = [];
  let run: Span | null = null;
  const flush = (): void => {
    if (run) out.push(run);
    run = null;
  };
  for (const s of splitSentences(text)) {
    if (tokenize(text.slice(s.start, s.end)).length >= MIN_UNIT_TOKENS) {
      flush();
      out.push(s);
      continue;
    }
    run = run ? { start: run.start, end: s.end } : s;
  }
  flush();
  return out;
}
