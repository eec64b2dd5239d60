/**
 * The service worker's decisions as plain functions (runtime-neutral: the service worker runs
 * them, the build plugin and Node tests import them).
 *
 * - Which built files are precached: the app shell and its bundles (the worker and pdf.js's
 *   worker included), the embedded model (`models/use-lite/`), the TF.js and onnxruntime-web
 *   WASM runtimes (`vendor/tfjs/`, `vendor/ort/`) and pdf.js's CMaps and fonts
 *   (`vendor/pdfjs/`). Not precached: the other model folders (an Enhanced profile's models and
 *   the generated test models: Transformers.js keeps what it loads in its own Cache Storage
 *   entry, so they are cached when first used), `.wasm` files Vite copies into `assets/` (the
 *   app loads its runtimes from `vendor/`), source maps, dotfiles, the hosts' `_headers` /
 *   `_redirects` files and the service worker itself.
 * - The cache name: per base path (two deployments on one origin never delete each other's
 *   cache) and per build (the version is a hash of every precached file's content).
 * - How a request is answered: navigations network first with the cached shell as the offline
 *   fallback; precached files cache first; anything else is left to the network.
 * - Responses it serves carry COOP/COEP, so the page stays cross-origin isolated (threaded WASM)
 *   when it is served from the cache, and becomes so after the first visit even on a host that
 *   does not send the headers.
 */

/** What the build writes into the service worker. */
export interface PrecacheManifest {
  /** Hash of every precached file's path and content: a new build, a new cache. */
  readonly version: string;
  /** Paths relative to the base path, e.g. `index.html`, `assets/worker-abc.js`. */
  readonly files: readonly string[];
}

/** The file a navigation falls back to when offline. */
export const SHELL = 'index.html';

export const SERVICE_WORKER_FILE = 'sw.js';

/** Host configuration files in the output folder that hosts read and never serve (Netlify, Cloudflare Pages). */
const HOST_FILES = new Set(['_headers', '_redirects']);

/** Public-folder model directories that are precached (the embedded profile's model). */
const PRECACHED_MODEL_DIRS = ['models/use-lite/'];

/** True for a built file (path relative to the output folder, `/`-separated) the service worker precaches. */
export function isPrecached(path: string): boolean {
  if (path === SERVICE_WORKER_FILE || HOST_FILES.has(path)) return false;
  if (path.split('/').some((part) => part.startsWith('.'))) return false;
  if (path.endsWith('.map')) return false;
  if (path.startsWith('assets/') && path.endsWith('.wasm')) return false;
  if (path.startsWith('models/')) return PRECACHED_MODEL_DIRS.some((dir) => path.startsWith(dir));
  return true;
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
  { readonly kind: 'navigate' } | { readonly kind: 'precache'; readonly path: string } | { readonly kind: 'network' };

/**
 * How to answer a request: `navigate` (network first, cached shell offline), `precache` (cache
 * first) or `network` (not handled). Only same-origin GETs under the scope are handled; a Range
 * request always goes to the network (the cache holds whole responses).
 */
export function routeRequest(
  request: { readonly url: string; readonly method: string; readonly mode: string; readonly range: boolean },
  scope: URL,
  precached: ReadonlySet<string>,
): Route {
  if (request.method !== 'GET' || request.range) return { kind: 'network' };
  const url = new URL(request.url);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return { kind: 'network' };
  if (request.mode === 'navigate') return { kind: 'navigate' };
  let path: string;
  try {
    path = decodeURIComponent(url.pathname.slice(scope.pathname.length));
  } catch {
    return { kind: 'network' };
  }
  return precached.has(path) ? { kind: 'precache', path } : { kind: 'network' };
}

/** The headers that make the page cross-origin isolated (kept in step with `vite.config.ts`). */
export const ISOLATION_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
});

/**
 * `response` with COOP/COEP set when they are missing (a new Response over the same body);
 * the response itself when both are there or when it cannot be rebuilt (opaque, error).
 */
export function withIsolationHeaders(response: Response): Response {
  if (response.type === 'opaque' || response.type === 'opaqueredirect' || response.type === 'error') return response;
  const missing = Object.keys(ISOLATION_HEADERS).filter((h) => !response.headers.has(h));
  if (missing.length === 0) return response;
  const headers = new Headers(response.headers);
  for (const h of missing) headers.set(h, ISOLATION_HEADERS[h] as string);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
