/**
 * Configures the Transformers.js environment (`env`) for Evident. Runtime-neutral: the worker and
 * Node call `configureRuntime` with what their side knows (a URL path or a folder, self-hosted
 * WASM files, whether the user agreed to Hub downloads).
 *
 * Why each setting:
 * - `allowLocalModels` + `localModelPath`: self-hosted files are tried first. In the browser the
 *   path must be a path (`/models/`), not a full URL: Transformers.js joins it with the model id
 *   and treats a URL-shaped result as remote.
 * - `allowRemoteModels`: false unless the user agreed (the UI asks); the loader turns the
 *   resulting "not found locally" into an actionable `model_not_found`.
 * - `wasmPaths`: onnxruntime-web defaults to a CDN; we require self-hosted files and refuse a
 *   cross-origin URL, so the app never leaks a request and works offline.
 * - `numThreads`: multithreaded WASM needs SharedArrayBuffer, i.e. cross-origin isolation
 *   (COOP/COEP); without it we ask for 1 thread rather than let ORT warn and fall back.
 * - `fetch`: a static host with an SPA fallback answers a missing model file with `index.html`
 *   and status 200; Transformers.js would cache that page as `config.json`. We turn an HTML
 *   answer for a non-HTML model file into a 404, and let the loader abort downloads.
 */
import { env } from '@huggingface/transformers';
import { EvidentError } from '../../core/errors';
import { defaultWasmThreads } from '../runtime-probe';

/** Self-hosted onnxruntime-web files (the asyncify build, which serves both WASM and WebGPU). */
export interface OrtWasmPaths {
  readonly mjs: string;
  readonly wasm: string;
}

/** The subset of the Cache API the loader uses (Cache Storage's `Cache` satisfies it). */
export interface ModelCache {
  match(key: string): Promise<Response | undefined>;
  put(key: string, response: Response): Promise<void>;
  delete(key: string): Promise<boolean>;
  keys?(): Promise<readonly (Request | string)[]>;
}

export interface RuntimeEnvOptions {
  /** Self-hosted models folder: a URL path in the browser (`/models/`), a folder in Node. */
  readonly localModelPath: string;
  /** Whether files missing from `localModelPath` may be downloaded from the Hub (user consent). */
  readonly allowRemote: boolean;
  /** Browser only, required there: self-hosted onnxruntime-web files. */
  readonly wasmPaths?: OrtWasmPaths;
  /**
   * Where downloaded files are kept: `browser` (Cache Storage, the default in browsers), `none`,
   * or a cache object (tests). Node's default is `none` for self-hosted files (they are on disk).
   */
  readonly cache?: 'browser' | 'none' | ModelCache;
  /** WASM threads; default: up to 4 when cross-origin isolated, else 1. */
  readonly numThreads?: number;
}

export interface RuntimeEnvReport {
  readonly runtime: 'node' | 'browser';
  readonly crossOriginIsolated: boolean;
  /** WASM threads requested (browser); null in Node. */
  readonly numThreads: number | null;
  readonly cache: 'browser' | 'custom' | 'none';
  readonly allowRemote: boolean;
  readonly localModelPath: string;
}

interface ProcessLike {
  readonly release?: { readonly name?: string };
}

/** True in Node (tests, CLI): Transformers.js then runs onnxruntime-node. */
export function isNodeRuntime(): boolean {
  const p = (globalThis as { process?: ProcessLike }).process;
  return p?.release?.name === 'node';
}

function isCrossOriginIsolated(): boolean {
  return (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
}

function pageOrigin(): string | null {
  const loc = (globalThis as { location?: { origin?: string } }).location;
  return typeof loc?.origin === 'string' && loc.origin !== 'null' ? loc.origin : null;
}

function checkSameOrigin(what: string, value: string, origin: string | null): void {
  let url: URL;
  try {
    url = new URL(value, origin ?? 'http://invalid.local');
  } catch {
    throw new EvidentError('invalid_option', `${what}: "${value}" is not a valid path or URL.`);
  }
  if (origin !== null ? url.origin !== origin : /^[a-z][a-z0-9+.-]*:/i.test(value)) {
    throw new EvidentError(
      'invalid_option',
      `${what} must be served by this app (same origin), got "${value}": a CDN would leak requests and break offline use.`,
    );
  }
}

/**
 * Browser rules (pure, so Node tests can check them): the model path is a path, not a URL, and
 * the onnxruntime-web files are self-hosted on `origin`. Throws `invalid_option` naming the rule.
 */
export function validateBrowserOptions(options: RuntimeEnvOptions, origin: string | null): void {
  const { localModelPath } = options;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(localModelPath)) {
    throw new EvidentError(
      'invalid_option',
      `localModelPath must be a path such as "/models/", not a full URL ("${localModelPath}"): Transformers.js would treat the files as remote.`,
    );
  }
  if (!localModelPath.startsWith('/') || !localModelPath.endsWith('/')) {
    throw new EvidentError('invalid_option', `localModelPath must start and end with "/", got "${localModelPath}".`);
  }
  if (!options.wasmPaths) {
    throw new EvidentError(
      'invalid_option',
      'wasmPaths is required in the browser (self-hosted onnxruntime-web files); the default is a CDN.',
    );
  }
  checkSameOrigin('wasmPaths.mjs', options.wasmPaths.mjs, origin);
  checkSameOrigin('wasmPaths.wasm', options.wasmPaths.wasm, origin);
}

// ── fetch wrapper ───────────────────────────────────────────────────────────────────────────────

const baseFetch: typeof fetch | undefined = typeof fetch === 'function' ? fetch.bind(globalThis) : undefined;
let loadSignal: AbortSignal | null = null;

/** The loader sets the signal of the load in flight so a cancelled load stops its downloads. */
export function setDownloadSignal(signal: AbortSignal | null): void {
  loadSignal = signal;
}

async function evidentFetch(input: string | URL, init?: RequestInit): Promise<Response> {
  if (!baseFetch) throw new EvidentError('offline', 'This runtime has no fetch(): model files cannot be downloaded.');
  const url = typeof input === 'string' ? input : input.href;
  const signal = init?.signal ?? loadSignal ?? undefined;
  const response = await baseFetch(input, signal ? { ...init, signal } : init);
  const path = url.split(/[?#]/)[0] ?? url;
  if (
    response.status === 200 &&
    !/\.html?$/i.test(path) &&
    (response.headers.get('content-type') ?? '').toLowerCase().includes('text/html')
  ) {
    // SPA fallback: the file is missing, whatever the status says.
    await response.body?.cancel().catch(() => {});
    return new Response(null, { status: 404, statusText: 'Not Found (the server answered with an HTML page)' });
  }
  return response;
}

// ── configuration ───────────────────────────────────────────────────────────────────────────────

let current: RuntimeEnvReport | null = null;

/** Applies the options to the global Transformers.js `env`; safe to call again (e.g. after consent). */
export function configureRuntime(options: RuntimeEnvOptions): RuntimeEnvReport {
  const node = isNodeRuntime();
  const { localModelPath, allowRemote } = options;
  if (typeof localModelPath !== 'string' || localModelPath === '') {
    throw new EvidentError('invalid_option', 'localModelPath must be a non-empty path.');
  }
  if (!node) validateBrowserOptions(options, pageOrigin());

  env.allowLocalModels = true;
  env.localModelPath = localModelPath;
  env.allowRemoteModels = allowRemote;
  env.fetch = evidentFetch;

  const cacheOption = options.cache ?? (node ? 'none' : 'browser');
  let cache: RuntimeEnvReport['cache'];
  if (typeof cacheOption === 'object') {
    env.useCustomCache = true;
    env.customCache = cacheOption as unknown as typeof env.customCache;
    env.useBrowserCache = false;
    cache = 'custom';
  } else {
    env.useCustomCache = false;
    env.customCache = null;
    env.useBrowserCache = cacheOption === 'browser' && typeof caches !== 'undefined';
    cache = env.useBrowserCache ? 'browser' : 'none';
  }
  // Node keeps Hub downloads in Transformers.js's own folder cache only when caching is on.
  env.useFSCache = node && cacheOption !== 'none';
  env.useWasmCache = cache === 'browser';

  const isolated = isCrossOriginIsolated();
  let numThreads: number | null = null;
  const wasm = env.backends.onnx.wasm;
  if (!node && options.wasmPaths) {
    numThreads = isolated ? Math.max(1, Math.floor(options.numThreads ?? defaultWasmThreads())) : 1;
    if (wasm) {
      // A fresh object: Transformers.js replaces `mjs` with a blob URL of the cached factory.
      wasm.wasmPaths = { mjs: options.wasmPaths.mjs, wasm: options.wasmPaths.wasm };
      wasm.numThreads = numThreads;
      wasm.proxy = false;
    }
  }
  current = {
    runtime: node ? 'node' : 'browser',
    crossOriginIsolated: isolated,
    numThreads,
    cache,
    allowRemote,
    localModelPath,
  };
  return current;
}

/** The last configuration, or null before `configureRuntime`. */
export function runtimeReport(): RuntimeEnvReport | null {
  return current;
}

/** The cache Transformers.js uses now (Cache Storage, the custom cache, or none). */
export async function activeModelCache(): Promise<ModelCache | null> {
  if (env.useCustomCache && env.customCache) return env.customCache as unknown as ModelCache;
  if (env.useBrowserCache && typeof caches !== 'undefined') {
    try {
      return (await caches.open(env.cacheKey)) as unknown as ModelCache;
    } catch {
      return null;
    }
  }
  return null;
}

/** The Hub host Transformers.js downloads from (for messages). */
export function remoteHost(): string {
  try {
    return new URL(env.remoteHost).host;
  } catch {
    return 'huggingface.co';
  }
}
