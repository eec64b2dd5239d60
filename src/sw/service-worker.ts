/// <reference lib="webworker" />
/**
 * The service worker: after a first visit the app works with no network at all.
 *
 * - install: precaches every file of the build's manifest (`precache.ts` says which) in one
 *   `addAll`, so the cache is complete or the install fails and nothing is kept (a failed
 *   install retries on the next visit);
 * - activate: deletes earlier builds' precaches for this base path, then claims the open pages
 *   so the first visit is served offline from its next load;
 * - fetch: see `routeRequest`. No `skipWaiting`: a new build waits until the app's tabs are
 *   closed, so a page never loses the older chunks it may still load lazily.
 *
 * Built by Vite as its own entry (`scripts/service-worker-plugin.ts`), which writes the manifest
 * in place of `__EVIDENT_PRECACHE__`. Registered by the page (`src/ui/service-worker.ts`) in built apps only.
 */
import { SHELL, cacheName, routeRequest, staleCaches, withIsolationHeaders, type PrecacheManifest } from './precache';

declare const self: ServiceWorkerGlobalScope;

/** Replaced by the build with the manifest's JSON; a string here only so the source parses. */
const MANIFEST = '__EVIDENT_PRECACHE__' as unknown as PrecacheManifest;

const scope = new URL(self.registration.scope);
const CACHE = cacheName(scope.pathname, MANIFEST.version);
const precached = new Set(MANIFEST.files);
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
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const route = routeRequest(
    { url: request.url, method: request.method, mode: request.mode, range: request.headers.has('range') },
    scope,
    precached,
  );
  if (route.kind === 'navigate') event.respondWith(navigate(request));
  else if (route.kind === 'precache') event.respondWith(fromCache(request, route.path));
});

/** Network first (a new build's page when online); the cached shell when the network fails. */
async function navigate(request: Request): Promise<Response> {
  try {
    return withIsolationHeaders(await fetch(request));
  } catch (err) {
    const shell = await caches.match(urlOf(SHELL), { cacheName: CACHE });
    if (shell) return withIsolationHeaders(shell);
    throw err;
  }
}

/** Cache first; the network when the entry is missing (the cache was cleared under the worker). */
async function fromCache(request: Request, path: string): Promise<Response> {
  const hit = await caches.match(urlOf(path), { cacheName: CACHE });
  return withIsolationHeaders(hit ?? (await fetch(request)));
}
