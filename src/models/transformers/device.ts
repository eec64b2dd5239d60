/**
 * Device choice for Transformers.js sessions, as an ordered list that ends in the device that
 * always works: `['webgpu', 'wasm']` in the browser, `['cpu']` in Node (onnxruntime-node). Each
 * device is probed before it is used; the first that is available wins, and every device skipped
 * on the way is reported with its reason, so the UI can say *why* it runs on WASM.
 */
import { EvidentError } from '../../core/errors';
import { probeWebGpu } from '../runtime-probe';
import { isNodeRuntime } from './env';

export const DEVICES = ['webgpu', 'wasm', 'cpu'] as const;
export type Device = (typeof DEVICES)[number];

export const BROWSER_DEVICE_ORDER: readonly Device[] = Object.freeze(['webgpu', 'wasm']);
export const NODE_DEVICE_ORDER: readonly Device[] = Object.freeze(['cpu']);

export interface DeviceAttempt {
  readonly device: Device;
  readonly ok: boolean;
  /** Why the device was skipped (absent when `ok`). */
  readonly reason?: string;
}

export interface DeviceChoice {
  readonly device: Device;
  /** Why earlier devices in the list were not used; null when the first choice was available. */
  readonly fallbackReason: string | null;
  readonly attempts: readonly DeviceAttempt[];
}

/** Returns null when `device` is usable here, else the reason it is not. */
export type DeviceProbe = (device: Device) => Promise<string | null>;

/** The default order for this runtime. */
export function defaultDeviceOrder(): readonly Device[] {
  return isNodeRuntime() ? NODE_DEVICE_ORDER : BROWSER_DEVICE_ORDER;
}

/** Throws `invalid_option` naming the allowed set when a name is not a device. */
export function assertDevices(devices: readonly string[]): asserts devices is readonly Device[] {
  if (devices.length === 0) {
    throw new EvidentError('invalid_option', `devices must list at least one of: ${DEVICES.join(', ')}.`);
  }
  for (const d of devices) {
    if (!(DEVICES as readonly string[]).includes(d)) {
      throw new EvidentError('invalid_option', `Unknown device "${d}". Allowed: ${DEVICES.join(', ')}.`);
    }
  }
}

/** The real probe: WebGPU and WASM are browser devices (onnxruntime-web), CPU is Node's. */
export const probeDevice: DeviceProbe = async (device) => {
  const node = isNodeRuntime();
  switch (device) {
    case 'webgpu':
      return node ? 'WebGPU is not used in Node (onnxruntime-node runs on the CPU here)' : probeWebGpu();
    case 'wasm':
      if (node) return 'WASM is the browser runtime (onnxruntime-web); Node uses cpu';
      return typeof WebAssembly === 'object' ? null : 'WebAssembly is not available';
    case 'cpu':
      return node ? null : 'the cpu device needs onnxruntime-node (Node only); browsers use wasm';
  }
};

/** Summarises skipped devices, e.g. "webgpu: navigator.gpu is missing (…)". */
export function describeFallback(attempts: readonly DeviceAttempt[]): string | null {
  const skipped = attempts.filter((a) => !a.ok);
  return skipped.length === 0 ? null : skipped.map((a) => `${a.device}: ${a.reason ?? 'failed'}`).join('; ');
}

/**
 * Probes `preferred` in order and returns the first available device. Throws `invalid_option`
 * for an unknown name and `model_load_failed` (naming every reason) when none is available.
 */
export async function chooseDevice(
  preferred: readonly string[] = defaultDeviceOrder(),
  probe: DeviceProbe = probeDevice,
): Promise<DeviceChoice> {
  assertDevices(preferred);
  const attempts: DeviceAttempt[] = [];
  for (const device of preferred) {
    const reason = await probe(device);
    if (reason === null) {
      attempts.push({ device, ok: true });
      return { device, fallbackReason: describeFallback(attempts), attempts };
    }
    attempts.push({ device, ok: false, reason });
  }
  throw new EvidentError('model_load_failed', `No device can run the model (${describeFallback(attempts)}).`);
}
