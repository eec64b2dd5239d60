/**
 * The one IndexedDB schema of Evident: every store, key and index, as of the current version.
 * `db.ts` migrates older databases to it; the record types live in `src/core/library-format.ts`
 * because the export file carries the same records.
 */
import type { DBSchema } from 'idb';
import type {
  DocumentFormat,
  DocumentRecord,
  FeedbackRecord,
  OriginalRecord,
  VectorRecord,
} from '../core/library-format';
import type { SerializedBm25 } from '../core/lexical/bm25';
import type { PriorState } from '../core/select/priors';
import type { Chunk, DocStatus, SourceType } from '../core/types';

export const DB_NAME = 'evident';

/** Current schema version; `db.ts` has one migration step per version. */
export const DB_VERSION = 6;

/**
 * Embedding models whose vectors the library keeps: the active one and the one used before it
 * (`Settings.vectorModels`). Switching back to the previous model reuses its vectors; a third
 * model's activation deletes the oldest model's vectors (v5).
 */
export const KEPT_VECTOR_MODELS = 2;

/** User settings and library flags, one record per key. */
export interface Settings {
  /** Model profile chosen in settings (loaded again at startup). */
  readonly profile: 'embedded' | 'enhanced' | 'tiny';
  /** The user agreed to model downloads from the Hugging Face Hub. */
  readonly hubConsent: boolean;
  /** Evidence token budget for packing. */
  readonly budget: number;
  /** MMR λ (relevance vs diversity). */
  readonly mmrLambda: number;
  /** Bounds of the elbow cutoff. */
  readonly cutoffBounds: { readonly min: number; readonly max: number };
  /** Premise-directed inquiry: follow-up queries at most and records read per query. */
  readonly inquiry: { readonly budget: number; readonly topR: number };
  /** OCR of PDF pages without a text layer. */
  readonly ocr: boolean;
  /** Set once the demo library was queued: it is never added again, even after the user deletes it. */
  readonly demoInstalled: boolean;
  /** Bumped by every write that changes documents, chunks or titles (another tab can tell the library changed). */
  readonly libraryVersion: number;
  /**
   * The ingest-queue entry being worked on and how many times it was started. A file that kills
   * the worker (memory) would otherwise be resumed, and kill it again, on every start: after
   * `MAX_INGEST_ATTEMPTS` starts (`src/worker/ingest-files.ts`) it is dropped with an error instead.
   */
  readonly ingestAttempt: { readonly seq: number; readonly count: number };
  /**
   * Ids of the embedding models whose vectors are stored, the active one first, then the one
   * before it (at most `KEPT_VECTOR_MODELS`; v5). Startup loads the first one's vectors before
   * any model is loaded; export carries them. Kept by `src/storage/library.ts`: writing a
   * model's vectors or switching to it puts it first and deletes the vectors of the models
   * pushed past the bound.
   */
  readonly vectorModels: readonly string[];
}
export type SettingKey = keyof Settings;

/**
 * A serialized BM25 index and the fingerprint of the library it was built from (every document's
 * id, version and title: chunks of a version never change). Startup uses it only when the
 * fingerprint of the documents it loaded is the same; otherwise it rebuilds from the chunks.
 */
export interface LexicalRecord {
  readonly fingerprint: string;
  readonly index: SerializedBm25;
}

/**
 * A document's chunks as one record: the only copy of chunk texts (v4). IndexedDB pays per
 * record, so reading 100k chunks as 1,000 records at startup is several times faster than as
 * 100k (see DESIGN.md, Storage); nothing reads one chunk on its own (search, previews and
 * neighbours come from the worker's memory), and a document is always written and deleted
 * whole. Written in the transaction that writes its document; v3 kept a per-chunk `chunks`
 * store beside it (a second copy of every text), which v4 folds into the sets and drops.
 */
export interface ChunkSet {
  readonly docId: string;
  /** `addedAt` of the document version these chunks belong to. */
  readonly docAddedAt: number;
  /** Every chunk of the document, by ordinal. */
  readonly chunks: readonly Chunk[];
}

/**
 * What an ingest queue entry carries: text (documents added as text, the demo), or a file's own
 * bytes, which a resumed batch parses again with the same parser (so pages, headings and the
 * file's format come back as they would have). The bytes leave the queue in the transaction
 * that stores their document.
 */
export type QueuedSource =
  | { readonly kind: 'text'; readonly text: string; readonly format: 'markdown' | 'text' }
  | { readonly kind: 'bytes'; readonly bytes: ArrayBuffer; readonly mime: string };

/** One file of a batch that has not been ingested yet (removed in the transaction that stores its document). */
export interface QueueEntry {
  /** Auto-increment key: batches resume in the order they were queued. */
  readonly seq?: number;
  readonly docId: string;
  readonly title: string;
  readonly fileName: string;
  readonly source: QueuedSource;
  readonly sourceType?: SourceType;
  readonly status?: DocStatus;
  readonly effectiveDate?: string;
  readonly queuedAt: number;
  /** Format the parser should treat bytes as, when known from the file name. */
  readonly format?: DocumentFormat;
}

export interface EvidentDB extends DBSchema {
  documents: {
    key: string;
    value: DocumentRecord;
    /** v2: finds a file that is already in the library. */
    indexes: { 'by-hash': string };
  };
  /** v3: one record per document, keyed by document id (`ChunkSet`); since v4 the only store of chunks. */
  chunkSets: {
    key: string;
    value: ChunkSet;
  };
  /**
   * v5: one contiguous segment per (embedding model, document), keyed `[embedderId, docId]`, so
   * one model's vectors are one key range (startup reads only the active model's) and switching
   * back to a model finds its vectors. v1–v4 kept one segment per document in `vectors`.
   */
  vectorSets: {
    key: [string, string];
    value: VectorRecord;
    /** Every model's segment of a document (deleted with it). */
    indexes: { 'by-doc': string };
  };
  /**
   * v6: a PDF's original bytes and page ranges (`OriginalRecord`), keyed by document id, for the
   * page view. Written in the transaction that writes its document, deleted with it; only PDFs.
   */
  originals: {
    key: string;
    value: OriginalRecord;
  };
  /** Out-of-line key: 'bm25'. */
  lexical: {
    key: 'bm25';
    value: LexicalRecord;
  };
  settings: {
    key: SettingKey;
    value: Settings[SettingKey];
  };
  /** Out-of-line key: 'state'. */
  priors: {
    key: 'state';
    value: PriorState;
  };
  /** v2. */
  feedback: {
    key: number;
    value: FeedbackRecord;
    indexes: { 'by-doc': string };
  };
  /** v2. */
  ingestQueue: {
    key: number;
    value: QueueEntry;
  };
}

export type StoreName =
  | 'documents'
  | 'chunkSets'
  | 'vectorSets'
  | 'originals'
  | 'lexical'
  | 'settings'
  | 'priors'
  | 'feedback'
  | 'ingestQueue';
