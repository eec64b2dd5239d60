/**
 * Loads one manifest model with Transformers.js: picks the device, aggregates byte-level
 * progress, and turns every failure into an `EvidentError` a user can act on.
 *
 * Where the files come from: the self-hosted `models/<id>/` folder first (Transformers.js'
 * `localModelPath`), then — for `hub` models, and only when the user agreed — the Hugging Face
 * Hub. Without consent a missing file is `model_not_found` with what to do. In the browser every
 * file read is kept in Cache Storage (`env.useBrowserCache`), so a second load makes no request.
 *
 * Failures:
 * - `model_not_found` (404 / not self-hosted without consent), `offline` (the network failed),
 *   `out_of_memory`, `aborted`: reported at once, no retry.
 * - damaged bytes (a JSON or ONNX protobuf parse failure) with files in the cache: the model's
 *   cache entries are evicted and the load retried once; if it still fails, `cache_corrupted`.
 * - anything else on a device (an operator the WebGPU EP lacks, …): the next device in the list is
 *   tried, and the reason recorded as `fallbackReason`.
 */
import { env } from '@huggingface/transformers';
import { EvidentError } from '../../core/errors';
import { throwIfAborted } from '../../core/util/abort';
import type { ModelDtype, ModelSpec } from '../manifest';
import { modelPath } from '../manifest';
import {
  defaultDeviceOrder,
  describeFallback,
  probeDevice,
  assertDevices,
  type Device,
  type DeviceAttempt,
  type DeviceProbe,
} from './device';
import { activeModelCache, remoteHost, runtimeReport, setDownloadSignal, type ModelCache } from './env';
import { installWebSessionGuard } from './ort-guard';

export interface ModelLoadProgress {
  readonly modelId: string;
  /** `download`: bytes arriving (network, cache or disk); `init`: creating sessions; `ready`: done. */
  readonly phase: 'download' | 'init' | 'ready';
  /** The file the last event was about. */
  readonly file?: string;
  readonly loadedBytes: number;
  /** From the manifest's sizes when known, so the bar is right from the first byte. */
  readonly totalBytes: number;
}

export interface LoadOptions {
  /** The user agreed to download from the Hub (only `hub` models use it). Default: the runtime's setting. */
  readonly allowRemote?: boolean;
  /** Devices to try, in order. Default: `['webgpu', 'wasm']` in browsers, `['cpu']` in Node. */
  readonly devices?: readonly string[];
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ModelLoadProgress) => void;
  /** Device availability check (tests inject one); default `probeDevice`. */
  readonly probe?: DeviceProbe;
}

export interface LoadReport {
  readonly id: string;
  readonly device: Device;
  /** Why earlier devices were not used (unavailable, or their session failed); null if none. */
  readonly fallbackReason: string | null;
  readonly attempts: readonly DeviceAttempt[];
  /** Bytes of the model's files as read (network, cache or disk). */
  readonly bytes: number;
  /** Files of this model found in the model cache before loading. */
  readonly cachedFiles: number;
  /** True when a damaged cached copy was evicted and downloaded again. */
  readonly cacheEvicted: boolean;
  readonly ms: number;
}

/** What a role backend needs to create its Transformers.js objects. */
export interface CreateContext {
  /** Model folder relative to `localModelPath` (also the Hub id for `hub` models). */
  readonly modelId: string;
  readonly device: Device;
  readonly dtype: ModelDtype;
  readonly revision: string;
  readonly progress_callback: (info: unknown) => void;
}

export interface Disposable {
  dispose(): void;
}

interface ProgressEvent {
  readonly status?: string;
  readonly file?: string;
  readonly loaded?: number;
  readonly total?: number;
}

/** Per-file byte counts summed into one total (Transformers.js reports per file). */
class ByteProgress {
  private readonly files = new Map<string, { loaded: number; total: number }>();
  constructor(
    private readonly modelId: string,
    private readonly expected: ReadonlyMap<string, number>,
    private readonly emit?: (p: ModelLoadProgress) => void,
  ) {}

  handle = (raw: unknown): void => {
    const info = raw as ProgressEvent;
    if (info.status !== 'progress' || typeof info.file !== 'string') return;
    const total = Math.max(info.total ?? 0, info.loaded ?? 0, this.expected.get(info.file) ?? 0);
    this.files.set(info.file, { loaded: info.loaded ?? 0, total });
    this.emit?.({ modelId: this.modelId, phase: 'download', file: info.file, ...this.totals() });
  };

  /** Finished files count fully even when no byte event came (e.g. a file read from disk). */
  complete(): void {
    for (const [file, bytes] of this.expected) {
      const seen = this.files.get(file);
      if (!seen || seen.loaded < seen.total) this.files.set(file, { loaded: bytes, total: bytes });
    }
  }

  totals(): { loadedBytes: number; totalBytes: number } {
    let loaded = 0;
    let total = 0;
    const names = new Set([...this.expected.keys(), ...this.files.keys()]);
    for (const name of names) {
      const seen = this.files.get(name);
      loaded += seen?.loaded ?? 0;
      total += Math.max(seen?.total ?? 0, this.expected.get(name) ?? 0);
    }
    return { loadedBytes: loaded, totalBytes: total };
  }

  reset(): void {
    this.files.clear();
  }
}

/** Loads `spec` on the first device that works; see the file comment for the failure policy. */
export async function loadTransformersModel<T extends Disposable>(
  spec: ModelSpec,
  options: LoadOptions,
  create: (ctx: CreateContext) => Promise<T>,
): Promise<{ value: T; report: LoadReport }> {
  if (spec.runtime !== 'transformers') {
    throw new EvidentError('invalid_option', `${spec.id} runs on ${spec.runtime}, not Transformers.js.`);
  }
  if (spec.source === 'bundled') {
    throw new EvidentError(
      'invalid_option',
      `${spec.id} is bundled with the app; it is not loaded through Transformers.js.`,
    );
  }
  const runtime = runtimeReport();
  if (!runtime) throw new EvidentError('internal', 'configureRuntime() must run before a model is loaded.');
  const devices = options.devices ?? defaultDeviceOrder();
  assertDevices(devices);
  const probe = options.probe ?? probeDevice;
  const { signal } = options;
  const modelId = modelPath(spec);
  const allowRemote = spec.source === 'hub' && (options.allowRemote ?? runtime.allowRemote);
  const expected = new Map(spec.files.filter((f) => f.bytes !== null).map((f) => [f.path, f.bytes as number]));
  const progress = new ByteProgress(modelId, expected, options.onProgress);
  const t0 = performance.now();
  throwIfAborted(signal, `Loading ${spec.id}`);

  // A failed session must not poison Transformers.js's web session chain (see ort-guard.ts).
  if (runtime.runtime === 'browser') await installWebSessionGuard();
  const cache = await activeModelCache();
  const cachedFiles = cache ? (await cacheKeysFor(cache, spec)).length : 0;
  let cacheEvicted = false;
  const attempts: DeviceAttempt[] = [];

  const previousRemote = env.allowRemoteModels;
  env.allowRemoteModels = allowRemote;
  setDownloadSignal(signal ?? null);
  try {
    for (let i = 0; i < devices.length; i++) {
      const device = devices[i] as Device;
      const unavailable = await probe(device);
      if (unavailable !== null) {
        attempts.push({ device, ok: false, reason: unavailable });
        continue;
      }
      progress.reset();
      let value: T;
      try {
        value = await create({
          modelId,
          device,
          dtype: spec.dtype,
          revision: spec.revision ?? 'main',
          progress_callback: progress.handle,
        });
      } catch (err) {
        throwIfAborted(signal, `Loading ${spec.id}`);
        const kind = classify(err);
        if (kind === 'damaged' && cachedFiles > 0 && !cacheEvicted && cache) {
          // Damaged bytes that came from the cache: evict this model's entries, retry once here.
          await evict(cache, spec);
          cacheEvicted = true;
          i--;
          continue;
        }
        if (kind === 'damaged') throw damagedError(spec, err, cacheEvicted);
        if (kind !== 'device') throw toEvidentError(kind, err, spec, allowRemote);
        attempts.push({ device, ok: false, reason: `session failed: ${message(err)}` });
        continue;
      }
      if (signal?.aborted) {
        value.dispose();
        throwIfAborted(signal, `Loading ${spec.id}`);
      }
      attempts.push({ device, ok: true });
      progress.complete();
      const { loadedBytes } = progress.totals();
      options.onProgress?.({ modelId, phase: 'ready', loadedBytes, totalBytes: loadedBytes });
      return {
        value,
        report: {
          id: spec.id,
          device,
          fallbackReason: describeFallback(attempts),
          attempts,
          bytes: loadedBytes,
          cachedFiles,
          cacheEvicted,
          ms: performance.now() - t0,
        },
      };
    }
  } finally {
    env.allowRemoteModels = previousRemote;
    setDownloadSignal(null);
  }
  throw new EvidentError(
    'model_load_failed',
    `${spec.id} could not be loaded on any device (${describeFallback(attempts) ?? 'none tried'}).`,
  );
}

// ── errors ──────────────────────────────────────────────────────────────────────────────────────

type FailureKind = 'aborted' | 'not_found' | 'offline' | 'out_of_memory' | 'damaged' | 'device';

function message(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'object' && err !== null && 'message' in err) return String(err.message);
  return String(err);
}

/** Sorts a failure by what the user can do about it (messages of Transformers.js and ORT). */
export function classify(err: unknown): FailureKind {
  if (err instanceof EvidentError) {
    if (err.code === 'aborted') return 'aborted';
    if (err.code === 'model_not_found') return 'not_found';
    if (err.code === 'offline') return 'offline';
    if (err.code === 'out_of_memory') return 'out_of_memory';
  }
  const name = err instanceof Error ? err.name : '';
  const text = message(err);
  if (name === 'AbortError') return 'aborted';
  if (
    name === 'ModelFileNotFoundError' ||
    /could not locate file|not found locally|\(404\)|status(?: code)? 404/i.test(text)
  ) {
    return 'not_found';
  }
  if (
    /out of memory|\bOOM\b|bad_alloc|array buffer allocation failed|failed to allocate|cannot allocate|memory access out of bounds|maximum memory size exceeded/i.test(
      text,
    )
  ) {
    return 'out_of_memory';
  }
  if (
    (name === 'TypeError' && /fetch|network|load failed/i.test(text)) ||
    /failed to fetch|networkerror|fetch failed|ENOTFOUND|ECONNREFUSED|ECONNRESET|EAI_AGAIN|ETIMEDOUT|getaddrinfo|internet disconnected/i.test(
      text,
    )
  ) {
    return 'offline';
  }
  if (
    name === 'SyntaxError' ||
    /protobuf parsing failed|unable to get model file path or buffer|is not valid json|unexpected end of (?:json|data|input)|unexpected token|ERROR_CODE: 7\b|INVALID_PROTOBUF/i.test(
      text,
    )
  ) {
    return 'damaged';
  }
  return 'device';
}

function toEvidentError(kind: FailureKind, err: unknown, spec: ModelSpec, allowRemote: boolean): EvidentError {
  const folder = `models/${modelPath(spec)}/`;
  const detail = message(err);
  switch (kind) {
    case 'aborted':
      return new EvidentError('aborted', `Loading ${spec.id} was cancelled.`);
    case 'not_found':
      if (spec.source === 'hub' && !allowRemote) {
        return new EvidentError(
          'model_not_found',
          `${spec.id} is not self-hosted (${folder} is missing or incomplete) and downloading from Hugging Face is off. ` +
            `Allow model downloads in Settings, or run \`npm run models:fetch -- --profile enhanced\` where huggingface.co is reachable and serve the files under ${folder}.`,
        );
      }
      if (spec.source === 'hub') {
        return new EvidentError(
          'model_not_found',
          `${spec.id} was not found on ${remoteHost()} (${detail}). Check the id, revision and dtype in models/manifest.json.`,
        );
      }
      return new EvidentError(
        'model_not_found',
        `${spec.id} is missing from ${folder} (${detail}).` +
          (modelPath(spec).startsWith('tiny/')
            ? ' Run `npm run models:tiny` and `npm run setup:assets`.'
            : ` Copy its files into ${folder}.`),
      );
    case 'offline':
      return new EvidentError(
        'offline',
        `Could not download ${spec.id}: the network is unreachable (${detail}). Check the connection and retry, or self-host the files under ${folder}.`,
      );
    case 'out_of_memory': {
      const mb = spec.bytes ?? spec.approxBytes;
      return new EvidentError(
        'out_of_memory',
        `Not enough memory to load ${spec.id}${mb ? ` (about ${Math.round(mb / 1e6)} MB)` : ''}. Close other tabs or choose a profile without this model.`,
      );
    }
    default:
      return new EvidentError('model_load_failed', `${spec.id} could not be loaded: ${detail}`);
  }
}

function damagedError(spec: ModelSpec, err: unknown, evicted: boolean): EvidentError {
  if (evicted) {
    return new EvidentError(
      'cache_corrupted',
      `The cached copy of ${spec.id} was damaged; it was removed and the files read again, but loading still fails (${message(err)}). ` +
        `The files at the source are damaged too: fetch them again (models/${modelPath(spec)}/), or clear this site's data and retry.`,
    );
  }
  return new EvidentError(
    'model_load_failed',
    `The files of ${spec.id} are damaged (${message(err)}). Fetch them again into models/${modelPath(spec)}/.`,
  );
}

// ── cache ───────────────────────────────────────────────────────────────────────────────────────

function keyUrl(key: Request | string): string {
  return typeof key === 'string' ? key : key.url;
}

/** The cache keys Transformers.js uses for a model file: its local path and its Hub URL. */
export function cacheKeyCandidates(spec: ModelSpec, file: string): string[] {
  const id = modelPath(spec);
  const local = `${env.localModelPath.replace(/\/$/, '')}/${id}/${file}`;
  const revision = encodeURIComponent(spec.revision ?? 'main');
  const remote = `${env.remoteHost.replace(/\/$/, '')}/${id}/resolve/${revision}/${file}`;
  return [local, remote];
}

/** Cache entries that belong to `spec` (every key under its folder when the cache can list keys). */
export async function cacheKeysFor(cache: ModelCache, spec: ModelSpec): Promise<string[]> {
  const marker = `/${modelPath(spec)}/`;
  if (cache.keys) {
    const keys = await cache.keys();
    return keys.map(keyUrl).filter((k) => k.includes(marker));
  }
  const found: string[] = [];
  for (const file of spec.files) {
    for (const key of cacheKeyCandidates(spec, file.path)) {
      if (await cache.match(key).catch(() => undefined)) found.push(key);
    }
  }
  return found;
}

/** Removes every cached file of `spec`; returns how many entries went. */
export async function evict(cache: ModelCache, spec: ModelSpec): Promise<number> {
  const keys = await cacheKeysFor(cache, spec);
  let removed = 0;
  for (const key of keys) if (await cache.delete(key)) removed++;
  return removed;
}
