/**
 * The page's side of the service worker (`src/sw/service-worker.ts`): registers it in
 * production builds, and tells whether this page is served by it (then the app works offline).
 */
import { useSyncExternalStore } from 'react';

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
