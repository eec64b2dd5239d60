/**
 * `parseDocument`: bytes in, normalized structured text out, for PDF, DOCX, HTML, Markdown and
 * plain text. The same code runs in the Web Worker and in Node: it takes a `Uint8Array` and
 * options, never a path or a DOM, and loads each format's library only when a file needs it.
 *
 * Every failure is an `EvidentError` whose message a user can act on: `empty_file`,
 * `file_too_large`, `unsupported_format`, `not_docx`, `zip_bomb`, `pdf_password_required`,
 * `pdf_wrong_password`, `pdf_no_text`, `pdf_corrupt`, `aborted`, `invalid_option`.
 */
import { assertKnownOptions, EvidentError } from '../core/errors';
import type { DocumentFormat } from '../core/ingest/markdown';
import { detectFormat } from './detect';
import { extractHidden, hiddenWarning, mapPages, stripSentinels, type HiddenRange } from './hidden';
import { collapseSpaces } from './markdown-builder';
import { newNormalizeStats, normalizeText } from './normalize';
import { parseDocx } from './docx';
import { parseHtml } from './html';
import { guessEffectiveDate, guessSourceType, guessStatus, titleFromFileName, type GuessSignals } from './metadata';
import { parsePdf, type PdfjsLike } from './pdf';
import type { OcrOptions } from './pdf-ocr';
import { parseText } from './text';
import type { FetchAsset, ParsedDocument, ParsedFormat, ParseProgress, RawParse } from './types';
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip-guard';

export type {
  FetchAsset,
  PageRange,
  ParsedDocument,
  ParsedFormat,
  ParsedMetadata,
  ParseProgress,
  ParseWarning,
  ParseWarningCode,
} from './types';
export type { PdfjsLike } from './pdf';
export type { HiddenRange } from './hidden';
export type { ZipLimits } from './zip-guard';

export interface ParseOptions {
  /** The file's name; its extension helps detection and it is the title of last resort. Required. */
  readonly fileName: string;
  /** The MIME type the browser reported, if any (often empty or wrong; bytes win). */
  readonly mimeType?: string;
  /** Password for an encrypted PDF. */
  readonly password?: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: ParseProgress) => void;
  /** Largest file accepted. Default 100 MB. */
  readonly maxBytes?: number;
  /**
   * Folder URL (ending in "/") of pdf.js's packed CMaps (`pdfjs-dist/cmaps/`). Without it,
   * Chinese/Japanese/Korean PDFs yield no text (a `pdf_cmap_unavailable` warning says so).
   */
  readonly cMapUrl?: string;
  /** Folder URL (ending in "/") of pdf.js's standard fonts (`pdfjs-dist/standard_fonts/`). */
  readonly standardFontDataUrl?: string;
  /** Reads one CMap or font file by URL. Default `fetch` (the worker); Node passes a file reader. */
  readonly fetchAsset?: FetchAsset;
  /** Loads pdf.js. Default: the legacy build in Node, the modern build elsewhere. */
  readonly loadPdfjs?: () => Promise<PdfjsLike>;
  /** Limits checked on a DOCX's ZIP directory before anything is inflated. */
  readonly zipLimits?: ZipLimits;
  /** OCR of PDF pages without a text layer (`pdf-ocr.ts`). Default: off. */
  readonly ocr?: OcrOptions;
}

export const DEFAULT_MAX_BYTES = 100 * 1024 * 1024;

const KNOWN_OPTIONS: Readonly<Record<keyof ParseOptions, null>> = Object.freeze({
  fileName: null,
  mimeType: null,
  password: null,
  signal: null,
  onProgress: null,
  maxBytes: null,
  cMapUrl: null,
  standardFontDataUrl: null,
  fetchAsset: null,
  loadPdfjs: null,
  zipLimits: null,
  ocr: null,
});

/** How the chunker must read a parsed document's text. */
export function chunkFormatOf(format: ParsedFormat): DocumentFormat {
  return format === 'text' ? 'text' : 'markdown';
}

function megabytes(n: number): string {
  const v = n / (1024 * 1024);
  return v >= 10 ? `${Math.round(v)} MB` : `${Math.round(v * 10) / 10} MB`;
}

function folderUrl(name: string, value: string | undefined): void {
  if (value !== undefined && (typeof value !== 'string' || !value.endsWith('/'))) {
    throw new EvidentError(
      'invalid_option',
      `parseDocument: ${name} must be a folder URL ending in "/", got ${JSON.stringify(value)}.`,
    );
  }
}

function validate(bytes: Uint8Array, options: ParseOptions): number {
  if (typeof options !== 'object' || options === null) {
    throw new EvidentError('invalid_option', 'parseDocument: options with a fileName are required.');
  }
  assertKnownOptions(options, KNOWN_OPTIONS, 'parseDocument');
  if (typeof options.fileName !== 'string') {
    throw new EvidentError('invalid_option', 'parseDocument: fileName must be a string.');
  }
  if (!(bytes instanceof Uint8Array)) {
    throw new EvidentError('invalid_input', 'parseDocument: the file content must be a Uint8Array.');
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (typeof maxBytes !== 'number' || !(maxBytes > 0)) {
    throw new EvidentError(
      'invalid_option',
      `parseDocument: maxBytes must be a positive number, got ${String(maxBytes)}.`,
    );
  }
  folderUrl('cMapUrl', options.cMapUrl);
  folderUrl('standardFontDataUrl', options.standardFontDataUrl);
  return maxBytes;
}

/** Metadata text as one clean line (file metadata can hold controls and line breaks), or undefined. */
function oneLine(s: string | undefined): string | undefined {
  if (s === undefined) return undefined;
  const t = collapseSpaces(normalizeText(s, newNormalizeStats()));
  return t === '' ? undefined : t;
}

function nonSpace(s: string): boolean {
  return /\S/.test(s);
}

/**
 * The parse with its hidden-text marks (`hidden.ts`) turned into ranges: marks leave the text,
 * headings and title, pages shift with them, and a `hidden_text` warning names what was found.
 * Plain text and Markdown have no way to hide text: any sentinel in them is the file's own and
 * is removed.
 */
function withoutMarks(raw: RawParse): RawParse & { hidden?: readonly HiddenRange[] } {
  if (raw.format === 'text' || raw.format === 'markdown') {
    const text = stripSentinels(raw.text);
    return text === raw.text ? raw : { ...raw, text, headings: raw.headings.map(stripSentinels) };
  }
  const x = extractHidden(raw.text);
  const warning = hiddenWarning(x.hidden);
  return {
    ...raw,
    text: x.text,
    headings: raw.headings.map(stripSentinels).filter((h) => h.trim() !== ''),
    ...(raw.title !== undefined ? { title: stripSentinels(raw.title) } : {}),
    ...(raw.pages !== undefined ? { pages: mapPages(raw.pages, x.map) } : {}),
    ...(warning !== null ? { warnings: [...raw.warnings, warning], hidden: x.hidden } : {}),
  };
}

/** Reads one file. See the file comment for the errors it throws. */
export async function parseDocument(bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument> {
  const maxBytes = validate(bytes, options);
  const { fileName, signal, onProgress } = options;
  if (signal?.aborted) throw new EvidentError('aborted', 'Reading the file was cancelled.');
  if (bytes.length > maxBytes) {
    throw new EvidentError(
      'file_too_large',
      `This file is ${megabytes(bytes.length)}; the limit is ${megabytes(maxBytes)}.`,
    );
  }
  if (bytes.length === 0) throw new EvidentError('empty_file', 'This file is empty (0 bytes).');

  const detection = detectFormat(bytes, fileName, options.mimeType);
  onProgress?.({ phase: 'detect', done: 1, total: 1 });
  let raw: RawParse & { hidden?: readonly HiddenRange[] };
  switch (detection.format) {
    case 'pdf':
      raw = await parsePdf(bytes, {
        ...(options.password !== undefined ? { password: options.password } : {}),
        ...(signal !== undefined ? { signal } : {}),
        ...(onProgress !== undefined ? { onProgress } : {}),
        ...(options.cMapUrl !== undefined ? { cMapUrl: options.cMapUrl } : {}),
        ...(options.standardFontDataUrl !== undefined ? { standardFontDataUrl: options.standardFontDataUrl } : {}),
        ...(options.fetchAsset !== undefined ? { fetchAsset: options.fetchAsset } : {}),
        ...(options.loadPdfjs !== undefined ? { loadPdfjs: options.loadPdfjs } : {}),
        ...(options.ocr !== undefined ? { ocr: options.ocr } : {}),
      });
      break;
    case 'docx':
      raw = await parseDocx(bytes, {
        ...(signal !== undefined ? { signal } : {}),
        ...(onProgress !== undefined ? { onProgress } : {}),
        zipLimits: { ...DEFAULT_ZIP_LIMITS, ...options.zipLimits },
      });
      break;
    case 'html':
      raw = parseHtml(bytes);
      break;
    case 'markdown':
    case 'text':
      raw = parseText(bytes, detection.format);
      break;
  }
  if (signal?.aborted) throw new EvidentError('aborted', 'Reading the file was cancelled.');
  raw = withoutMarks(raw);
  if (!nonSpace(raw.text)) throw new EvidentError('empty_file', 'This document contains no text.');

  const firstPage =
    raw.pages?.[0] && raw.pages[0].end - raw.pages[0].start >= 200
      ? raw.text.slice(0, raw.pages[0].end)
      : raw.text.slice(0, 5000);
  const title = oneLine(raw.title) ?? raw.headings[0] ?? titleFromFileName(fileName);
  const author = oneLine(raw.author);
  const signals: GuessSignals = {
    fileName,
    title,
    firstPage,
    ...(author !== undefined ? { author } : {}),
    ...(raw.extra !== undefined ? { extra: raw.extra } : {}),
    ...(raw.created !== undefined ? { created: raw.created } : {}),
    ...(raw.modified !== undefined ? { modified: raw.modified } : {}),
  };
  const effectiveDateGuess = guessEffectiveDate(signals);
  onProgress?.({ phase: 'done', done: 1, total: 1 });
  return {
    format: raw.format,
    title,
    text: raw.text,
    ...(raw.pages !== undefined ? { pages: raw.pages } : {}),
    headings: raw.headings,
    ...(raw.hidden !== undefined && raw.hidden.length > 0 ? { hidden: raw.hidden } : {}),
    warnings: [...detection.warnings, ...raw.warnings],
    metadata: {
      ...(author !== undefined ? { author } : {}),
      ...(raw.created !== undefined ? { created: raw.created } : {}),
      ...(raw.modified !== undefined ? { modified: raw.modified } : {}),
      ...(raw.language !== undefined ? { language: raw.language } : {}),
      sourceTypeGuess: guessSourceType(signals),
      statusGuess: guessStatus(signals),
      ...(effectiveDateGuess !== undefined ? { effectiveDateGuess } : {}),
    },
  };
}
