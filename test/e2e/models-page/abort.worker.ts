/**
 * Worker of the abort check (test/e2e/models.e2e.test.ts): loads USE lite as the app's worker does
 * (`loadUseLite`) and runs `embed` the way the app's worker `embed` call does — an
 * `AbortRegistry` entry per call id, errors as `Result` values — while recording, inside the
 * worker, when the abort arrived and how many inputs were embedded after it.
 */
import * as Comlink from 'comlink';
import type { Embedder } from '../../../src/models/embedder';
import { AbortRegistry } from '../../../src/worker/abort-registry';
import type { EmbedderInfo, Result } from '../../../src/worker/api';
import { loadUseLite } from '../../../src/worker/load-use';
import { asResult } from '../../../src/worker/result';

const registry = new AbortRegistry();
let embedder: Embedder | null = null;

/** What happened to the last call that was aborted, measured in the worker. */
export interface AbortTrace {
  /** Inputs embedded when the abort message was handled. */
  readonly doneAtAbort: number;
  /** Inputs (and model calls) that completed after it. */
  readonly inputsAfterAbort: number;
  readonly batchesAfterAbort: number;
  /** Largest batch of the call (inputs per model call). */
  readonly largestBatch: number;
  /** Abort message handled → call settled, ms. */
  readonly stopMs: number;
}

let live: { done: number; abortAt: number | null; doneAtAbort: number; batchesAfter: number; largest: number } = {
  done: 0,
  abortAt: null,
  doneAtAbort: 0,
  batchesAfter: 0,
  largest: 0,
};
let lastTrace: AbortTrace | null = null;

const api = {
  async load(): Promise<EmbedderInfo> {
    const base = new URL('/', self.location.origin);
    const loaded = await loadUseLite({
      modelUrl: new URL('models/use-lite/', base),
      wasmUrl: new URL('vendor/tfjs/', base),
      backends: ['wasm'],
    });
    embedder = loaded.embedder;
    return loaded.info;
  },

  /** `batchSize` unset: the embedder sizes batches by time, as in the app. */
  async embed(
    texts: readonly string[],
    callId: string,
    onProgress?: (done: number, total: number) => void,
    batchSize?: number,
  ): Promise<Result<Float32Array>> {
    const call = registry.begin(callId);
    live = { done: 0, abortAt: null, doneAtAbort: 0, batchesAfter: 0, largest: 0 };
    const state = live;
    try {
      const result = await asResult(() => {
        if (!embedder) throw new Error('load() first');
        return embedder.embed(texts, {
          signal: call.signal,
          ...(batchSize !== undefined ? { batchSize } : {}),
          onProgress: (done, total) => {
            state.largest = Math.max(state.largest, done - state.done);
            state.done = done;
            if (state.abortAt !== null) state.batchesAfter++;
            if (onProgress) void Promise.resolve(onProgress(done, total)).catch(() => {});
          },
        });
      });
      if (state.abortAt !== null) {
        lastTrace = {
          doneAtAbort: state.doneAtAbort,
          inputsAfterAbort: state.done - state.doneAtAbort,
          batchesAfterAbort: state.batchesAfter,
          largestBatch: state.largest,
          stopMs: performance.now() - state.abortAt,
        };
      }
      return result.ok ? Comlink.transfer(result, [result.value.buffer as ArrayBuffer]) : result;
    } finally {
      call.done();
    }
  },

  abort(callId: string): boolean {
    live.abortAt = performance.now();
    live.doneAtAbort = live.done;
    return registry.abort(callId);
  },

  trace(): AbortTrace | null {
    return lastTrace;
  },
};

export type AbortPageWorkerApi = typeof api;
Comlink.expose(api);
