/**
 * Builds pages of the models harness (this folder) into `outDir` with Vite, `public/` as its
 * public folder: used by the Chromium model tests and by `npm run bench -- --embed-browser`.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const PAGE_ROOT = dirname(fileURLToPath(import.meta.url));
const ROOT = join(PAGE_ROOT, '../../..');

/** `pages`: HTML file names in this folder, e.g. `['index.html', 'abort.html']`. */
export async function buildModelsPages(outDir: string, pages: readonly string[]): Promise<void> {
  await build({
    configFile: false,
    root: PAGE_ROOT,
    publicDir: join(ROOT, 'public'),
    logLevel: 'warn',
    // Unminified workers, as in vite.config.ts: threaded tfjs-backend-wasm starts its pthreads
    // from `factory.toString()`, which a minifier breaks ("e is not defined").
    worker: { format: 'es', rolldownOptions: { output: { minify: false } } },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      chunkSizeWarningLimit: 8000,
      rollupOptions: { input: pages.map((p) => join(PAGE_ROOT, p)) },
    },
  });
}
