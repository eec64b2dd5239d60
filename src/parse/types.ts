/**
 * Types of the document parsers. The parsers run unchanged in the Web Worker and in Node: they
 * take bytes and options, never a DOM, a file path or a Node API.
 */
import type { OcrWords } from '../core/ocr-words';
import type { DocStatus, SourceType } from '../core/types';
import type { HiddenRange } from './hidden';

export const PARSED_FORMATS = ['pdf', 'docx', 'html', 'markdown', 'text'] as const;
export type ParsedFormat = (typeof PARSED_FORMATS)[number];

/** Characters [start, end) of `ParsedDocument.text` that come from one page (1-based). */
export interface PageRange {
  readonly page: number;
  readonly start: number;
  readonly end: number;
  /** The page's running header, kept out of the text (PDF). */
  readonly header?: string;
  /** The page number as printed on the page ("57", "F-7", "xii"), kept out of the text (PDF). */
  readonly label?: string;
  /** The page is a table of contents (PDF): its lines are never headings. */
  readonly toc?: boolean;
  /** The page had no text layer and its text was read by OCR; `confidence` is 0–100. */
  readonly ocr?: { readonly confidence: number };
  /** The words OCR read on the page, with their boxes and places in the page's text (pages with `ocr`). */
  readonly words?: OcrWords;
}

export const PARSE_WARNING_CODES = [
  /** Bytes that were not valid UTF-8 became U+FFFD. */
  'invalid_bytes_replaced',
  /** Not UTF-8; decoded as Windows-1252 (Latin-1). */
  'decoded_as_windows_1252',
  /** Control characters (NUL, ESC sequences, …) were removed. */
  'control_characters_removed',
  /** Invisible Unicode tag characters (a way to hide instructions) were removed. */
  'invisible_characters_removed',
  /** Zero-width or bidirectional-control characters are present (kept: scripts need them). */
  'invisible_characters_present',
  /** Hidden HTML (aria-hidden, malformed tags) was not ingested. */
  'hidden_content_dropped',
  /** Text a reader cannot see was found: kept, marked on its chunks (`ParsedDocument.hidden`), never evidence. */
  'hidden_text',
  /** The file's content and its name disagree about its type; the content won. */
  'format_mismatch',
  /** Some PDF pages have no text layer (scanned pages need OCR). */
  'pages_without_text',
  /** Some PDF pages had no text layer and were read by OCR. */
  'pages_ocr',
  /** OCR was unsure of some pages (mean word confidence below `LOW_CONFIDENCE`). */
  'ocr_low_confidence',
  /** OCR found no readable English text on some pages (another language, or too faint). */
  'ocr_no_readable_text',
  /** Some PDF pages could not be read (damaged); the others were. */
  'pages_unreadable',
  /** A PDF font needed a character map that could not be loaded: some text may be missing. */
  'pdf_cmap_unavailable',
  /** Reading stopped early (a hostile structure); the text before that point was kept. */
  'content_truncated',
  /** mammoth reported something it could not convert (unknown styles, unsupported elements). */
  'docx_conversion',
] as const;
export type ParseWarningCode = (typeof PARSE_WARNING_CODES)[number];

export interface ParseWarning {
  readonly code: ParseWarningCode;
  readonly message: string;
  /** How many times it happened, where that is countable. */
  readonly count?: number;
}

export interface ParsedMetadata {
  readonly author?: string;
  /** ISO 8601 timestamps from the file's own metadata, when present and plausible. */
  readonly created?: string;
  readonly modified?: string;
  /** BCP 47 tag from the file's metadata (PDF /Lang, DOCX dc:language, HTML lang). */
  readonly language?: string;
  readonly sourceTypeGuess: SourceType;
  readonly statusGuess: DocStatus;
  /** YYYY-MM-DD. */
  readonly effectiveDateGuess?: string;
}

export interface ParsedDocument {
  readonly format: ParsedFormat;
  readonly title: string;
  /**
   * The normalized full text: LF line ends, no control characters. For every format but `text`
   * it is Markdown-like (`#` headings, `- ` list items, `| a | b |` table rows) so the chunker's
   * section parser finds the structure; read it with `chunkFormatOf(format)`.
   */
  readonly text: string;
  /** PDF only: where each page's text lies in `text`, in page order. */
  readonly pages?: readonly PageRange[];
  /** Heading titles in document order. */
  readonly headings: readonly string[];
  /** Ranges of `text` a reader of the file cannot see (`hidden.ts`), in order; absent when none. */
  readonly hidden?: readonly HiddenRange[];
  readonly warnings: readonly ParseWarning[];
  readonly metadata: ParsedMetadata;
}

export interface ParseProgress {
  /** `pages`: PDF pages read (`done` of `total`); `convert`: a whole-document step finished. */
  readonly phase: 'detect' | 'pages' | 'convert' | 'done';
  readonly done: number;
  readonly total: number;
}

/** Reads one pdf.js resource (a CMap or standard-font file) by absolute URL. */
export type FetchAsset = (url: string) => Promise<Uint8Array>;

/** What a format parser hands back; `parseDocument` adds the title fallback and the guesses. */
export interface RawParse {
  readonly format: ParsedFormat;
  readonly text: string;
  readonly pages?: readonly PageRange[];
  readonly headings: readonly string[];
  readonly warnings: readonly ParseWarning[];
  /** Title from the file's metadata or markup, when it has one. */
  readonly title?: string;
  readonly author?: string;
  readonly created?: string;
  readonly modified?: string;
  readonly language?: string;
  /** Other metadata text worth reading for guesses (PDF Subject/Keywords, HTML description). */
  readonly extra?: string;
}
