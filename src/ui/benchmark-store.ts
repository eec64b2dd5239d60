/**
 * The Benchmark page's state: the dataset found among the chosen files, the split and the
 * configurations to run, and one evaluation at a time in the worker (progress, cancel, result).
 * The evaluation has its own indexes in the worker; the library is never touched.
 */
import type { EvidentErrorValue } from '../core/errors';
import {
  BENCHMARK_CONFIGS,
  type BenchmarkConfigName,
  type BenchmarkProgress,
  type BenchmarkResult,
} from '../worker/benchmark-api';
import { datasetInput, findBeirDataset, type ChosenFile, type FoundDataset } from './benchmark-files';
import { Store, toErrorValue } from './store';
import { isAbort, type WorkerClient } from './worker-client';

export type BenchmarkRun =
  | { readonly phase: 'idle' }
  | { readonly phase: 'running'; readonly progress: BenchmarkProgress | null }
  | { readonly phase: 'done'; readonly result: BenchmarkResult; readonly ms: number }
  | { readonly phase: 'cancelled' }
  | { readonly phase: 'error'; readonly error: EvidentErrorValue };

export interface BenchmarkState {
  readonly dataset: FoundDataset | null;
  /** Why the chosen files are not a dataset, in words. */
  readonly pickError: string | null;
  readonly split: string | null;
  readonly configs: readonly BenchmarkConfigName[];
  readonly run: BenchmarkRun;
}

/** bm25 alone, the embedder alone, and the app's fusion of the two. */
export const DEFAULT_BENCHMARK_CONFIGS: readonly BenchmarkConfigName[] = ['bm25', 'dense', 'weighted'];

export class BenchmarkStore extends Store<BenchmarkState> {
  private current: AbortController | null = null;

  constructor(private readonly client: Pick<WorkerClient, 'runBenchmark'>) {
    super({ dataset: null, pickError: null, split: null, configs: DEFAULT_BENCHMARK_CONFIGS, run: { phase: 'idle' } });
  }

  /** Looks for a BEIR dataset among the chosen files (a folder's, or loose ones). */
  choose(files: readonly ChosenFile[]): void {
    if (this.getState().run.phase === 'running') return;
    const found = findBeirDataset(files);
    if (found.ok) {
      const split = [...found.dataset.qrels.keys()][0] ?? null;
      this.set({ dataset: found.dataset, pickError: null, split, run: { phase: 'idle' } });
    } else {
      this.set({ dataset: null, pickError: found.error, split: null, run: { phase: 'idle' } });
    }
  }

  setSplit(split: string): void {
    if (this.getState().dataset?.qrels.has(split)) this.set({ split });
  }

  toggleConfig(name: BenchmarkConfigName, on: boolean): void {
    const chosen = new Set(this.getState().configs);
    if (on) chosen.add(name);
    else chosen.delete(name);
    // Kept in the table's order.
    this.set({ configs: BENCHMARK_CONFIGS.filter((c) => chosen.has(c)) });
  }

  /** Runs the chosen configurations (or `configs`) on the chosen split; resolves when the run ends. */
  async start(configs: readonly BenchmarkConfigName[] = this.getState().configs): Promise<void> {
    const { dataset, split, run } = this.getState();
    if (run.phase === 'running' || !dataset || !split) return;
    const input = datasetInput(dataset, split);
    if (typeof input === 'string') {
      this.set({ run: { phase: 'error', error: { code: 'dataset_missing', message: input } } });
      return;
    }
    const controller = new AbortController();
    this.current = controller;
    this.set({ run: { phase: 'running', progress: null } });
    const t0 = performance.now();
    try {
      const result = await this.client.runBenchmark(input, {
        signal: controller.signal,
        configs,
        onProgress: (progress) => {
          // Progress travels on its own port and may arrive after the result: only a live run shows it.
          if (this.current === controller && this.getState().run.phase === 'running') {
            this.set({ run: { phase: 'running', progress } });
          }
        },
      });
      if (this.current === controller) this.set({ run: { phase: 'done', result, ms: performance.now() - t0 } });
    } catch (err) {
      if (this.current !== controller) return;
      this.set({ run: isAbort(err) ? { phase: 'cancelled' } : { phase: 'error', error: toErrorValue(err) } });
    } finally {
      if (this.current === controller) this.current = null;
    }
  }

  cancel(): void {
    this.current?.abort();
  }
}
