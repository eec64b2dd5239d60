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
  type TfBackendAttempt,
  type TfBackendName,
  type TfBackendOptions,
  type TfBackendReport,
  type UseArtifacts,
} from '../models/use/use-embedder';
import type { UseVocabulary } from '../models/use/tokenizer';
import { throwIfAborted } from '../core/util/abort';
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
   * Backends to try, in order. WebGPU first: used where an adapter exists and the warm-up runs,
   * else reported with why not (Settings → Device); WASM is the working default; CPU the last resort.
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

  const started = await startOnBackends(
    { modelJson, weights, vocabulary },
    options.backends ?? ['webgpu', 'wasm', 'cpu'],
    {
      wasmPaths: options.wasmUrl.href,
      ...(options.threads !== undefined ? { threads: options.threads } : {}),
    },
    signal,
  );
  const { embedder, report, warmupMs } = started;
  const initMs = performance.now() - t0 - warmupMs;
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

/**
 * The first backend of `preferred` that initialises and embeds a warm-up text: the first call
 * compiles kernels, so a GPU kernel that fails (or gives non-finite numbers) shows there, and the
 * model is then loaded again on the backends after it (WASM). Warm-up time is measured apart.
 */
async function startOnBackends(
  artifacts: UseArtifacts,
  preferred: readonly TfBackendName[],
  backendOptions: TfBackendOptions,
  signal: AbortSignal | undefined,
): Promise<{ embedder: Embedder; report: TfBackendReport; warmupMs: number }> {
  const failed: TfBackendAttempt[] = [];
  for (let rest = [...preferred]; ;) {
    const report = await initTfBackend(rest, backendOptions);
    throwIfAborted(signal);
    const t1 = performance.now();
    let embedder: Embedder | null = null;
    let problem: string | null;
    try {
      embedder = await loadUseEmbedder(artifacts);
      problem = warmUpProblem(await embedder.embed(['warm up'], { signal }));
    } catch (err) {
      if (err instanceof EvidentError && err.code === 'aborted') {
        embedder?.dispose();
        throw err;
      }
      problem = err instanceof Error ? err.message : String(err);
    }
    const warmupMs = performance.now() - t1;
    const attempts = [...failed, ...report.attempts];
    if (problem === null && embedder) return { embedder, report: { ...report, attempts }, warmupMs };
    embedder?.dispose();
    const next = rest.slice(rest.indexOf(report.backend) + 1);
    if (report.backend !== 'webgpu' || next.length === 0) {
      throw new EvidentError('model_load_failed', `The embedding model could not run on ${report.backend}: ${problem}`);
    }
    // The backends refused before it stay as they were; WebGPU's own attempt becomes a failure.
    failed.push(...attempts.slice(0, -1), {
      backend: 'webgpu',
      ok: false,
      reason: `the WebGPU backend started but a kernel failed in the warm-up embedding (${problem})`,
    });
    rest = next;
  }
}

/** null when the warm-up vector is usable: finite and not all zero (a broken kernel gives either). */
function warmUpProblem(vector: Float32Array): string | null {
  if (!vector.every(Number.isFinite)) return 'the output has non-finite values';
  if (vector.every((x) => x === 0)) return 'the output is all zeros';
  return null;
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
        : `WebGPU${gpuAdapterName()}`;
  return {
    name: report.backend,
    threads,
    simd,
    crossOriginIsolated: isolated,
    reason: skipped ? `${skipped}; using ${chosen}.` : `Using ${chosen}.`,
  };
}

/** " on vendor/architecture" of the adapter TF.js's WebGPU backend runs on (SwiftShader is a CPU emulation). */
function gpuAdapterName(): string {
  const backend = tf.backend() as unknown as { adapterInfo?: { vendor?: unknown; architecture?: unknown } };
  const parts = [backend.adapterInfo?.vendor, backend.adapterInfo?.architecture].filter(
    (x): x is string => typeof x === 'string' && x !== '',
  );
  return parts.length > 0 ? ` on ${parts.join('/')}` : '';
}
