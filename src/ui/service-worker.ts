/**
 * The page's side of the service worker (`src/sw/service-worker.ts`): registers it in
 * production builds, and tells whether this page is served by it (then the app works offline).
 */
import { useSyncExternalStore } from 'react';

/**
 * The messages of `cacheOnnxRuntime` and `cacheOcrFiles`: `CACHE_RUNTIME_MESSAGE` and
 * `CACHE_OCR_MESSAGE` of src/sw/precache.ts, written out because the service worker must stay one
 * self-contained file (a module both import would be split into a shared chunk); a unit test
 * checks they agree.
 */
export const CACHE_RUNTIME_MESSAGE = 'evident:cache-onnxruntime';
export const CACHE_OCR_MESSAGE = 'evident:cache-ocr';

/** The service worker's file name, defined by the build (scripts/service-worker-plugin.ts); absent in dev. */
declare const __EVIDENT_SERVICE_WORKER__: string | undefined;

/**
 * Registers the build's service worker for the scope `base` once the page has loaded. Does
 * nothing under the dev server (no service worker is built) or where service workers are
 * unsupported.
 */
export function registerServiceWorker(base: string): void {
  if (typeof __EVIDENT_SERVICE_WORKER__ === 'undefined') return;
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const file = __EVIDENT_SERVICE_WORKER__;
  const register = (): void => {
    navigator.serviceWorker.register(`${base}${file}`, { scope: base }).catch((err: unknown) => {
      // Without it the app still works online; only offline use is lost.
      console.warn(`Offline use is unavailable: ${err instanceof Error ? err.message : String(err)}`);
    });
  };
  if (document.readyState === 'complete') register();
  else addEventListener('load', register, { once: true });
}

function subscribe(listener: () => void): () => void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return () => {};
  navigator.serviceWorker.addEventListener('controllerchange', listener);
  return () => navigator.serviceWorker.removeEventListener('controllerchange', listener);
}

function controlled(): boolean {
  return (
    typeof navigator !== 'undefined' && 'serviceWorker' in navigator && navigator.serviceWorker.controller !== null
  );
}

/**
 * True once a service worker serves this page. It is active only after its install precached
 * every file, so the app, its model and its runtimes then load with no network.
 */
export function useOfflineReady(): boolean {
  return useSyncExternalStore(subscribe, controlled, () => false);
}

/**
 * Asks the service worker (once it is active) to store onnxruntime-web: called when a profile
 * that runs on it is loaded, since on a first visit the app's worker fetched it outside the
 * service worker. Nothing under the dev server or without service workers.
 */
export function cacheOnnxRuntime(): void {
  postToServiceWorker(CACHE_RUNTIME_MESSAGE);
}

/**
 * Asks the service worker (once it is active) to store tesseract.js's files: called after files
 * were added of which a page was OCR'd, since on a very first visit the app's worker fetched them
 * outside the service worker, and OCR would then not work offline. The service worker stores only
 * what it lacks, so asking again costs nothing.
 */
export function cacheOcrFiles(): void {
  postToServiceWorker(CACHE_OCR_MESSAGE);
}

/** Posts `{ type }` to the active service worker; nothing under the dev server or without service workers. */
function postToServiceWorker(type: string): void {
  if (typeof __EVIDENT_SERVICE_WORKER__ === 'undefined') return;
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  void navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage({ type }));
}
