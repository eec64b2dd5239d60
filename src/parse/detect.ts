/**
 * Which parser reads a file: magic bytes first (they cannot be renamed away), then the
 * extension and MIME type. A file whose bytes contradict its name either goes to the parser its
 * bytes call for (with a `format_mismatch` warning) or, when we cannot read what it really is,
 * ends in a specific error: a renamed Word 97 `.doc` says so instead of "corrupt ZIP".
 */
import { EvidentError } from '../core/errors';
import { looksLikeZip } from './zip-guard';
import type { ParsedFormat, ParseWarning } from './types';

export interface Detection {
  readonly format: ParsedFormat;
  readonly warnings: readonly ParseWarning[];
}

const SUPPORTED = 'Evident reads PDF, Word (.docx), HTML, Markdown and plain-text files.';

const TEXT_EXTENSIONS = new Set(['txt', 'text', 'log', 'csv', 'tsv', 'rst', 'asc', 'me', 'nfo']);
const MARKDOWN_EXTENSIONS = new Set(['md', 'markdown', 'mdown', 'mkd', 'mkdn', 'mdwn', 'mdtxt', 'mdx']);
const HTML_EXTENSIONS = new Set(['html', 'htm', 'xhtml', 'xht', 'shtml']);
const DOCX_EXTENSIONS = new Set(['docx', 'docm', 'dotx', 'dotm']);
const WORD_BINARY_EXTENSIONS = new Set(['doc', 'dot', 'wps']);

/** Other ZIP-based formats someone might try, named in the error. */
const OTHER_ZIPS: Readonly<Record<string, string>> = {
  xlsx: 'an Excel workbook',
  xlsm: 'an Excel workbook',
  pptx: 'a PowerPoint presentation',
  odt: 'an OpenDocument text file',
  ods: 'an OpenDocument spreadsheet',
  odp: 'an OpenDocument presentation',
  epub: 'an EPUB e-book',
  zip: 'a ZIP archive',
  jar: 'a Java archive',
  apk: 'an Android package',
};

/** Binary signatures that are certainly not documents we read. */
const BINARY_SIGNATURES: readonly { readonly bytes: readonly number[]; readonly what: string }[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], what: 'a GIF image' },
  { bytes: [0x49, 0x49, 0x2a, 0x00], what: 'a TIFF image' },
  { bytes: [0x4d, 0x4d, 0x00, 0x2a], what: 'a TIFF image' },
  { bytes: [0x1f, 0x8b], what: 'a gzip archive' },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf], what: 'a 7-Zip archive' },
  { bytes: [0x52, 0x61, 0x72, 0x21], what: 'a RAR archive' },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], what: 'a program (ELF)' },
  { bytes: [0x4d, 0x5a], what: 'a Windows program' },
  { bytes: [0x7b, 0x5c, 0x72, 0x74, 0x66], what: 'an RTF document' },
];

const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function startsWith(b: Uint8Array, sig: readonly number[], at = 0): boolean {
  if (b.length < at + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (b[at + i] !== sig[i]) return false;
  return true;
}

/** The lower-cased extension without the dot, or ''. */
export function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** `%PDF-` within the first 1024 bytes (what pdf.js and Acrobat accept). */
export function looksLikePdf(b: Uint8Array): boolean {
  const n = Math.min(b.length, 1024) - 5;
  for (let i = 0; i <= n; i++) {
    if (b[i] === 0x25 && b[i + 1] === 0x50 && b[i + 2] === 0x44 && b[i + 3] === 0x46 && b[i + 4] === 0x2d) return true;
  }
  return false;
}

/** An OLE2 compound file that holds an encrypted OOXML package (a password-protected .docx). */
function isEncryptedOoxml(b: Uint8Array): boolean {
  // The directory names the "EncryptionInfo" stream, in UTF-16LE.
  const needle = 'EncryptionInfo';
  const limit = Math.min(b.length, 1 << 20) - needle.length * 2;
  outer: for (let i = 0; i <= limit; i++) {
    for (let k = 0; k < needle.length; k++) {
      if (b[i + 2 * k] !== needle.charCodeAt(k) || b[i + 2 * k + 1] !== 0) continue outer;
    }
    return true;
  }
  return false;
}

function looksLikeHtml(b: Uint8Array): boolean {
  const head = new TextDecoder('utf-8').decode(b.subarray(0, 512)).trimStart().toLowerCase();
  return (
    head.startsWith('<!doctype html') ||
    head.startsWith('<html') ||
    (head.startsWith('<?xml') && head.includes('<html'))
  );
}

/** Share of the first 8 KB that is NUL or a C0 control other than tab, LF, CR, FF, ESC. */
function controlShare(b: Uint8Array): number {
  const n = Math.min(b.length, 8192);
  if (n === 0) return 0;
  let bad = 0;
  for (let i = 0; i < n; i++) {
    const c = b[i] as number;
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c && c !== 0x1b) bad++;
  }
  return bad / n;
}

function mismatch(fileName: string, actual: string): ParseWarning {
  return {
    code: 'format_mismatch',
    message: `"${fileName.split(/[\\/]/).pop() ?? fileName}" is named like another type but contains ${actual}; it was read as ${actual}.`,
  };
}

/** The format to parse `bytes` as, or a specific error when it is none we read. */
export function detectFormat(bytes: Uint8Array, fileName: string, mimeType = ''): Detection {
  const ext = extensionOf(fileName);
  const mime = mimeType.toLowerCase().split(';')[0]?.trim() ?? '';
  const named = (format: ParsedFormat): boolean => {
    switch (format) {
      case 'pdf':
        return ext === 'pdf' || mime === 'application/pdf';
      case 'docx':
        return DOCX_EXTENSIONS.has(ext) || mime.includes('wordprocessingml');
      case 'html':
        return HTML_EXTENSIONS.has(ext) || mime === 'text/html' || mime === 'application/xhtml+xml';
      case 'markdown':
        return MARKDOWN_EXTENSIONS.has(ext) || mime === 'text/markdown' || mime === 'text/x-markdown';
      case 'text':
        return TEXT_EXTENSIONS.has(ext) || mime === 'text/plain';
    }
  };
  const as = (format: ParsedFormat, what: string): Detection => ({
    format,
    warnings: ext === '' || named(format) ? [] : [mismatch(fileName, what)],
  });

  if (looksLikePdf(bytes)) return as('pdf', 'a PDF');
  if (looksLikeZip(bytes)) {
    if (named('docx') || ext === '') return { format: 'docx', warnings: [] };
    const other = OTHER_ZIPS[ext];
    if (other !== undefined) {
      throw new EvidentError('unsupported_format', `This is ${other}, which Evident cannot read yet. ${SUPPORTED}`);
    }
    // A ZIP named .pdf/.txt/…: most likely a renamed Word file; the DOCX parser checks.
    return as('docx', 'a ZIP package');
  }
  if (startsWith(bytes, OLE2)) {
    if (isEncryptedOoxml(bytes)) {
      throw new EvidentError(
        'not_docx',
        'This Word document is password-protected. Open it in Word, remove the password (File › Info › Protect Document), save, and add it again.',
      );
    }
    if (named('docx') || WORD_BINARY_EXTENSIONS.has(ext)) {
      throw new EvidentError(
        'not_docx',
        'This is not a Word .docx file: it is an older Word 97–2003 (.doc) document. Open it in Word or LibreOffice, save it as .docx, and add it again.',
      );
    }
    throw new EvidentError(
      'unsupported_format',
      `This is an older Microsoft Office file (Word, Excel or PowerPoint 97–2003), which Evident cannot read. ${SUPPORTED}`,
    );
  }
  const textual = named('html') || named('markdown') || named('text');
  for (const sig of BINARY_SIGNATURES) {
    if (startsWith(bytes, sig.bytes)) {
      // "MZ Holdings — notes.txt" starts like a Windows program; real binaries are full of controls.
      if (textual && controlShare(bytes) < 0.01) break;
      if (named('docx')) throw notDocx();
      if (named('pdf')) throw notPdf();
      throw new EvidentError('unsupported_format', `This is ${sig.what}, which Evident cannot read. ${SUPPORTED}`);
    }
  }
  if (named('docx')) throw notDocx();
  if (named('pdf')) throw notPdf();
  if (named('html')) return { format: 'html', warnings: [] };
  if (named('markdown')) return { format: 'markdown', warnings: [] };
  if (named('text')) return { format: 'text', warnings: [] };
  if (looksLikeHtml(bytes)) return as('html', 'HTML');
  // Unknown extension: text when it reads as text (UTF-16 has NULs but a BOM).
  const utf16Bom = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (utf16Bom || controlShare(bytes) < 0.01) return { format: 'text', warnings: [] };
  throw new EvidentError(
    'unsupported_format',
    `This file is not a document Evident can read (it looks binary). ${SUPPORTED}`,
  );
}

function notDocx(): EvidentError {
  return new EvidentError(
    'not_docx',
    'This is not a Word .docx file: its content is not a Word package. If it came from another program, save it as .docx and add it again.',
  );
}

function notPdf(): EvidentError {
  return new EvidentError(
    'pdf_corrupt',
    'This file is named .pdf but does not contain PDF data, so it cannot be read.',
  );
}
