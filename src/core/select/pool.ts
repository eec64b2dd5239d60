/**
 * Stage 1 — the candidate pool. Source-aware reranking retrieves a pool about three times the
 * final evidence count before reweighting, so that the source priors have room to reorder it
 * ("retrieve a 3k pool before reweighting", ARCHITECTURE.md, priors row). Everything past the
 * pool is dropped here, with its rank in the reason.
 */
import type { Candidate } from '../types';
import { assertKnownOptions } from '../errors';
import { byScoreDesc, checkInt, withEntry } from './common';

export interface PoolOptions {
  /** Most evidence items selection may return; the pool is `max(minPool, factor × maxEvidence)`. */
  readonly maxEvidence: number;
  /** Pool multiplier: 3 × k (source-aware reranking, "3k pool"). */
  readonly factor: number;
  /** Floor on the pool size so small k still leaves room to rerank (cascade: 20–40 reranked, RAG guide). */
  readonly minPool: number;
}

export const DEFAULT_POOL_OPTIONS: PoolOptions = Object.freeze({
  // Cascade "selection (5–12 under a token budget)" (RAG guide): 12 is its upper end.
  maxEvidence: 12,
  factor: 3,
  minPool: 50,
});

export interface PoolResult {
  /** The pool, best first (score desc, then id). */
  readonly pool: readonly Candidate[];
  /** Candidates past the pool size, or repeated ids, each with a 'pool' entry kept=false. */
  readonly dropped: readonly Candidate[];
  readonly size: number;
}

/** Pool size for a given evidence count: max(minPool, factor × maxEvidence). */
export function poolSize(options: Partial<PoolOptions> = {}): number {
  const o = { ...DEFAULT_POOL_OPTIONS, ...options };
  return Math.max(o.minPool, o.factor * o.maxEvidence);
}

/**
 * Orders candidates by their fused score and keeps the first `poolSize` distinct ids.
 * A repeated id keeps its best-scored copy; the others are dropped with a reason.
 */
export function poolCandidates(candidates: readonly Candidate[], options: Partial<PoolOptions> = {}): PoolResult {
  assertKnownOptions(options, DEFAULT_POOL_OPTIONS, 'pool');
  const o: PoolOptions = { ...DEFAULT_POOL_OPTIONS, ...options };
  checkInt('pool', 'maxEvidence', o.maxEvidence, 1, 1000);
  checkInt('pool', 'factor', o.factor, 1, 100);
  checkInt('pool', 'minPool', o.minPool, 1, 100_000);
  const size = poolSize(o);

  const sorted = [...candidates].sort(byScoreDesc);
  const seen = new Set<string>();
  const pool: Candidate[] = [];
  const dropped: Candidate[] = [];
  sorted.forEach((c, i) => {
    const detail = { rank: i + 1, poolSize: size };
    if (seen.has(c.id)) {
      dropped.push(
        withEntry(c, {
          stage: 'pool',
          score: c.score,
          kept: false,
          reason: 'repeated candidate id: a better-scored copy is in the pool',
          detail,
        }),
      );
    } else if (pool.length >= size) {
      seen.add(c.id);
      dropped.push(
        withEntry(c, {
          stage: 'pool',
          score: c.score,
          kept: false,
          reason: `outside the pool (rank ${i + 1} > pool size ${size})`,
          detail,
        }),
      );
    } else {
      seen.add(c.id);
      pool.push(withEntry(c, { stage: 'pool', score: c.score, kept: true, detail }));
    }
  });
  return { pool, dropped, size };
}
