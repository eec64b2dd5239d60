/**
 * Worker of the WebGPU check: loads USE lite exactly as the app's worker does (`loadUseLite`: the
 * self-hosted model folder with checksums, the backends in the order given, one warm-up
 * embedding), embeds the texts at a fixed batch size and reports where it ran and how long it took.
 */
import * as Comlink from 'comlink';
import type { TfBackendName } from '../../../src/models/use/use-embedder';
import type { EmbedderInfo } from '../../../src/worker/api';
import { loadUseLite } from '../../../src/worker/load-use';

export interface BackendRunOptions {
  readonly backends: readonly TfBackendName[];
  readonly texts: readonly string[];
  /** Texts per model call (fixed, so both backends run the same batches). */
  readonly batchSize: number;
}

export interface BackendRun {
  readonly info: EmbedderInfo;
  /** Row-major `texts.length × dim`. */
  readonly vectors: Float32Array;
  readonly loadMs: number;
  readonly embedMs: number;
}

const api = {
  async run(options: BackendRunOptions): Promise<BackendRun> {
    const base = new URL('/', self.location.origin);
    const t0 = performance.now();
    const { embedder, info } = await loadUseLite({
      modelUrl: new URL('models/use-lite/', base),
      wasmUrl: new URL('vendor/tfjs/', base),
      backends: options.backends,
    });
    const loadMs = performance.now() - t0;
    try {
      const t1 = performance.now();
      const vectors = await embedder.embed(options.texts, { batchSize: options.batchSize });
      const embedMs = performance.now() - t1;
      return Comlink.transfer({ info, vectors, loadMs, embedMs }, [vectors.buffer]);
    } finally {
      embedder.dispose();
    }
  },
};

export type WebGpuPageWorkerApi = typeof api;
Comlink.expose(api);
