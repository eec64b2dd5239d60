/**
 * Page of the embedding pool benchmark (`src/cli/bench-embed-pool.ts`): starts `workers` of the
 * app's own embedding worker (`src/worker/embed-worker.ts`, USE lite single-threaded, loaded from
 * this origin as the app loads it), puts them behind the app's `EmbedPool`, and times the
 * embedding of the given chunks, as the engine sends them (64 at a time). Fresh workers per run.
 */
import * as Comlink from 'comlink';
import type { Embedder } from '../../../src/models/embedder';
import { EmbedPool } from '../../../src/worker/embed-pool';
import type { EmbedWorkerApi } from '../../../src/worker/embed-worker';

export interface PoolRun {
  readonly workers: number;
  readonly loadMs: number;
  readonly chunks: number;
  readonly ms: number;
  readonly chunksPerSec: number;
  /** The vectors' checksum: every run must give the same vectors, whatever the number of workers. */
  readonly checksum: number;
}

/** The base the pool needs for its identity; passages never reach it once workers are attached. */
function identity(id: string, dim: number): Embedder {
  return {
    id,
    dim,
    maxTokens: 128,
    countTokens: (t) => t.split(/\s+/).length,
    embed: () => Promise.reject(new Error('the benchmark embeds on the workers only')),
    dispose: () => {},
  };
}

const poolBench = {
  async run(options: { workers: number; texts: string[]; batch: number }): Promise<PoolRun> {
    const started = Array.from({ length: options.workers }, (_, i) => {
      const worker = new Worker(new URL('../../../src/worker/embed-worker.ts', import.meta.url), {
        type: 'module',
        name: `bench-embed-${i + 1}`,
      });
      return { worker, remote: Comlink.wrap<EmbedWorkerApi>(worker) };
    });
    try {
      const t0 = performance.now();
      const base = new URL('./', location.href);
      const loaded = await Promise.all(
        started.map((w) => w.remote.load(new URL('models/use-lite/', base).href, new URL('vendor/tfjs/', base).href)),
      );
      const loadMs = performance.now() - t0;
      const { id, dim } = loaded[0]!;
      const pool = new EmbedPool(identity(id, dim));
      pool.attach(
        started.map(({ worker, remote }) => ({
          embed: (texts: readonly string[]) => remote.embed([...texts]),
          terminate: () => worker.terminate(),
        })),
      );
      // A warm-up call on every worker (the first call builds the graph).
      await pool.embed(options.texts.slice(0, 8 * options.workers));
      let checksum = 0;
      const t1 = performance.now();
      for (let from = 0; from < options.texts.length; from += options.batch) {
        const v = await pool.embed(options.texts.slice(from, from + options.batch));
        for (let i = 0; i < v.length; i += 97) checksum += v[i]!;
      }
      const ms = performance.now() - t1;
      return {
        workers: options.workers,
        loadMs,
        chunks: options.texts.length,
        ms,
        chunksPerSec: (options.texts.length * 1000) / ms,
        checksum,
      };
    } finally {
      for (const { worker } of started) worker.terminate();
    }
  },
};

export type PoolBenchPage = typeof poolBench;
(window as unknown as { poolBench: PoolBenchPage }).poolBench = poolBench;
const status = document.getElementById('status');
if (status) {
  status.dataset.state = 'ready';
  status.textContent = `ready (crossOriginIsolated: ${self.crossOriginIsolated}, cores: ${navigator.hardwareConcurrency})`;
}
