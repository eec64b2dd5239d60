/**
 * ZIP inspection before anything is inflated. A ZIP's central directory declares every entry's
 * compressed and uncompressed size; reading it costs microseconds, while inflating a ZIP bomb
 * (a 1.5 MB file holding 1 GB of XML) costs the tab. So:
 *
 * 1. `readZipDirectory` parses the End Of Central Directory record (ZIP64 too) and the central
 *    directory entries, with bounds checks on every field; a file that is not a ZIP is an
 *    answer (`ok: false`), not an exception.
 * 2. `checkZipLimits` refuses archives whose declared sizes are too large in total, too highly
 *    compressed for one entry, or that have too many entries, or use what we cannot read.
 * 3. Sizes can lie (a central directory may declare 1 KB for an entry that inflates to 1 GB), so
 *    `inflateEntry` streams with a hard cap at the declared size and stops the moment it is
 *    passed. `verifyDeclaredSizes` runs it over the entries a reader will inflate, before the
 *    reader (mammoth/JSZip, which trusts nothing and checks nothing) gets the bytes.
 *
 * Uses `DecompressionStream('deflate-raw')` (browsers, workers, Node ≥ 20): no dependency.
 */
import { EvidentError } from '../core/errors';

export interface ZipEntry {
  readonly name: string;
  /** 0 stored, 8 deflate; anything else we cannot read. */
  readonly method: number;
  readonly flags: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly localHeaderOffset: number;
  /** CRC-32 of the uncompressed bytes, as the central directory declares it. */
  readonly crc32?: number;
}

export type ZipDirectory =
  { readonly ok: true; readonly entries: readonly ZipEntry[] } | { readonly ok: false; readonly reason: string };

export interface ZipLimits {
  /** Sum of declared uncompressed sizes. Default 200 MB: far above any real document. */
  readonly maxTotalBytes: number;
  /** Largest uncompressed/compressed ratio for one entry. Default 100: XML deflates 5–30×; bombs 1000×. */
  readonly maxRatio: number;
  /** Entries smaller than this are not ratio-checked (tiny, very regular parts compress well). Default 1 MB. */
  readonly ratioFloorBytes: number;
  /** Default 10,000: a Word file has tens, a "many small files" bomb has millions. */
  readonly maxEntries: number;
}

export const DEFAULT_ZIP_LIMITS: Readonly<ZipLimits> = Object.freeze({
  maxTotalBytes: 200 * 1024 * 1024,
  maxRatio: 100,
  ratioFloorBytes: 1024 * 1024,
  maxEntries: 10_000,
});

const SIG_EOCD = 0x06054b50;
const SIG_EOCD64 = 0x06064b50;
const SIG_EOCD64_LOCATOR = 0x07064b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_LOCAL = 0x04034b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;

function u16(b: Uint8Array, at: number): number {
  return (b[at] as number) | ((b[at + 1] as number) << 8);
}
function u32(b: Uint8Array, at: number): number {
  return (
    ((b[at] as number) | ((b[at + 1] as number) << 8) | ((b[at + 2] as number) << 16)) +
    (b[at + 3] as number) * 0x1000000
  );
}
/** A little-endian u64 as a number (exact below 2^53, which any real offset is). */
function u64(b: Uint8Array, at: number): number {
  return u32(b, at) + u32(b, at + 4) * 0x100000000;
}

/** True when the bytes start like a ZIP (a local file header, or the EOCD of an empty archive). */
export function looksLikeZip(b: Uint8Array): boolean {
  return b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && (b[2] === 3 || b[2] === 5 || b[2] === 7);
}

function findEocd(b: Uint8Array): number {
  const last = b.length - EOCD_SIZE;
  const first = Math.max(0, last - MAX_COMMENT);
  // The record whose comment length reaches exactly to the end wins; the last one seen otherwise.
  let fallback = -1;
  for (let at = last; at >= first; at--) {
    if (b[at] !== 0x50 || u32(b, at) !== SIG_EOCD) continue;
    if (at + EOCD_SIZE + u16(b, at + 20) === b.length) return at;
    if (fallback < 0) fallback = at;
  }
  return fallback;
}

/** The central directory of a ZIP, read without inflating anything. */
export function readZipDirectory(b: Uint8Array): ZipDirectory {
  if (b.length < EOCD_SIZE) return { ok: false, reason: 'too short to be a ZIP archive' };
  const eocd = findEocd(b);
  if (eocd < 0) return { ok: false, reason: 'no ZIP end-of-central-directory record' };
  // The entry count only matters as the ZIP64 marker: entries are read to the directory's end.
  const count = u16(b, eocd + 10);
  let cdSize = u32(b, eocd + 12);
  let cdOffset = u32(b, eocd + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const loc = eocd - 20;
    if (loc >= 0 && u32(b, loc) === SIG_EOCD64_LOCATOR) {
      const at = u64(b, loc + 8);
      if (at + 56 > b.length || u32(b, at) !== SIG_EOCD64) return { ok: false, reason: 'damaged ZIP64 directory' };
      cdSize = u64(b, at + 40);
      cdOffset = u64(b, at + 48);
    }
  }
  if (cdOffset + cdSize > b.length) return { ok: false, reason: 'the central directory lies outside the file' };

  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder('utf-8');
  let p = cdOffset;
  const end = cdOffset + cdSize;
  while (p + 46 <= end) {
    if (u32(b, p) !== SIG_CENTRAL) return { ok: false, reason: 'damaged central directory entry' };
    const flags = u16(b, p + 8);
    const method = u16(b, p + 10);
    const crc = u32(b, p + 16);
    let compressedSize = u32(b, p + 20);
    let uncompressedSize = u32(b, p + 24);
    const nameLen = u16(b, p + 28);
    const extraLen = u16(b, p + 30);
    const commentLen = u16(b, p + 32);
    let localHeaderOffset = u32(b, p + 42);
    const nameAt = p + 46;
    const next = nameAt + nameLen + extraLen + commentLen;
    if (next > end) return { ok: false, reason: 'damaged central directory entry' };
    const name = decoder.decode(b.subarray(nameAt, nameAt + nameLen));
    // ZIP64 extended information: the fields whose 32-bit value is 0xFFFFFFFF, in this order.
    let x = nameAt + nameLen;
    const xEnd = x + extraLen;
    while (x + 4 <= xEnd) {
      const id = u16(b, x);
      const size = u16(b, x + 2);
      if (id === 0x0001) {
        let f = x + 4;
        const fEnd = Math.min(f + size, xEnd);
        if (uncompressedSize === 0xffffffff && f + 8 <= fEnd) {
          uncompressedSize = u64(b, f);
          f += 8;
        }
        if (compressedSize === 0xffffffff && f + 8 <= fEnd) {
          compressedSize = u64(b, f);
          f += 8;
        }
        if (localHeaderOffset === 0xffffffff && f + 8 <= fEnd) localHeaderOffset = u64(b, f);
      }
      x += 4 + size;
    }
    entries.push({ name, method, flags, compressedSize, uncompressedSize, localHeaderOffset, crc32: crc });
    p = next;
  }
  return { ok: true, entries };
}

function mb(n: number): string {
  const v = n / (1024 * 1024);
  return v >= 10 ? `${Math.round(v)} MB` : `${v.toFixed(1)} MB`;
}

/** Throws `zip_bomb` when the declared sizes are beyond the limits. Call before inflating anything. */
export function checkZipLimits(entries: readonly ZipEntry[], limits: ZipLimits = DEFAULT_ZIP_LIMITS): void {
  if (entries.length > limits.maxEntries) {
    throw new EvidentError(
      'zip_bomb',
      `This file packs ${entries.length.toLocaleString('en')} parts; the limit is ${limits.maxEntries.toLocaleString('en')}. It was not opened.`,
    );
  }
  let total = 0;
  for (const e of entries) {
    total += e.uncompressedSize;
    if (
      e.uncompressedSize >= limits.ratioFloorBytes &&
      e.uncompressedSize > limits.maxRatio * Math.max(1, e.compressedSize)
    ) {
      const ratio = Math.round(e.uncompressedSize / Math.max(1, e.compressedSize));
      throw new EvidentError(
        'zip_bomb',
        `This file looks like a ZIP bomb: its part "${e.name}" would expand ${ratio}× to ${mb(e.uncompressedSize)} (the limit is ${limits.maxRatio}×). It was not opened.`,
      );
    }
  }
  if (total > limits.maxTotalBytes) {
    throw new EvidentError(
      'zip_bomb',
      `This file would expand to ${mb(total)}; the limit is ${mb(limits.maxTotalBytes)}. It may be a ZIP bomb, so it was not opened.`,
    );
  }
}

/** Where an entry's data starts (after its local header), or -1 when the header is damaged. */
function dataOffset(b: Uint8Array, e: ZipEntry): number {
  const at = e.localHeaderOffset;
  if (at + 30 > b.length || u32(b, at) !== SIG_LOCAL) return -1;
  const start = at + 30 + u16(b, at + 26) + u16(b, at + 28);
  return start + e.compressedSize <= b.length ? start : -1;
}

export class ZipEntryError extends Error {}

/**
 * An entry's bytes, inflated with a hard cap: throws `zip_bomb` as soon as the output passes
 * `maxBytes` (default: the declared size). Throws `ZipEntryError` for damaged or unreadable entries.
 */
export async function inflateEntry(b: Uint8Array, e: ZipEntry, maxBytes = e.uncompressedSize): Promise<Uint8Array> {
  return inflate(b, e, maxBytes, true);
}

async function inflate(b: Uint8Array, e: ZipEntry, maxBytes: number, keep: boolean): Promise<Uint8Array> {
  const start = dataOffset(b, e);
  if (start < 0) throw new ZipEntryError(`damaged local header for "${e.name}"`);
  const raw = b.subarray(start, start + e.compressedSize);
  if (e.method === 0) {
    if (raw.length > maxBytes) throw overflow(e);
    checkCrc(e, crc32Update(0xffffffff, raw));
    return raw;
  }
  if (e.method !== 8) throw new ZipEntryError(`unsupported compression method ${e.method} for "${e.name}"`);
  const stream = new DecompressionStream('deflate-raw');
  const writer = stream.writable.getWriter();
  // Write errors surface on the reader; swallow them here so none is unhandled.
  // DecompressionStream takes views of plain ArrayBuffers only (not SharedArrayBuffer).
  const input = raw.buffer instanceof ArrayBuffer ? (raw as Uint8Array<ArrayBuffer>) : new Uint8Array(raw);
  writer.write(input).catch(() => {});
  writer.close().catch(() => {});
  const reader = stream.readable.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let crc = 0xffffffff;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        throw overflow(e);
      }
      crc = crc32Update(crc, value);
      if (keep) chunks.push(value);
    }
  } catch (err) {
    if (err instanceof EvidentError) throw err;
    throw new ZipEntryError(`"${e.name}" is damaged: ${(err as Error).message}`);
  }
  checkCrc(e, crc);
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * A part whose bytes do not match its declared CRC-32 is damaged: deflate data with a flipped bit
 * can still inflate to the declared size, as garbled XML (found by `npm run fuzz`: a flip in a
 * 5 MB document.xml sent mammoth's XML reader past two minutes). Word refuses such a package too.
 */
function checkCrc(e: ZipEntry, state: number): void {
  if (e.crc32 === undefined) return;
  if ((state ^ 0xffffffff) >>> 0 !== e.crc32) {
    throw new ZipEntryError(`"${e.name}" is damaged: its checksum does not match its content`);
  }
}

function overflow(e: ZipEntry): EvidentError {
  return new EvidentError(
    'zip_bomb',
    `This file looks like a ZIP bomb: its part "${e.name}" expands beyond the ${e.uncompressedSize.toLocaleString('en')} bytes it declares. It was not opened.`,
  );
}

/**
 * Inflates every entry `which` selects, discarding the output, and throws `zip_bomb` when one
 * expands past its declared size. Run it before handing the archive to a reader that trusts the
 * declarations (or ignores them).
 */
export async function verifyDeclaredSizes(
  b: Uint8Array,
  entries: readonly ZipEntry[],
  which: (e: ZipEntry) => boolean,
  signal?: AbortSignal,
): Promise<void> {
  for (const e of entries) {
    if (!which(e)) continue;
    if (signal?.aborted) throw new EvidentError('aborted', 'Reading the file was cancelled.');
    await inflate(b, e, e.uncompressedSize, false);
  }
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** The running CRC-32 state after `b` (start with 0xffffffff; the CRC is the state xor 0xffffffff). */
function crc32Update(state: number, b: Uint8Array): number {
  let c = state;
  for (let i = 0; i < b.length; i++) c = (CRC_TABLE[(c ^ (b[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return c;
}

/** CRC-32 (ISO 3309), as ZIP headers hold it. */
export function crc32(b: Uint8Array): number {
  return (crc32Update(0xffffffff, b) ^ 0xffffffff) >>> 0;
}

/** A ZIP archive of stored (uncompressed) entries with UTF-8 names: a package rebuilt for mammoth. */
export function storedZip(entries: readonly { readonly name: string; readonly data: Uint8Array }[]): Uint8Array {
  const enc = new TextEncoder();
  const parts: { name: Uint8Array; data: Uint8Array; crc: number; offset: number }[] = [];
  let size = 22;
  for (const e of entries) {
    const name = enc.encode(e.name);
    parts.push({ name, data: e.data, crc: crc32(e.data), offset: 0 });
    size += 30 + name.length + e.data.length + 46 + name.length;
  }
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  let at = 0;
  for (const p of parts) {
    p.offset = at;
    dv.setUint32(at, 0x04034b50, true);
    dv.setUint16(at + 4, 20, true);
    dv.setUint16(at + 6, 0x0800, true); // UTF-8 names
    dv.setUint32(at + 14, p.crc, true);
    dv.setUint32(at + 18, p.data.length, true);
    dv.setUint32(at + 22, p.data.length, true);
    dv.setUint16(at + 26, p.name.length, true);
    out.set(p.name, at + 30);
    out.set(p.data, at + 30 + p.name.length);
    at += 30 + p.name.length + p.data.length;
  }
  const cd = at;
  for (const p of parts) {
    dv.setUint32(at, 0x02014b50, true);
    dv.setUint16(at + 4, 20, true);
    dv.setUint16(at + 6, 20, true);
    dv.setUint16(at + 8, 0x0800, true);
    dv.setUint32(at + 16, p.crc, true);
    dv.setUint32(at + 20, p.data.length, true);
    dv.setUint32(at + 24, p.data.length, true);
    dv.setUint16(at + 28, p.name.length, true);
    dv.setUint32(at + 42, p.offset, true);
    out.set(p.name, at + 46);
    at += 46 + p.name.length;
  }
  dv.setUint32(at, 0x06054b50, true);
  dv.setUint16(at + 8, parts.length, true);
  dv.setUint16(at + 10, parts.length, true);
  dv.setUint32(at + 12, at - cd, true);
  dv.setUint32(at + 16, cd, true);
  return out;
}
