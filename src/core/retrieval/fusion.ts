/**
 * Fusion of a lexical (BM25) and a dense ranked list into one candidate list.
 *
 * Modes are a small enum mapped to small functions:
 * - `rrf`: reciprocal rank fusion, Σ 1/(k + rank) with k = 60 (Cormack, Clarke & Büttcher 2009,
 *   "Reciprocal Rank Fusion outperforms Condorcet and individual Rank Learning Methods").
 * - `weighted`: convex combination of min-max normalised scores, w·dense + (1 − w)·bm25; a
 *   document missing from one list gets 0 for that list's normalised score.
 *
 * Inputs are not mutated. Each output candidate carries both raw scores, both ranks (1-based,
 * absent when the list did not return it) and a `fusion` trace entry with the numbers used.
 */
import { assertKnownOptions, EvidentError } from '../errors';
import type { Candidate, Hit } from '../types';

export const FUSION_MODES = ['rrf', 'weighted'] as const;
export type FusionMode = (typeof FUSION_MODES)[number];

/** RRF constant k of Cormack et al. 2009 (also Pyserini's default). */
export const RRF_K = 60;

/**
 * Weight of the dense list in `weighted` fusion: 0.15, chosen on the SciFact TRAIN split
 * (`npx tsx src/cli/tune.ts --grid fusion`, w ∈ {0, 0.05, …, 1}) for the default pipeline's
 * lists: BM25 (k1=1.2, b=0.75, stemmed) with learned query-term weights (./term-weights.ts) and
 * USE lite max-chunk. nDCG@10 0.7275 at w=0.15 vs 0.7186 for the term-weighted BM25 alone
 * (w=0) and 0.5329 for RRF. (Over plain BM25 the best weight is 0.25: `PLAIN_BM25_DENSE_WEIGHT`.)
 * USE lite is a weak retriever on scientific claims
 * (0.304 alone), so it should nudge the lexical ranking, not vote as an equal: RRF gives both
 * lists the same say and loses. Re-tune when the embedder or the lexical side changes.
 */
export const DEFAULT_DENSE_WEIGHT = 0.15;

/**
 * Dense weight for plain BM25 (no query-term weights) + USE lite max-chunk: 0.25, its own
 * SciFact TRAIN optimum (nDCG@10 0.7105; `tune.ts --grid fusion`, rows `bm25=plain`). The eval
 * CLI's and the browser benchmark's `weighted` configuration.
 */
export const PLAIN_BM25_DENSE_WEIGHT = 0.25;

export interface FusionOptions {
  readonly mode: FusionMode;
  /** RRF rank constant. Default `RRF_K` = 60. */
  readonly rrfK: number;
  /** Dense weight w of `weighted` fusion, in [0, 1]. Default `DEFAULT_DENSE_WEIGHT`. */
  readonly denseWeight: number;
  /** Maps a hit id to its document id (identity by default: document-level retrieval). */
  readonly docIdOf: ((id: string) => string) | null;
  /** Keep at most this many fused candidates (Infinity: all). */
  readonly limit: number;
}

export const DEFAULT_FUSION_OPTIONS: Readonly<FusionOptions> = Object.freeze({
  mode: 'rrf',
  rrfK: RRF_K,
  denseWeight: DEFAULT_DENSE_WEIGHT,
  docIdOf: null,
  limit: Infinity,
});

export interface FusionInput {
  readonly bm25: readonly Hit[];
  readonly dense: readonly Hit[];
}

/** One list prepared for fusion: id → rank (1-based), raw score, and min-max normalised score. */
interface Ranked {
  readonly rank: ReadonlyMap<string, number>;
  readonly raw: ReadonlyMap<string, number>;
  readonly norm: ReadonlyMap<string, number>;
}

function prepare(hits: readonly Hit[]): Ranked {
  // NaN / ±Infinity cannot be ranked or normalised: such hits are left out. A repeated id keeps
  // its best entry. The stable sort keeps the retriever's order among equal scores.
  const seen = new Set<string>();
  const clean: Hit[] = [];
  for (const h of [...hits].filter((x) => Number.isFinite(x.score)).sort((a, b) => b.score - a.score)) {
    if (seen.has(h.id)) continue;
    seen.add(h.id);
    clean.push(h);
  }
  const rank = new Map<string, number>();
  const raw = new Map<string, number>();
  const norm = new Map<string, number>();
  let min = Infinity;
  let max = -Infinity;
  for (const h of clean) {
    min = Math.min(min, h.score);
    max = Math.max(max, h.score);
  }
  const spread = max - min;
  clean.forEach((h, i) => {
    rank.set(h.id, i + 1);
    raw.set(h.id, h.score);
    // Zero spread (one hit, or all scores equal): every hit is as good as the list's best, so
    // each gets 1. Dividing would give NaN, and 0 would rank them like documents the list missed.
    norm.set(h.id, spread > 0 ? (h.score - min) / spread : 1);
  });
  return { rank, raw, norm };
}

type Fuser = (id: string, bm25: Ranked, dense: Ranked, o: Readonly<FusionOptions>) => number;

function rrf(id: string, bm25: Ranked, dense: Ranked, o: Readonly<FusionOptions>): number {
  const rb = bm25.rank.get(id);
  const rd = dense.rank.get(id);
  return (rb === undefined ? 0 : 1 / (o.rrfK + rb)) + (rd === undefined ? 0 : 1 / (o.rrfK + rd));
}

function weighted(id: string, bm25: Ranked, dense: Ranked, o: Readonly<FusionOptions>): number {
  return o.denseWeight * (dense.norm.get(id) ?? 0) + (1 - o.denseWeight) * (bm25.norm.get(id) ?? 0);
}

const FUSERS: Readonly<Record<FusionMode, Fuser>> = Object.freeze({ rrf, weighted });

function mergeOptions(options: Partial<FusionOptions>): Readonly<FusionOptions> {
  assertKnownOptions(options, DEFAULT_FUSION_OPTIONS, 'fusion');
  const o = { ...DEFAULT_FUSION_OPTIONS, ...options };
  if (!FUSION_MODES.includes(o.mode)) {
    throw new EvidentError(
      'invalid_option',
      `fusion: mode must be one of ${FUSION_MODES.join(', ')}, got "${String(o.mode)}".`,
    );
  }
  if (!(o.rrfK >= 0) || !Number.isFinite(o.rrfK))
    throw new EvidentError('invalid_option', `fusion: rrfK must be ≥ 0, got ${o.rrfK}.`);
  if (!(o.denseWeight >= 0 && o.denseWeight <= 1)) {
    throw new EvidentError('invalid_option', `fusion: denseWeight must be in [0, 1], got ${o.denseWeight}.`);
  }
  if (!(o.limit >= 0)) throw new EvidentError('invalid_option', `fusion: limit must be ≥ 0, got ${o.limit}.`);
  return o;
}

/**
 * Fuses the two lists (each best-first or not: they are ranked by score here) into candidates
 * ordered by fused score; ties go to the better best rank, then the smaller id.
 */
export function fuse(input: FusionInput, options: Partial<FusionOptions> = {}): Candidate[] {
  const o = mergeOptions(options);
  const bm25 = prepare(input.bm25);
  const dense = prepare(input.dense);
  const fuser = FUSERS[o.mode];
  const docIdOf = o.docIdOf ?? ((id: string) => id);
  const ids = new Set([...bm25.rank.keys(), ...dense.rank.keys()]);
  const scored = [...ids].map((id) => ({ id, fused: fuser(id, bm25, dense, o) }));
  const bestRank = (id: string): number => Math.min(bm25.rank.get(id) ?? Infinity, dense.rank.get(id) ?? Infinity);
  scored.sort(
    (a, b) => b.fused - a.fused || bestRank(a.id) - bestRank(b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const kept = Number.isFinite(o.limit) ? scored.slice(0, o.limit) : scored;
  return kept.map(({ id, fused }) => {
    const rb = bm25.rank.get(id);
    const rd = dense.rank.get(id);
    const sb = bm25.raw.get(id);
    const sd = dense.raw.get(id);
    const detail: Record<string, number | string | null> = {
      mode: o.mode,
      bm25Rank: rb ?? null,
      denseRank: rd ?? null,
    };
    if (o.mode === 'rrf') detail.k = o.rrfK;
    else {
      detail.denseWeight = o.denseWeight;
      detail.bm25Norm = bm25.norm.get(id) ?? 0;
      detail.denseNorm = dense.norm.get(id) ?? 0;
    }
    return {
      id,
      docId: docIdOf(id),
      score: fused,
      scores: { ...(sb === undefined ? {} : { bm25: sb }), ...(sd === undefined ? {} : { dense: sd }), fused },
      ranks: { ...(rb === undefined ? {} : { bm25: rb }), ...(rd === undefined ? {} : { dense: rd }) },
      trace: [{ stage: 'fusion', score: fused, kept: true, detail }],
    };
  });
}
