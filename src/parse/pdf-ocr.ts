/**
 * OCR of PDF pages that have no text layer (scanned pages), with tesseract.js and its WASM core.
 *
 * The PDF parser calls `ocrPage` only for a page whose text layer is empty (`MIN_PAGE_CHARS`):
 * the page is rendered with pdf.js (an `OffscreenCanvas` in the worker, pdf.js's own Node canvas
 * — `@napi-rs/canvas`, already a dependency of pdfjs-dist — in Node), recognized, and the words
 * come back as positioned items in PDF user space, so the same layout stages (lines, columns,
 * tables, headings) read a scan as they read a text layer.
 *
 * Everything tesseract.js needs is self-hosted: its worker script, its LSTM-only core and
 * `eng.traineddata` (`@tesseract.js-data/eng`, the `4.0.0_best_int` model) are served from the
 * app's origin (`public/vendor/tesseract/`, copied by `scripts/copy-assets.ts`) or, in Node, read
 * from `node_modules`. `workerPath`, `corePath` and `langPath` are always set, so tesseract.js's
 * CDN defaults are never used; `cacheMethod: 'none'` keeps it from writing its own cache (the
 * service worker caches the files on first use).
 */
import { EvidentError } from '../core/errors';
import type { PositionedItem } from './pdf-layout';

/** Rendering scale: 2 × 72 dpi = 144 dpi, where tesseract's LSTM reads body text reliably. */
export const OCR_SCALE = 2;
/** A page whose mean word confidence is below this (0–100) is flagged to the user. */
export const LOW_CONFIDENCE = 70;
/** Words at or above this confidence count as read. */
const READ_WORD_CONFIDENCE = 50;
/** Fewer read words of 2+ letters than this: no readable English text on the page. */
const MIN_READ_WORDS = 3;
/**
 * Below this mean word confidence a page is not English text tesseract can read: the clean
 * English fixtures score ~96, the shared Russian scan read with English data 12 and 23 (its
 * Cyrillic comes out as Latin look-alikes, "Pesy Tb TaTbl"), so the line sits well between.
 */
export const MIN_PAGE_CONFIDENCE = 40;

/** Where tesseract.js's files are (folder URLs or, in Node, folder paths; trailing "/" optional). */
export interface OcrAssets {
  /** tesseract.js's worker script (`tesseract.js/dist/worker.min.js`); browser only. */
  readonly workerPath?: string;
  /** Folder of the `tesseract-core-*-lstm.wasm.js` files; browser only. */
  readonly corePath?: string;
  /** Folder holding `eng.traineddata.gz`. */
  readonly langPath: string;
}

export interface OcrOptions {
  /** Turned off: scanned pages stay without text, as before OCR existed. Default true. */
  readonly enabled?: boolean;
  readonly assets?: OcrAssets;
  /** Per-page progress: `done` of `total` pages to OCR in this document. */
  readonly onPage?: (p: { readonly page: number; readonly done: number; readonly total: number }) => void;
}

/** What OCR read on one page. */
export interface OcrPage {
  /** Words in PDF user space (points, y up), one item per word. */
  readonly items: readonly PositionedItem[];
  /**
   * Each item's box as the page is drawn (`x0, y0, x1, y1`: points from the top-left corner, the
   * page's rotation applied, the word's left and right and its line's top and bottom), for the
   * page view's marks (`OcrWords.boxes`).
   */
  readonly boxes: readonly number[];
  /** Mean word confidence, 0–100, weighted by word length. */
  readonly confidence: number;
  /** Words at or above `READ_WORD_CONFIDENCE` with 2+ letters. */
  readonly readWords: number;
}

interface TessWord {
  readonly text: string;
  readonly confidence: number;
  readonly bbox: { x0: number; y0: number; x1: number; y1: number };
}
interface TessLine {
  readonly words: readonly TessWord[];
  readonly bbox: { x0: number; y0: number; x1: number; y1: number };
}
interface TessData {
  readonly confidence: number;
  readonly blocks: readonly { paragraphs: readonly { lines: readonly TessLine[] }[] }[] | null;
}
interface TessWorker {
  recognize(image: unknown, options?: unknown, output?: unknown): Promise<{ data: TessData }>;
  terminate(): Promise<unknown>;
}

/** The part of a pdf.js page OCR uses. */
export interface OcrPdfPage {
  getViewport(params: { scale: number }): { width: number; height: number };
  render(params: Record<string, unknown>): { promise: Promise<void>; cancel(): void };
}

// Variables, not literals: bundlers leave these imports alone (they only run in Node).
const NODE_CANVAS = '@napi-rs/canvas';

function isNodeRuntime(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: unknown } } }).process;
  return typeof p?.versions?.node === 'string';
}

function aborted(): EvidentError {
  return new EvidentError('aborted', 'Reading the file was cancelled.');
}

/** Rejects as soon as `signal` aborts; `cleanup` removes the listener. */
function abortRace(signal: AbortSignal | undefined): { promise: Promise<never>; cleanup: () => void } {
  let onAbort = (): void => {};
  const promise = new Promise<never>((_, reject) => {
    onAbort = (): void => reject(aborted());
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  promise.catch(() => {});
  return { promise, cleanup: () => signal?.removeEventListener('abort', onAbort) };
}

/**
 * One tesseract.js worker for one document: created on the first scanned page (so a text PDF
 * never loads OCR), terminated by `dispose` — also what cancels a page mid-recognition.
 */
export class PageOcr {
  private worker: Promise<TessWorker> | null = null;
  private disposed = false;

  constructor(private readonly assets: OcrAssets) {}

  private start(): Promise<TessWorker> {
    this.worker ??= (async () => {
      const { createWorker, OEM } = await import('tesseract.js');
      const a = this.assets;
      const worker = await createWorker('eng', OEM.LSTM_ONLY, {
        langPath: a.langPath.replace(/\/$/, ''),
        ...(a.workerPath !== undefined ? { workerPath: a.workerPath, workerBlobURL: false } : {}),
        ...(a.corePath !== undefined ? { corePath: a.corePath } : {}),
        cacheMethod: 'none',
        gzip: true,
      });
      return worker as unknown as TessWorker;
    })();
    return this.worker;
  }

  /** Renders and recognizes one page. Rejects with `aborted` within a moment of `signal` firing. */
  async recognize(page: OcrPdfPage, signal?: AbortSignal): Promise<OcrPage> {
    if (signal?.aborted || this.disposed) throw aborted();
    const race = abortRace(signal);
    try {
      const { image, height } = await Promise.race([renderPage(page), race.promise]);
      const worker = await Promise.race([this.start(), race.promise]);
      const { data } = await Promise.race([worker.recognize(image, {}, { blocks: true, text: false }), race.promise]);
      return wordsOf(data, height / OCR_SCALE);
    } catch (err) {
      if (signal?.aborted) {
        await this.dispose();
        throw aborted();
      }
      throw err;
    } finally {
      race.cleanup();
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const w = this.worker;
    this.worker = null;
    if (w) await w.then((x) => x.terminate()).catch(() => {});
  }
}

/**
 * pdf.js's canvas factory for a Web Worker (its default creates canvases with `document`): the
 * scratch canvases pdf.js draws images through, as `OffscreenCanvas`. Undefined where there is a
 * `document` or no `OffscreenCanvas` (Node: pdf.js's own `@napi-rs/canvas` factory).
 */
export function workerCanvasFactory(): (new (options: unknown) => unknown) | undefined {
  if (typeof OffscreenCanvas === 'undefined' || 'document' in globalThis) return undefined;
  type Pair = { canvas: OffscreenCanvas | null; context: OffscreenCanvasRenderingContext2D | null };
  return class OffscreenCanvasFactory {
    create(width: number, height: number): Pair {
      const canvas = new OffscreenCanvas(Math.max(1, width), Math.max(1, height));
      return { canvas, context: canvas.getContext('2d', { willReadFrequently: true }) };
    }
    reset(pair: Pair, width: number, height: number): void {
      if (!pair.canvas) return;
      pair.canvas.width = Math.max(1, width);
      pair.canvas.height = Math.max(1, height);
    }
    destroy(pair: Pair): void {
      if (pair.canvas) {
        pair.canvas.width = 0;
        pair.canvas.height = 0;
      }
      pair.canvas = null;
      pair.context = null;
    }
  };
}

/** The page at `OCR_SCALE` as an image tesseract.js reads (an `OffscreenCanvas`, or PNG bytes in Node). */
async function renderPage(page: OcrPdfPage): Promise<{ image: unknown; width: number; height: number }> {
  const viewport = page.getViewport({ scale: OCR_SCALE });
  const width = Math.ceil(viewport.width);
  const height = Math.ceil(viewport.height);
  if (isNodeRuntime()) {
    const { createCanvas } = (await import(/* @vite-ignore */ NODE_CANVAS)) as {
      createCanvas(
        w: number,
        h: number,
      ): {
        getContext(kind: '2d'): { fillStyle: string; fillRect(x: number, y: number, w: number, h: number): void };
        toBuffer(mime: 'image/png'): Uint8Array;
      };
    };
    const canvas = createCanvas(width, height);
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    await page.render({ canvas, canvasContext: context, viewport }).promise;
    return { image: canvas.toBuffer('image/png'), width, height };
  }
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) throw new EvidentError('pdf_corrupt', 'This browser cannot render PDF pages for OCR.');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  await page.render({ canvas, canvasContext: context, viewport }).promise;
  return { image: canvas, width, height };
}

/**
 * tesseract's words as positioned items: one item per word, every word of a line on the line's
 * bottom edge with the line's x-height-free size (its box height × 0.75, about a font's em for
 * mixed-case text), so the layout stages group them into the lines tesseract found.
 */
export function wordsOf(data: TessData, pageHeight: number): OcrPage {
  const items: PositionedItem[] = [];
  const boxes: number[] = [];
  let confSum = 0;
  let words = 0;
  let readWords = 0;
  for (const block of data.blocks ?? [])
    for (const para of block.paragraphs)
      for (const line of para.lines) {
        const y = pageHeight - line.bbox.y1 / OCR_SCALE;
        const size = Math.round(((line.bbox.y1 - line.bbox.y0) / OCR_SCALE) * 0.75 * 10) / 10;
        for (const w of line.words) {
          const text = w.text.trim();
          if (text === '') continue;
          // Weighted by length: specks read as one-character "words" say little about the text.
          words += text.length;
          confSum += w.confidence * text.length;
          if (w.confidence >= READ_WORD_CONFIDENCE && /\p{L}.*\p{L}/u.test(text)) readWords++;
          items.push({
            str: text,
            x: w.bbox.x0 / OCR_SCALE,
            y,
            width: (w.bbox.x1 - w.bbox.x0) / OCR_SCALE,
            size: size > 0 ? size : 1,
          });
          // The line's top and bottom: a mark over words of one line is one band, not a ragged one.
          boxes.push(point(w.bbox.x0), point(line.bbox.y0), point(w.bbox.x1), point(line.bbox.y1));
        }
      }
  return { items, boxes, confidence: words > 0 ? Math.round((confSum / words) * 10) / 10 : 0, readWords };
}

/** An image coordinate at `OCR_SCALE` in points, to a tenth (a mark needs no more). */
function point(px: number): number {
  return Math.round((px / OCR_SCALE) * 10) / 10;
}

/** Whether OCR read English text on a page: a page confidence worth keeping and enough words it is sure of. */
export function isReadable(page: OcrPage): boolean {
  return page.confidence >= MIN_PAGE_CONFIDENCE && page.readWords >= MIN_READ_WORDS;
}

/** Browser: the self-hosted copies under `base` (the app's base URL, trailing "/"). */
export function hostedOcrAssets(base: string): OcrAssets {
  return {
    workerPath: `${base}vendor/tesseract/worker.min.js`,
    corePath: `${base}vendor/tesseract/`,
    langPath: `${base}vendor/tesseract/lang`,
  };
}
