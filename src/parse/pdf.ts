// The ambient types of pdfjs-files.ts's `?url` imports must reach every tsconfig that compiles this file (worker, node).
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./pdfjs-worker.d.ts" />
/**
 * PDF → per-page text with page ranges and font-size headings, through pdf.js.
 *
 * pdf.js runs in the calling thread: its worker module is imported first, which sets
 * `globalThis.pdfjsWorker`, and pdf.js then uses that in-thread "fake worker" instead of
 * spawning one. In the browser we are already inside Evident's Web Worker, so nothing blocks
 * the UI; in Node this is what pdf.js does anyway. Node gets the legacy build (the modern one
 * needs newer JavaScript than Node 20 has), the worker the modern build's minified files, the
 * same two the page view loads (`pdfjs-files.ts`).
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
import { MarkdownBuilder, type PageMark } from './markdown-builder';
import { cleanMetadataTitle, filingTitle, normalizeDate } from './metadata';
import { newNormalizeStats, normalizeText, normalizeWarnings, plural } from './normalize';
import {
  findFurniture,
  findTables,
  continuesSequence,
  isStatementTitle,
  layoutPage,
  numberedHeading,
  sequenceNumber,
  type LayoutLine,
  type PageBox,
  type PageFurniture,
  type PositionedItem,
  type TableBlock,
} from './pdf-layout';
import { placeWords } from './ocr-words';
import { LOW_CONFIDENCE, PageOcr, isReadable, workerCanvasFactory, type OcrOptions, type OcrPdfPage } from './pdf-ocr';
import { HIDDEN_CLOSE, hiddenOpen, stripSentinels } from './hidden';
import { DEFAULT_OPS, drawnText, hiddenKindOf, type DrawnText, type OperatorList, type PdfOps } from './pdf-hidden';
import type { FetchAsset, PageRange, ParseProgress, ParseWarning, RawParse } from './types';

/** The part of the pdf.js API this parser uses (the legacy and modern builds share it). */
export interface PdfjsLike {
  getDocument(params: Record<string, unknown>): PdfLoadingTask;
  readonly OPS?: PdfOps;
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
  /** The page box, [x0, y0, x1, y1]. */
  readonly view?: readonly number[];
  getTextContent(params?: Record<string, unknown>): Promise<{ items: readonly unknown[] }>;
  /** How the page draws (render modes, colours, images): read for hidden text (`pdf-hidden.ts`). */
  getOperatorList?(params?: Record<string, unknown>): Promise<OperatorList>;
  cleanup(): unknown;
  /** Rendering, used only by OCR (`pdf-ocr.ts`). */
  getViewport?: OcrPdfPage['getViewport'];
  render?: OcrPdfPage['render'];
}
interface TextItem {
  readonly str: string;
  readonly transform: readonly number[];
  readonly width?: number;
  readonly fontName?: string;
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
  /**
   * OCR of pages without a text layer (`pdf-ocr.ts`); off when absent, when `enabled` is false
   * or when it has no `assets`. A PDF whose every page has text never loads OCR.
   */
  readonly ocr?: OcrOptions;
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
    // The page view's two files (one copy of pdf.js in the build); importing the worker module sets
    // `globalThis.pdfjsWorker`. Same-origin module imports: `script-src 'self'` allows them.
    const { PDFJS_LIB_URL, PDFJS_WORKER_URL } = await import('./pdfjs-files');
    const [lib] = await Promise.all([
      import(/* @vite-ignore */ PDFJS_LIB_URL) as Promise<PdfjsLike>,
      import(/* @vite-ignore */ PDFJS_WORKER_URL),
    ]);
    return lib;
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

type Line = LayoutLine;

/** pdf.js text items as positioned items (marked-content markers dropped). */
function positionedItems(items: readonly unknown[]): PositionedItem[] {
  const out: PositionedItem[] = [];
  for (const item of items) {
    if (!isTextItem(item) || item.str === '') continue;
    const t = item.transform;
    out.push({
      str: item.str,
      x: t[4] ?? 0,
      y: t[5] ?? 0,
      width: typeof item.width === 'number' && Number.isFinite(item.width) ? item.width : 0,
      size: Math.round(Math.hypot(t[2] ?? 0, t[3] ?? 0) * 10) / 10,
      ...(typeof item.fontName === 'string' ? { fontName: item.fontName } : {}),
    });
  }
  return out;
}

/** Lines of one page in reading order, their text normalized. */
function pageLines(items: readonly unknown[], normalize: (s: string) => string): Line[] {
  return positionedLines(positionedItems(items), normalize);
}

/**
 * Text items with the text a reader cannot see wrapped in hidden-text marks (`pdf-hidden.ts`,
 * `hidden.ts`); the file's own text never carries a mark. Returns how many items were hidden.
 */
function markHidden(
  items: readonly unknown[],
  view: readonly number[] | undefined,
  drawn: DrawnText | null,
): { items: unknown[]; hidden: number } {
  let hidden = 0;
  const kinds = items.map((item) =>
    isTextItem(item) && item.str !== '' ? hiddenKindOf({ ...item, str: stripSentinels(item.str) }, view, drawn) : null,
  );
  // Tiny text is planted beside readable text; a page whose every item reads as tiny has a font
  // matrix pdf.js does not size (a 10-K exhibit: 0.55 pt by the matrix, plainly readable).
  const allTiny = items.every((item, i) => kinds[i] === 'tiny_text' || !isTextItem(item) || item.str.trim() === '');
  const out = items.map((item, i) => {
    if (!isTextItem(item) || item.str === '') return item;
    const str = stripSentinels(item.str);
    const found = kinds[i] ?? null;
    const kind = found === 'tiny_text' && allTiny ? null : found;
    if (kind === null) return str === item.str ? item : { ...item, str };
    hidden++;
    return { ...item, str: hiddenOpen(kind) + str + HIDDEN_CLOSE };
  });
  return { items: out, hidden };
}

/** The page's operator-list reading, or null where the page cannot give one (the text still counts). */
async function readDrawn(page: PdfPage, ops: PdfOps): Promise<DrawnText | null> {
  if (page.getOperatorList === undefined) return null;
  try {
    return drawnText(await page.getOperatorList(), ops);
  } catch {
    return null;
  }
}

/** Lines of positioned items (a text layer's or OCR's words) in reading order, normalized. */
function positionedLines(items: readonly PositionedItem[], normalize: (s: string) => string): Line[] {
  const out: Line[] = [];
  for (const line of layoutPage(items)) {
    const text = normalize(line.text).replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    const segments = line.segments.map((s) => ({ ...s, text: normalize(s.text).replace(/\s+/g, ' ').trim() }));
    out.push({ ...line, text, segments: segments.filter((s) => s.text !== '') });
  }
  return out;
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

/** How a heading was recognised; the outline level follows from it (see `headingLevels`). */
type HeadingKind = 'font' | 'numbered' | 'caps';

type Piece =
  | {
      readonly kind: 'heading';
      readonly text: string;
      readonly size: number;
      readonly lines: readonly Line[];
      readonly by: HeadingKind;
      /** Numbered headings: the numbering's rank (Part 1, Item 2, Note 3, decimals 4+). */
      readonly rank?: number;
      /** Set for capitals headings; the others get theirs from `levels`. */
      readonly level?: number;
    }
  | { readonly kind: 'line'; readonly line: Line }
  | { readonly kind: 'table'; readonly table: TableBlock };

/** A page's body: lines and tables in reading order. */
type Unit = { readonly kind: 'line'; readonly line: Line } | { readonly kind: 'table'; readonly table: TableBlock };

/** Running headers repeat with a different page number: compare texts without digits. */
function repeatKey(text: string): string {
  return text.replace(/\d+/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** A heading back to its body lines. */
function demote(piece: Piece): Piece[] {
  return piece.kind === 'heading' ? piece.lines.map((line) => ({ kind: 'line' as const, line })) : [piece];
}

function linesOf(units: readonly Unit[]): Line[] {
  return units.flatMap((u) => (u.kind === 'line' ? [u.line] : []));
}

/**
 * The numbering rank of a line that opens a block (after a gap, a table or the page top), or that
 * continues its numbering ("NOTE 5." after Note 4, set in the body's size right under the last
 * line of Note 4: `continuesSequence`). `seen` holds the last number of each sequence so far, in
 * reading order, and is updated with the heading found.
 */
function numberedRank(
  units: readonly Unit[],
  i: number,
  gap: number,
  body: number,
  seen: Map<string, number>,
): number | undefined {
  const u = units[i];
  if (u?.kind !== 'line' || u.line.size < body * 0.95) return undefined;
  const found = numberedHeading(u.line.text) ?? (isStatementTitle(u.line.text) ? { rank: STATEMENT_RANK } : null);
  if (found === null) return undefined;
  const prev = units[i - 1];
  const apart =
    prev === undefined ||
    prev.kind === 'table' ||
    paragraphGap(prev.line, u.line, gap) ||
    numberedHeading(prev.line.text) !== null || // "PART II" directly over "Item 7."
    continuesSequence(u.line.text, seen);
  if (!apart && found.rank !== STATEMENT_RANK) return undefined;
  const s = sequenceNumber(u.line.text);
  if (s !== null) seen.set(s.word, s.n);
  return found.rank;
}

/** Statement titles rank below every numbering. */
const STATEMENT_RANK = 9;

/** Runs of font-size heading lines and numbered lines of one page, the rest as they are. */
function groupPage(units: readonly Unit[], toc: boolean, body: number, seen: Map<string, number>): Piece[] {
  const isCandidate = (u: Unit | undefined): u is { kind: 'line'; line: Line } =>
    u?.kind === 'line' &&
    body > 0 &&
    u.line.size >= body * HEADING_RATIO &&
    u.line.text.length <= MAX_HEADING_CHARS &&
    /\p{L}/u.test(u.line.text);
  const gap = usualLineGap(linesOf(units));
  const out: Piece[] = [];
  let i = 0;
  while (i < units.length) {
    const u = units[i] as Unit;
    if (u.kind === 'table') {
      out.push(u);
      i++;
      continue;
    }
    // A contents page's entries are no headings; its own title ("ITEM 8. FINANCIAL STATEMENTS") is.
    const rank = toc && i > 0 ? undefined : numberedRank(units, i, gap, body, seen);
    if (!isCandidate(u) || toc) {
      out.push(rank !== undefined ? heading([u.line], 'numbered', rank) : u);
      i++;
      continue;
    }
    let j = i + 1;
    while (
      j < units.length &&
      isCandidate(units[j]) &&
      Math.abs((units[j] as { line: Line }).line.size - u.line.size) < 0.5
    )
      j++;
    const run = linesOf(units.slice(i, j));
    const text = run.map((r) => r.text).join(' ');
    if (run.length <= MAX_HEADING_LINES && text.length <= MAX_HEADING_CHARS * 1.5) {
      out.push(heading(run, rank !== undefined ? 'numbered' : 'font', rank));
    } else for (const r of run) out.push({ kind: 'line', line: r });
    i = j;
  }
  return out;
}

function heading(lines: readonly Line[], by: HeadingKind, rank?: number): Piece {
  const text = lines.map((r) => r.text).join(' ');
  return { kind: 'heading', text, size: (lines[0] as Line).size, lines, by, ...(rank !== undefined ? { rank } : {}) };
}

/** Each page's units grouped into headings, body lines and tables (see the file comment). */
function findHeadings(
  pages: readonly (readonly Unit[])[],
  toc: readonly boolean[],
): { pieces: Piece[][]; levels: (p: Piece & { kind: 'heading' }) => number } {
  const lines = pages.map(linesOf);
  const body = bodySize(lines);
  // The last number of each numbered sequence (notes, parts …), read page after page.
  const seen = new Map<string, number>();
  const grouped = pages.map((units, p) => groupPage(units, toc[p] === true, body, seen));

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
  const running = (piece: Piece & { kind: 'heading' }): boolean => {
    const n = pagesOf.get(repeatKey(piece.text))?.size ?? 0;
    return piece.by === 'font' && n >= 3 && n >= pages.length * 0.2;
  };
  let headingChars = 0;
  let allChars = 0;
  for (const ls of lines) for (const l of ls) allChars += l.chars;
  const pieces = grouped.map((page) =>
    page.flatMap((piece) => {
      if (piece.kind === 'heading' && running(piece)) return demote(piece);
      if (piece.kind === 'heading') for (const l of piece.lines) headingChars += l.chars;
      return [piece];
    }),
  );
  if (headingChars > allChars * MAX_HEADING_SHARE) {
    return { pieces: pieces.map((page) => page.flatMap(demote)), levels: () => 3 };
  }
  const all = pieces.flat().filter((p): p is Piece & { kind: 'heading' } => p.kind === 'heading');
  const { levels, caps } = headingLevels(all);
  return { pieces: capitalHeadings(pieces, lines, toc, caps), levels };
}

/**
 * Outline levels. Without numbered headings, the distinct font sizes, largest first, are
 * levels 1–3. With them, font-size headings larger than every numbered one are titles (at most
 * two levels), the numbering ranks come next in their order (Part › Item › Note › 4.2), and
 * other headings (smaller font, statement titles) below those; capitals come last.
 */
function headingLevels(all: readonly (Piece & { kind: 'heading' })[]): {
  levels: (p: Piece & { kind: 'heading' }) => number;
  caps: number;
} {
  const half = (s: number): number => Math.round(s * 2) / 2;
  const numbered = all.filter((h) => h.rank !== undefined);
  if (numbered.length === 0) {
    const sizes = [...new Set(all.map((h) => half(h.size)))].sort((a, b) => b - a);
    return { levels: (h) => Math.min(sizes.indexOf(half(h.size)) + 1, 3) || 3, caps: Math.min(sizes.length + 1, 3) };
  }
  const top = Math.max(...numbered.map((h) => half(h.size)));
  const fonts = all.filter((h) => h.rank === undefined && h.by === 'font');
  const titles = [...new Set(fonts.filter((h) => half(h.size) > top).map((h) => half(h.size)))]
    .sort((a, b) => b - a)
    .slice(0, 2);
  const ranks = [...new Set(numbered.map((h) => h.rank as number))].sort((a, b) => a - b);
  const below = Math.min(6, titles.length + ranks.length + 1);
  const levels = (h: Piece & { kind: 'heading' }): number => {
    if (h.rank !== undefined) return Math.min(6, titles.length + ranks.indexOf(h.rank) + 1);
    const t = titles.indexOf(half(h.size));
    return t >= 0 ? t + 1 : below;
  };
  return { levels, caps: below };
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
 * Body lines in capitals (or starting "Chapter", "Part", "Appendix") that stand alone (a
 * paragraph gap, a heading or a table on both sides) become headings below the others; the same
 * text on many pages is a running header. Contents pages have none.
 */
function capitalHeadings(
  pieces: readonly Piece[][],
  pages: readonly (readonly Line[])[],
  toc: readonly boolean[],
  level: number,
): Piece[][] {
  const standalone = pieces.map((page, p) => {
    const gap = usualLineGap(pages[p] as readonly Line[]);
    const apart = (a: Piece | undefined, b: Piece | undefined): boolean =>
      a === undefined || b === undefined || a.kind !== 'line' || b.kind !== 'line' || paragraphGap(a.line, b.line, gap);
    return page.map(
      (piece, i) =>
        !toc[p] &&
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
      return { kind: 'heading', text: piece.line.text, size: piece.line.size, lines: [piece.line], by: 'caps', level };
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
  // Rendering for OCR in a worker needs canvases without `document`; text extraction never draws.
  const CanvasFactory = ocrOn(options) ? workerCanvasFactory() : undefined;
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
    ...(CanvasFactory ? { CanvasFactory } : {}),
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
    const ops = pdfjs.OPS ?? DEFAULT_OPS;
    const total = doc.numPages;
    const pages: Line[][] = [];
    const boxes: PageBox[] = [];
    const unreadable: number[] = [];
    for (let p = 1; p <= total; p++) {
      if (signal?.aborted) throw aborted();
      try {
        const page = await doc.getPage(p);
        const content = await page.getTextContent();
        // A page without text has nothing to hide (and a scan's images need not be decoded twice).
        const drawn = content.items.length > 0 ? await readDrawn(page, ops) : null;
        pages.push(pageLines(markHidden(content.items, page.view, drawn).items, normalize));
        boxes.push(pageBox(page.view));
        page.cleanup();
      } catch (err) {
        if (signal?.aborted) throw aborted();
        if (err instanceof EvidentError) throw err;
        pages.push([]);
        boxes.push(pageBox(undefined));
        unreadable.push(p);
      }
      onProgress?.({ phase: 'pages', done: p, total });
    }

    const ocr = await ocrEmptyPages(doc, pages, boxes, unreadable, normalize, options);

    let chars = 0;
    const empty: number[] = [];
    pages.forEach((lines, i) => {
      const n = lines.reduce((sum, l) => sum + l.chars, 0);
      chars += n;
      if (n < MIN_PAGE_CHARS && !unreadable.includes(i + 1) && !ocr.unread.includes(i + 1)) empty.push(i + 1);
    });
    if (chars === 0) {
      if (unreadable.length === total && total > 0) {
        throw new EvidentError('pdf_corrupt', 'This PDF is damaged: none of its pages could be read.');
      }
      if (ocr.unread.length > 0) throw new EvidentError('pdf_no_text', noReadableText(str(info, 'Language')));
      throw new EvidentError(
        'pdf_no_text',
        'This PDF has no extractable text (scanned?): its pages are images. Run it through OCR (text recognition) and add the result.',
      );
    }

    const furniture = findFurniture(pages, boxes);
    const { pieces, levels } = findHeadings(
      furniture.map((f) => pageUnits(f.body, f.toc)),
      furniture.map((f) => f.toc),
    );
    const out = writeMarkdown(pieces, levels);
    const text = out.toString();

    const warnings: ParseWarning[] = [];
    if (empty.length > 0) {
      warnings.push({
        code: 'pages_without_text',
        message: `${empty.length} of ${total} page${plural(total)} have no text layer (scanned?): ${listPages(empty)}. Their content is not searchable without OCR.`,
        count: empty.length,
      });
    }
    warnings.push(...ocrWarnings(ocr));
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
      cleanMetadataTitle(str(info, 'Title')) ??
      cleanMetadataTitle(typeof xmpTitle === 'string' ? xmpTitle : undefined) ??
      filingTitle(
        furniture.slice(0, 2).flatMap((f) => f.body.map((l) => l.text)),
        text,
      );
    const author = str(info, 'Author');
    const created = normalizeDate(str(info, 'CreationDate'));
    const modified = normalizeDate(str(info, 'ModDate'));
    const language = str(info, 'Language');
    const extra = [str(info, 'Subject'), str(info, 'Keywords')].filter((s) => s !== undefined).join(' ');
    return {
      format: 'pdf',
      text,
      pages: out.pages.map((m, i) => withOcr(withPageMeta(m, furniture[i]), ocr, text)),
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

/** A page's box from pdf.js's `view` ([x0, y0, x1, y1]); US Letter when it has none. */
function pageBox(view: readonly number[] | undefined): PageBox {
  const [x0 = 0, y0 = 0, x1 = 612, y1 = 792] = view ?? [];
  return { width: Math.abs(x1 - x0) || 612, height: Math.abs(y1 - y0) || 792 };
}

/** A page's body lines and tables in reading order; a contents page has no tables. */
function pageUnits(body: readonly Line[], toc: boolean): Unit[] {
  const tables = toc ? [] : findTables(body);
  const units: Unit[] = [];
  let i = 0;
  for (const table of tables) {
    for (; i < table.start; i++) units.push({ kind: 'line', line: body[i] as Line });
    units.push({ kind: 'table', table });
    i = table.end;
  }
  for (; i < body.length; i++) units.push({ kind: 'line', line: body[i] as Line });
  return units;
}

/** A table's rows for `MarkdownBuilder.table`: the header, a delimiter row, the body. */
function tableRows(table: TableBlock): string[][] {
  if (table.header === undefined) return table.rows.map((r) => [...r]);
  return [[...table.header], table.header.map(() => '---'), ...table.rows.map((r) => [...r])];
}

/** The pages as Markdown: headings, paragraphs (split at wide gaps) and tables. */
function writeMarkdown(
  pieces: readonly Piece[][],
  levels: (p: Piece & { kind: 'heading' }) => number,
): MarkdownBuilder {
  const out = new MarkdownBuilder();
  pieces.forEach((page, i) => {
    out.startPage(i + 1);
    const gap = usualLineGap(page.flatMap((p) => (p.kind === 'line' ? [p.line] : p.kind === 'heading' ? p.lines : [])));
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
        out.heading(piece.level ?? levels(piece), piece.text);
      } else if (piece.kind === 'table') {
        flush();
        out.table(tableRows(piece.table));
      } else {
        if (prev !== null && paragraphGap(prev, piece.line, gap)) flush();
        para.push(piece.line.text);
        prev = piece.line;
      }
    }
    flush();
    out.endPage();
  });
  return out;
}

/** A page range with the page's furniture kept as metadata. */
function withPageMeta(mark: PageMark, f: PageFurniture | undefined): PageRange {
  return {
    ...mark,
    ...(f?.header !== undefined ? { header: f.header } : {}),
    ...(f?.label !== undefined ? { label: f.label } : {}),
    ...(f?.toc === true ? { toc: true } : {}),
  };
}

function ocrOn(options: PdfOptions): boolean {
  return options.ocr !== undefined && options.ocr.enabled !== false && options.ocr.assets !== undefined;
}

interface OcrOutcome {
  /** Page → mean word confidence, for the pages whose text came from OCR. */
  readonly confidence: ReadonlyMap<number, number>;
  /** Page → the words OCR read there and their boxes, for the same pages. */
  readonly words: ReadonlyMap<number, { readonly text: readonly string[]; readonly boxes: readonly number[] }>;
  /** Pages OCR found no readable English text on. */
  readonly unread: readonly number[];
}

/**
 * OCRs the pages without a text layer (in place: their lines and boxes), after the text pass,
 * so the pass over a text PDF is the same as without OCR. Per-page progress goes to `onPage`.
 */
async function ocrEmptyPages(
  doc: PdfDocument,
  pages: Line[][],
  boxes: PageBox[],
  unreadable: readonly number[],
  normalize: (s: string) => string,
  options: PdfOptions,
): Promise<OcrOutcome> {
  const confidence = new Map<number, number>();
  const words = new Map<number, { text: string[]; boxes: readonly number[] }>();
  const unread: number[] = [];
  const o = options.ocr;
  if (!ocrOn(options) || o?.assets === undefined) return { confidence, words, unread };
  const todo: number[] = [];
  pages.forEach((lines, i) => {
    if (lines.reduce((sum, l) => sum + l.chars, 0) < MIN_PAGE_CHARS && !unreadable.includes(i + 1)) todo.push(i + 1);
  });
  if (todo.length === 0) return { confidence, words, unread };
  const engine = new PageOcr(o.assets);
  try {
    for (const [k, p] of todo.entries()) {
      if (options.signal?.aborted) throw aborted();
      const page = await doc.getPage(p);
      if (!page.getViewport || !page.render) throw new EvidentError('pdf_corrupt', 'pdf.js cannot render pages here.');
      const read = await engine.recognize(
        { getViewport: page.getViewport.bind(page), render: page.render.bind(page) },
        options.signal,
      );
      page.cleanup();
      if (isReadable(read)) {
        const lines = positionedLines(read.items, normalize);
        pages[p - 1] = lines;
        const vp = page.getViewport({ scale: 1 });
        boxes[p - 1] = { width: vp.width, height: vp.height };
        confidence.set(p, read.confidence);
        words.set(p, { text: read.items.map((w) => w.str), boxes: read.boxes });
      } else {
        unread.push(p);
      }
      o.onPage?.({ page: p, done: k + 1, total: todo.length });
    }
  } finally {
    await engine.dispose();
  }
  return { confidence, words, unread };
}

function ocrWarnings(ocr: OcrOutcome): ParseWarning[] {
  const warnings: ParseWarning[] = [];
  const read = [...ocr.confidence.keys()];
  if (read.length > 0) {
    warnings.push({
      code: 'pages_ocr',
      message: `${read.length} page${plural(read.length)} had no text layer and ${read.length === 1 ? 'was' : 'were'} read by OCR (text recognition): ${listPages(read)}. Check quotes from ${read.length === 1 ? 'it' : 'them'} against the page.`,
      count: read.length,
    });
  }
  const low = read.filter((p) => (ocr.confidence.get(p) ?? 0) < LOW_CONFIDENCE);
  if (low.length > 0) {
    warnings.push({
      code: 'ocr_low_confidence',
      message: `OCR was unsure of page${plural(low.length)} ${listPages(low)} (confidence below ${LOW_CONFIDENCE} %): words there may be misread.`,
      count: low.length,
    });
  }
  if (ocr.unread.length > 0) {
    warnings.push({
      code: 'ocr_no_readable_text',
      message: `OCR found no readable English text on page${plural(ocr.unread.length)} ${listPages(ocr.unread)}; only English OCR data is installed.`,
      count: ocr.unread.length,
    });
  }
  return warnings;
}

/** The message for a scan OCR could not read: names the language when the PDF declares one. */
function noReadableText(language: string | undefined): string {
  const name = languageName(language);
  if (name !== undefined && !/^en\b/i.test(language ?? '')) {
    return `This PDF is a scan in ${name}, and only English OCR data is installed, so it cannot be read. Nothing was added.`;
  }
  return 'OCR found no readable English text in this scanned PDF (it may be in another language, or too faint), so nothing was added.';
}

function languageName(tag: string | undefined): string | undefined {
  if (tag === undefined) return undefined;
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag.trim());
  } catch {
    return undefined;
  }
}

/** An OCR'd page's range with its confidence and its words, placed in the page's part of `text`. */
function withOcr(range: PageRange, ocr: OcrOutcome, text: string): PageRange {
  const confidence = ocr.confidence.get(range.page);
  if (confidence === undefined) return range;
  const read = ocr.words.get(range.page);
  const spans = read ? placeWords(text.slice(range.start, range.end), read.text) : [];
  return { ...range, ocr: { confidence }, ...(read ? { words: { text: read.text, boxes: read.boxes, spans } } : {}) };
}

function listPages(pages: readonly number[]): string {
  const shown = pages.slice(0, 10).join(', ');
  return pages.length > 10 ? `${shown} and ${pages.length - 10} more` : shown;
}
