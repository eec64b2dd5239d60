/**
 * The two files of pdf.js the built app loads, as URLs of the app's own origin: the library and
 * its worker module, both already minified by pdf.js (`pdfjs-dist/build/*.min.mjs`). Vite copies
 * each into `assets/` under a content-hashed name (`?url`), once, whoever imports it: the page
 * view (`src/ui/pdf-view.ts`) and the engine's worker (`loadDefaultPdfjs` in `pdf.ts`) load the
 * same two files, so the precache holds one copy of pdf.js, not one per bundle. Bundled
 * (`import('pdfjs-dist')`), each bundle would get its own: the worker's unminified (see
 * `vite.config.ts`, `worker.rolldownOptions`), 2.7 MB of it.
 *
 * Browser builds only: Node has no `?url` imports, and parses with pdf.js's legacy build.
 */
import libUrl from 'pdfjs-dist/build/pdf.min.mjs?url';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

/** pdf.js's library module (`getDocument`, `TextLayer`, …). */
export const PDFJS_LIB_URL: string = libUrl;

/**
 * pdf.js's worker module. Imported into a thread, it sets `globalThis.pdfjsWorker`, and pdf.js
 * then runs its worker side in that thread; as `GlobalWorkerOptions.workerSrc`, pdf.js starts it
 * as a Worker of its own.
 */
export const PDFJS_WORKER_URL: string = workerUrl;
