/// <reference lib="webworker" />
/**
 * The service worker: after a first visit the app works with no network at all.
 *
 * - install: precaches every file of the build's manifest (`precache.ts` says which: what the
 *   Embedded profile needs) in one `addAll`, so the cache is complete or the install fails and
 *   nothing is kept (a failed install retries on the next visit);
 * - activate: deletes earlier builds' precaches for this base path and the runtime entries this
 *   build ships with other content, then claims the open pages so the first visit is served
 *   offline from its next load;
 * - fetch: see `routeRequest`. Runtime files (onnxruntime-web, tesseract.js, models other than
 *   the embedded one) are stored on first use in the cache Transformers.js shares (`MODEL_CACHE`). No
 *   `skipWaiting`: a new build waits until the app's tabs are closed, so a page never loses the
 *   older chunks it may still load lazily.
 * - message: on a very first visit the app's worker starts before this service worker controls
 *   the page and fetches runtime files itself; the page then asks for them to be stored
 *   (`CACHE_RUNTIME_MESSAGE` once a profile on onnxruntime-web is loaded, `CACHE_OCR_MESSAGE` once
 *   a page was OCR'd), and what the cache lacks is fetched — from the HTTP cache when it can — and
 *   stored, checked against the build's hash.
 *
 * Built by Vite as its own entry (`scripts/service-worker-plugin.ts`), which writes the manifest
 * in place of `__EVIDENT_PRECACHE__`. Registered by the page (`src/ui/service-worker.ts`) in built apps only.
 */
import { relaxedSimd, simd } from 'wasm-feature-detect';
import {
  CACHE_OCR_MESSAGE,
  CACHE_RUNTIME_MESSAGE,
  FILE_HASH_HEADER,
  MODEL_CACHE,
  SHELL,
  cacheName,
  fileHash,
  hashCheckable,
  isCurrentEntry,
  isStorable,
  manifestLookup,
  ocrFilesToCache,
  pathUnder,
  routeRequest,
  runtimeFilesToCache,
  staleCaches,
  staleRuntimeEntries,
  withFileHash,
  withAppHeaders,
  type PrecacheManifest,
} from './precache';

declare const self: ServiceWorkerGlobalScope;

/** Replaced by the build with the manifest's JSON; a string here only so the source parses. */
const MANIFEST = '__EVIDENT_PRECACHE__' as unknown as PrecacheManifest;

const scope = new URL(self.registration.scope);
const CACHE = cacheName(scope.pathname, MANIFEST.version);
const files = manifestLookup(MANIFEST);
const urlOf = (path: string): string => new URL(path, scope).href;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      try {
        // `reload`: fresh copies from the server, never the HTTP cache's possibly older ones.
        await cache.addAll(MANIFEST.files.map((path) => new Request(urlOf(path), { cache: 'reload' })));
      } catch (err) {
        await caches.delete(CACHE);
        throw err;
      }
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of staleCaches(await caches.keys(), scope.pathname, MANIFEST.version)) await caches.delete(name);
      if (await caches.has(MODEL_CACHE)) {
        const cache = await caches.open(MODEL_CACHE);
        const entries = await Promise.all(
          (await cache.keys()).map(async (request) => ({
            url: request.url,
            hash: (await cache.match(request))?.headers.get(FILE_HASH_HEADER) ?? null,
          })),
        );
        for (const url of staleRuntimeEntries(entries, scope, files.runtime)) await cache.delete(url);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const route = routeRequest(
    { url: request.url, method: request.method, mode: request.mode, range: request.headers.has('range') },
    scope,
    files,
  );
  if (route.kind === 'navigate') event.respondWith(navigate(request));
  else if (route.kind === 'precache') event.respondWith(fromCache(request, route.path));
  else if (route.kind === 'runtime') event.respondWith(fromRuntimeCache(event, route.path, route.hash));
});

self.addEventListener('message', (event) => {
  const data: unknown = event.data;
  const type = typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
  // onnxruntime-web once a profile that runs on it is loaded; tesseract.js once a page was OCR'd.
  if (type === CACHE_RUNTIME_MESSAGE)
    event.waitUntil(storeMissing((stored) => runtimeFilesToCache(files.runtime, stored)));
  else if (type === CACHE_OCR_MESSAGE) {
    event.waitUntil(
      (async () => {
        // The probes tesseract.js's worker runs to choose its core: the same answer in this browser.
        const features = { simd: await simd(), relaxedSimd: await relaxedSimd() };
        await storeMissing((stored) => ocrFilesToCache(files.runtime, stored, features));
      })(),
    );
  }
});

/**
 * Stores, stamped with the build's hash, the runtime files `pick` names among those `MODEL_CACHE`
 * lacks: for files the app's worker fetched while this service worker did not yet control it (a
 * very first visit). A failed fetch or put only means the next use stores it.
 */
async function storeMissing(pick: (stored: ReadonlyMap<string, string | null>) => string[]): Promise<void> {
  const cache = await caches.open(MODEL_CACHE);
  const stored = new Map<string, string | null>();
  for (const request of await cache.keys()) {
    const path = pathUnder(new URL(request.url), scope);
    if (path !== null) stored.set(path, (await cache.match(request))?.headers.get(FILE_HASH_HEADER) ?? null);
  }
  for (const path of pick(stored)) {
    const hash = files.runtime.get(path) as string;
    try {
      const response = await fetchBuildFile(path, hash);
      if (response) await cache.put(urlOf(path), withFileHash(response, hash));
    } catch {
      // Offline or out of quota: the next use stores it.
    }
  }
}

/**
 * The build's file `path`, checked against its hash: from the HTTP cache when it holds it (the
 * worker has just fetched it: no second download), else — or when that copy is another build's
 * (file names stay across versions) — from the server. A body the host content-encoded cannot be
 * checked (`hashCheckable`): then only the server's own copy is taken. Null when no copy matches.
 */
async function fetchBuildFile(path: string, hash: string): Promise<Response | null> {
  for (const cache of ['force-cache', 'reload'] as const) {
    const response = await fetch(new Request(urlOf(path), { cache }));
    if (!isStorable(response)) continue;
    if (!hashCheckable(response.headers)) {
      if (cache === 'reload') return response;
      await response.body?.cancel();
      continue;
    }
    const bytes = await response.arrayBuffer();
    if ((await fileHash(bytes)) !== hash) continue;
    return new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
  return null;
}

/** Network first (a new build's page when online); the cached shell when the network fails. */
async function navigate(request: Request): Promise<Response> {
  try {
    return withAppHeaders(await fetch(request));
  } catch (err) {
    const shell = await caches.match(urlOf(SHELL), { cacheName: CACHE });
    if (shell) return withAppHeaders(shell);
    throw err;
  }
}

/** Cache first; the network when the entry is missing (the cache was cleared under the worker). */
async function fromCache(request: Request, path: string): Promise<Response> {
  const hit = await caches.match(urlOf(path), { cacheName: CACHE });
  return withAppHeaders(hit ?? (await fetch(request)));
}

/**
 * Cache first from `MODEL_CACHE` when the entry is this build's file; else the network, and a
 * whole 200 is stored there with the file's hash (Transformers.js, which reads that cache first,
 * then finds it and stores no second copy). Offline with only an entry of another build: that
 * entry, rather than nothing.
 */
async function fromRuntimeCache(event: FetchEvent, path: string, hash: string): Promise<Response> {
  const cache = await caches.open(MODEL_CACHE);
  const url = urlOf(path);
  const hit = await cache.match(url);
  if (hit && isCurrentEntry(path, hit.headers.get(FILE_HASH_HEADER), hash)) return withAppHeaders(hit);
  let response: Response;
  try {
    response = await fetch(event.request);
  } catch (err) {
    if (hit) return withAppHeaders(hit);
    throw err;
  }
  if (!isStorable(response)) return withAppHeaders(response);
  const stamped = withFileHash(response, hash);
  // A failed put (quota) only means the next load fetches it again.
  event.waitUntil(cache.put(url, stamped.clone()).catch(() => {}));
  return withAppHeaders(stamped);
}
