import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { serviceWorkerPlugin } from './scripts/service-worker-plugin.ts';
import { ISOLATION_HEADERS } from './src/sw/precache.ts';

/**
 * COOP/COEP make the page cross-origin isolated, which enables SharedArrayBuffer and so
 * multithreaded WASM. Without them the app still works, single-threaded. Every resource the
 * app loads is same-origin, so `require-corp` blocks nothing of ours. The service worker sets the
 * same headers on the responses it serves (src/sw/precache.ts).
 */
export const CROSS_ORIGIN_ISOLATION_HEADERS: Readonly<Record<string, string>> = ISOLATION_HEADERS;

/** Public path the app is served under, from env `EVIDENT_BASE` (default `/`). */
export function resolveBase(value = process.env.EVIDENT_BASE): string {
  if (value === undefined || value === '') return '/';
  // The worker resolves model URLs from BASE_URL against its own location, so a relative base
  // ('./') would point into assets/. Require an absolute path.
  if (!value.startsWith('/') || !value.endsWith('/')) {
    throw new Error(
      `EVIDENT_BASE must be an absolute path that starts and ends with "/" (e.g. "/evident/"), got "${value}".`,
    );
  }
  return value;
}

export default defineConfig({
  base: resolveBase(),
  // The service worker (production builds): precaches the app, the embedded model and the
  // runtimes so the app works offline after a first visit (src/sw/, scripts/service-worker-plugin.ts).
  plugins: [react(), serviceWorkerPlugin({ entry: 'src/sw/service-worker.ts' })],
  worker: {
    format: 'es',
    // Not minified: threaded tfjs-backend-wasm starts its pthread workers from a Blob holding
    // `factory.toString()`. A minifier renames the factory's closure variables (`_scriptDir`,
    // helpers) and drops its `typeof` guards, so the Blob throws "e is not defined" and the
    // backend dies. Unminified, the function source runs standalone as Emscripten intends.
    rolldownOptions: { output: { minify: false } },
  },
  build: { target: 'es2022', chunkSizeWarningLimit: 2000 },
  server: { headers: CROSS_ORIGIN_ISOLATION_HEADERS },
  preview: { headers: CROSS_ORIGIN_ISOLATION_HEADERS },
});
