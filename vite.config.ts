import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * COOP/COEP make the page cross-origin isolated, which enables SharedArrayBuffer and so
 * multithreaded WASM. Without them the app still works, single-threaded. Every resource the
 * app loads is same-origin, so `require-corp` blocks nothing of ours.
 */
export const CROSS_ORIGIN_ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
} as const;

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
  plugins: [react()],
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
