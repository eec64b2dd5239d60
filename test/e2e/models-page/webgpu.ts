/**
 * Page of the WebGPU check (test/e2e/webgpu.e2e.test.ts): each run starts a fresh worker (a fresh
 * TF.js runtime, so each backend starts as the app's worker would), embeds the texts it is given,
 * and ends the worker. Rows come back as plain arrays (the test compares them in Node).
 */
import * as Comlink from 'comlink';
import type { BackendRun, BackendRunOptions, WebGpuPageWorkerApi } from './webgpu.worker';

export interface PageBackendRun extends Omit<BackendRun, 'vectors'> {
  readonly rows: number[][];
}

const backends = {
  async run(options: BackendRunOptions): Promise<PageBackendRun> {
    const worker = new Worker(new URL('./webgpu.worker.ts', import.meta.url), { type: 'module' });
    const api = Comlink.wrap<WebGpuPageWorkerApi>(worker);
    try {
      const { vectors, ...run } = await api.run(options);
      const dim = run.info.dim;
      const rows = options.texts.map((_, i) => Array.from(vectors.subarray(i * dim, (i + 1) * dim)));
      return { ...run, rows };
    } finally {
      api[Comlink.releaseProxy]();
      worker.terminate();
    }
  },
};

export type WebGpuPage = typeof backends;
(window as unknown as { backends: WebGpuPage }).backends = backends;
const status = document.getElementById('status');
if (status) {
  status.dataset.state = 'ready';
  status.textContent = 'ready';
}
