/**
 * The service worker's decisions as plain functions (runtime-neutral: the service worker runs
 * them, the build plugin and Node tests import them).
 *
 * - Which built files are precached: what the Embedded profile needs — the app shell and its
 *   bundles (the worker and pdf.js's worker included), the embedded model (`models/use-lite/`),
 *   TF.js's WASM runtime (`vendor/tfjs/`) and pdf.js's CMaps and fonts (`vendor/pdfjs/`).
 * - Which are cached on first use instead (`isRuntimeCached`): onnxruntime-web (`vendor/ort/`,
 *   ~27 MB, loaded only by the Enhanced and test profiles), tesseract.js (`vendor/tesseract/`,
 *   ~14 MB, loaded only when a PDF page without a text layer is OCR'd) and the other model folders (an
 *   Enhanced profile's self-hosted models, the generated test models). The service worker keeps
 *   them in `MODEL_CACHE`, the Cache Storage entry Transformers.js reads first and fills itself,
 *   so a file is stored once, whichever of the two fetched it, and loads with no network
 *   afterwards. Each response it stores carries the build's hash of the file (`FILE_HASH_HEADER`);
 *   a new build deletes the runtime entries whose hash it does not ship (`staleRuntimeEntries`):
 *   onnxruntime-web keeps its file names across versions, and a cached binary of another
 *   version must never meet the new build's JavaScript. Files a worker fetched before the service
 *   worker controlled it (a very first visit) are stored when the page asks: all of
 *   onnxruntime-web (`runtimeFilesToCache`), the OCR files this browser loads (`ocrFilesToCache`).
 * - Neither: `.wasm` files Vite copies into `assets/` (the app loads its runtimes from
 *   `vendor/`), source maps, dotfiles, the hosts' `_headers` / `_redirects` files and the service
 *   worker itself.
 * - The precache's name: per base path (two deployments on one origin never delete each other's
 *   cache) and per build (the version is a hash of every precached file's content).
 * - How a request is answered: navigations network first with the cached shell as the offline
 *   fallback; precached files cache first; runtime-cached files cache first, else the network
 *   (stored when it answers 200); anything else is left to the network.
 * - Responses it serves carry COOP/COEP, so the page stays cross-origin isolated (threaded WASM)
 *   when it is served from the cache, and becomes so after the first visit even on a host that
 *   does not send the headers; and the Content Security Policy, so the same holds for the policy.
 */

import { CSP_DIRECTIVES, serializeCsp } from '../security/csp';

/** What the build writes into the service worker. */
export interface PrecacheManifest {
  /** Hash of every precached file's path and content: a new build, a new cache. */
  readonly version: string;
  /** Paths relative to the base path, e.g. `index.html`, `assets/worker-abc.js`. */
  readonly files: readonly string[];
  /** Files cached on first use: path → the first 16 hex digits of the SHA-256 of its content. */
  readonly runtime: Readonly<Record<string, string>>;
}

/** The file a navigation falls back to when offline. */
export const SHELL = 'index.html';

export const SERVICE_WORKER_FILE = 'sw.js';

/** Host configuration files in the output folder that hosts read and never serve (Netlify, Cloudflare Pages). */
const HOST_FILES = new Set(['_headers', '_redirects']);

/** Public-folder model directories that are precached (the embedded profile's model). */
const PRECACHED_MODEL_DIRS = ['models/use-lite/'];

/** onnxruntime-web's self-hosted files (`npm run setup:assets`): only the Transformers.js profiles load them. */
const ORT_DIR = 'vendor/ort/';

/** tesseract.js's worker, cores and English data (~14 MB): loaded only when a scanned PDF page is met. */
const OCR_DIR = 'vendor/tesseract/';

/** Runtimes cached on first use whose file names stay across versions: a cached copy needs the build's hash. */
function isVersionedRuntime(path: string): boolean {
  return path.startsWith(ORT_DIR) || path.startsWith(OCR_DIR);
}

/**
 * The Cache Storage entry shared with Transformers.js (its `env.cacheKey`, which
 * `src/models/transformers/env.ts` leaves at the default; a test checks they agree).
 */
export const MODEL_CACHE = 'transformers-cache';

/** Header of a runtime-cached response: the build's hash of the file (`PrecacheManifest.runtime`). */
export const FILE_HASH_HEADER = 'X-Evident-File-Hash';

/** Neither cached by the service worker nor served from a cache: host files, the worker itself, maps, dotfiles, Vite's WASM copies. */
function isExcluded(path: string): boolean {
  if (path === SERVICE_WORKER_FILE || HOST_FILES.has(path)) return true;
  if (path.split('/').some((part) => part.startsWith('.'))) return true;
  if (path.endsWith('.map')) return true;
  return path.startsWith('assets/') && path.endsWith('.wasm');
}

/** True for a built file (path relative to the output folder, `/`-separated) the service worker precaches. */
export function isPrecached(path: string): boolean {
  if (isExcluded(path)) return false;
  if (isVersionedRuntime(path)) return false;
  if (path.startsWith('models/')) return PRECACHED_MODEL_DIRS.some((dir) => path.startsWith(dir));
  return true;
}

/** True for a built file the service worker caches when it is first loaded (onnxruntime-web, models other than the embedded one). */
export function isRuntimeCached(path: string): boolean {
  if (isExcluded(path) || isPrecached(path)) return false;
  return isVersionedRuntime(path) || path.startsWith('models/');
}

const CACHE_PREFIX = 'evident-precache';

/** Prefix of every precache name for this base path; the version follows it. */
export function cachePrefix(scopePath: string): string {
  return `${CACHE_PREFIX}:${scopePath}:`;
}

export function cacheName(scopePath: string, version: string): string {
  return `${cachePrefix(scopePath)}${version}`;
}

/** Caches an activated service worker deletes: earlier builds' precaches for the same base path only. */
export function staleCaches(names: readonly string[], scopePath: string, version: string): string[] {
  const current = cacheName(scopePath, version);
  return names.filter((n) => n.startsWith(cachePrefix(scopePath)) && n !== current);
}

export type Route =
  | { readonly kind: 'navigate' }
  | { readonly kind: 'precache'; readonly path: string }
  /** Cached on first use; `hash` is the build's hash of the file. */
  | { readonly kind: 'runtime'; readonly path: string; readonly hash: string }
  | { readonly kind: 'network' };

/** The manifest as the service worker looks files up in it. */
export interface ManifestLookup {
  readonly precached: ReadonlySet<string>;
  readonly runtime: ReadonlyMap<string, string>;
}

export function manifestLookup(manifest: PrecacheManifest): ManifestLookup {
  return { precached: new Set(manifest.files), runtime: new Map(Object.entries(manifest.runtime)) };
}

/**
 * How to answer a request: `navigate` (network first, cached shell offline), `precache` (cache
 * first), `runtime` (cache first, else the network, stored) or `network` (not handled). Only
 * same-origin GETs under the scope of files the build lists are handled; a Range request always
 * goes to the network (the caches hold whole responses).
 */
export function routeRequest(
  request: { readonly url: string; readonly method: string; readonly mode: string; readonly range: boolean },
  scope: URL,
  files: ManifestLookup,
): Route {
  if (request.method !== 'GET' || request.range) return { kind: 'network' };
  const url = new URL(request.url);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return { kind: 'network' };
  if (request.mode === 'navigate') return { kind: 'navigate' };
  const path = pathUnder(url, scope);
  if (path === null) return { kind: 'network' };
  if (files.precached.has(path)) return { kind: 'precache', path };
  const hash = files.runtime.get(path);
  return hash === undefined ? { kind: 'network' } : { kind: 'runtime', path, hash };
}

/** The decoded path of `url` relative to the scope; null when it is not under it or malformed. */
export function pathUnder(url: URL, scope: URL): string | null {
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return null;
  try {
    return decodeURIComponent(url.pathname.slice(scope.pathname.length));
  } catch {
    return null;
  }
}

/**
 * Whether a cached runtime entry (its `FILE_HASH_HEADER`, null when absent) may answer for the
 * build's file of hash `hash`: when the hashes agree; a model file stored without one (fetched
 * by Transformers.js before this service worker controlled the page) too — its path names the
 * model, and the loader checks what it reads. An onnxruntime-web file needs the build's hash.
 */
export function isCurrentEntry(path: string, stored: string | null, hash: string): boolean {
  if (stored !== null) return stored === hash;
  return !isVersionedRuntime(path);
}

/**
 * The runtime entries of `MODEL_CACHE` a newly activated build deletes: those under this scope
 * that the build ships with other content (`isCurrentEntry` false) and onnxruntime-web files it
 * does not ship. Entries of other origins (Hub downloads) and other base paths are left alone,
 * and so are model files the build no longer lists (still a valid copy of that model).
 */
export function staleRuntimeEntries(
  entries: readonly { readonly url: string; readonly hash: string | null }[],
  scope: URL,
  runtime: ReadonlyMap<string, string>,
): string[] {
  const stale: string[] = [];
  for (const entry of entries) {
    const path = pathUnder(new URL(entry.url), scope);
    if (path === null || !(isVersionedRuntime(path) || path.startsWith('models/'))) continue;
    const hash = runtime.get(path);
    if (hash === undefined ? isVersionedRuntime(path) : !isCurrentEntry(path, entry.hash, hash)) stale.push(entry.url);
  }
  return stale;
}

/**
 * Whether a network response for a runtime file may be stored: a whole 200 from this origin
 * that is not an HTML page (a host's SPA fallback for a missing file).
 */
export function isStorable(response: Response): boolean {
  // `basic`: same-origin fetch; `default`: a constructed response (tests).
  if (response.status !== 200 || (response.type !== 'basic' && response.type !== 'default')) return false;
  return !(response.headers.get('Content-Type') ?? '').toLowerCase().includes('text/html');
}

/** `response` with the build's hash of its file in `FILE_HASH_HEADER` (a new Response over the same body). */
export function withFileHash(response: Response, hash: string): Response {
  const headers = new Headers(response.headers);
  headers.set(FILE_HASH_HEADER, hash);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The headers that make the page cross-origin isolated (kept in step with `vite.config.ts`). */
export const ISOLATION_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
});

/**
 * What the service worker adds to a response it serves when the host did not send it: the
 * isolation headers and the Content Security Policy (src/security/csp.ts). On a host that cannot
 * set headers (GitHub Pages, a bucket) the page then runs isolated and under the header policy from
 * the second visit on — with `frame-ancestors`, and for its workers too, which the `<meta>` policy
 * of index.html cannot reach.
 */
export const SERVED_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...ISOLATION_HEADERS,
  'Content-Security-Policy': serializeCsp(CSP_DIRECTIVES),
});

/**
 * `response` with each of `SERVED_HEADERS` set that it lacks (a new Response over the same body);
 * the response itself when it has them all or cannot be rebuilt (opaque, error). A header the host
 * sent is kept as it is.
 */
export function withAppHeaders(response: Response): Response {
  if (response.type === 'opaque' || response.type === 'opaqueredirect' || response.type === 'error') return response;
  const missing = Object.keys(SERVED_HEADERS).filter((h) => !response.headers.has(h));
  if (missing.length === 0) return response;
  const headers = new Headers(response.headers);
  for (const h of missing) headers.set(h, SERVED_HEADERS[h] as string);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * What the page posts to the service worker once a profile that runs on onnxruntime-web is
 * loaded (`src/ui/service-worker.ts`): on a first visit the app's worker starts before the
 * service worker controls it, so it fetched onnxruntime-web itself and nothing stored it.
 */
export const CACHE_RUNTIME_MESSAGE = 'evident:cache-onnxruntime';

/** The files of `runtime` that `wanted` names and `MODEL_CACHE` does not hold with the build's hash. */
function missingFiles(
  runtime: ReadonlyMap<string, string>,
  stored: ReadonlyMap<string, string | null>,
  wanted: (path: string) => boolean,
): string[] {
  return [...runtime]
    .filter(
      ([path, hash]) => wanted(path) && !(stored.has(path) && isCurrentEntry(path, stored.get(path) ?? null, hash)),
    )
    .map(([path]) => path);
}

/**
 * The onnxruntime-web files the service worker fetches and stores on `CACHE_RUNTIME_MESSAGE`:
 * those the build ships that `MODEL_CACHE` does not hold with the build's hash (`stored`: path →
 * its `FILE_HASH_HEADER`, null when unstamped; absent when not cached).
 */
export function runtimeFilesToCache(
  runtime: ReadonlyMap<string, string>,
  stored: ReadonlyMap<string, string | null>,
): string[] {
  return missingFiles(runtime, stored, (path) => path.startsWith(ORT_DIR));
}

/**
 * What the page posts to the service worker after adding files of which a page was OCR'd
 * (`src/ui/service-worker.ts`): on a very first visit the app's worker, and so tesseract.js's own
 * worker, started before the service worker controlled the page, so they fetched tesseract.js's
 * files themselves and nothing stored them.
 */
export const CACHE_OCR_MESSAGE = 'evident:cache-ocr';

/** The WebAssembly features by which tesseract.js chooses its core (`wasm-feature-detect`'s probes). */
export interface WasmFeatures {
  readonly simd: boolean;
  readonly relaxedSimd: boolean;
}

/** A core of tesseract.js-core in the OCR folder: only one of them is loaded in a given browser. */
const OCR_CORE = /^tesseract-core-[^/]*\.wasm\.js$/;

/**
 * The core tesseract.js 7 loads from a `corePath` folder for LSTM-only recognition (`OEM.LSTM_ONLY`,
 * src/parse/pdf-ocr.ts): relaxed SIMD if the browser has it, else SIMD, else the plain build
 * (tesseract.js's `src/worker-script/browser/getCore.js`).
 */
export function tesseractCore(features: WasmFeatures): string {
  const variant = features.relaxedSimd ? 'relaxedsimd-' : features.simd ? 'simd-' : '';
  return `${OCR_DIR}tesseract-core-${variant}lstm.wasm.js`;
}

/**
 * The tesseract.js files the service worker fetches and stores on `CACHE_OCR_MESSAGE`: those the
 * build ships in `vendor/tesseract/` that OCR loads in this browser — its worker script, the
 * language data and, of the three cores, the one `tesseractCore` names (the other two, ~4 MB
 * each, are never loaded here) — and that `MODEL_CACHE` does not hold with the build's hash.
 */
export function ocrFilesToCache(
  runtime: ReadonlyMap<string, string>,
  stored: ReadonlyMap<string, string | null>,
  features: WasmFeatures,
): string[] {
  const core = tesseractCore(features);
  return missingFiles(
    runtime,
    stored,
    (path) => path.startsWith(OCR_DIR) && (path === core || !OCR_CORE.test(path.slice(OCR_DIR.length))),
  );
}

/**
 * Whether a response's body can be checked against the build's hash of its file: not when the
 * host sent it with a `Content-Encoding` (sirv, and so `vite preview`, sends a `.gz` file as
 * `Content-Encoding: gzip`), since the browser then hands over the decoded bytes.
 */
export function hashCheckable(headers: Headers): boolean {
  const encoding = (headers.get('Content-Encoding') ?? '').trim().toLowerCase();
  return encoding === '' || encoding === 'identity';
}

/**
 * The build's hash of a file's bytes, as `PrecacheManifest.runtime` holds it: the first 16 hex
 * digits of their SHA-256 (`scripts/service-worker-plugin.ts`).
 */
export async function fileHash(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join('');
}
