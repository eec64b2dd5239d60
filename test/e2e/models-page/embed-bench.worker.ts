/**
 * Worker of the browser embedding benchmark: loads USE lite exactly as the app's worker does
 * (`loadUseLite`: the self-hosted model folder with checksums, the TF.js WASM backend from
 * `vendor/tfjs/`, one warm-up embedding), then measures `embed` throughput at each batch size on
 * ~120-token chunks of the texts it is given (`benchEmbedding`, the Node benchmark's code), and
 * the token-counting rate of the same texts. Timings only.
 */
import * as Comlink from 'comlink';
import * as tf from '@tensorflow/tfjs-core';
import {
  benchEmbedding,
  benchTokenCount,
  chunkByTokens,
  type EmbeddingThroughput,
} from '../../../src/cli/bench-embed-core';
import type { TfBackendName } from '../../../src/models/use/use-embedder';
import type { EmbedderInfo } from '../../../src/worker/api';
import { loadUseLite } from '../../../src/worker/load-use';

export interface EmbedBenchOptions {
  /** WASM threads to ask for (the thread pool exists only when cross-origin isolated). */
  readonly threads?: number;
  /** Raw documents; cut into ~120-token chunks here, with the model's tokenizer. */
  readonly texts: readonly string[];
  readonly batches: readonly number[];
  readonly minSeconds: number;
  readonly rounds: number;
  /** Least inputs per batch size (default 64); the WebGPU row asks for few (SwiftShader takes seconds a text). */
  readonly minInputs?: number;
  /** Load only (the warm-load measurement after a reload). */
  readonly loadOnly?: boolean;
  /**
   * Cores the worker reports to TF.js (`navigator.hardwareConcurrency`). TF.js's threaded WASM
   * gives XNNPACK at most half the logical cores, so on 2 cores it always runs 1 thread; this
   * measures what a second thread would give.
   */
  readonly reportCores?: number;
  /** TF.js backends to try, in order (default WASM only; the WebGPU row passes `['webgpu', 'wasm']`). */
  readonly backends?: readonly TfBackendName[];
}

export interface EmbedBenchRun {
  readonly info: EmbedderInfo;
  readonly loadMs: number;
  readonly chunks: number;
  readonly meanTokens: number;
  readonly throughput: readonly EmbeddingThroughput[];
  /** Token counting (the chunker's calls) on the same chunks, characters per second. */
  readonly countCharsPerSec: number | null;
  /** The WASM backend's linear memory, bytes (model weights, activations), and TF.js's own count. */
  readonly wasmHeapBytes: number | null;
  readonly tfBytes: number;
}

function wasmHeapBytes(): number | null {
  const backend = tf.backend() as unknown as { wasm?: { HEAPU8?: Uint8Array; wasmMemory?: WebAssembly.Memory } };
  const wasm = backend.wasm;
  if (!wasm) return null;
  return wasm.wasmMemory?.buffer.byteLength ?? wasm.HEAPU8?.buffer.byteLength ?? null;
}

let loaded: { dispose(): void } | null = null;

const api = {
  /** Loads and measures; the model stays loaded (the page measures memory) until `release`. */
  async run(options: EmbedBenchOptions): Promise<EmbedBenchRun> {
    const base = new URL('/', self.location.origin);
    if (options.reportCores !== undefined) {
      const cores = options.reportCores;
      Object.defineProperty(Object.getPrototypeOf(navigator), 'hardwareConcurrency', { get: () => cores });
    }
    const t0 = performance.now();
    const { embedder, info } = await loadUseLite({
      modelUrl: new URL('models/use-lite/', base),
      wasmUrl: new URL('vendor/tfjs/', base),
      backends: options.backends ?? ['wasm'],
      ...(options.threads !== undefined ? { threads: options.threads } : {}),
    });
    const loadMs = performance.now() - t0;
    loaded = embedder;
    if (options.loadOnly) {
      return {
        info,
        loadMs,
        chunks: 0,
        meanTokens: 0,
        throughput: [],
        countCharsPerSec: null,
        wasmHeapBytes: wasmHeapBytes(),
        tfBytes: tf.memory().numBytes,
      };
    }
    const chunks = chunkByTokens(embedder, options.texts);
    const meanTokens = chunks.reduce((a, c) => a + embedder.countTokens(c), 0) / Math.max(1, chunks.length);
    const count = benchTokenCount({ count: (t) => embedder.countTokens(t) }, chunks)[0];
    const throughput = await benchEmbedding(embedder, chunks, {
      batches: options.batches,
      minSeconds: options.minSeconds,
      rounds: options.rounds,
      ...(options.minInputs !== undefined ? { minInputs: options.minInputs } : {}),
    });
    return {
      info,
      loadMs,
      chunks: chunks.length,
      meanTokens,
      throughput,
      countCharsPerSec: count?.charsPerSec ?? null,
      wasmHeapBytes: wasmHeapBytes(),
      tfBytes: tf.memory().numBytes,
    };
  },

  release(): void {
    loaded?.dispose();
    loaded = null;
  },
};

export type EmbedBenchApi = typeof api;
Comlink.expose(api);
