/**
 * Learned query-term weights for BM25: each analyzed query term gets a weight
 *
 *   w(t) = qtf(t) · exp(θ · φ(t))
 *
 * that multiplies its BM25 contribution (`Bm25Index.searchWeighted`), where φ(t) describes the
 * term, not the documents, so the weighting is query-side only and leaves the index untouched:
 *
 * - `titleShare`: of the units that contain t, the share that contain it in their title field
 *   (a term that titles use is what a text is *about*; "increase", "risk", "associated" are not);
 * - `digit`: 1 when t holds a digit (claims hinge on numbers, doses, gene names such as "p53");
 * - `length`: t's length in code points / 10 (a long stem is a specific one);
 * - `repeat`: qtf(t) − 1 (plain BM25 counts a repeated term in full; the fit damps it).
 *
 * θ was fitted on the SciFact TRAIN split only (`npx tsx src/cli/tune.ts --grid terms`): a
 * listwise softmax loss over the top 200 BM25 ∪ top 100 dense candidates of each of the 809
 * claims (`fitTermWeights` in ./term-weights-fit.ts). The idea is DeepCT's (Dai & Callan 2020,
 * "Context-Aware Term Weighting For First Stage Passage Retrieval") with four hand-made features
 * instead of a contextual model: query-side term weighting that BM25 then uses as query term
 * frequencies.
 */
import { assertKnownOptions, EvidentError } from '../errors';
import { BM25_FIELDS, type Bm25Hit, type Bm25Index, type Bm25SearchOptions } from '../lexical/bm25';

export const TERM_FEATURES = ['titleShare', 'digit', 'length', 'repeat'] as const;
export type TermFeature = (typeof TERM_FEATURES)[number];
export type TermCoefficients = Readonly<Record<TermFeature, number>>;

/**
 * θ fitted on SciFact TRAIN by `npx tsx src/cli/tune.ts --grid terms` (all 809 claims; rounded to
 * 3 decimals). BM25 alone: nDCG@10 0.6994 → 0.7186 in-sample, 0.7179 5-fold cross-validated;
 * the five folds' coefficients agree within ±0.14. Positive: the feature raises a term's weight.
 */
export const DEFAULT_TERM_COEFFICIENTS: TermCoefficients = Object.freeze({
  titleShare: 0.686,
  digit: 0.549,
  length: 0.483,
  repeat: -0.379,
});

/** Neutral coefficients: w(t) = qtf(t), i.e. plain BM25. */
export const PLAIN_TERM_COEFFICIENTS: TermCoefficients = Object.freeze({
  titleShare: 0,
  digit: 0,
  length: 0,
  repeat: 0,
});

/** Per-term corpus statistics the features read (from the lexical index). */
export interface TermStats {
  /** Units (documents or chunks) containing the term in any field. */
  df(term: string): number;
  /** Units containing the term in their title field. */
  titleDf(term: string): number;
}

export interface QueryTerm {
  readonly term: string;
  /** Occurrences in the analyzed query. */
  readonly qtf: number;
  readonly features: Readonly<Record<TermFeature, number>>;
  readonly weight: number;
}

const DIGIT = /\p{Nd}/u;

/** φ(t) for one analyzed term. */
export function termFeatures(term: string, qtf: number, stats: TermStats): Readonly<Record<TermFeature, number>> {
  const df = stats.df(term);
  const titleDf = stats.titleDf(term);
  return {
    titleShare: df > 0 ? Math.min(1, Math.max(0, titleDf / df)) : 0,
    digit: DIGIT.test(term) ? 1 : 0,
    length: [...term].length / 10,
    repeat: qtf - 1,
  };
}

function checkCoefficients(c: Partial<TermCoefficients>): TermCoefficients {
  assertKnownOptions(c, DEFAULT_TERM_COEFFICIENTS, 'term weights');
  const merged = { ...DEFAULT_TERM_COEFFICIENTS, ...c };
  for (const f of TERM_FEATURES) {
    if (!Number.isFinite(merged[f]))
      throw new EvidentError('invalid_option', `term weights: ${f} must be a finite number, got ${String(merged[f])}.`);
  }
  return merged;
}

/**
 * Weighs analyzed query terms (repeats allowed, first occurrence keeps the order). Returns one
 * entry per distinct term with its features and weight; `toWeightedQuery` turns them into the
 * map `Bm25Index.searchWeighted` reads.
 */
export function weighQueryTerms(
  terms: readonly string[],
  stats: TermStats,
  coefficients: Partial<TermCoefficients> = {},
): QueryTerm[] {
  const theta = checkCoefficients(coefficients);
  const qtf = new Map<string, number>();
  for (const t of terms) qtf.set(t, (qtf.get(t) ?? 0) + 1);
  return [...qtf].map(([term, n]) => {
    const features = termFeatures(term, n, stats);
    let z = 0;
    for (const f of TERM_FEATURES) z += theta[f] * features[f];
    return { term, qtf: n, features, weight: n * Math.exp(z) };
  });
}

/** term → weight, for `Bm25Index.searchWeighted`. */
export function toWeightedQuery(terms: readonly QueryTerm[]): Map<string, number> {
  return new Map(terms.map((t) => [t.term, t.weight]));
}

/** Title document frequencies per postings (shared by every `withParams` view of an index). */
const titleDfCache = new WeakMap<Uint16Array, ReadonlyMap<string, number>>();

/**
 * Title document frequency of every term that occurs in a title field: one pass over the
 * postings (O(postings)), memoised per index. Only title terms are kept, so the map is small.
 */
function titleDocumentFrequencies(index: Bm25Index): ReadonlyMap<string, number> {
  const { terms, offsets, tfs } = index.serialize();
  let map = titleDfCache.get(tfs);
  if (map) return map;
  const out = new Map<string, number>();
  const stride = BM25_FIELDS.length;
  const title = BM25_FIELDS.indexOf('title');
  for (let t = 0; t < terms.length; t++) {
    let n = 0;
    const end = offsets[t + 1] as number;
    for (let i = offsets[t] as number; i < end; i++) if ((tfs[i * stride + title] as number) > 0) n++;
    if (n > 0) out.set(terms[t] as string, n);
  }
  map = out;
  titleDfCache.set(tfs, map);
  return map;
}

/** The statistics `weighQueryTerms` reads, from a BM25 index (title df computed once per index). */
export function bm25TermStats(index: Bm25Index): TermStats {
  const titleDf = titleDocumentFrequencies(index);
  return { df: (term) => index.df(term), titleDf: (term) => titleDf.get(term) ?? 0 };
}

/** How `searchWithTermWeights` weighs: the index's statistics (computed when absent) and θ (the fitted default when absent). */
export interface TermWeighting {
  readonly stats?: TermStats;
  readonly coefficients?: Partial<TermCoefficients>;
}

/**
 * The app's lexical retrieval: analysed query terms weighed by the learned term weights, searched
 * with BM25. The engine, the RGB harness, the evaluation and the benchmarks call this one
 * function, so what is fitted and measured scores candidates as the app does.
 */
export function searchWithTermWeights(
  index: Bm25Index,
  terms: readonly string[],
  options: Partial<Bm25SearchOptions> = {},
  weighting: TermWeighting = {},
): Bm25Hit[] {
  return index.searchWeighted(weightedQuery(index, terms, weighting), options);
}

/** The weighted query `searchWithTermWeights` scores (for searches that reuse it, such as inside sections). */
export function weightedQuery(
  index: Bm25Index,
  terms: readonly string[],
  weighting: TermWeighting = {},
): Map<string, number> {
  const stats = weighting.stats ?? bm25TermStats(index);
  return toWeightedQuery(weighQueryTerms(terms, stats, weighting.coefficients));
}
