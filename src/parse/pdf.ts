// The worker module's ambient type must reach every tsconfig that compiles this file (worker, node).
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./pdfjs-worker.d.ts" />
/**
 * PDF → per-page text with page ranges and font-size headings, through pdf.js.
 *
 * pdf.js runs in the calling thread: its worker module is imported first, which sets
 * `globalThis.pdfjsWorker`, and pdf.js then uses that in-thread "fake worker" instead of
 * spawning one. In the browser we are already inside Evident's Web Worker, so nothing blocks
 * the UI; in Node this is what pdf.js does anyway. Node gets the legacy build (the modern one
 * needs newer JavaScript than Node 20 has), the worker the modern build.
 *
 * Safety and fidelity settings, always: `isEvalSupported: false` (no `new Function` for
 * PostScript functions), no font-face or system-font loading (we never render), CMaps and
 * standard fonts through our own `BinaryDataFactory`, so the same code path fetches them in the
 * worker (`fetch`, by URL) and in Node (a `fetchAsset` that reads files). Without CMaps,
 * CJK text comes out empty with no error; our factory notices and says so in a warning.
 *
 * Text: pdf.js gives text items in content-stream order with end-of-line flags; lines are
 * joined within a page, a blank line marks a paragraph gap (a vertical jump over 1.5× the
 * page's usual line gap, a jump up into the next column, or a change of font size). Headings
 * come from font size: lines at least 1.2× the body size (the character-weighted median), at
 * most 150 characters, holding a letter, in runs of at most 3 lines (a longer run is a large
 * paragraph); text that repeats on many pages (running headers) is not a heading. The distinct
 * heading sizes, largest first, become `#`, `##`, `###`.
 */
import { EvidentError } from '../core/errors';
import { MarkdownBuilder } from './markdown-builder';
import { cleanMetadataTitle, normalizeDate } from './metadata';
import { newNormalizeStats, normalizeText, normalizeWarnings, plural } from './normalize';
import type { FetchAsset, ParseProgress, ParseWarning, RawParse } from './types';

/** The part of the pdf.js API this parser uses (the legacy and modern builds share it). */
export interface PdfjsLike {
  getDocument(params: Record<string, unknown>): PdfLoadingTask;
}
interface PdfLoadingTask {
  readonly promise: Promise<PdfDocument>;
  destroy(): Promise<void>;
}
interface PdfDocument {
  readonly numPages: number;
  getPage(n: number): Promise<PdfPage>;
  getMetadata(): Promise<{ info?: unknown; metadata?: { get?(name: string): unknown } | null }>;
}
interface PdfPage {
  getTextContent(params?: Record<string, unknown>): Promise<{ items: readonly unknown[] }>;
  cleanup(): unknown;
}
interface TextItem {
  readonly str: string;
  readonly transform: readonly number[];
  readonly hasEOL: boolean;
}

export interface PdfOptions {
  readonly password?: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: ParseProgress) => void;
  /** Folder URL (trailing "/") of pdf.js's packed CMaps (`pdfjs-dist/cmaps/`). */
  readonly cMapUrl?: string;
  /** Folder URL (trailing "/") of pdf.js's standard fonts (`pdfjs-dist/standard_fonts/`). */
  readonly standardFontDataUrl?: string;
  /** Reads one CMap/font file by URL. Default: `fetch`. */
  readonly fetchAsset?: FetchAsset;
  /** Loads pdf.js. Default: `loadDefaultPdfjs`. */
  readonly loadPdfjs?: () => Promise<PdfjsLike>;
}

/** Ratio over the body size from which a short line is a heading. */
const HEADING_RATIO = 1.2;
const MAX_HEADING_CHARS = 150;
const MAX_HEADING_LINES = 3;
/** Longest line in capitals read as a heading. */
const MAX_CAPS_CHARS = 80;
/** More heading text than this share of all text: font size carries no structure here (slides). */
const MAX_HEADING_SHARE = 0.3;
/** A page with fewer non-space characters than this has no text layer to speak of. */
const MIN_PAGE_CHARS = 5;

// Variables, not literals: bundlers leave these imports alone (they only run in Node).
const NODE_LIB = 'pdfjs-dist/legacy/build/pdf.mjs';
const NODE_WORKER = 'pdfjs-dist/legacy/build/pdf.worker.mjs';

function isNodeRuntime(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: unknown } } }).process;
  return typeof p?.versions?.node === 'string';
}

let pdfjsPromise: Promise<PdfjsLike> | null = null;

/** pdf.js for this runtime, with its worker code loaded into this thread (see the file comment). */
export function loadDefaultPdfjs(): Promise<PdfjsLike> {
  pdfjsPromise ??= (async (): Promise<PdfjsLike> => {
    if (isNodeRuntime()) {
      const lib = (await import(/* @vite-ignore */ NODE_LIB)) as PdfjsLike;
      await import(/* @vite-ignore */ NODE_WORKER);
      return lib;
    }
    const [lib] = await Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.mjs')]);
    return lib as unknown as PdfjsLike;
  })();
  pdfjsPromise.catch(() => {
    pdfjsPromise = null;
  });
  return pdfjsPromise;
}

async function fetchByUrl(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${url}`);
  return new Uint8Array(await response.arrayBuffer());
}

type AssetKind = 'cMapUrl' | 'standardFontDataUrl' | 'wasmUrl';

/**
 * A pdf.js `BinaryDataFactory`: pdf.js constructs it with the configured folder URLs and asks
 * it for files by kind and name. `failed` hears about every kind that could not be served.
 */
function binaryDataFactory(
  fetchAsset: FetchAsset,
  failed: (kind: AssetKind) => void,
): new (urls: Record<string, unknown>) => unknown {
  return class EvidentBinaryDataFactory {
    private readonly urls: Partial<Record<AssetKind, string>>;
    constructor(urls: Record<string, unknown>) {
      const pick = (k: AssetKind): string | undefined =>
        typeof urls[k] === 'string' ? (urls[k] as string) : undefined;
      this.urls = {
        cMapUrl: pick('cMapUrl'),
        standardFontDataUrl: pick('standardFontDataUrl'),
        wasmUrl: pick('wasmUrl'),
      };
    }
    async fetch({ kind, filename }: { kind: AssetKind; filename: string }): Promise<Uint8Array> {
      const base = this.urls[kind];
      if (base === undefined) {
        failed(kind);
        throw new Error(`pdf.js asked for ${kind} "${filename}", which is not configured.`);
      }
      try {
        return await fetchAsset(`${base}${filename}`);
      } catch (err) {
        failed(kind);
        throw err;
      }
    }
  };
}

function isTextItem(x: unknown): x is TextItem {
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof (x as TextItem).str === 'string' &&
    Array.isArray((x as TextItem).transform)
  );
}

interface Line {
  readonly text: string;
  /** Font size carrying most of the line's characters. */
  readonly size: number;
  readonly x: number;
  readonly y: number;
  readonly chars: number;
}

function nonSpace(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x20 && c !== 0xa0 && c !== 0x3000) n++;
  }
  return n;
}

/** Lines of one page from pdf.js text items. */
function pageLines(items: readonly unknown[], normalize: (s: string) => string): Line[] {
  const lines: Line[] = [];
  let parts: string[] = [];
  let x = Number.NaN;
  let y = Number.NaN;
  let sizes = new Map<number, number>();
  const end = (): void => {
    const text = normalize(parts.join('')).replace(/\s+/g, ' ').trim();
    if (text !== '') {
      let size = 0;
      let most = -1;
      let chars = 0;
      for (const [s, n] of sizes) {
        chars += n;
        if (n > most) {
          most = n;
          size = s;
        }
      }
      lines.push({ text, size, x, y, chars });
    }
    parts = [];
    x = Number.NaN;
    y = Number.NaN;
    sizes = new Map();
  };
  for (const item of items) {
    if (!isTextItem(item)) continue; // marked-content markers
    const str = item.str;
    if (str !== '') {
      const t = item.transform;
      if (Number.isNaN(y)) {
        x = t[4] ?? 0;
        y = t[5] ?? 0;
      }
      parts.push(str);
      const n = nonSpace(str);
      if (n > 0) {
        const size = Math.round(Math.hypot(t[2] ?? 0, t[3] ?? 0) * 10) / 10;
        sizes.set(size, (sizes.get(size) ?? 0) + n);
      }
    }
    if (item.hasEOL) end();
  }
  end();
  return lines;
}

/** Character-weighted median font size over all lines. */
function bodySize(pages: readonly (readonly Line[])[]): number {
  const weight = new Map<number, number>();
  let total = 0;
  for (const lines of pages) {
    for (const l of lines) {
      weight.set(l.size, (weight.get(l.size) ?? 0) + l.chars);
      total += l.chars;
    }
  }
  const sorted = [...weight.entries()].sort((a, b) => a[0] - b[0]);
  let seen = 0;
  for (const [size, n] of sorted) {
    seen += n;
    if (seen * 2 >= total) return size;
  }
  return 0;
}

type Piece =
  | {
      readonly kind: 'heading';
      readonly text: string;
      readonly size: number;
      readonly lines: readonly Line[];
      /** Set for capitalized body-size headings; font-size headings get theirs from `levels`. */
      readonly level?: number;
    }
  | { readonly kind: 'line'; readonly line: Line };

/** Running headers repeat with a different page number: compare texts without digits. */
function repeatKey(text: string): string {
  return text.replace(/\d+/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** A heading back to its body lines. */
function demote(piece: Piece): Piece[] {
  return piece.kind === 'line' ? [piece] : piece.lines.map((line) => ({ kind: 'line' as const, line }));
}

/** Each page's lines grouped into headings and body lines (see the file comment). */
function findHeadings(pages: readonly (readonly Line[])[]): { pieces: Piece[][]; levels: Map<number, number> } {
  const body = bodySize(pages);
  const isCandidate = (l: Line): boolean =>
    body > 0 && l.size >= body * HEADING_RATIO && l.text.length <= MAX_HEADING_CHARS && /\p{L}/u.test(l.text);

  // Runs of candidate lines of one size on one page.
  const grouped: Piece[][] = pages.map((lines) => {
    const out: Piece[] = [];
    let i = 0;
    while (i < lines.length) {
      const l = lines[i] as Line;
      if (!isCandidate(l)) {
        out.push({ kind: 'line', line: l });
        i++;
        continue;
      }
      let j = i + 1;
      while (j < lines.length && isCandidate(lines[j] as Line) && Math.abs((lines[j] as Line).size - l.size) < 0.5) j++;
      const run = lines.slice(i, j);
      const text = run.map((r) => r.text).join(' ');
      if (run.length <= MAX_HEADING_LINES && text.length <= MAX_HEADING_CHARS * 1.5) {
        out.push({ kind: 'heading', text, size: l.size, lines: run });
      } else for (const r of run) out.push({ kind: 'line', line: r });
      i = j;
    }
    return out;
  });

  // Running headers: the same text as a "heading" on many pages.
  const pagesOf = new Map<string, Set<number>>();
  grouped.forEach((pieces, p) => {
    for (const piece of pieces) {
      if (piece.kind !== 'heading') continue;
      const key = repeatKey(piece.text);
      let set = pagesOf.get(key);
      if (set === undefined) pagesOf.set(key, (set = new Set()));
      set.add(p);
    }
  });
  const running = (text: string): boolean => {
    const n = pagesOf.get(repeatKey(text))?.size ?? 0;
    return n >= 3 && n >= pages.length * 0.2;
  };
  let headingChars = 0;
  let allChars = 0;
  for (const lines of pages) for (const l of lines) allChars += l.chars;
  const pieces = grouped.map((page) =>
    page.flatMap((piece) => {
      if (piece.kind === 'heading' && running(piece.text)) return demote(piece);
      if (piece.kind === 'heading') for (const l of piece.lines) headingChars += l.chars;
      return [piece];
    }),
  );
  const levels = new Map<number, number>();
  if (headingChars > allChars * MAX_HEADING_SHARE) {
    return { pieces: pieces.map((page) => page.flatMap(demote)), levels };
  }
  const sizes = new Set<number>();
  for (const page of pieces)
    for (const piece of page) if (piece.kind === 'heading') sizes.add(Math.round(piece.size * 2) / 2);
  [...sizes].sort((a, b) => b - a).forEach((s, rank) => levels.set(s, Math.min(rank + 1, 3)));
  return { pieces: capitalHeadings(pieces, pages, Math.min(sizes.size + 1, 3)), levels };
}

/**
 * A short line in capitals ("TITLE I: WIPO TREATY IMPLEMENTATION"), a heading in reports set in
 * one size; not one that starts or ends with a number apart ("CONCLUSION 257", a contents entry;
 * "124 FREE CULTURE", a running header with its page number).
 */
function isCapsLine(text: string): boolean {
  if (text.length > MAX_CAPS_CHARS || /\s\d+$|^\d+\s/.test(text)) return false;
  let upper = 0;
  let lower = 0;
  let solid = 0;
  for (const ch of text) {
    if (ch !== ' ') solid++;
    if (ch !== ch.toLowerCase()) upper++;
    else if (ch !== ch.toUpperCase()) lower++;
  }
  // Mostly letters: "KA>29:92># L<ID2#" is a figure's debris, not a heading.
  return upper >= 4 && lower === 0 && upper >= solid * 0.6;
}

/** "CHAPTER ONE: Creators", "Part 2 — Scope", "Appendix B": a heading by its first word. */
function isChapterLine(text: string): boolean {
  return (
    text.length <= MAX_CAPS_CHARS && /^(?:chapter|part|appendix)\s+[\p{L}\d.]+(?:[:.\u2013\u2014-]|$)/iu.test(text)
  );
}

/**
 * Body lines in capitals (or starting "Chapter", "Part", "Appendix") that stand alone (a paragraph gap or a heading on both sides) become
 * headings one level below the font-size ones; the same text on many pages is a running header.
 */
function capitalHeadings(pieces: readonly Piece[][], pages: readonly (readonly Line[])[], level: number): Piece[][] {
  const standalone = pieces.map((page, p) => {
    const gap = usualLineGap(pages[p] as readonly Line[]);
    const apart = (a: Piece | undefined, b: Piece | undefined): boolean =>
      a === undefined ||
      b === undefined ||
      a.kind === 'heading' ||
      b.kind === 'heading' ||
      paragraphGap(a.line, b.line, gap);
    return page.map(
      (piece, i) =>
        piece.kind === 'line' &&
        (isCapsLine(piece.line.text) || isChapterLine(piece.line.text)) &&
        apart(page[i - 1], piece) &&
        apart(piece, page[i + 1]),
    );
  });
  // Repetition over all lines: a running footer ("124 FREE CULTURE") is standalone only sometimes.
  const wanted = new Set<string>();
  pieces.forEach((page, p) =>
    page.forEach((piece, i) => {
      if (standalone[p]?.[i] && piece.kind === 'line') wanted.add(repeatKey(piece.line.text));
    }),
  );
  const pagesOf = new Map<string, Set<number>>();
  pages.forEach((lines, p) => {
    for (const line of lines) {
      const key = repeatKey(line.text);
      if (!wanted.has(key)) continue;
      let set = pagesOf.get(key);
      if (set === undefined) pagesOf.set(key, (set = new Set()));
      set.add(p);
    }
  });
  return pieces.map((page, p) =>
    page.map((piece, i): Piece => {
      if (!standalone[p]?.[i] || piece.kind !== 'line') return piece;
      const n = pagesOf.get(repeatKey(piece.line.text))?.size ?? 0;
      if (n >= 3 && n >= pages.length * 0.2) return piece;
      return { kind: 'heading', text: piece.line.text, size: piece.line.size, lines: [piece.line], level };
    }),
  );
}

/** True when a blank line belongs between two consecutive body lines. */
function paragraphGap(prev: Line, line: Line, lineGap: number): boolean {
  const big = Math.max(prev.size, line.size);
  if (big > 0 && Math.abs(prev.size - line.size) > big * 0.15) return true;
  if (lineGap <= 0) return false;
  const dy = prev.y - line.y;
  return dy > lineGap * 1.5 + 0.5 || dy < -lineGap;
}

/** The page's usual distance between consecutive lines (median of plausible gaps), or 0. */
function usualLineGap(lines: readonly Line[]): number {
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const a = lines[i - 1] as Line;
    const b = lines[i] as Line;
    const dy = a.y - b.y;
    if (dy > 0 && dy < Math.max(a.size, b.size) * 4) gaps.push(dy);
  }
  if (gaps.length < 2) return 0;
  gaps.sort((p, q) => p - q);
  return gaps[gaps.length >> 1] as number;
}

function str(info: Record<string, unknown>, key: string): string | undefined {
  const v = info[key];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function aborted(): EvidentError {
  return new EvidentError('aborted', 'Reading the file was cancelled.');
}

/** Maps a pdf.js failure to a message a user can act on. */
function pdfError(err: unknown, passwordGiven: boolean): EvidentError {
  if (err instanceof EvidentError) return err;
  const e = err as { name?: string; code?: number; message?: string };
  if (e?.name === 'PasswordException') {
    // pdf.js: code 1 = a password is needed, code 2 = the one given is wrong.
    if (e.code === 2 || (e.code === 1 && passwordGiven)) {
      return new EvidentError('pdf_wrong_password', 'That password does not open this PDF. Check it and try again.');
    }
    return new EvidentError('pdf_password_required', 'This PDF is password-protected. Enter its password to open it.');
  }
  if (e?.name === 'InvalidPDFException') {
    return new EvidentError(
      'pdf_corrupt',
      'This PDF is damaged or incomplete (it may have been cut off while downloading), so it cannot be read.',
    );
  }
  return new EvidentError(
    'pdf_corrupt',
    `This PDF could not be read; it may be damaged. (${e?.message ?? String(err)})`,
  );
}

/** Reads a PDF. Throws `pdf_*` errors with plain messages; `pdf_no_text` when no page has text. */
export async function parsePdf(bytes: Uint8Array, options: PdfOptions = {}): Promise<RawParse> {
  const { signal, onProgress, password } = options;
  if (signal?.aborted) throw aborted();
  const pdfjs = await (options.loadPdfjs ?? loadDefaultPdfjs)();
  if (signal?.aborted) throw aborted();

  let cmapFailures = 0;
  const Factory = binaryDataFactory(options.fetchAsset ?? fetchByUrl, (kind) => {
    if (kind === 'cMapUrl') cmapFailures++;
  });
  const task = pdfjs.getDocument({
    // pdf.js transfers the buffer it is given to its worker side: hand it a copy.
    data: bytes.slice(),
    ...(password !== undefined ? { password } : {}),
    cMapUrl: options.cMapUrl,
    cMapPacked: true,
    standardFontDataUrl: options.standardFontDataUrl,
    BinaryDataFactory: Factory,
    useWorkerFetch: false,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    enableXfa: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  const onAbort = (): void => {
    void task.destroy();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    let doc: PdfDocument;
    try {
      doc = await task.promise;
    } catch (err) {
      if (signal?.aborted) throw aborted();
      throw pdfError(err, password !== undefined);
    }
    const meta = await doc.getMetadata().catch(() => ({ info: {}, metadata: null }));
    const info = (typeof meta.info === 'object' && meta.info !== null ? meta.info : {}) as Record<string, unknown>;

    const stats = newNormalizeStats();
    const normalize = (s: string): string => normalizeText(s, stats);
    const total = doc.numPages;
    const pages: Line[][] = [];
    const unreadable: number[] = [];
    for (let p = 1; p <= total; p++) {
      if (signal?.aborted) throw aborted();
      try {
        const page = await doc.getPage(p);
        const content = await page.getTextContent();
        pages.push(pageLines(content.items, normalize));
        page.cleanup();
      } catch (err) {
        if (signal?.aborted) throw aborted();
        if (err instanceof EvidentError) throw err;
        pages.push([]);
        unreadable.push(p);
      }
      onProgress?.({ phase: 'pages', done: p, total });
    }

    let chars = 0;
    const empty: number[] = [];
    pages.forEach((lines, i) => {
      const n = lines.reduce((sum, l) => sum + l.chars, 0);
      chars += n;
      if (n < MIN_PAGE_CHARS && !unreadable.includes(i + 1)) empty.push(i + 1);
    });
    if (chars === 0) {
      if (unreadable.length === total && total > 0) {
        throw new EvidentError('pdf_corrupt', 'This PDF is damaged: none of its pages could be read.');
      }
      throw new EvidentError(
        'pdf_no_text',
        'This PDF has no extractable text (scanned?): its pages are images. Run it through OCR (text recognition) and add the result.',
      );
    }

    const { pieces, levels } = findHeadings(pages);
    const out = new MarkdownBuilder();
    pieces.forEach((page, i) => {
      out.startPage(i + 1);
      const gap = usualLineGap(pages[i] as Line[]);
      let para: string[] = [];
      let prev: Line | null = null;
      const flush = (): void => {
        if (para.length > 0) out.paragraph(para.join('\n'));
        para = [];
        prev = null;
      };
      for (const piece of page) {
        if (piece.kind === 'heading') {
          flush();
          out.heading(piece.level ?? levels.get(Math.round(piece.size * 2) / 2) ?? 3, piece.text);
          continue;
        }
        if (prev !== null && paragraphGap(prev, piece.line, gap)) flush();
        para.push(piece.line.text);
        prev = piece.line;
      }
      flush();
      out.endPage();
    });
    const text = out.toString();

    const warnings: ParseWarning[] = [];
    if (empty.length > 0) {
      warnings.push({
        code: 'pages_without_text',
        message: `${empty.length} of ${total} page${plural(total)} have no text layer (scanned?): ${listPages(empty)}. Their content is not searchable without OCR.`,
        count: empty.length,
      });
    }
    if (unreadable.length > 0) {
      warnings.push({
        code: 'pages_unreadable',
        message: `${unreadable.length} page${plural(unreadable.length)} could not be read (damaged): ${listPages(unreadable)}.`,
        count: unreadable.length,
      });
    }
    if (cmapFailures > 0) {
      warnings.push({
        code: 'pdf_cmap_unavailable',
        message:
          'Some fonts in this PDF need character maps that could not be loaded, so some text (often Chinese, Japanese or Korean) may be missing.',
        count: cmapFailures,
      });
    }
    warnings.push(...normalizeWarnings(stats));

    const xmpTitle = meta.metadata?.get?.('dc:title');
    const title =
      cleanMetadataTitle(str(info, 'Title')) ?? cleanMetadataTitle(typeof xmpTitle === 'string' ? xmpTitle : undefined);
    const author = str(info, 'Author');
    const created = normalizeDate(str(info, 'CreationDate'));
    const modified = normalizeDate(str(info, 'ModDate'));
    const language = str(info, 'Language');
    const extra = [str(info, 'Subject'), str(info, 'Keywords')].filter((s) => s !== undefined).join(' ');
    return {
      format: 'pdf',
      text,
      pages: out.pages,
      headings: out.headings,
      warnings,
      ...(title !== undefined ? { title } : {}),
      ...(author !== undefined ? { author } : {}),
      ...(created !== undefined ? { created } : {}),
      ...(modified !== undefined ? { modified } : {}),
      ...(language !== undefined ? { language } : {}),
      ...(extra !== '' ? { extra } : {}),
    };
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await task.destroy().catch(() => {});
  }
}

function listPages(pages: readonly number[]): string {
  const shown = pages.slice(0, 10).join(', ');
  return pages.length > 10 ? `${shown} and ${pages.length - 10} more` : shown;
}
