/**
 * What this realm offers the model runtimes: whether WebGPU is usable (and why not), and how many
 * WASM threads to ask for. Dependency-free, so the worker can report it (Settings → Device)
 * without importing Transformers.js or TF.js; `transformers/device.ts`, `transformers/env.ts`
 * and `use/use-embedder.ts` use the same answers when they start a runtime.
 */

/** Logical cores the runtime reports, or null when it does not say. */
export function logicalCores(): number | null {
  const n = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency;
  return typeof n === 'number' && n > 0 ? n : null;
}

/**
 * WASM threads when cross-origin isolated (SharedArrayBuffer): one core is left to the page, and
 * neither ORT nor XNNPACK gains much past 4 threads on these small models. 1 when not isolated.
 */
export function defaultWasmThreads(isolated = true): number {
  return isolated ? Math.max(1, Math.min(4, (logicalCores() ?? 1) - 1)) : 1;
}

interface GpuLike {
  requestAdapter(): Promise<unknown>;
}

let adapterProbe: Promise<string | null> | null = null;

/**
 * null when `navigator.gpu.requestAdapter()` gives an adapter, else the reason. One probe per
 * realm: it is slow, and its answer does not change while we run.
 */
export function probeWebGpu(): Promise<string | null> {
  adapterProbe ??= (async () => {
    const gpu = (globalThis as { navigator?: { gpu?: GpuLike } }).navigator?.gpu;
    if (!gpu) return 'navigator.gpu is missing (this browser or context does not expose WebGPU)';
    try {
      const adapter = await gpu.requestAdapter();
      if (!adapter) {
        return 'navigator.gpu.requestAdapter() returned no adapter (no usable GPU; headless Chromium needs --enable-unsafe-webgpu)';
      }
      return null;
    } catch (err) {
      return `navigator.gpu.requestAdapter() failed: ${err instanceof Error ? err.message : String(err)}`;
    }
  })();
  return adapterProbe;
}
