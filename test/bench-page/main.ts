/**
 * The bench page's main thread: starts the bench worker and exposes `window.bench` to the Node
 * driver (`src/cli/bench-browser.ts`): `call` sends one step to the worker and resolves with its
 * answer; `memory` measures the worker's memory with `performance.measureUserAgentSpecificMemory`
 * (the page is cross-origin isolated; Chromium runs with ForceEagerMeasureMemory).
 */

interface MemoryBreakdown {
  readonly bytes: number;
  readonly attribution: readonly { readonly scope: string }[];
}
interface MemoryMeasurement {
  readonly bytes: number;
  readonly breakdown: readonly MemoryBreakdown[];
}

const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
let next = 0;
worker.onmessage = (e: MessageEvent<{ id: number; ok: boolean; value?: unknown; error?: string }>) => {
  const p = pending.get(e.data.id);
  pending.delete(e.data.id);
  if (e.data.ok) p?.resolve(e.data.value);
  else p?.reject(new Error(e.data.error));
};
worker.onerror = (e) => {
  for (const p of pending.values()) p.reject(new Error(`bench worker: ${e.message}`));
  pending.clear();
};

const bench = {
  call(step: Record<string, unknown>): Promise<unknown> {
    const id = next++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...step });
    });
  },
  /** Bytes held by the worker (JS heap incl. ArrayBuffers and WASM memories), in MiB. */
  async memory(): Promise<number> {
    const perf = performance as Performance & { measureUserAgentSpecificMemory?: () => Promise<MemoryMeasurement> };
    if (!perf.measureUserAgentSpecificMemory) return NaN;
    const m = await perf.measureUserAgentSpecificMemory();
    let bytes = 0;
    for (const b of m.breakdown)
      if (b.attribution.some((a) => a.scope === 'DedicatedWorkerGlobalScope')) bytes += b.bytes;
    return bytes / 2 ** 20;
  },
  info(): Record<string, unknown> {
    return { crossOriginIsolated, cores: navigator.hardwareConcurrency, userAgent: navigator.userAgent };
  },
};

(globalThis as unknown as { bench: typeof bench }).bench = bench;
