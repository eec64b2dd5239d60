/**
 * The one typed RPC surface between the UI and the worker (Comlink). Types only, and only
 * runtime-neutral types, so both the DOM (UI) and WebWorker tsconfigs compile it.
 *
 * Conventions
 * - Errors cross as values: every long call resolves to `Result<T>`; the worker never lets an
 *   exception escape through Comlink (it would lose the error code). `worker-client.ts` turns
 *   `{ ok: false }` back into an `EvidentError` with the same code.
 * - Progress: an optional callback, wrapped by the caller with `Comlink.proxy`. The worker
 *   throttles it (~10 per second) and always sends a final event.
 * - Buffers: `embed` transfers its Float32Array (`Comlink.transfer`), it is not copied.
 * - Cancellation (an AbortSignal cannot cross postMessage): the caller picks a unique `callId`
 *   and passes it in `CallOptions`; the worker registers an AbortController under that id
 *   synchronously when the call starts, before its first await. To cancel, the caller sends
 *   `abort(callId)`. postMessage keeps order, so `abort` always arrives after the call it names;
 *   the worker checks the signal between steps (fetch chunks, embedding batches) and resolves
 *   `{ ok: false, error: { code: 'aborted' } }`. `abort` of an unknown or finished id is a no-op
 *   returning false. The client additionally rejects at once on abort, so the UI never waits
 *   for a worker that is inside one long synchronous step.
 */
import type { EvidentErrorValue } from '../core/errors';
import type { HiddenRangeInput } from '../core/ingest/hidden';
import type { PageSpan } from '../core/ingest/pages';
import type { DocumentFormat, DocumentMetaPatch, OriginalPage, VectorState } from '../core/library-format';
import type { Candidate, DocStatus, ScoreBreakdown, SourceType, TraceEntry } from '../core/types';
import type { AppApi } from './ask-api';
import type { BenchmarkApi } from './benchmark-api';
import type { ModelsApi } from './models-api';

export type Result<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: EvidentErrorValue };

/** Options every long call accepts. */
export interface CallOptions {
  /** Id for `abort(callId)`; unique among the calls in flight. Omit for a call that cannot be cancelled. */
  readonly callId?: string;
}

export type ProgressCallback<P> = (progress: P) => void;

/** Model loading: byte-level while downloading, then one 'init' step (backend + graph). */
export interface LoadProgress {
  readonly phase: 'download' | 'verify' | 'init' | 'ready';
  readonly loadedBytes: number;
  readonly totalBytes: number;
}

export const BACKENDS = ['webgpu', 'wasm', 'cpu'] as const;
export type BackendName = (typeof BACKENDS)[number];

/** Which TF.js backend runs the embedder, and why that one. */
export interface BackendInfo {
  readonly name: BackendName;
  /** WASM threads in use (1 when single-threaded or not WASM). */
  readonly threads: number;
  readonly simd: boolean;
  /** `crossOriginIsolated` as the worker sees it: SharedArrayBuffer, hence WASM threads. */
  readonly crossOriginIsolated: boolean;
  /** Human-readable reason for the choice, e.g. "WebGPU unavailable; WASM with 8 threads (cross-origin isolated)". */
  readonly reason: string;
}

export interface EmbedderInfo {
  readonly id: string;
  readonly dim: number;
  readonly maxTokens: number;
  readonly backend: BackendInfo;
  readonly bytes: number;
  readonly downloadMs: number;
  readonly initMs: number;
  /** First embedding of a short text after init (includes WASM/kernel warm-up). */
  readonly warmupMs: number;
  /**
   * Workers embedding passages side by side, each running the model single-threaded
   * (`embed-pool.ts`); absent or 0 while passages embed in the main worker (before the first
   * long embedding, or on WebGPU).
   */
  readonly workers?: number;
}

export interface AddDocumentInput {
  readonly docId: string;
  readonly title: string;
  readonly text: string;
  readonly format: 'markdown' | 'text';
  readonly sourceType?: SourceType;
  readonly status?: DocStatus;
  /** ISO date (YYYY-MM-DD). */
  readonly effectiveDate?: string;
  /** Name of the file the text came from, kept with the document. */
  readonly fileName?: string;
  /** The file's format when the text was parsed from one (PDF, DOCX, HTML); default `format`. */
  readonly fileFormat?: DocumentFormat;
  /** Paged formats: where each page's characters lie in `text` (chunks get their page from it). */
  readonly pages?: readonly PageSpan[];
  /** Ranges of `text` hidden from readers (`ParsedDocument.hidden`): chunks get them as `hidden` spans. */
  readonly hidden?: readonly HiddenRangeInput[];
  /** BCP 47 language tag from the file's metadata, when it has one. */
  readonly language?: string;
  /** A PDF's own bytes, stored with the document (with `pages`) for the page view. */
  readonly original?: Uint8Array;
}

export interface IngestProgress {
  readonly docId: string;
  readonly phase: 'chunk' | 'embed' | 'index' | 'done';
  /** Chunks embedded so far (phase 'embed'), else 0 or `total`. */
  readonly done: number;
  readonly total: number;
}

export interface AddDocumentResult {
  readonly docId: string;
  readonly chunks: number;
  readonly tokens: number;
  readonly chunkMs: number;
  readonly embedMs: number;
  readonly indexMs: number;
  /** True when the document replaced an earlier one with the same id. */
  readonly replaced: boolean;
}

export interface SearchOptions extends CallOptions {
  /** Results to return (default 10, at most 100). */
  readonly k?: number;
}

/** One query term's share of a chunk's BM25 score. */
export interface TermExplanation {
  readonly term: string;
  readonly score: number;
  /** Extra numbers the lexical index reports for the term (tf, idf, field, …). */
  readonly detail?: Readonly<Record<string, number | string>>;
}

/** One ranked chunk, with what the UI needs to show it and why it ranked where it did. */
export interface SearchHit {
  /** 1-based rank in the fused list. */
  readonly rank: number;
  readonly chunkId: string;
  readonly docId: string;
  readonly title: string;
  readonly headings: readonly string[];
  readonly text: string;
  /** A table chunk's title and column header when its text does not hold them (shown above its rows). */
  readonly context?: string;
  readonly sourceType: SourceType;
  readonly status: DocStatus;
  readonly score: number;
  readonly scores: ScoreBreakdown;
  /** 1-based rank in each retriever's own list; absent when that retriever did not return it. */
  readonly ranks: Candidate['ranks'];
  readonly terms: readonly TermExplanation[];
  readonly trace: readonly TraceEntry[];
}

export interface SearchResponse {
  readonly query: string;
  readonly hits: readonly SearchHit[];
  /** Analyzed query terms (what BM25 looked for). */
  readonly queryTerms: readonly string[];
  /** False when no embedder is loaded: results are BM25 only. */
  readonly dense: boolean;
  readonly fusion: string;
  readonly timings: {
    readonly lexicalMs: number;
    readonly embedMs: number;
    readonly denseMs: number;
    readonly fuseMs: number;
  };
}

export interface LibraryDocument {
  readonly docId: string;
  readonly title: string;
  readonly chunks: number;
  readonly sourceType: SourceType;
  readonly status: DocStatus;
  readonly effectiveDate?: string;
  readonly fileName?: string;
  /** Epoch ms when this version was ingested. */
  readonly addedAt?: number;
  /** Chunks with a vector of the current model (search gives the others no dense score). */
  readonly vectors?: number;
  readonly vectorState?: VectorState;
  /** The format it was read from, and its page count when paged. */
  readonly format?: DocumentFormat;
  readonly pageCount?: number | null;
  /** BCP 47 language tag (from the file's metadata, or as the user set it). */
  readonly language?: string;
  /** Pages read by OCR (no text layer), with their confidence 0–100. */
  readonly ocrPages?: readonly { readonly page: number; readonly confidence: number }[];
}

// ---- Library persistence (src/storage) ----

/** What the worker loaded from IndexedDB at start. */
export interface LibraryInfo {
  /** False when IndexedDB is unavailable: the library lives in memory for this tab only. */
  readonly persistent: boolean;
  /** Why the library is not kept, when `persistent` is false. */
  readonly storageError: EvidentErrorValue | null;
  readonly documents: readonly LibraryDocument[];
  readonly chunks: number;
  /** Chunks with a vector in the dense index. */
  readonly vectors: number;
  /** Files of an interrupted batch waiting in the ingest queue (`resumeIngest` adds them). */
  readonly queued: number;
  /** The demo library was queued once; it is not added again (even after the user deleted it). */
  readonly demoInstalled: boolean;
  /** Documents whose stored chunks did not match their record (skipped). */
  readonly skipped: readonly string[];
  /** How the BM25 index was made: the stored serialized one, rebuilt from the chunks, or none (empty library). */
  readonly lexical: 'stored' | 'rebuilt' | 'empty';
  readonly timings: {
    /** Opening (and migrating) the database. */
    readonly openMs: number;
    /** Reading documents and chunks. */
    readonly readMs: number;
    /** Building the BM25 index. */
    readonly lexicalMs: number;
    /** Worker start → searchable lexically. */
    readonly searchableMs: number;
    /** Reading the vectors and filling the dense index. */
    readonly vectorsMs: number;
    /** Worker start → everything loaded. */
    readonly loadedMs: number;
  };
}

export interface AddDocumentsOptions extends CallOptions {
  /** Marks the demo library as installed, in the transaction that queues it. */
  readonly installDemo?: boolean;
}

/** Ingest progress of one file of a batch. */
export interface BatchProgress extends IngestProgress {
  /** 0-based position in the batch. */
  readonly index: number;
  readonly count: number;
  readonly title: string;
}

export interface AddDocumentsResult {
  readonly added: readonly AddDocumentResult[];
  /** Files that could not be ingested (reported, dropped from the queue); the batch went on. */
  readonly failed: readonly { readonly docId: string; readonly title: string; readonly error: EvidentErrorValue }[];
}

export interface FillVectorsResult {
  readonly documents: number;
  readonly chunks: number;
  readonly ms: number;
}

export interface ImportLibraryOptions extends CallOptions {
  /** `merge` (default) adds the file's documents, replacing same ids; `replace` empties the library first. */
  readonly mode?: 'merge' | 'replace';
  /** Opens a passphrase-protected file; such a file without it fails with `passphrase_required`. */
  readonly passphrase?: string;
}

export interface ExportLibraryOptions extends CallOptions {
  /** Protects the file with this passphrase (AES-GCM, PBKDF2-SHA-256); without it the file is plain. */
  readonly passphrase?: string;
}

export interface ImportLibraryResult {
  readonly documents: number;
  readonly chunks: number;
  readonly vectors: number;
  readonly replaced: number;
}

export interface StorageUsageInfo {
  /** Bytes used and available to this origin; null where the browser does not say. */
  readonly usage: number | null;
  readonly quota: number | null;
  /** Whether the browser keeps the library under storage pressure (persist() is requested by the page). */
  readonly persisted: boolean | null;
}

export interface WorkerStatus {
  readonly embedder: EmbedderInfo | null;
  readonly documents: readonly LibraryDocument[];
  readonly chunks: number;
  readonly crossOriginIsolated: boolean;
  /**
   * The embedding in the background: the document whose chunks are being embedded now (null when
   * none) and the measured rate in chunks per second (null before the first batch was timed).
   */
  readonly embedding?: EmbeddingStatus;
}

export interface EmbeddingStatus {
  readonly docId: string | null;
  readonly rate: number | null;
}

/** What `worker.ts` exposes. Comlink's `Remote<EvidentWorkerApi>` makes every method async. */
export interface EvidentWorkerApi extends ModelsApi, AppApi, BenchmarkApi {
  /** Heartbeat: echoes its argument. A worker that stops answering is restarted by the client. */
  ping(nonce: number): number;
  status(): WorkerStatus;
  /** Downloads (byte progress), verifies and initialises the default embedder. Idempotent. */
  loadEmbedder(options: CallOptions, onProgress?: ProgressCallback<LoadProgress>): Promise<Result<EmbedderInfo>>;
  /** Chunks, indexes lexically and embeds one document (replaces one with the same id). */
  addDocument(
    input: AddDocumentInput,
    options: CallOptions,
    onProgress?: ProgressCallback<IngestProgress>,
  ): Promise<Result<AddDocumentResult>>;
  /** Hybrid search: BM25 + dense (when an embedder is loaded), fused, with a per-signal trace. */
  search(query: string, options: SearchOptions): Promise<Result<SearchResponse>>;
  /** Embeddings of `texts`, row-major `texts.length × dim`, transferred. */
  embed(texts: readonly string[], options: CallOptions): Promise<Result<Float32Array>>;
  /** Cancels the call registered under `callId`; false when none is in flight. */
  abort(callId: string): boolean;

  // ---- Library persistence (src/storage) ----
  /** Waits for the library the worker loads from IndexedDB at start (searchable lexically before any model). */
  openLibrary(): Promise<Result<LibraryInfo>>;
  /** Queues a batch (IndexedDB), then ingests it file by file: each searchable lexically once stored, then embedded. */
  addDocuments(
    inputs: readonly AddDocumentInput[],
    options: AddDocumentsOptions,
    onProgress?: ProgressCallback<BatchProgress>,
  ): Promise<Result<AddDocumentsResult>>;
  /** Ingests what an interrupted batch left in the queue. Needs the embedder (its tokenizer sizes chunks). */
  resumeIngest(options: CallOptions, onProgress?: ProgressCallback<BatchProgress>): Promise<Result<AddDocumentsResult>>;
  /** Embeds chunks that have no vector of the current model yet (resumes interrupted indexing). */
  fillVectors(options: CallOptions, onProgress?: ProgressCallback<IngestProgress>): Promise<Result<FillVectorsResult>>;
  listDocuments(): Promise<Result<LibraryDocument[]>>;
  /** Removes a document with its chunks, vectors and feedback; false when it was not there. */
  deleteDocument(docId: string): Promise<Result<boolean>>;
  updateDocumentMeta(docId: string, patch: DocumentMetaPatch): Promise<Result<LibraryDocument>>;
  /** The library as one export file (transferred), protected when a passphrase is given. */
  exportLibrary(options: ExportLibraryOptions): Promise<Result<Uint8Array>>;
  /** Validates an export file completely, then stores it in one transaction; invalid → `invalid_input`, nothing written. */
  importLibrary(bytes: Uint8Array, options: ImportLibraryOptions): Promise<Result<ImportLibraryResult>>;
  /** Reads the library from storage again (another tab changed it); the counts after. */
  reloadLibrary(): Promise<Result<Pick<LibraryInfo, 'documents' | 'chunks' | 'vectors'>>>;
  storageUsage(): Promise<Result<StorageUsageInfo>>;
  /**
   * A PDF's original bytes (transferred) and its page ranges in the document text, for the page
   * view; null for other formats and for PDFs stored before the bytes were kept (schema v6).
   */
  readOriginal(docId: string): Promise<Result<OriginalFile | null>>;
}

/** A PDF as stored with its document: its bytes and where each page's text lies in the document text. */
export interface OriginalFile {
  readonly docId: string;
  readonly bytes: Uint8Array;
  /** With the page number printed on each page (`label`), where the parser found one. */
  readonly pages: readonly OriginalPage[];
}
