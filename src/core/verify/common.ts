/**
 * Shared plumbing of the verify checks: the reliability λ of a candidate, and text with key values
 * masked (so two copies of a passage that differ only in a figure or a name still read as copies).
 */
import type { Candidate, DocumentMeta } from '../types';
import type { EvidenceLookup, Token } from '../select/common';
import { metaOf, tokenize } from '../select/common';
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
  const values = extractValues(text);
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
