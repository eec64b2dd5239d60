/**
 * The library as stored and as exported: record types shared by IndexedDB (`src/storage`) and the
 * export file, and the export file format itself (encode, and a decode that validates everything).
 * Runtime-neutral: no DOM, no IndexedDB; unit-tested in Node.
 *
 * Export file, version 1 (little-endian):
 *
 * ```
 * offset 0   8 bytes   magic 89 'E' 'V' 'L' 'I' 'B' 0D 0A  (PNG-style: a text-mode copy breaks it)
 * offset 8   u32       H, byte length of the header
 * offset 12  H bytes   UTF-8 JSON header: { format, version, exportedAt, documents, chunks,
 *                      vectors: [{ docId, embedderId, dim, encoding, chunkIds, offset, rows }],
 *                      priors, feedback, floats }
 *            0–3 bytes zero padding to a multiple of 4
 *            floats×4  binary section: every vector segment as float32, at its `offset` (in floats)
 * ```
 *
 * Version 2 adds the PDFs' original bytes (the page view): the header gains `originals: [{ docId,
 * docAddedAt, mime, pages, offset, length }]` and `originalBytes`, and those bytes follow the
 * floats, each at its `offset` (in bytes from the end of the float section). A library without
 * PDF originals is still written as version 1, so older Evidents read it; version 2 is refused by
 * them with their "made by a newer Evident" message. A scanned page among `pages` may carry
 * `words` (what OCR read there, with boxes and places in the text: `ocr-words.ts`); an Evident
 * that predates the field copies only the fields it knows, so it reads the file without them.
 *
 * At most one vector segment per document: a library keeps two models' vectors (schema v5) but
 * exports only the active model's, so files stay version 1 and readable by every Evident that
 * reads version 1. A newer version is refused with a message that says to update.
 *
 * Everything the header needs to size the binary part comes first, so a reader can stream it.
 * `decodeLibrary` trusts nothing: it checks the magic, version, every field's type and range,
 * id uniqueness and references, chunk offsets, content hashes, vector sizes and values, and
 * rejects prototype-pollution keys; it copies only known fields into fresh objects.
 */
import { EvidentError, assertKnownOptions } from './errors';
import { checkOcrWords, type OcrWords } from './ocr-words';
import {
  DOC_STATUSES,
  HIDDEN_TEXT_KINDS,
  SOURCE_TYPES,
  type Chunk,
  type DocumentMeta,
  type DocStatus,
  type SourceType,
} from './types';
import { parsePriorState, type PriorState } from './select/priors';
import { chunkHash } from './ingest/chunk';

// ---------------------------------------------------------------------------------------------
// Records (what IndexedDB stores and the export file carries)
// ---------------------------------------------------------------------------------------------

/** Formats a stored document can come from (the parsers in `src/parse` produce the rest). */
export const DOCUMENT_FORMATS = ['markdown', 'text', 'pdf', 'docx', 'html'] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

/** How far a document's vectors are: none yet, some chunks, every chunk (for `embedderId`). */
export const VECTOR_STATES = ['pending', 'partial', 'complete'] as const;
export type VectorState = (typeof VECTOR_STATES)[number];

/** A document in the library: its metadata plus what ingest learned about the file. */
export interface DocumentRecord extends DocumentMeta {
  /** The file's name as the user added it ('' when added as text). */
  readonly fileName: string;
  readonly format: DocumentFormat;
  /** Size of the source in bytes (UTF-8 bytes for text input). */
  readonly size: number;
  /** Hex SHA-256 of the source bytes: finds a file added twice. */
  readonly bytesHash: string;
  /** Epoch ms when this version was ingested; identifies the version (vectors check it). */
  readonly addedAt: number;
  /** Epoch ms of the last metadata edit (= addedAt until edited). */
  readonly updatedAt: number;
  readonly chunkCount: number;
  /** Pages of a paged format; null for formats without pages. */
  readonly pageCount: number | null;
  readonly vectorState: VectorState;
  /** Pages whose text was read by OCR (no text layer), with tesseract's mean word confidence 0–100. */
  readonly ocrPages?: readonly OcrPageMark[];
}

export interface OcrPageMark {
  readonly page: number;
  readonly confidence: number;
}

/** Vector encodings; int8 (per-row scale) may follow for memory, keeping this field. */
export const VECTOR_ENCODINGS = ['f32'] as const;
export type VectorEncoding = (typeof VECTOR_ENCODINGS)[number];

/**
 * One document's vectors as one contiguous row-major segment. Rows follow the document's chunks
 * in ordinal order; while vectors are filling in, only the first `chunkIds.length` rows exist.
 */
export interface VectorRecord {
  readonly docId: string;
  /** `Embedder.id` that produced the rows; vectors of another model are never compared. */
  readonly embedderId: string;
  readonly dim: number;
  readonly encoding: VectorEncoding;
  /** Ids of the rows present, in row order (a prefix of the document's chunks by ordinal). */
  readonly chunkIds: readonly string[];
  /** `chunkIds.length × dim` floats. */
  readonly data: Float32Array;
  /** `addedAt` of the document version these vectors belong to. */
  readonly docAddedAt: number;
}

export const FEEDBACK_VERDICTS = ['helpful', 'misleading'] as const;
export type FeedbackVerdict = (typeof FEEDBACK_VERDICTS)[number];

/** One helpful / misleading mark by the user (the priors state is the aggregate; this is the log). */
export interface FeedbackRecord {
  /** Assigned by the store. */
  readonly id?: number;
  readonly docId?: string;
  readonly chunkId?: string;
  readonly sourceType: SourceType;
  readonly verdict: FeedbackVerdict;
  /** Epoch ms. */
  readonly at: number;
  /** The question the mark was given for, when known. */
  readonly query?: string;
}

/** Characters [start, end) of a document's text that come from one page (1-based), as the parser found them. */
export interface OriginalPage {
  readonly page: number;
  readonly start: number;
  readonly end: number;
  /** The page number as printed on the page ("47", "F-7"), when the parser found one. */
  readonly label?: string;
  /** A scanned page's OCR'd words with their boxes (the page view marks a span with them); absent before they were kept. */
  readonly words?: OcrWords;
}

/**
 * A PDF's own bytes, kept with its document so a citation can be shown on the page it came from
 * (the page view). `pages` are the parser's page ranges in the document text: a chunk's offsets
 * say which pages it lies on. Written and deleted in the transactions that write and delete the
 * document (schema v6).
 */
export interface OriginalRecord {
  readonly docId: string;
  /** `addedAt` of the document version these bytes belong to. */
  readonly docAddedAt: number;
  readonly mime: 'application/pdf';
  readonly bytes: Uint8Array;
  readonly pages: readonly OriginalPage[];
}

/** Everything a library export holds. */
export interface LibrarySnapshot {
  readonly documents: readonly DocumentRecord[];
  readonly chunks: readonly Chunk[];
  readonly vectors: readonly VectorRecord[];
  readonly priors: PriorState | null;
  readonly feedback: readonly FeedbackRecord[];
  /** PDFs' original bytes (version 2 files; absent or empty in version 1). */
  readonly originals?: readonly OriginalRecord[];
}

/** `pending` without rows, `complete` when every chunk has one. */
export function vectorStateOf(rows: number, chunkCount: number): VectorState {
  if (rows <= 0) return 'pending';
  return rows >= chunkCount ? 'complete' : 'partial';
}

/** Metadata the user may edit after ingest. `effectiveDate: null` clears the date. */
export interface DocumentMetaPatch {
  readonly title?: string;
  readonly sourceType?: SourceType;
  readonly status?: DocStatus;
  readonly effectiveDate?: string | null;
  readonly language?: string | null;
}

const PATCH_KEYS = { title: 0, sourceType: 0, status: 0, effectiveDate: 0, language: 0 };

/** Validates a metadata patch (unknown keys and bad values throw `invalid_input`); returns a clean copy. */
export function validateMetaPatch(patch: unknown): DocumentMetaPatch {
  if (!isPlainObject(patch)) throw new EvidentError('invalid_input', 'Document details: expected an object.');
  try {
    assertKnownOptions(patch, PATCH_KEYS, 'Document details');
  } catch (err) {
    throw new EvidentError('invalid_input', (err as Error).message);
  }
  const p = patch as Record<string, unknown>;
  const out: { -readonly [K in keyof DocumentMetaPatch]: DocumentMetaPatch[K] } = {};
  const v = new Validator('Document details');
  if (p.title !== undefined) out.title = v.text(p.title, 'title', LIMITS.titleChars, true);
  if (p.sourceType !== undefined) out.sourceType = v.oneOf(p.sourceType, 'sourceType', SOURCE_TYPES);
  if (p.status !== undefined) out.status = v.oneOf(p.status, 'status', DOC_STATUSES);
  if (p.effectiveDate !== undefined) out.effectiveDate = p.effectiveDate === null ? null : v.date(p.effectiveDate);
  if (p.language !== undefined) {
    out.language = p.language === null ? null : v.text(p.language, 'language', LIMITS.languageChars, true);
  }
  return out;
}

/** Applies a validated patch: a new record, `updatedAt` set. */
export function applyMetaPatch(doc: DocumentRecord, patch: DocumentMetaPatch, now: number): DocumentRecord {
  const { effectiveDate, language, ...rest } = patch;
  const next: Record<string, unknown> = { ...doc, ...rest, updatedAt: now };
  if (effectiveDate === null) delete next.effectiveDate;
  else if (effectiveDate !== undefined) next.effectiveDate = effectiveDate;
  if (language === null) delete next.language;
  else if (language !== undefined) next.language = language;
  return next as unknown as DocumentRecord;
}

// ---------------------------------------------------------------------------------------------
// Export file
// ---------------------------------------------------------------------------------------------

export const LIBRARY_FORMAT = 'evident-library';
/** Newest version of the export file (2: with PDF originals); `decodeLibrary` reads 1 and 2, rejects any other. */
export const LIBRARY_FORMAT_VERSION = 2;
export const LIBRARY_MAGIC: readonly number[] = Object.freeze([0x89, 0x45, 0x56, 0x4c, 0x49, 0x42, 0x0d, 0x0a]);
const PREFIX_BYTES = LIBRARY_MAGIC.length + 4;

/** Upper bounds an import must stay within (a personal library is ~100k chunks; see ARCHITECTURE.md, Scale). */
export interface ImportLimits {
  readonly maxBytes: number;
  readonly maxHeaderBytes: number;
  readonly maxDocuments: number;
  readonly maxChunks: number;
  readonly maxChunkChars: number;
  readonly maxDim: number;
  readonly maxFeedback: number;
}

export const DEFAULT_IMPORT_LIMITS: Readonly<ImportLimits> = Object.freeze({
  maxBytes: 2 ** 31 - 1,
  // V8's longest string is ~2^29 UTF-16 units: the header must decode to one string.
  maxHeaderBytes: 2 ** 29 - 64,
  maxDocuments: 100_000,
  maxChunks: 1_000_000,
  maxChunkChars: 200_000,
  maxDim: 4096,
  maxFeedback: 1_000_000,
});

/** Pages of one original a file may list (a PDF's page ranges). */
const MAX_ORIGINAL_PAGES = 100_000;

/** Field lengths (characters). */
const LIMITS = Object.freeze({
  idChars: 512,
  titleChars: 2_000,
  fileNameChars: 1_024,
  languageChars: 35,
  headings: 64,
  headingChars: 2_000,
  /** A table chunk's context: its title and column header, cut by the chunker to half a chunk's tokens. */
  contextChars: 4_000,
  embedderIdChars: 200,
  queryChars: 10_000,
});

/** Keys that could reach an object's prototype if a consumer ever merged the parsed header. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

interface Utf8 {
  encode(text: string): Uint8Array;
  decode(bytes: Uint8Array): string;
}

/** UTF-8 from the runtime (every target has TextEncoder/TextDecoder; core declares no DOM types). */
function utf8(): Utf8 {
  const g = globalThis as unknown as {
    TextEncoder?: new () => { encode(s: string): Uint8Array };
    TextDecoder?: new (label: string, opts: { fatal: boolean }) => { decode(b: Uint8Array): string };
  };
  if (!g.TextEncoder || !g.TextDecoder) throw new EvidentError('internal', 'This runtime has no TextEncoder.');
  const enc = new g.TextEncoder();
  const dec = new g.TextDecoder('utf-8', { fatal: true });
  return { encode: (s) => enc.encode(s), decode: (b) => dec.decode(b) };
}

function littleEndian(): boolean {
  return new Uint8Array(new Float32Array([1]).buffer)[3] === 0x3f;
}

interface OriginalEntry {
  readonly docId: string;
  readonly docAddedAt: number;
  readonly mime: 'application/pdf';
  readonly pages: readonly OriginalPage[];
  /** Offset in bytes from the end of the float section. */
  readonly offset: number;
  readonly length: number;
}

interface VectorEntry {
  readonly docId: string;
  readonly embedderId: string;
  readonly dim: number;
  readonly encoding: VectorEncoding;
  readonly chunkIds: readonly string[];
  readonly docAddedAt: number;
  /** Offset in floats from the start of the binary section. */
  readonly offset: number;
  readonly rows: number;
}

/** Encodes a snapshot; `decodeLibrary` of the result gives the snapshot back (tested). */
export function encodeLibrary(snapshot: LibrarySnapshot, exportedAt = new Date()): Uint8Array {
  if (!littleEndian()) throw new EvidentError('internal', 'Export needs a little-endian platform.');
  let floats = 0;
  const vectors: VectorEntry[] = snapshot.vectors.map((v) => {
    const rows = v.chunkIds.length;
    if (v.data.length !== rows * v.dim) {
      throw new EvidentError(
        'internal',
        `Export: vectors of "${v.docId}" have ${v.data.length} floats, expected ${rows * v.dim}.`,
      );
    }
    const entry: VectorEntry = {
      docId: v.docId,
      embedderId: v.embedderId,
      dim: v.dim,
      encoding: v.encoding,
      chunkIds: v.chunkIds,
      docAddedAt: v.docAddedAt,
      offset: floats,
      rows,
    };
    floats += v.data.length;
    return entry;
  });
  const originals = snapshot.originals ?? [];
  let originalBytes = 0;
  const originalEntries: OriginalEntry[] = originals.map((o) => {
    const entry: OriginalEntry = {
      docId: o.docId,
      docAddedAt: o.docAddedAt,
      mime: o.mime,
      pages: o.pages.map(pageOf),
      offset: originalBytes,
      length: o.bytes.length,
    };
    originalBytes += o.bytes.length;
    return entry;
  });
  const header = {
    format: LIBRARY_FORMAT,
    // Version 1 while there is nothing of version 2 in it: older Evidents keep reading such files.
    version: originals.length > 0 ? 2 : 1,
    exportedAt: exportedAt.toISOString(),
    documents: snapshot.documents,
    chunks: snapshot.chunks,
    vectors,
    priors: snapshot.priors,
    feedback: snapshot.feedback.map(({ id: _id, ...f }) => f),
    floats,
    ...(originals.length > 0 ? { originals: originalEntries, originalBytes } : {}),
  };
  const json = utf8().encode(JSON.stringify(header));
  const binaryStart = align4(PREFIX_BYTES + json.length);
  const out = new Uint8Array(binaryStart + floats * 4 + originalBytes);
  out.set(LIBRARY_MAGIC, 0);
  new DataView(out.buffer).setUint32(LIBRARY_MAGIC.length, json.length, true);
  out.set(json, PREFIX_BYTES);
  const body = new Float32Array(out.buffer, binaryStart, floats);
  snapshot.vectors.forEach((v, i) => body.set(v.data, (vectors[i] as VectorEntry).offset));
  const originalStart = binaryStart + floats * 4;
  originals.forEach((o, i) => out.set(o.bytes, originalStart + (originalEntries[i] as OriginalEntry).offset));
  return out;
}

/**
 * Decodes and validates an export. Any problem throws `EvidentError('invalid_input')` with a
 * message naming what is wrong; the result is made of fresh objects with known fields only.
 */
export function decodeLibrary(bytes: Uint8Array, limits: Partial<ImportLimits> = {}): LibrarySnapshot {
  assertKnownOptions(limits, DEFAULT_IMPORT_LIMITS, 'import limits');
  const lim = { ...DEFAULT_IMPORT_LIMITS, ...limits };
  const bad = (why: string): never => {
    throw new EvidentError('invalid_input', `This is not a valid Evident library file: ${why}.`);
  };
  if (!(bytes instanceof Uint8Array)) bad('expected bytes');
  if (bytes.length > lim.maxBytes) bad(`it is larger than ${lim.maxBytes} bytes`);
  if (bytes.length < PREFIX_BYTES || LIBRARY_MAGIC.some((b, i) => bytes[i] !== b)) {
    bad('it does not start with the Evident library signature');
  }
  const headerBytes = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(
    LIBRARY_MAGIC.length,
    true,
  );
  if (headerBytes > lim.maxHeaderBytes) bad(`its header is larger than ${lim.maxHeaderBytes} bytes`);
  if (PREFIX_BYTES + headerBytes > bytes.length) bad('it is truncated (the header is cut off)');
  let header: unknown;
  try {
    const text = utf8().decode(bytes.subarray(PREFIX_BYTES, PREFIX_BYTES + headerBytes));
    header = JSON.parse(text, (key, value: unknown) => {
      if (FORBIDDEN_KEYS.has(key)) throw new ForbiddenKey(key);
      return value;
    });
  } catch (err) {
    if (err instanceof ForbiddenKey) bad(`its header contains the forbidden key "${err.key}"`);
    bad('its header is not valid UTF-8 JSON');
  }
  if (!isPlainObject(header)) return bad('its header is not an object');
  const h = header as Record<string, unknown>;
  if (h.format !== LIBRARY_FORMAT) bad(`the format is ${JSON.stringify(h.format)}, expected "${LIBRARY_FORMAT}"`);
  if (h.version !== 1 && h.version !== 2) {
    if (typeof h.version === 'number' && h.version > LIBRARY_FORMAT_VERSION) {
      bad(
        `it was made by a newer Evident (file version ${h.version}; this one reads version ` +
          `${LIBRARY_FORMAT_VERSION}): update Evident (reload the page) and import it again`,
      );
    }
    bad(`it has version ${String(h.version)}; this version of Evident reads versions 1 and 2`);
  }
  const v = new Validator('library file');
  const floats = v.int(h.floats, 'floats', 0, Number.MAX_SAFE_INTEGER);
  if (h.version === 1 && (h.originals !== undefined || h.originalBytes !== undefined)) {
    bad('a version 1 file cannot hold original files');
  }
  const originalBytes = h.originalBytes === undefined ? 0 : v.int(h.originalBytes, 'originalBytes', 0, lim.maxBytes);
  const binaryStart = align4(PREFIX_BYTES + headerBytes);
  if (binaryStart + floats * 4 + originalBytes !== bytes.length) {
    bad(
      `its vector section (with any original files) has ${Math.max(0, bytes.length - binaryStart)} bytes, the header announces ${floats * 4 + originalBytes}`,
    );
  }
  if (!littleEndian()) throw new EvidentError('internal', 'Import needs a little-endian platform.');
  // Copy the vector section to an aligned buffer of its own (the input may sit at any offset).
  const body = new Float32Array(bytes.slice(binaryStart, binaryStart + floats * 4).buffer);

  const documents = v.array(h.documents, 'documents', lim.maxDocuments).map((d, i) => v.document(d, `documents[${i}]`));
  const docs = new Map<string, DocumentRecord>();
  for (const d of documents) {
    if (docs.has(d.id)) bad(`document id "${d.id}" appears twice`);
    docs.set(d.id, d);
  }

  const chunks = v
    .array(h.chunks, 'chunks', lim.maxChunks)
    .map((c, i) => v.chunk(c, `chunks[${i}]`, lim.maxChunkChars));
  const byDoc = new Map<string, Chunk[]>();
  const chunkIds = new Set<string>();
  for (const c of chunks) {
    if (chunkIds.has(c.id)) bad(`chunk id "${c.id}" appears twice`);
    chunkIds.add(c.id);
    if (!docs.has(c.docId)) bad(`chunk "${c.id}" belongs to document "${c.docId}", which is not in the file`);
    let list = byDoc.get(c.docId);
    if (!list) byDoc.set(c.docId, (list = []));
    list.push(c);
  }
  for (const d of documents) {
    const list = (byDoc.get(d.id) ?? []).sort((a, b) => a.ordinal - b.ordinal);
    if (list.length !== d.chunkCount)
      bad(`document "${d.id}" announces ${d.chunkCount} chunks, the file has ${list.length}`);
    list.forEach((c, i) => {
      if (c.ordinal !== i) bad(`document "${d.id}" has no chunk with ordinal ${i}`);
      // Chunk ids are `${docId}#${ordinal}` (chunk.ts): a file cannot aim a chunk at another document's key.
      if (c.id !== `${d.id}#${i}`) bad(`chunk "${c.id}" should have the id "${d.id}#${i}"`);
      const prev = list[i - 1] ?? null;
      const next = list[i + 1] ?? null;
      if (c.prevId !== (prev?.id ?? null) || c.nextId !== (next?.id ?? null)) {
        bad(`chunk "${c.id}" is not linked to its neighbours`);
      }
      if (prev && c.start < prev.start) bad(`chunk "${c.id}" starts before the chunk preceding it`);
    });
  }

  const vectorDocs = new Set<string>();
  const vectors = v.array(h.vectors, 'vectors', lim.maxDocuments).map((raw, i): VectorRecord => {
    const e = v.vectorEntry(raw, `vectors[${i}]`, lim.maxDim);
    const doc = docs.get(e.docId);
    if (!doc) return bad(`vectors[${i}] belong to document "${e.docId}", which is not in the file`);
    if (vectorDocs.has(e.docId)) bad(`document "${e.docId}" has two vector segments`);
    vectorDocs.add(e.docId);
    if (e.docAddedAt !== doc.addedAt) bad(`the vectors of "${e.docId}" belong to another version of it`);
    const list = byDoc.get(e.docId) ?? [];
    if (e.rows > list.length) bad(`document "${e.docId}" has ${e.rows} vectors for ${list.length} chunks`);
    e.chunkIds.forEach((id, r) => {
      if (id !== list[r]?.id) bad(`vector row ${r} of "${e.docId}" is not for chunk ${r}`);
    });
    const length = e.rows * e.dim;
    if (e.offset + length > floats) bad(`the vectors of "${e.docId}" run past the end of the file`);
    const data = body.slice(e.offset, e.offset + length);
    for (let j = 0; j < length; j++) {
      if (!Number.isFinite(data[j] as number)) bad(`the vectors of "${e.docId}" contain a non-finite number`);
    }
    return {
      docId: e.docId,
      embedderId: e.embedderId,
      dim: e.dim,
      encoding: e.encoding,
      chunkIds: e.chunkIds,
      data,
      docAddedAt: e.docAddedAt,
    };
  });
  // The stored state is derived from the rows present, never taken from the file.
  const rowsOf = new Map(vectors.map((x) => [x.docId, x.chunkIds.length]));
  const fixedDocs = documents.map((d) => ({ ...d, vectorState: vectorStateOf(rowsOf.get(d.id) ?? 0, d.chunkCount) }));

  let priors: PriorState | null = null;
  if (h.priors !== null && h.priors !== undefined) {
    try {
      priors = parsePriorState(h.priors);
    } catch (err) {
      bad(`its source priors are invalid (${(err as Error).message})`);
    }
  }
  const feedback = v.array(h.feedback ?? [], 'feedback', lim.maxFeedback).map((f, i) => {
    const rec = v.feedback(f, `feedback[${i}]`);
    if (rec.docId !== undefined && !docs.has(rec.docId)) bad(`feedback[${i}] names unknown document "${rec.docId}"`);
    if (rec.chunkId !== undefined && !chunkIds.has(rec.chunkId))
      bad(`feedback[${i}] names unknown chunk "${rec.chunkId}"`);
    return rec;
  });
  const originalStart = binaryStart + floats * 4;
  const originalDocs = new Set<string>();
  const originals = v.array(h.originals ?? [], 'originals', lim.maxDocuments).map((raw, i): OriginalRecord => {
    const e = v.originalEntry(raw, `originals[${i}]`);
    const doc = docs.get(e.docId);
    if (!doc) return bad(`originals[${i}] belong to document "${e.docId}", which is not in the file`);
    if (doc.format !== 'pdf') bad(`originals[${i}] belong to "${e.docId}", which is not a PDF`);
    if (originalDocs.has(e.docId)) bad(`document "${e.docId}" has two original files`);
    originalDocs.add(e.docId);
    if (e.docAddedAt !== doc.addedAt) bad(`the original of "${e.docId}" belongs to another version of it`);
    if (e.offset + e.length > originalBytes) bad(`the original of "${e.docId}" runs past the end of the file`);
    const data = bytes.slice(originalStart + e.offset, originalStart + e.offset + e.length);
    if (!startsWithPdfSignature(data)) bad(`the original of "${e.docId}" is not a PDF`);
    let last = 0;
    for (const p of e.pages) {
      if (p.start < last || p.end < p.start) bad(`the page ranges of "${e.docId}" are not in order`);
      last = p.end;
    }
    return { docId: e.docId, docAddedAt: e.docAddedAt, mime: e.mime, bytes: data, pages: e.pages };
  });
  return { documents: fixedDocs, chunks, vectors, priors, feedback, ...(originals.length > 0 ? { originals } : {}) };
}

/** A page range with only its known fields (the parser's ranges carry more: header, toc). */
export function pageOf(p: OriginalPage): OriginalPage {
  const label = typeof p.label === 'string' && p.label !== '' && p.label.length <= 64 ? p.label : undefined;
  const words = p.words === undefined ? undefined : checkOcrWords(p.words, p.end - p.start);
  if (typeof words === 'string') throw new EvidentError('internal', `The OCR words of page ${p.page} ${words}.`);
  return {
    page: p.page,
    start: p.start,
    end: p.end,
    ...(label !== undefined ? { label } : {}),
    ...(words !== undefined ? { words } : {}),
  };
}

/** "%PDF-" within the first 1,024 bytes, where readers look for it. */
function startsWithPdfSignature(b: Uint8Array): boolean {
  const sig = [0x25, 0x50, 0x44, 0x46, 0x2d];
  const end = Math.min(b.length - sig.length, 1024);
  for (let i = 0; i <= end; i++) if (sig.every((c, j) => b[i + j] === c)) return true;
  return false;
}

class ForbiddenKey extends Error {
  constructor(readonly key: string) {
    super(key);
  }
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

function isPlainObject(x: unknown): x is object {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const HEX = /^[0-9a-f]{16,128}$/;

/** Field checks with messages that name the field; every failure is `invalid_input`. */
class Validator {
  constructor(private readonly what: string) {}

  fail(where: string, why: string): never {
    throw new EvidentError('invalid_input', `${this.what}: ${where} ${why}.`);
  }

  obj(x: unknown, where: string): Record<string, unknown> {
    if (!isPlainObject(x)) this.fail(where, 'is not an object');
    return x as Record<string, unknown>;
  }

  array(x: unknown, where: string, max: number): unknown[] {
    if (!Array.isArray(x)) this.fail(where, 'is not a list');
    if ((x as unknown[]).length > max) this.fail(where, `has more than ${max} entries`);
    return x as unknown[];
  }

  text(x: unknown, where: string, max: number, nonEmpty = false): string {
    if (typeof x !== 'string') return this.fail(where, 'is not text');
    if (x.length > max) this.fail(where, `is longer than ${max} characters`);
    if (nonEmpty && x.trim() === '') this.fail(where, 'is empty');
    return x;
  }

  int(x: unknown, where: string, min: number, max: number): number {
    if (typeof x !== 'number' || !Number.isInteger(x) || x < min || x > max) {
      this.fail(where, `must be an integer in ${min}…${max}`);
    }
    return x as number;
  }

  time(x: unknown, where: string): number {
    if (typeof x !== 'number' || !Number.isFinite(x) || x < 0) this.fail(where, 'is not a time');
    return x as number;
  }

  oneOf<T extends string>(x: unknown, where: string, allowed: readonly T[]): T {
    if (typeof x !== 'string' || !(allowed as readonly string[]).includes(x)) {
      this.fail(where, `must be one of ${allowed.join(', ')}`);
    }
    return x as T;
  }

  date(x: unknown, where = 'effectiveDate'): string {
    if (typeof x !== 'string' || !ISO_DATE.test(x)) this.fail(where, 'must be a date YYYY-MM-DD');
    return x as string;
  }

  id(x: unknown, where: string): string {
    return this.text(x, where, LIMITS.idChars, true);
  }

  document(x: unknown, where: string): DocumentRecord {
    const o = this.obj(x, where);
    const doc: Record<string, unknown> = {
      id: this.id(o.id, `${where}.id`),
      title: this.text(o.title, `${where}.title`, LIMITS.titleChars),
      sourceType: this.oneOf(o.sourceType, `${where}.sourceType`, SOURCE_TYPES),
      status: this.oneOf(o.status, `${where}.status`, DOC_STATUSES),
      fileName: this.text(o.fileName, `${where}.fileName`, LIMITS.fileNameChars),
      format: this.oneOf(o.format, `${where}.format`, DOCUMENT_FORMATS),
      size: this.int(o.size, `${where}.size`, 0, Number.MAX_SAFE_INTEGER),
      bytesHash: HEX.test(String(o.bytesHash))
        ? String(o.bytesHash)
        : this.fail(`${where}.bytesHash`, 'is not a hex hash'),
      addedAt: this.time(o.addedAt, `${where}.addedAt`),
      updatedAt: this.time(o.updatedAt, `${where}.updatedAt`),
      chunkCount: this.int(o.chunkCount, `${where}.chunkCount`, 0, DEFAULT_IMPORT_LIMITS.maxChunks),
      pageCount: o.pageCount === null ? null : this.int(o.pageCount, `${where}.pageCount`, 0, 10_000_000),
      vectorState: this.oneOf(o.vectorState, `${where}.vectorState`, VECTOR_STATES),
    };
    if (o.effectiveDate !== undefined) doc.effectiveDate = this.date(o.effectiveDate, `${where}.effectiveDate`);
    if (o.language !== undefined) doc.language = this.text(o.language, `${where}.language`, LIMITS.languageChars);
    if (o.ocrPages !== undefined) {
      if (!Array.isArray(o.ocrPages)) this.fail(`${where}.ocrPages`, 'is not a list');
      doc.ocrPages = (o.ocrPages as unknown[]).map((m, i) => {
        const p = this.obj(m, `${where}.ocrPages[${i}]`);
        const confidence = Number(p.confidence);
        if (!(confidence >= 0 && confidence <= 100)) this.fail(`${where}.ocrPages[${i}].confidence`, 'is not 0–100');
        return { page: this.int(p.page, `${where}.ocrPages[${i}].page`, 1, 10_000_000), confidence };
      });
    }
    return doc as unknown as DocumentRecord;
  }

  chunk(x: unknown, where: string, maxChars: number): Chunk {
    const o = this.obj(x, where);
    const text = this.text(o.text, `${where}.text`, maxChars);
    const start = this.int(o.start, `${where}.start`, 0, Number.MAX_SAFE_INTEGER);
    const end = this.int(o.end, `${where}.end`, start, Number.MAX_SAFE_INTEGER);
    // A chunk is the exact source slice [start, end) (src/core/ingest/chunk.ts).
    if (end - start !== text.length) this.fail(where, `has offsets ${start}…${end} for ${text.length} characters`);
    const headings = this.array(o.headings, `${where}.headings`, LIMITS.headings).map((hd, i) =>
      this.text(hd, `${where}.headings[${i}]`, LIMITS.headingChars),
    );
    const context = o.context === undefined ? undefined : this.text(o.context, `${where}.context`, LIMITS.contextChars);
    if (context === '') this.fail(`${where}.context`, 'is empty (a chunk without context has none)');
    const hash = this.text(o.hash, `${where}.hash`, 128);
    if (hash !== chunkHash({ text, context })) this.fail(`${where}.hash`, 'does not match its text');
    const link = (y: unknown, name: string): string | null => (y === null ? null : this.id(y, `${where}.${name}`));
    const chunk: Record<string, unknown> = {
      id: this.id(o.id, `${where}.id`),
      docId: this.id(o.docId, `${where}.docId`),
      ordinal: this.int(o.ordinal, `${where}.ordinal`, 0, DEFAULT_IMPORT_LIMITS.maxChunks),
      text,
      headings,
      ...(context !== undefined ? { context } : {}),
      start,
      end,
      prevId: link(o.prevId, 'prevId'),
      nextId: link(o.nextId, 'nextId'),
      hash,
      tokens: this.int(o.tokens, `${where}.tokens`, 0, maxChars),
    };
    if (o.page !== undefined) chunk.page = this.int(o.page, `${where}.page`, 1, 10_000_000);
    // Hidden-text marks travel with the chunk: an import that dropped them would make hidden text evidence.
    if (o.hidden !== undefined) {
      chunk.hidden = this.array(o.hidden, `${where}.hidden`, text.length).map((h, i) => {
        const ho = this.obj(h, `${where}.hidden[${i}]`);
        const s = this.int(ho.start, `${where}.hidden[${i}].start`, 0, text.length);
        return {
          start: s,
          end: this.int(ho.end, `${where}.hidden[${i}].end`, s, text.length),
          kind: this.oneOf(ho.kind, `${where}.hidden[${i}].kind`, HIDDEN_TEXT_KINDS),
        };
      });
    }
    return chunk as unknown as Chunk;
  }

  vectorEntry(x: unknown, where: string, maxDim: number): VectorEntry {
    const o = this.obj(x, where);
    const dim = this.int(o.dim, `${where}.dim`, 1, maxDim);
    const chunkIds = this.array(o.chunkIds, `${where}.chunkIds`, DEFAULT_IMPORT_LIMITS.maxChunks).map((id, i) =>
      this.id(id, `${where}.chunkIds[${i}]`),
    );
    const rows = this.int(o.rows, `${where}.rows`, 0, DEFAULT_IMPORT_LIMITS.maxChunks);
    if (rows !== chunkIds.length) this.fail(where, `has ${rows} rows for ${chunkIds.length} chunk ids`);
    return {
      docId: this.id(o.docId, `${where}.docId`),
      embedderId: this.text(o.embedderId, `${where}.embedderId`, LIMITS.embedderIdChars, true),
      dim,
      encoding: this.oneOf(o.encoding, `${where}.encoding`, VECTOR_ENCODINGS),
      chunkIds,
      docAddedAt: this.time(o.docAddedAt, `${where}.docAddedAt`),
      offset: this.int(o.offset, `${where}.offset`, 0, Number.MAX_SAFE_INTEGER),
      rows,
    };
  }

  originalEntry(x: unknown, where: string): OriginalEntry {
    const o = this.obj(x, where);
    const pages = this.array(o.pages, `${where}.pages`, MAX_ORIGINAL_PAGES).map((p, i) => {
      const r = this.obj(p, `${where}.pages[${i}]`);
      const label = r.label === undefined ? undefined : this.text(r.label, `${where}.pages[${i}].label`, 64, true);
      const start = this.int(r.start, `${where}.pages[${i}].start`, 0, Number.MAX_SAFE_INTEGER);
      const end = this.int(r.end, `${where}.pages[${i}].end`, 0, Number.MAX_SAFE_INTEGER);
      const words = r.words === undefined ? undefined : checkOcrWords(r.words, end - start);
      if (typeof words === 'string') this.fail(`${where}.pages[${i}].words`, words);
      return {
        page: this.int(r.page, `${where}.pages[${i}].page`, 1, 10_000_000),
        start,
        end,
        ...(label !== undefined ? { label } : {}),
        ...(words !== undefined ? { words: words as OcrWords } : {}),
      };
    });
    return {
      docId: this.id(o.docId, `${where}.docId`),
      docAddedAt: this.time(o.docAddedAt, `${where}.docAddedAt`),
      mime: this.oneOf(o.mime, `${where}.mime`, ['application/pdf'] as const),
      pages,
      offset: this.int(o.offset, `${where}.offset`, 0, Number.MAX_SAFE_INTEGER),
      length: this.int(o.length, `${where}.length`, 1, Number.MAX_SAFE_INTEGER),
    };
  }

  feedback(x: unknown, where: string): FeedbackRecord {
    const o = this.obj(x, where);
    const rec: Record<string, unknown> = {
      sourceType: this.oneOf(o.sourceType, `${where}.sourceType`, SOURCE_TYPES),
      verdict: this.oneOf(o.verdict, `${where}.verdict`, FEEDBACK_VERDICTS),
      at: this.time(o.at, `${where}.at`),
    };
    if (o.docId !== undefined) rec.docId = this.id(o.docId, `${where}.docId`);
    if (o.chunkId !== undefined) rec.chunkId = this.id(o.chunkId, `${where}.chunkId`);
    if (o.query !== undefined) rec.query = this.text(o.query, `${where}.query`, LIMITS.queryChars);
    return rec as unknown as FeedbackRecord;
  }
}
