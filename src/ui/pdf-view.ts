/**
 * pdf.js for the page view, loaded on first use (nothing of it in the app's first load).
 * Everything comes from the app's own origin: the library and its worker are pdf.js's own
 * minified modules, copied by Vite into `assets/` under hashed names — the same two files the
 * engine's worker parses with (`src/parse/pdfjs-files.ts`), so the build holds one copy of
 * pdf.js — and the service worker precaches `assets/` like every built file, so the view works
 * offline; the CMaps and standard fonts are the parser's too, in `vendor/pdfjs/`.
 *
 * Rendering runs in pdf.js's own worker, not in Evident's: the engine's worker keeps answering
 * questions while a page is drawn, and the page needs a canvas the DOM owns.
 */
import type * as Pdfjs from 'pdfjs-dist';
import { PDFJS_LIB_URL, PDFJS_WORKER_URL } from '../parse/pdfjs-files';

export type PdfjsLib = typeof Pdfjs;
export type PdfDocument = Pdfjs.PDFDocumentProxy;

let loading: Promise<PdfjsLib> | null = null;

/** The pdf.js library with its worker configured (once per page). */
export function loadPdfjs(): Promise<PdfjsLib> {
  loading ??= (async () => {
    // A same-origin module (`script-src 'self'`); the Trusted Types policy lets pdf.js start its worker from it.
    const lib = (await import(/* @vite-ignore */ PDFJS_LIB_URL)) as PdfjsLib;
    lib.GlobalWorkerOptions.workerSrc = PDFJS_WORKER_URL;
    return lib;
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/** The app's own folder for a vendored asset, as an absolute URL ending in "/". */
function assetFolder(path: string): string {
  return new URL(`${import.meta.env.BASE_URL}${path}`, globalThis.location.href).href;
}

/**
 * Opens a PDF's bytes for rendering, with the same safety settings as the parser (no `eval`, no
 * XFA, no system fonts). pdf.js takes over the buffer it is given: pass a copy if you keep it.
 */
export async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  const lib = await loadPdfjs();
  return lib.getDocument({
    data: bytes,
    cMapUrl: assetFolder('vendor/pdfjs/cmaps/'),
    cMapPacked: true,
    standardFontDataUrl: assetFolder('vendor/pdfjs/standard_fonts/'),
    isEvalSupported: false,
    enableXfa: false,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
}
