/**
 * Metrics for evidence *selection* (a set, not a ranking), as the selection ablation reports them.
 *
 * Document level, per query, against the qrels (grade ≥ 1 is relevant, as in metrics.ts):
 * - precision = |selected ∩ relevant| / |selected|; an empty selection has precision 0 (it
 *   selected nothing useful; counting it as 1 would reward abstaining on every query);
 * - recall = |selected ∩ relevant| / |relevant|; 0 when the query has no relevant document
 *   (trec_eval's convention for unjudged queries, metrics.ts);
 * - F1 = 2PR / (P + R), 0 when P + R = 0.
 * A repeated document id in the selection counts once.
 *
 * Sentence level, per query, against gold rationale sentences (SciFact's `evidence-*.jsonl`):
 * the share of the gold (document, sentence index) pairs that lie inside the packed evidence.
 * Queries without gold sentences have no value (null) and are left out of the mean.
 *
 * Means are per query, then averaged (macro), like the retrieval metrics.
 */

/** Precision, recall and F1 of one selected set. */
export interface SetPrf {
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

/** Document-level P/R/F1 of a selected set of document ids against one query's judgments. */
export function setPrf(selected: Iterable<string>, judged: ReadonlyMap<string, number>): SetPrf {
  const chosen = new Set(selected);
  let relevant = 0;
  for (const g of judged.values()) if (g >= 1) relevant++;
  let hits = 0;
  for (const id of chosen) if ((judged.get(id) ?? 0) >= 1) hits++;
  const precision = chosen.size === 0 ? 0 : hits / chosen.size;
  const recall = relevant === 0 ? 0 : hits / relevant;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/** Document id → sentence indices (into that document's sentence list). */
export type SentenceSets = ReadonlyMap<string, ReadonlySet<number>>;

/**
 * Share of the gold sentences that the packed evidence contains, or null when there are no gold
 * sentences (the query does not count). Both sides are sets, so repeats count once.
 */
export function sentenceRecall(gold: SentenceSets, packed: SentenceSets): number | null {
  let total = 0;
  let found = 0;
  for (const [docId, sentences] of gold) {
    const have = packed.get(docId);
    for (const s of sentences) {
      total++;
      if (have?.has(s)) found++;
    }
  }
  return total === 0 ? null : found / total;
}

/** One query's selection, measured. */
export interface QuerySelectionMetrics extends SetPrf {
  /** Distinct documents selected. */
  readonly docs: number;
  /** Tokens of the packed evidence text. */
  readonly tokens: number;
  /** Sentence-level evidence recall; null when the query has no gold sentences. */
  readonly sentenceRecall: number | null;
}

/** Means over queries; `sentence_recall` over the queries that have gold sentences (0 when none do). */
export interface SelectionMetrics {
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
  readonly docs: number;
  readonly tokens: number;
  readonly sentence_recall: number;
  /** Queries averaged, and how many of them had gold sentences. */
  readonly queries: number;
  readonly evidenceQueries: number;
}

export const SELECTION_METRIC_NAMES = ['precision', 'recall', 'f1', 'docs', 'tokens', 'sentence_recall'] as const;
export type SelectionMetricName = (typeof SELECTION_METRIC_NAMES)[number];

/** Macro means of per-query selection metrics. An empty list gives zeros. */
export function meanSelectionMetrics(perQuery: readonly QuerySelectionMetrics[]): SelectionMetrics {
  const n = perQuery.length;
  const mean = (f: (q: QuerySelectionMetrics) => number): number =>
    n === 0 ? 0 : perQuery.reduce((a, q) => a + f(q), 0) / n;
  const withEvidence = perQuery.filter((q) => q.sentenceRecall !== null);
  const sentence =
    withEvidence.length === 0
      ? 0
      : withEvidence.reduce((a, q) => a + (q.sentenceRecall as number), 0) / withEvidence.length;
  return {
    precision: mean((q) => q.precision),
    recall: mean((q) => q.recall),
    f1: mean((q) => q.f1),
    docs: mean((q) => q.docs),
    tokens: mean((q) => q.tokens),
    sentence_recall: sentence,
    queries: n,
    evidenceQueries: withEvidence.length,
  };
}
