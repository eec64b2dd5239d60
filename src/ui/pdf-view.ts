/**
 * pdf.js for the page view, loaded on first use (a lazy chunk: the first load of the app is
 * unchanged). Everything comes from the app's own origin: the library chunk, its worker file
 * (`?url`: Vite copies the already-minified worker into `assets/` under a hashed name, and the
 * service worker precaches `assets/` like every built file, so the view works offline), and the
 * CMaps and standard fonts in `vendor/pdfjs/` that the parser's worker uses too.
 *
 * Rendering runs in pdf.js's own worker, not in Evident's: the engine's worker keeps answering
 * questions while a page is drawn, and the page needs a canvas the DOM owns.
 */
import type * as Pdfjs from 'pdfjs-dist';

export type PdfjsLib = typeof Pdfjs;
export type PdfDocument = Pdfjs.PDFDocumentProxy;

let loading: Promise<PdfjsLib> | null = null;

/** The pdf.js library with its worker configured (once per page). */
export function loadPdfjs(): Promise<PdfjsLib> {
  loading ??= (async () => {
    const [lib, worker] = await Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]);
    lib.GlobalWorkerOptions.workerSrc = worker.default;
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
