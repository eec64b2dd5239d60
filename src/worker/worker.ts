/// <reference lib="webworker" />
/**
 * The Web Worker: owns the embedder and the in-memory library, and exposes `EvidentWorkerApi`
 * over Comlink. Every method returns a `Result` (errors are values); long methods register
 * their `callId` with the abort registry before their first await (see `api.ts`).
 */
import * as Comlink from 'comlink';
import { EvidentError } from '../core/errors';
import { AbortRegistry } from './abort-registry';
import type { CallOptions, EmbedderInfo, EvidentWorkerApi, LoadProgress, ProgressCallback, Result } from './api';
import { Engine } from './engine';
import { loadUseLite } from './load-use';
import { throttle } from './model-files';
import { asResult } from './result';

declare const self: DedicatedWorkerGlobalScope;

const registry = new AbortRegistry();
const engine = new Engine();
let embedderInfo: EmbedderInfo | null = null;
let loading: Promise<EmbedderInfo> | null = null;

/** Progress events at most every 100 ms (plus the final one): postMessage per stream chunk floods the UI. */
const PROGRESS_INTERVAL_MS = 100;

/** Model and runtime files are served by this app under its base path, from its own origin. */
function assetUrl(path: string): URL {
  return new URL(`${import.meta.env.BASE_URL}${path}`, self.location.origin);
}

/**
 * Runs one long call: registers its abort id synchronously, converts errors to values, and
 * releases the caller's proxied progress callback when done.
 */
async function run<T, P>(
  options: CallOptions | undefined,
  onProgress: ProgressCallback<P> | undefined,
  fn: (signal: AbortSignal, progress: (p: P) => void) => Promise<T>,
): Promise<Result<T>> {
  let call: ReturnType<AbortRegistry['begin']>;
  try {
    call = registry.begin(options?.callId);
  } catch (err) {
    releaseCallback(onProgress);
    return asResult(() => Promise.reject(err));
  }
  const progress = (p: P): void => {
    // Fire and forget: a progress message must never make the work wait for the UI.
    if (onProgress) void Promise.resolve(onProgress(p)).catch(() => {});
  };
  try {
    return await asResult(() => fn(call.signal, progress));
  } finally {
    call.done();
    releaseCallback(onProgress);
  }
}

function releaseCallback(cb: unknown): void {
  // A Comlink callback proxy holds a MessagePort; release it so both ends can be collected.
  const release = (cb as { [Comlink.releaseProxy]?: () => void } | undefined)?.[Comlink.releaseProxy];
  if (typeof release === 'function') void Promise.resolve(release.call(cb)).catch(() => {});
}

async function loadEmbedder(signal: AbortSignal, progress: (p: LoadProgress) => void): Promise<EmbedderInfo> {
  if (embedderInfo) {
    progress({ phase: 'ready', loadedBytes: embedderInfo.bytes, totalBytes: embedderInfo.bytes });
    return embedderInfo;
  }
  // A second caller while loading shares the first load (and its cancellation).
  loading ??= (async () => {
    const throttled = throttle(PROGRESS_INTERVAL_MS, progress);
    const { embedder, info } = await loadUseLite({
      modelUrl: assetUrl('models/use-lite/'),
      wasmUrl: assetUrl('vendor/tfjs/'),
      signal,
      onProgress: (p) => throttled(p.phase !== 'download' || p.loadedBytes === p.totalBytes, p),
    });
    engine.setEmbedder(embedder);
    embedderInfo = info;
    return info;
  })().finally(() => {
    loading = null;
  });
  return loading;
}

const api: EvidentWorkerApi = {
  ping: (nonce) => nonce,

  status: () => ({
    embedder: embedderInfo,
    documents: engine.documents(),
    chunks: engine.chunkCount,
    crossOriginIsolated: self.crossOriginIsolated,
  }),

  loadEmbedder: (options, onProgress) => run(options, onProgress, loadEmbedder),

  addDocument: (input, options, onProgress) =>
    run(options, onProgress, (signal, progress) => {
      const throttled = throttle(PROGRESS_INTERVAL_MS, progress);
      return engine.addDocument(input, {
        signal,
        onProgress: (p) => throttled(p.phase !== 'embed' || p.done === p.total, p),
      });
    }),

  search: (query, options) =>
    run(options, undefined, (signal) => {
      const { callId: _callId, ...rest } = options ?? {};
      return engine.search(query, { ...rest, signal });
    }),

  embed: async (texts, options) => {
    const result = await run(options, undefined, async (signal) => {
      const embedder = engine.embedder;
      if (!embedder) throw new EvidentError('model_not_found', 'Load the embedding model first.');
      if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) {
        throw new EvidentError('invalid_input', 'embed: expected an array of strings.');
      }
      const vectors = await embedder.embed(texts, { signal });
      // Transfer needs a plain ArrayBuffer the array owns whole (not a view into WASM memory).
      const owned =
        vectors.buffer instanceof ArrayBuffer &&
        vectors.byteOffset === 0 &&
        vectors.byteLength === vectors.buffer.byteLength;
      return owned ? vectors : vectors.slice();
    });
    // Transfer, do not copy: the worker does not keep the array.
    return result.ok ? Comlink.transfer(result, [result.value.buffer as ArrayBuffer]) : result;
  },

  abort: (callId) => registry.abort(callId),
};

Comlink.expose(api);
