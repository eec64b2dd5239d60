import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { cspReportFile, cspReportPlugin, withReportUri } from './scripts/csp-reports.ts';
import { serviceWorkerPlugin } from './scripts/service-worker-plugin.ts';
import { documentMetaPolicies, serializeCsp } from './src/security/csp.ts';
import { ISOLATION_HEADERS } from './src/sw/precache.ts';

/**
 * COOP/COEP make the page cross-origin isolated, which enables SharedArrayBuffer and so
 * multithreaded WASM. Without them the app still works, single-threaded. Every resource the
 * app loads is same-origin, so `require-corp` blocks nothing of ours. The service worker sets the
 * same headers on the responses it serves (src/sw/precache.ts).
 */
export const CROSS_ORIGIN_ISOLATION_HEADERS: Readonly<Record<string, string>> = ISOLATION_HEADERS;

/**
 * The headers of the built app as `vite preview` serves it (and so as the e2e suite runs it):
 * cross-origin isolation and the Content Security Policy of src/security/csp.ts. Not on the dev
 * server: React's fast refresh injects an inline script there, which the policy refuses.
 */
export const PREVIEW_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...CROSS_ORIGIN_ISOLATION_HEADERS,
  'Content-Security-Policy': serializeCsp(),
});

/** `PREVIEW_HEADERS`, with a report endpoint when the e2e suite asks for reports (scripts/csp-reports.ts). */
function previewHeaders(base: string): Record<string, string> {
  if (cspReportFile() === null) return { ...PREVIEW_HEADERS };
  return { ...PREVIEW_HEADERS, 'Content-Security-Policy': withReportUri(serializeCsp(), base) };
}

/**
 * Writes the policies into the built index.html as `<meta http-equiv>`, first in <head>: the
 * app's (the fallback for hosts where headers cannot be set; a meta cannot carry
 * `frame-ancestors`) and Trusted Types, which is for the document only (src/security/csp.ts).
 */
function cspMetaPlugin(): Plugin {
  return {
    name: 'evident-csp-meta',
    apply: 'build',
    transformIndexHtml: () =>
      documentMetaPolicies().map((content) => ({
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content },
        injectTo: 'head-prepend' as const,
      })),
  };
}

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

export default defineConfig(({ isPreview }) => ({
  base: resolveBase(),
  // The service worker (production builds): precaches the app, the embedded model and the
  // runtimes so the app works offline after a first visit (src/sw/, scripts/service-worker-plugin.ts).
  plugins: [
    react(),
    cspMetaPlugin(),
    cspReportPlugin(isPreview ? cspReportFile() : null),
    serviceWorkerPlugin({ entry: 'src/sw/service-worker.ts' }),
  ],
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
  preview: { headers: previewHeaders(resolveBase()) },
}));
