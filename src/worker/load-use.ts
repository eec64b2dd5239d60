/**
 * Loads the default embedder (Universal Sentence Encoder lite) in the worker from the app's own
 * origin: the self-hosted model folder (byte progress + checksums, `model-files.ts`), then the
 * TF.js backend (WASM binaries self-hosted under `vendor/tfjs/`), then one warm-up embedding.
 */
import * as tf from '@tensorflow/tfjs-core';
import { EvidentError } from '../core/errors';
import type { Embedder } from '../models/embedder';
import {
  initTfBackend,
  loadUseEmbedder,
  useShardPaths,
  type TfBackendName,
  type TfBackendReport,
} from '../models/use/use-embedder';
import type { UseVocabulary } from '../models/use/tokenizer';
import { throwIfAborted } from './abort-registry';
import type { BackendInfo, EmbedderInfo, LoadProgress } from './api';
import { fetchModelFiles } from './model-files';

export interface LoadUseOptions {
  /** Folder holding manifest.json, model.json, shards and vocab.json (same origin). */
  readonly modelUrl: URL;
  /** Folder holding the tfjs-backend-wasm `.wasm` files (same origin). */
  readonly wasmUrl: URL;
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: LoadProgress) => void;
  /**
   * Backends to try, in order. WebGPU is listed first so the slot is reported ("not installed")
   * rather than silently skipped; WASM is the working default; CPU is the last resort.
   */
  readonly backends?: readonly TfBackendName[];
  /** WASM threads when cross-origin isolated (default `defaultWasmThreads()`); benchmarks vary it. */
  readonly threads?: number;
}

export async function loadUseLite(options: LoadUseOptions): Promise<{ embedder: Embedder; info: EmbedderInfo }> {
  const { signal, onProgress } = options;
  let totalBytes = 0;
  const fetched = await fetchModelFiles(options.modelUrl, {
    signal,
    onBytes: (loadedBytes, total) => {
      totalBytes = total;
      onProgress?.({ phase: 'download', loadedBytes, totalBytes: total });
    },
    onVerify: () => onProgress?.({ phase: 'verify', loadedBytes: totalBytes, totalBytes }),
  });
  throwIfAborted(signal);

  onProgress?.({ phase: 'init', loadedBytes: totalBytes, totalBytes });
  const t0 = performance.now();
  const decoder = new TextDecoder();
  const file = (path: string): Uint8Array => {
    const data = fetched.files.get(path);
    if (!data) throw new EvidentError('model_load_failed', `The model manifest does not list ${path}.`);
    return data;
  };
  const modelJson = JSON.parse(decoder.decode(file('model.json'))) as tf.io.ModelJSON;
  const vocabulary = JSON.parse(decoder.decode(file('vocab.json'))) as UseVocabulary;
  // Each shard is its own exact-size buffer (model-files preallocates per file).
  const weights = useShardPaths(modelJson).map((p) => file(p).buffer as ArrayBuffer);

  const report = await initTfBackend(options.backends ?? ['webgpu', 'wasm', 'cpu'], {
    wasmPaths: options.wasmUrl.href,
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
  });
  throwIfAborted(signal);
  const embedder = await loadUseEmbedder({ modelJson, weights, vocabulary });
  const initMs = performance.now() - t0;

  // First call compiles kernels and allocates; measured apart so the UI can show it.
  const t1 = performance.now();
  try {
    await embedder.embed(['warm up'], { signal });
  } catch (err) {
    embedder.dispose();
    throw err;
  }
  const warmupMs = performance.now() - t1;
  onProgress?.({ phase: 'ready', loadedBytes: totalBytes, totalBytes });

  return {
    embedder,
    info: {
      id: embedder.id,
      dim: embedder.dim,
      maxTokens: embedder.maxTokens,
      backend: await describeBackend(report),
      bytes: fetched.totalBytes,
      downloadMs: fetched.ms,
      initMs,
      warmupMs,
    },
  };
}

/** The reason starts with the backends skipped, or with "Using" when none was (`models.ts` `modelDevices` reads that). */
async function describeBackend(report: TfBackendReport): Promise<BackendInfo> {
  const isolated = typeof crossOriginIsolated === 'boolean' && crossOriginIsolated;
  const threads = report.threads ?? 1;
  let simd = false;
  if (report.backend === 'wasm') {
    simd = Boolean(
      await tf
        .env()
        .getAsync('WASM_HAS_SIMD_SUPPORT')
        .catch(() => false),
    );
  }
  const skipped = report.attempts
    .filter((a) => !a.ok)
    .map((a) => `${a.backend} unavailable (${a.reason ?? 'failed'})`)
    .join('; ');
  const cores = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency;
  const chosen =
    report.backend === 'wasm'
      ? `WASM${simd ? ' with SIMD' : ''}, ${threads} thread${threads === 1 ? '' : 's'}` +
        (cores ? ` on ${cores} logical core${cores === 1 ? '' : 's'}` : '') +
        (isolated
          ? ' (cross-origin isolated, so the multithreaded build is available)'
          : ' (not cross-origin isolated: single-threaded build only)')
      : report.backend === 'cpu'
        ? 'the plain JavaScript CPU backend (slow)'
        : 'WebGPU';
  return {
    name: report.backend,
    threads,
    simd,
    crossOriginIsolated: isolated,
    reason: skipped ? `${skipped}; using ${chosen}.` : `Using ${chosen}.`,
  };
}
