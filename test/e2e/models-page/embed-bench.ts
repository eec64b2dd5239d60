/**
 * Page of the browser embedding benchmark (`src/cli/bench-embed-browser.ts`): each run starts a
 * fresh worker (a fresh TF.js runtime, so the thread count can differ between runs), runs it,
 * reads the page's memory measurement where the browser offers one, and ends the worker.
 */
import * as Comlink from 'comlink';
import type { EmbedBenchApi, EmbedBenchOptions, EmbedBenchRun } from './embed-bench.worker';

export interface PageRun extends EmbedBenchRun {
  /** `performance.measureUserAgentSpecificMemory()` of the page and its worker (cross-origin isolated only), bytes. */
  readonly measuredBytes: number | null;
  readonly crossOriginIsolated: boolean;
}

async function measured(): Promise<number | null> {
  const p = performance as Performance & { measureUserAgentSpecificMemory?: () => Promise<{ bytes: number }> };
  if (!self.crossOriginIsolated || !p.measureUserAgentSpecificMemory) return null;
  try {
    return (await p.measureUserAgentSpecificMemory()).bytes;
  } catch {
    return null;
  }
}

const bench = {
  async run(options: EmbedBenchOptions): Promise<PageRun> {
    const worker = new Worker(new URL('./embed-bench.worker.ts', import.meta.url), { type: 'module' });
    const api = Comlink.wrap<EmbedBenchApi>(worker);
    try {
      const run = await api.run(options);
      // Measured with the model loaded: the page, the worker, its JS heap, buffers and WASM memory.
      const measuredBytes = await measured();
      await api.release();
      return { ...run, measuredBytes, crossOriginIsolated: self.crossOriginIsolated };
    } finally {
      api[Comlink.releaseProxy]();
      worker.terminate();
    }
  },
};

export type EmbedBenchPage = typeof bench;
(window as unknown as { bench: EmbedBenchPage }).bench = bench;
const status = document.getElementById('status');
if (status) {
  status.dataset.state = 'ready';
  status.textContent = `ready (crossOriginIsolated: ${self.crossOriginIsolated})`;
}
