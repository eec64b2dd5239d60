/**
 * Plain text and Markdown: decode the bytes, normalize, find Markdown headings with the same
 * section parser the chunker uses (so the heading list and the chunks' trails agree).
 *
 * Encoding, in order:
 * 1. A byte-order mark (UTF-8, UTF-16LE, UTF-16BE) decides.
 * 2. UTF-16 without a BOM, when every other byte of the start is NUL.
 * 3. Strict UTF-8 (`TextDecoder('utf-8', { fatal: true })`): when it succeeds it is right (text
 *    that is valid UTF-8 and has non-ASCII bytes is almost never meant as anything else).
 * 4. A charset the file declares (HTML `<meta charset>`), when the runtime knows the label.
 * 5. Windows-1252 when the bytes look like Latin-1 text: no valid multi-byte UTF-8 sequence at
 *    all, no NUL, none of the five bytes Windows-1252 leaves undefined.
 * 6. Otherwise UTF-8 with U+FFFD for each invalid sequence, counted in a warning.
 */
import { parseSections } from '../core/ingest/markdown';
import { newNormalizeStats, normalizeText, normalizeWarnings, plural } from './normalize';
import type { ParseWarning, RawParse } from './types';

export interface DecodedText {
  readonly text: string;
  readonly encoding: string;
  readonly warnings: readonly ParseWarning[];
}

/** Windows-1252 code points for bytes 0x80–0x9F (WHATWG index; undefined bytes map to C1 controls). */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/** Windows-1252 decoding without relying on the runtime's ICU data. */
export function decodeWindows1252(bytes: Uint8Array): string {
  const parts: string[] = [];
  const BLOCK = 8192;
  for (let s = 0; s < bytes.length; s += BLOCK) {
    const end = Math.min(bytes.length, s + BLOCK);
    const codes = new Array<number>(end - s);
    for (let i = s; i < end; i++) {
      const b = bytes[i] as number;
      codes[i - s] = b >= 0x80 && b <= 0x9f ? (CP1252_HIGH[b - 0x80] as number) : b;
    }
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join('');
}

interface ByteStats {
  /** Well-formed multi-byte UTF-8 sequences. */
  readonly validMultiByte: number;
  readonly nul: number;
  /** Bytes 0x81, 0x8D, 0x8F, 0x90, 0x9D (undefined in Windows-1252). */
  readonly cp1252Undefined: number;
  /** Well-formed EF BF BD sequences: U+FFFD already in the source, not a decoding loss. */
  readonly encodedReplacement: number;
}

function byteStats(bytes: Uint8Array): ByteStats {
  let validMultiByte = 0;
  let nul = 0;
  let cp1252Undefined = 0;
  let encodedReplacement = 0;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      if (b === 0) nul++;
      continue;
    }
    if (b === 0x81 || b === 0x8d || b === 0x8f || b === 0x90 || b === 0x9d) cp1252Undefined++;
    const len = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (len === 0 || i + len > n) continue;
    let ok = true;
    for (let k = 1; k < len; k++) if (((bytes[i + k] as number) & 0xc0) !== 0x80) ok = false;
    // Overlong, surrogate and out-of-range forms are invalid even when the shape is right.
    const b1 = bytes[i + 1] as number;
    if (b === 0xe0 && b1 < 0xa0) ok = false;
    if (b === 0xed && b1 >= 0xa0) ok = false;
    if (b === 0xf0 && b1 < 0x90) ok = false;
    if (b === 0xf4 && b1 >= 0x90) ok = false;
    if (!ok) continue;
    validMultiByte++;
    if (b === 0xef && b1 === 0xbf && bytes[i + 2] === 0xbd) encodedReplacement++;
    i += len - 1;
  }
  return { validMultiByte, nul, cp1252Undefined, encodedReplacement };
}

function tryDecoder(label: string, bytes: Uint8Array, fatal: boolean): string | null {
  try {
    return new TextDecoder(label, { fatal }).decode(bytes);
  } catch {
    return null; // an unknown label (RangeError) or, when fatal, invalid bytes (TypeError)
  }
}

/** UTF-16 without a BOM: NULs in every other byte of the first 4 KB (ASCII-heavy text). */
function guessUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 8) return null;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) even++;
    if (bytes[i + 1] === 0) odd++;
  }
  const half = n / 2;
  if (odd > half * 0.4 && even < half * 0.05) return 'utf-16le';
  if (even > half * 0.4 && odd < half * 0.05) return 'utf-16be';
  return null;
}

const UTF8_LABELS = new Set(['utf-8', 'utf8', 'unicode-1-1-utf-8']);

/** Decodes text bytes as described at the top of this file. Never throws. */
export function decodeText(bytes: Uint8Array, declaredCharset: string | null = null): DecodedText {
  const b0 = bytes[0];
  const b1 = bytes[1];
  if (b0 === 0xef && b1 === 0xbb && bytes[2] === 0xbf) return utf8Lossy(bytes.subarray(3), 'utf-8 (BOM)');
  if (b0 === 0xff && b1 === 0xfe)
    return { text: decodeUtf16(bytes.subarray(2), 'utf-16le'), encoding: 'utf-16le', warnings: [] };
  if (b0 === 0xfe && b1 === 0xff)
    return { text: decodeUtf16(bytes.subarray(2), 'utf-16be'), encoding: 'utf-16be', warnings: [] };

  // NUL in every other byte is valid UTF-8 too, but never meant as such.
  const utf16 = guessUtf16(bytes);
  if (utf16 !== null) return { text: decodeUtf16(bytes, utf16), encoding: utf16, warnings: [] };

  const strict = tryDecoder('utf-8', bytes, true);
  if (strict !== null) return { text: strict, encoding: 'utf-8', warnings: [] };

  if (declaredCharset !== null && !UTF8_LABELS.has(declaredCharset)) {
    const declared = tryDecoder(declaredCharset, bytes, false);
    if (declared !== null) return { text: declared, encoding: declaredCharset, warnings: [] };
  }

  const stats = byteStats(bytes);
  if (stats.validMultiByte === 0 && stats.nul === 0 && stats.cp1252Undefined === 0) {
    return {
      text: decodeWindows1252(bytes),
      encoding: 'windows-1252',
      warnings: [
        {
          code: 'decoded_as_windows_1252',
          message: 'This file is not UTF-8; it was read as Western European (Windows-1252 / Latin-1) text.',
        },
      ],
    };
  }
  return utf8Lossy(bytes, 'utf-8', stats);
}

function decodeUtf16(bytes: Uint8Array, label: 'utf-16le' | 'utf-16be'): string {
  return tryDecoder(label, bytes, false) ?? '';
}

function utf8Lossy(bytes: Uint8Array, encoding: string, known?: ByteStats): DecodedText {
  const text = new TextDecoder('utf-8').decode(bytes);
  let replaced = 0;
  for (let i = text.indexOf('\uFFFD'); i >= 0; i = text.indexOf('\uFFFD', i + 1)) replaced++;
  if (replaced > 0) replaced -= (known ?? byteStats(bytes)).encodedReplacement;
  const warnings: ParseWarning[] =
    replaced > 0
      ? [
          {
            code: 'invalid_bytes_replaced',
            message: `${replaced} invalid byte sequence${plural(replaced)} replaced with "\uFFFD": this file is not valid UTF-8.`,
            count: replaced,
          },
        ]
      : [];
  return { text, encoding, warnings };
}

/** YAML front matter's `title:` value, when the document starts with front matter. */
function frontMatterTitle(text: string): string | undefined {
  if (!text.startsWith('---\n')) return undefined;
  const end = text.indexOf('\n---', 4);
  if (end < 0 || end > 10_000) return undefined;
  const m = /^title:\s*(.+)$/m.exec(text.slice(4, end));
  if (!m) return undefined;
  const title = (m[1] as string).trim().replace(/^(['"])(.*)\1$/, '$2');
  return title === '' ? undefined : title;
}

/** Reads a Markdown or plain-text file. */
export function parseText(bytes: Uint8Array, format: 'markdown' | 'text'): RawParse {
  const decoded = decodeText(bytes);
  const stats = newNormalizeStats();
  const text = normalizeText(decoded.text, stats);
  const headings: string[] = [];
  if (format === 'markdown') {
    for (const section of parseSections(text, 'markdown')) {
      const title = section.headings[section.headings.length - 1];
      const first = section.blocks[0];
      // An empty heading ("#") has no title of its own; its trail ends with the parent's.
      if (section.level > 0 && title !== undefined && first && text.slice(first.start, first.end).includes(title)) {
        headings.push(title);
      }
    }
  }
  const title = format === 'markdown' ? (frontMatterTitle(text) ?? headings[0]) : undefined;
  return {
    format,
    text,
    headings,
    warnings: [...decoded.warnings, ...normalizeWarnings(stats)],
    ...(title !== undefined ? { title } : {}),
  };
}
