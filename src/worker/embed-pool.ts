/**
 * Passage embedding on every core the page may use: a pool of embedding workers, each running the
 * same model single-threaded (`embed-worker.ts`), fed a few texts at a time, whichever is free
 * next. USE lite's matrices are small (a call embeds ~2 texts of 128 tokens), so XNNPACK's own
 * threads gain little inside one call (README, Performance), while whole calls side by side scale
 * with the cores. It also takes the embedding off the worker that answers the page: settings,
 * the library list, a parse and search run beside it instead of between its model calls.
 *
 * `EmbedPool` is an `Embedder` with the base model's identity: the vectors are the same model's
 * (same weights, same tokenizer, same truncation). Queries and any call made before the pool's
 * workers are ready run on the base embedder in this thread (a query is one text: ~25 ms).
 * Runtime-neutral: the workers are given as `PoolWorker`s, so Node tests run it on fakes.
 */
import { EvidentError } from '../core/errors';
import type { EmbedOptions, Embedder } from '../models/embedder';
import { throwIfAborted } from './abort-registry';

/** One worker of the pool: embeds texts into a row-major `texts.length × dim` array. */
export interface PoolWorker {
  embed(texts: readonly string[]): Promise<Float32Array>;
  terminate(): void;
}

/**
 * Texts per call to a worker: small, so the pool balances its workers and a cancel (a removed
 * document) waits for at most one call per worker; USE lite gains nothing from larger calls
 * (README: 23.4 / 23.6 / 23.2 inputs/s at batch 1 / 8 / 32 in Chromium).
 */
export const POOL_STEP = 8;

/**
 * Embedding workers for `cores` logical cores: one per core (the worker answering the page
 * mostly waits meanwhile), at most `MAX_EMBED_WORKERS`: each holds its own copy of the model and a
 * WASM heap (~160 MiB with USE lite), and a large machine gains little past it.
 */
export const MAX_EMBED_WORKERS = 8;

/** A call of this many passages starts the workers (the engine embeds 64 at a time; the demo's documents are smaller). */
export const ON_DEMAND_TEXTS = 32;

export function embedWorkerCount(cores: number | null): number {
  return Math.max(1, Math.min(MAX_EMBED_WORKERS, Math.floor(cores ?? 1)));
}

export class EmbedPool implements Embedder {
  readonly id: string;
  readonly dim: number;
  readonly maxTokens: number;
  private workers: readonly PoolWorker[] = [];
  private disposed = false;
  private demanded = false;
  private readonly step: number;

  /**
   * @param base the model in this thread: queries, token counts, and passages until workers attach
   * @param onDemand called once at the first call of `ON_DEMAND_TEXTS` passages or more, with no
   *   workers yet: starts them (a library of a few short documents never pays for the pool)
   */
  constructor(
    private readonly base: Embedder,
    private readonly options: { readonly step?: number; readonly onDemand?: () => void } = {},
  ) {
    const step = options.step ?? POOL_STEP;
    if (!Number.isInteger(step) || step < 1) throw new EvidentError('invalid_option', 'EmbedPool: step must be ≥ 1.');
    this.step = step;
    this.id = base.id;
    this.dim = base.dim;
    this.maxTokens = base.maxTokens;
  }

  /** The workers, once each has loaded the model; until then passages embed on the base embedder. */
  attach(workers: readonly PoolWorker[]): void {
    if (this.disposed) {
      for (const w of workers) w.terminate();
      return;
    }
    for (const w of this.workers) w.terminate();
    this.workers = workers;
  }

  /** Workers embedding passages now (0: the base embedder does, in this thread). */
  get size(): number {
    return this.workers.length;
  }

  countTokens(text: string): number {
    return this.base.countTokens(text);
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array> {
    const workers = this.workers;
    if (options.kind !== 'query' && workers.length === 0 && texts.length >= ON_DEMAND_TEXTS && !this.demanded) {
      this.demanded = true;
      this.options.onDemand?.();
    }
    if (options.kind === 'query' || workers.length === 0 || texts.length === 0) return this.base.embed(texts, options);
    const { signal, onProgress } = options;
    throwIfAborted(signal);
    const out = new Float32Array(texts.length * this.dim);
    let next = 0;
    let done = 0;
    // Each worker takes the next few texts as soon as it is free; a cancel stops handing them out
    // and settles at once (a worker's call in flight finishes on its own, its result unused).
    const cancelled = new Promise<never>((_resolve, reject) => {
      signal?.addEventListener('abort', () => reject(new EvidentError('aborted', 'Embedding was cancelled.')), {
        once: true,
      });
    });
    cancelled.catch(() => {});
    const feed = async (worker: PoolWorker): Promise<void> => {
      while (next < texts.length) {
        throwIfAborted(signal);
        const from = next;
        const to = Math.min(texts.length, from + this.step);
        next = to;
        const vectors = await worker.embed(texts.slice(from, to));
        if (vectors.length !== (to - from) * this.dim) {
          throw new EvidentError(
            'internal',
            `An embedding worker returned ${vectors.length} numbers for ${to - from} texts.`,
          );
        }
        out.set(vectors, from * this.dim);
        done += to - from;
        onProgress?.(done, texts.length);
      }
    };
    await Promise.race([Promise.all(workers.map(feed)), cancelled]);
    throwIfAborted(signal);
    return out;
  }

  dispose(): void {
    this.disposed = true;
    for (const w of this.workers) w.terminate();
    this.workers = [];
    this.base.dispose();
  }
}
