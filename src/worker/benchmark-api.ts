/**
 * The benchmark part of the worker RPC surface (`EvidentWorkerApi` extends it): a retrieval
 * evaluation on a BEIR-format dataset the user loads, run in the worker on a separate in-memory
 * index (the library is never touched). Types only, runtime-neutral, so the UI (DOM) and the
 * worker (WebWorker) tsconfigs both compile it. Implemented by `benchmark.ts`.
 */
import type { MetricValues } from '../core/eval/metrics';
import type { CallOptions, ProgressCallback, Result } from './api';

/** Retrieval configurations the browser benchmark runs, named as in `npm run eval -- --config`. */
export const BENCHMARK_CONFIGS = ['bm25', 'bm25-nostem', 'dense', 'weighted', 'rrf'] as const;
export type BenchmarkConfigName = (typeof BENCHMARK_CONFIGS)[number];

/** A file of the dataset: its name (for messages) and its bytes. */
export interface BenchmarkFile {
  readonly name: string;
  readonly blob: Blob;
}

/** The files of one BEIR dataset and split, as the page picked them out of the user's choice. */
export interface BenchmarkDatasetInput {
  /** Shown in the results, e.g. the folder name `scifact`. */
  readonly name: string;
  /** The qrels file's split, e.g. `test`. */
  readonly split: string;
  /** `corpus.jsonl`: one `{"_id", "title", "text"}` per line. */
  readonly corpus: BenchmarkFile;
  /** `queries.jsonl` and/or `queries-<split>.jsonl` (read in this order; a later file wins on a repeated id). */
  readonly queries: readonly BenchmarkFile[];
  /** `qrels/<split>.tsv`: `query-id corpus-id score` (header optional). */
  readonly qrels: BenchmarkFile;
}

export interface BenchmarkOptions extends CallOptions {
  readonly configs: readonly BenchmarkConfigName[];
  /** Hits kept per query and per list (default 1000, as `npm run eval`). */
  readonly depth?: number;
}

export interface BenchmarkProgress {
  /** read the files → build BM25 → embed the corpus and queries → search every query → score. */
  readonly stage: 'read' | 'index' | 'embed' | 'search' | 'evaluate';
  /** The configuration being run (null while reading). */
  readonly config: BenchmarkConfigName | null;
  readonly done: number;
  readonly total: number;
}

export interface BenchmarkConfigResult {
  readonly name: BenchmarkConfigName;
  readonly description: string;
  /** Means over the split's queries (`evaluateRun`, trec_eval conventions). */
  readonly metrics: MetricValues;
  /** nDCG@10 per query, highest first (the chart's curve). */
  readonly ndcgByQuery: readonly number[];
  readonly ms: number;
}

export interface BenchmarkResult {
  readonly dataset: {
    readonly name: string;
    readonly split: string;
    readonly documents: number;
    readonly queries: number;
    readonly judgments: number;
  };
  readonly depth: number;
  /** The embedder the dense configurations used, or null when none ran. */
  readonly embedderId: string | null;
  readonly configs: readonly BenchmarkConfigResult[];
  /** Problems in the files that did not stop the run (judged documents missing from the corpus, …). */
  readonly warnings: readonly string[];
}

export interface BenchmarkApi {
  /**
   * Evaluates the configurations on the dataset: BM25 and dense runs on their own in-memory
   * indexes (dense uses the loaded embedder), scored against the qrels. Bad files reject with
   * `invalid_input` / `dataset_missing` and a message that names the file and the line.
   */
  runBenchmark(
    dataset: BenchmarkDatasetInput,
    options: BenchmarkOptions,
    onProgress?: ProgressCallback<BenchmarkProgress>,
  ): Promise<Result<BenchmarkResult>>;
}
