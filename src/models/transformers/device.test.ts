import { describe, expect, it } from 'vitest';
import { EvidentError } from '../../core/errors';
import { BROWSER_DEVICE_ORDER, chooseDevice, defaultDeviceOrder, probeDevice, type Device } from './device';
import { configureRuntime, isNodeRuntime, validateBrowserOptions } from './env';

/** A probe with fixed answers: null = available, string = why not. */
function probeOf(answers: Partial<Record<Device, string | null>>) {
  const asked: Device[] = [];
  return {
    asked,
    probe: async (d: Device) => {
      asked.push(d);
      return answers[d] === undefined ? `not configured: ${d}` : (answers[d] as string | null);
    },
  };
}

describe('chooseDevice', () => {
  it('takes the first available device and reports no fallback', async () => {
    const { probe, asked } = probeOf({ webgpu: null, wasm: null });
    expect(await chooseDevice(['webgpu', 'wasm'], probe)).toEqual({
      device: 'webgpu',
      fallbackReason: null,
      attempts: [{ device: 'webgpu', ok: true }],
    });
    // Later devices are not probed once one works.
    expect(asked).toEqual(['webgpu']);
  });

  it('falls back in order and explains each skipped device', async () => {
    const { probe } = probeOf({ webgpu: 'navigator.gpu.requestAdapter() returned no adapter', wasm: null });
    const choice = await chooseDevice(BROWSER_DEVICE_ORDER, probe);
    expect(choice.device).toBe('wasm');
    expect(choice.fallbackReason).toBe('webgpu: navigator.gpu.requestAdapter() returned no adapter');
  });

  it('throws naming the allowed set for an unknown device, before probing', async () => {
    const { probe, asked } = probeOf({});
    const err = await chooseDevice(['webgpu', 'cuda'], probe).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EvidentError);
    expect(err).toMatchObject({
      code: 'invalid_option',
      message: 'Unknown device "cuda". Allowed: webgpu, wasm, cpu.',
    });
    expect(asked).toEqual([]);
    await expect(chooseDevice([], probe)).rejects.toMatchObject({ code: 'invalid_option' });
  });

  it('fails with every reason when no device is available', async () => {
    const { probe } = probeOf({ webgpu: 'no adapter', wasm: 'no WebAssembly' });
    await expect(chooseDevice(['webgpu', 'wasm'], probe)).rejects.toMatchObject({
      code: 'model_load_failed',
      message: expect.stringContaining('webgpu: no adapter; wasm: no WebAssembly'),
    });
  });

  it('in Node: cpu by default, and the browser devices say why they are not used', async () => {
    expect(isNodeRuntime()).toBe(true);
    expect(defaultDeviceOrder()).toEqual(['cpu']);
    expect(await probeDevice('cpu')).toBeNull();
    expect(await probeDevice('wasm')).toMatch(/browser runtime/);
    expect(await probeDevice('webgpu')).toMatch(/not used in Node/);
    expect((await chooseDevice()).device).toBe('cpu');
  });
});

describe('configureRuntime', () => {
  it('requires a non-empty model path and reports the Node setup', () => {
    expect(() => configureRuntime({ localModelPath: '', allowRemote: false })).toThrow(/non-empty path/);
    const report = configureRuntime({ localModelPath: '/tmp/models/', allowRemote: false });
    expect(report).toMatchObject({ runtime: 'node', numThreads: null, cache: 'none', allowRemote: false });
  });
});

describe('validateBrowserOptions', () => {
  const origin = 'https://evident.example';
  const wasmPaths = { mjs: '/vendor/ort/ort.mjs', wasm: '/vendor/ort/ort.wasm' };

  it('accepts a path and self-hosted runtime files', () => {
    expect(() =>
      validateBrowserOptions({ localModelPath: '/models/', allowRemote: false, wasmPaths }, origin),
    ).not.toThrow();
    expect(() =>
      validateBrowserOptions(
        {
          localModelPath: '/app/models/',
          allowRemote: false,
          wasmPaths: { mjs: `${origin}/a.mjs`, wasm: `${origin}/a.wasm` },
        },
        origin,
      ),
    ).not.toThrow();
  });

  it('rejects a full URL as the model path, and a path without slashes', () => {
    expect(() =>
      validateBrowserOptions({ localModelPath: `${origin}/models/`, allowRemote: false, wasmPaths }, origin),
    ).toThrow(/must be a path such as "\/models\/", not a full URL/);
    expect(() => validateBrowserOptions({ localModelPath: 'models', allowRemote: false, wasmPaths }, origin)).toThrow(
      /start and end with "\/"/,
    );
  });

  it('rejects missing or CDN-hosted onnxruntime-web files', () => {
    expect(() => validateBrowserOptions({ localModelPath: '/models/', allowRemote: false }, origin)).toThrow(
      /wasmPaths is required/,
    );
    const cdn = 'https://cdn.jsdelivr.net/npm/onnxruntime-web/dist/ort-wasm-simd-threaded.asyncify.wasm';
    expect(() =>
      validateBrowserOptions(
        { localModelPath: '/models/', allowRemote: false, wasmPaths: { ...wasmPaths, wasm: cdn } },
        origin,
      ),
    ).toThrow(/wasmPaths.wasm must be served by this app/);
  });
});
