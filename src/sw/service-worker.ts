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
 * - fetch: see `routeRequest`. Runtime files (onnxruntime-web, models other than the embedded
 *   one) are stored on first use in the cache Transformers.js shares (`MODEL_CACHE`). No
 *   `skipWaiting`: a new build waits until the app's tabs are closed, so a page never loses the
 *   older chunks it may still load lazily.
 *
 * Built by Vite as its own entry (`scripts/service-worker-plugin.ts`), which writes the manifest
 * in place of `__EVIDENT_PRECACHE__`. Registered by the page (`src/ui/service-worker.ts`) in built apps only.
 */
import {
  CACHE_RUNTIME_MESSAGE,
  FILE_HASH_HEADER,
  MODEL_CACHE,
  SHELL,
  cacheName,
  isCurrentEntry,
  isStorable,
  manifestLookup,
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
  if (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === CACHE_RUNTIME_MESSAGE) {
    event.waitUntil(cacheOnnxRuntime());
  }
});

/**
 * Stores the onnxruntime-web files `MODEL_CACHE` lacks (stamped with the build's hash), for a
 * profile loaded while the app's worker was not yet served by this service worker. A failed
 * fetch or put only means the next use stores it.
 */
async function cacheOnnxRuntime(): Promise<void> {
  const cache = await caches.open(MODEL_CACHE);
  const stored = new Map<string, string | null>();
  for (const request of await cache.keys()) {
    const path = pathUnder(new URL(request.url), scope);
    if (path !== null) stored.set(path, (await cache.match(request))?.headers.get(FILE_HASH_HEADER) ?? null);
  }
  for (const path of runtimeFilesToCache(files.runtime, stored)) {
    try {
      const response = await fetch(new Request(urlOf(path), { cache: 'reload' }));
      if (isStorable(response)) await cache.put(urlOf(path), withFileHash(response, files.runtime.get(path) as string));
    } catch {
      // Offline or out of quota: the next load of the profile stores it.
    }
  }
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
