/**
 * Retrieval metrics that agree with trec_eval (and so with pytrec_eval / BEIR) on the same run.
 *
 * Ordering: trec_eval ignores the rank column of a run and sorts each query's documents by
 * score descending, then by document id descending (strcmp). `trecOrder` does the same, and every
 * metric here is computed on that order, so a run evaluated here and by trec_eval gives the same
 * numbers even when scores tie. (Our retrievers break ties by index order; only the evaluated
 * order follows trec_eval.)
 *
 * Relevance: a judgment with grade ≥ 1 is relevant (trec_eval's default relevance_level 1);
 * grade 0 or negative, or no judgment, is not. nDCG uses the grade as gain.
 *
 * Per query (k = the cutoff):
 * - P@k: relevant in the top k / k (k, not the number retrieved: trec_eval `P_k`).
 * - R@k: relevant in the top k / all relevant (trec_eval `recall_k`).
 * - nDCG@k: Σ_{rank≤k} grade / log2(rank + 1) over the ideal DCG of the judged grades sorted
 *   descending and cut at k (trec_eval `ndcg_cut_k`, linear gain).
 * - MRR@k: 1 / rank of the first relevant document within the top k, else 0 (BEIR's MRR@k;
 *   trec_eval `recip_rank` is the uncut variant).
 * - MAP: mean over all relevant of precision at each relevant document's rank, over the whole
 *   run (trec_eval `map`; unretrieved relevant documents add 0).
 * A query with no relevant judgment scores 0 on every metric (trec_eval does the same).
 *
 * Mean: over the queries of the qrels; a query missing from the run scores 0 (trec_eval `-c`).
 */
import { EvidentError } from '../errors';
import type { Hit } from '../types';

/** qid → (docid → grade). */
export type Qrels = ReadonlyMap<string, ReadonlyMap<string, number>>;
/** qid → that query's hits in any order (evaluation re-sorts them with `trecOrder`). */
export type Run = ReadonlyMap<string, readonly Hit[]>;

export const METRIC_NAMES = ['ndcg@10', 'recall@10', 'recall@100', 'mrr@10', 'map', 'p@10'] as const;
export type MetricName = (typeof METRIC_NAMES)[number];
export type MetricValues = Record<MetricName, number>;

/** trec_eval order: score descending, then document id descending (byte order). */
export function trecOrder(hits: readonly Hit[]): Hit[] {
  return [...hits].sort((a, b) => b.score - a.score || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

function relevantCount(judged: ReadonlyMap<string, number>): number {
  let n = 0;
  for (const g of judged.values()) if (g >= 1) n++;
  return n;
}

function checkK(k: number): void {
  if (!Number.isInteger(k) || k < 1)
    throw new EvidentError('invalid_option', `metrics: k must be an integer ≥ 1, got ${k}.`);
}

/** Precision at k over hits already in evaluation order. */
export function precisionAt(ranked: readonly Hit[], judged: ReadonlyMap<string, number>, k: number): number {
  checkK(k);
  let rel = 0;
  for (let i = 0; i < Math.min(k, ranked.length); i++) if ((judged.get((ranked[i] as Hit).id) ?? 0) >= 1) rel++;
  return rel / k;
}

/** Recall at k over hits already in evaluation order. */
export function recallAt(ranked: readonly Hit[], judged: ReadonlyMap<string, number>, k: number): number {
  checkK(k);
  const total = relevantCount(judged);
  if (total === 0) return 0;
  let rel = 0;
  for (let i = 0; i < Math.min(k, ranked.length); i++) if ((judged.get((ranked[i] as Hit).id) ?? 0) >= 1) rel++;
  return rel / total;
}

/** nDCG at k (linear gain, log2(rank+1) discount) over hits already in evaluation order. */
export function ndcgAt(ranked: readonly Hit[], judged: ReadonlyMap<string, number>, k: number): number {
  checkK(k);
  let dcg = 0;
  for (let i = 0; i < Math.min(k, ranked.length); i++) {
    const g = judged.get((ranked[i] as Hit).id) ?? 0;
    if (g > 0) dcg += g / Math.log2(i + 2);
  }
  const ideal = [...judged.values()].filter((g) => g > 0).sort((a, b) => b - a);
  let idcg = 0;
  for (let i = 0; i < Math.min(k, ideal.length); i++) idcg += (ideal[i] as number) / Math.log2(i + 2);
  return idcg > 0 ? dcg / idcg : 0;
}

/** Reciprocal rank of the first relevant hit within the top k. */
export function mrrAt(ranked: readonly Hit[], judged: ReadonlyMap<string, number>, k: number): number {
  checkK(k);
  for (let i = 0; i < Math.min(k, ranked.length); i++)
    if ((judged.get((ranked[i] as Hit).id) ?? 0) >= 1) return 1 / (i + 1);
  return 0;
}

/** Average precision over the whole ranked list. */
export function averagePrecision(ranked: readonly Hit[], judged: ReadonlyMap<string, number>): number {
  const total = relevantCount(judged);
  if (total === 0) return 0;
  let rel = 0;
  let sum = 0;
  ranked.forEach((h, i) => {
    if ((judged.get(h.id) ?? 0) >= 1) {
      rel++;
      sum += rel / (i + 1);
    }
  });
  return sum / total;
}

/** All standard metrics of one query (hits in any order; sorted the trec_eval way here). */
export function evaluateQuery(hits: readonly Hit[], judged: ReadonlyMap<string, number>): MetricValues {
  const ranked = trecOrder(hits);
  return {
    'ndcg@10': ndcgAt(ranked, judged, 10),
    'recall@10': recallAt(ranked, judged, 10),
    'recall@100': recallAt(ranked, judged, 100),
    'mrr@10': mrrAt(ranked, judged, 10),
    map: averagePrecision(ranked, judged),
    'p@10': precisionAt(ranked, judged, 10),
  };
}

export interface Evaluation {
  readonly mean: MetricValues;
  readonly perQuery: ReadonlyMap<string, MetricValues>;
}

/** Per-query metrics and their mean over the qrels' queries (missing from the run → 0). */
export function evaluateRun(run: Run, qrels: Qrels): Evaluation {
  const perQuery = new Map<string, MetricValues>();
  const sum = Object.fromEntries(METRIC_NAMES.map((m) => [m, 0])) as MetricValues;
  for (const [qid, judged] of qrels) {
    const values = evaluateQuery(run.get(qid) ?? [], judged);
    perQuery.set(qid, values);
    for (const m of METRIC_NAMES) sum[m] += values[m];
  }
  const n = qrels.size;
  const mean = Object.fromEntries(METRIC_NAMES.map((m) => [m, n > 0 ? sum[m] / n : 0])) as MetricValues;
  return { mean, perQuery };
}
