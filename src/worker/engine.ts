/**
 * The worker's in-memory library: documents → chunks → a BM25 index and a dense matrix, and
 * hybrid search over both with a per-signal trace. Runtime-neutral (no worker globals), so it is
 * tested in Node with any `Embedder`; `worker.ts` wires it to the RPC surface and to IndexedDB.
 *
 * With a `LibraryStore` attached, every change is persisted before it shows in memory:
 * - ingest is progressive: a document is chunked, stored whole in one transaction with its
 *   chunks, and is then searchable lexically; its vectors are computed in batches afterwards,
 *   join the dense index batch by batch (search uses the vectors present so far: a chunk without
 *   one simply has no dense score) and are persisted as one growing segment per document;
 * - a reload or a cancelled call mid-ingest leaves each document whole or absent: before the
 *   document transaction nothing, after it the whole document (`fillVectors` completes its
 *   vectors later, resuming after the rows already stored);
 * - batches go through the store's ingest queue first, so a batch cut short resumes.
 *
 * The BM25 index follows changes incrementally (`Bm25Index.without` / `withAdded`: the removed
 * and replaced documents' postings are filtered out and the new ones' merged in, without
 * re-analyzing the rest of the library), with the same documents in the same order as a build
 * from scratch, which it falls back to when the order would differ (a retitled document keeps its
 * place). At startup it is read from its serialized copy when that was built from exactly the
 * stored documents, else built from the chunks. The dense `FlatIndex` is updated in place.
 */
import { EvidentError } from '../core/errors';
import { FlatIndex } from '../core/dense/flat-index';
import { chunkDocument, contextualText } from '../core/ingest/chunk';
import { assignHidden } from '../core/ingest/hidden';
import { assignPages } from '../core/ingest/pages';
import { contextTitleLines, sectionNames } from '../core/ingest/table';
import { Bm25Index, DEFAULT_BM25_OPTIONS, DEFAULT_BM25_PARAMS, type Bm25Hit } from '../core/lexical/bm25';
import {
  applyMetaPatch,
  validateMetaPatch,
  vectorStateOf,
  type DocumentRecord,
  type VectorRecord,
  type OcrPageMark,
} from '../core/library-format';
import { fuse, type FusionMode } from '../core/retrieval/fusion';
import { DEFAULT_SECTION_SEARCH, searchNamedSections, type SectionHitTrace } from '../core/retrieval/section-search';
import { SectionIndex, type SectionedChunk } from '../core/retrieval/sections';
import { weightedQuery } from '../core/retrieval/term-weights';
import type { Candidate, Chunk, DocumentMeta, Hit, IndexableDoc, TraceEntry } from '../core/types';
import { fnv1a64 } from '../core/util/hash';
import type { Embedder } from '../models/embedder';
import type { Library } from '../storage/library';
import type { LexicalRecord, QueueEntry } from '../storage/schema';
import { throwIfAborted } from './abort-registry';
import type {
  AddDocumentInput,
  AddDocumentResult,
  AddDocumentsResult,
  BatchProgress,
  FillVectorsResult,
  IngestProgress,
  LibraryDocument,
  SearchHit,
  SearchResponse,
  TermExplanation,
} from './api';

export interface EngineOptions {
  /** Candidates each retriever contributes to fusion (the cheap first stage of the cascade). Default 100. */
  readonly poolSize: number;
  /**
   * Fusion mode. Default 'weighted' (min-max, dense weight `DEFAULT_DENSE_WEIGHT`) of BM25 with
   * learned query-term weights and dense: on SciFact it beats RRF by ~0.2 nDCG@10 with the
   * embedded encoder, whose dense list is weak (see DESIGN.md).
   */
  readonly fusion: FusionMode;
  /** Hard cap on `k` in `search`. Default 100. */
  readonly maxK: number;
  /**
   * Chunks embedded per step of progressive indexing; each step's vectors join the dense index
   * at once. Default 64: a few hundred ms of USE-lite on WASM, so new vectors show up often.
   */
  readonly embedBatch: number;
  /**
   * Default true. False: documents are indexed for keyword search only and never embedded (the
   * long-document benchmark's `--lexical-only`, for quick iteration); search is then BM25 alone.
   */
  readonly vectors: boolean;
}

export const DEFAULT_ENGINE_OPTIONS: Readonly<EngineOptions> = Object.freeze({
  poolSize: 100,
  fusion: 'weighted',
  maxK: 100,
  embedBatch: 64,
  vectors: true,
});

/** What the engine needs from persistence (`src/storage/library.ts` in the worker). */
export type LibraryStore = Pick<
  Library,
  | 'putDocument'
  | 'putVectors'
  | 'deleteDocument'
  | 'updateMeta'
  | 'enqueue'
  | 'queued'
  | 'dequeue'
  | 'clearQueue'
  | 'saveLexical'
>;

/** A document in memory. `rows`: its chunks (a prefix, by ordinal) that have a vector in the dense index. */
interface StoredDoc {
  meta: DocumentRecord;
  readonly chunks: readonly Chunk[];
  rows: number;
}

interface ChunkRef {
  readonly chunk: Chunk;
  readonly doc: StoredDoc;
}

export interface IngestCallbacks {
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: IngestProgress) => void;
  /** The ingest-queue entry this document comes from (removed with the document's transaction). */
  readonly dequeue?: number;
  /** Leave the BM25 update to the next search (or the batch's last document): a batch updates it once. */
  readonly deferIndex?: boolean;
}

/** A document stored and indexed, not yet embedded: `AddDocumentResult` without the embedding time. */
export type StagedDocument = Omit<AddDocumentResult, 'embedMs'>;

/** What `storeAndIndex` hands to `embedStaged`. */
interface Staged {
  readonly doc: StoredDoc;
  readonly embedder: Embedder;
  readonly result: StagedDocument;
}

/** How `load` made the library searchable lexically. */
export type LexicalSource = 'stored' | 'rebuilt' | 'empty';

/** Errors that concern one file of a batch: it is dropped from the queue and the batch goes on. */
const PER_FILE_ERRORS = new Set([
  'invalid_input',
  'empty_file',
  'unsupported_format',
  'file_too_large',
  'not_docx',
  'zip_bomb',
  'pdf_password_required',
  'pdf_wrong_password',
  'pdf_no_text',
  'pdf_corrupt',
]);

export class Engine {
  private readonly options: Readonly<EngineOptions>;
  private embedderValue: Embedder | null = null;
  private readonly docs = new Map<string, StoredDoc>();
  private readonly chunks = new Map<string, ChunkRef>();
  private bm25: Bm25Index | null = null;
  /** Section names of the indexed chunks (built on first search after a change). */
  private sections: SectionIndex | null = null;
  private dense: FlatIndex | null = null;
  /** Embedder id of the vectors in `dense`. */
  private denseModel: string | null = null;
  /** Set by `switchEmbedder` until every chunk has a vector of the new model. */
  private denseHeld = false;
  private dirty = true;
  private store: LibraryStore | null = null;
  private lastAddedAt = 0;
  /** How the BM25 index was last brought up to date (tests and benchmarks read it). */
  lexicalUpdate: 'built' | 'updated' | 'stored' | null = null;
  /** The documents `bm25` holds (and the title each was indexed with), in its order. */
  private indexed = new Map<string, { readonly doc: StoredDoc; readonly title: string }>();
  /** Fingerprint of the documents `bm25` was built from, and of the one last stored. */
  private bm25Fingerprint = '';
  private storedFingerprint: string | null = null;
  private lexicalSave: Promise<void> = Promise.resolve();
  private lexicalSavePending = false;
  /** The embedding of the documents staged so far (`stageDocument`), one after another. */
  private embedQueue: Promise<void> = Promise.resolve();
  /** Documents staged whose embedding has not settled: `fillVectors` leaves them to the queue. */
  private readonly staged = new Set<StoredDoc>();
  /** The embedding in flight per document: removing or replacing the document aborts it at once. */
  private readonly embeddingNow = new Map<StoredDoc, AbortController>();
  /** Measured embedding rate (chunks/s, moving average over batches); null before a batch was timed. */
  private embedRateValue: number | null = null;

  constructor(options: Partial<EngineOptions> = {}) {
    this.options = Object.freeze({ ...DEFAULT_ENGINE_OPTIONS, ...options });
  }

  get embedder(): Embedder | null {
    return this.embedderValue;
  }

  /** Persists every later change through `store` (IndexedDB in the worker). */
  attachStore(store: LibraryStore | null): void {
    this.store = store;
  }

  get persistent(): boolean {
    return this.store !== null;
  }

  /**
   * Sets the embedder. Vectors from another model are not comparable: when the model differs
   * from the one the loaded vectors came from, the dense index starts empty and the documents
   * are found by BM25 until `fillVectors` (or a re-ingest) embeds them with this one.
   */
  setEmbedder(embedder: Embedder | null): void {
    this.embedderValue = embedder;
    if (!embedder) {
      // No model: keyword search only, until one is set (a profile's models were released).
      this.dense = null;
      this.denseModel = null;
      for (const doc of this.docs.values()) doc.rows = 0;
      return;
    }
    if (this.dense && this.denseModel === embedder.id && this.dense.dim === embedder.dim) return;
    this.dense = new FlatIndex({ dim: embedder.dim, metric: 'cosine' });
    this.denseModel = embedder.id;
    for (const doc of this.docs.values()) doc.rows = 0;
  }

  /**
   * Switches to another embedder (a model profile was loaded or released): its stored vectors
   * are reused, and while any chunk still lacks one, search is by keywords only — a dense list
   * over part of the library would favour the documents re-embedded first. `fillVectors` (run
   * in the background by `src/worker/embedder-switch.ts`) completes them; then search is hybrid
   * again. Returns the chunks still to embed.
   */
  switchEmbedder(
    embedder: Embedder | null,
    stored: readonly VectorRecord[] = [],
    options: { hold?: boolean } = {},
  ): number {
    const kept = embedder !== null && this.dense !== null && this.denseModel === embedder.id;
    this.setEmbedder(embedder);
    if (embedder && !kept) this.loadVectors(stored);
    this.denseHeld = options.hold !== false && embedder !== null && this.pendingVectors > 0;
    return embedder ? this.pendingVectors : 0;
  }

  /** True while a switched-to embedder's vectors are incomplete (search uses keywords only). */
  get denseOnHold(): boolean {
    if (this.denseHeld && this.pendingVectors === 0) this.denseHeld = false;
    return this.denseHeld;
  }

  get chunkCount(): number {
    return this.chunks.size;
  }

  /** Chunks that have a vector of the current model. */
  get vectorCount(): number {
    return this.dense?.size ?? 0;
  }

  /** Embedder id of the vectors in the dense index (before a model is set: of the stored vectors loaded). */
  get vectorModel(): string | null {
    return this.dense ? this.denseModel : null;
  }

  documents(): LibraryDocument[] {
    return [...this.docs.values()].map(toLibraryDocument);
  }

  document(docId: string): LibraryDocument | undefined {
    const doc = this.docs.get(docId);
    return doc && toLibraryDocument(doc);
  }

  /** A document's stored record and its chunks in reading order (the passage view, previews). */
  documentChunks(docId: string): { meta: DocumentRecord; chunks: readonly Chunk[] } | undefined {
    const doc = this.docs.get(docId);
    return doc && { meta: doc.meta, chunks: doc.chunks };
  }

  /** Every chunk and the metadata of the given documents: the lookup selection reads (ask.ts). */
  selectionView(docIds: Iterable<string>): { chunks: Map<string, Chunk>; documents: Map<string, DocumentMeta> } {
    const chunks = new Map<string, Chunk>();
    const documents = new Map<string, DocumentMeta>();
    for (const id of docIds) {
      const doc = this.docs.get(id);
      if (!doc) continue;
      documents.set(id, doc.meta);
      for (const c of doc.chunks) chunks.set(c.id, c);
    }
    return { chunks, documents };
  }

  /** A chunk's vector of the current model (a copy), when it has one. */
  vectorOf(chunkId: string): Float32Array | undefined {
    return this.dense?.get(chunkId);
  }

  /** Documents that still need vectors of the current (or, before one is loaded, the stored) model. */
  get pendingVectors(): number {
    let n = 0;
    for (const d of this.docs.values()) n += d.chunks.length - d.rows;
    return n;
  }

  /**
   * Replaces the in-memory library with stored documents and chunks (startup, after an import),
   * so it is searchable lexically when this returns: from the stored serialized BM25 index when
   * it was built from exactly these documents with this analyzer, else rebuilt from the chunks
   * (and stored again). A document whose chunks do not match its record is skipped and returned
   * (it cannot happen through this code's transactions; the caller reports it).
   */
  load(
    documents: readonly DocumentRecord[],
    chunks: readonly Chunk[],
    lexical?: LexicalRecord,
  ): { skipped: string[]; lexical: LexicalSource } {
    this.docs.clear();
    this.chunks.clear();
    this.dense = null;
    this.denseModel = null;
    if (this.embedderValue) this.setEmbedder(this.embedderValue);
    const byDoc = new Map<string, Chunk[]>();
    for (const c of chunks) {
      let list = byDoc.get(c.docId);
      if (!list) byDoc.set(c.docId, (list = []));
      list.push(c);
    }
    const skipped: string[] = [];
    for (const meta of [...documents].sort((a, b) => a.addedAt - b.addedAt || cmp(a.id, b.id))) {
      const list = (byDoc.get(meta.id) ?? []).sort((a, b) => a.ordinal - b.ordinal);
      if (list.length !== meta.chunkCount || list.some((c, i) => c.ordinal !== i)) {
        skipped.push(meta.id);
        continue;
      }
      const doc: StoredDoc = { meta, chunks: list, rows: 0 };
      this.docs.set(meta.id, doc);
      for (const chunk of list) this.chunks.set(chunk.id, { chunk, doc });
      this.lastAddedAt = Math.max(this.lastAddedAt, meta.addedAt);
    }
    this.storedFingerprint = lexical?.fingerprint ?? null;
    const fingerprint = this.fingerprint();
    if (lexical && lexical.fingerprint === fingerprint && sameAnalyzer(lexical.index.options)) {
      try {
        // Scoring parameters are not part of the postings: today's defaults apply.
        this.bm25 = Bm25Index.deserialize(lexical.index).withParams(DEFAULT_BM25_PARAMS);
        this.bm25Fingerprint = fingerprint;
        this.indexed = this.indexedNow();
        this.lexicalUpdate = 'stored';
        this.dirty = false;
        return { skipped, lexical: 'stored' };
      } catch {
        // An unreadable stored index is only a cache: rebuild.
      }
    }
    this.dirty = true;
    this.rebuild();
    return { skipped, lexical: this.bm25 ? 'rebuilt' : 'empty' };
  }

  /** Resolves once the lexical index built last is stored (tests, benchmarks, before closing). */
  async flushLexical(): Promise<void> {
    await this.lexicalSave;
  }

  /** Identity of what the BM25 index is built from: every document's id, version and title. */
  private fingerprint(): string {
    const parts = [...this.docs.values()].map((d) => `${d.meta.id}\u0000${d.meta.addedAt}\u0000${d.meta.title}`).sort();
    return `${parts.length}:${fnv1a64(parts.join('\u0001'))}`;
  }

  /** Stores the current BM25 index in the background (one save at a time; the last state wins). */
  private scheduleLexicalSave(): void {
    if (!this.store || !this.bm25 || this.bm25Fingerprint === this.storedFingerprint) return;
    if (this.lexicalSavePending) return;
    this.lexicalSavePending = true;
    this.lexicalSave = this.lexicalSave.then(async () => {
      this.lexicalSavePending = false;
      const { store, bm25 } = this;
      const fingerprint = this.bm25Fingerprint;
      if (!store || !bm25 || fingerprint === this.storedFingerprint) return;
      try {
        await store.saveLexical({ fingerprint, index: bm25.serialize() });
        this.storedFingerprint = fingerprint;
      } catch {
        // A cache: when it cannot be stored (a full disk), startup rebuilds from the chunks.
      }
    });
  }

  /**
   * Adds stored vector segments to the dense index: those of the current embedder, or before one
   * is loaded, of the model with the most rows among them (startup passes only the active model's:
   * `Library.loadVectors`). Rows that do not belong to the document as loaded (another version,
   * other chunks) are ignored.
   */
  loadVectors(vectors: readonly VectorRecord[]): void {
    if (vectors.length === 0) return;
    let model = this.embedderValue?.id ?? null;
    if (model === null) {
      const votes = new Map<string, number>();
      for (const v of vectors) votes.set(v.embedderId, (votes.get(v.embedderId) ?? 0) + v.chunkIds.length);
      model = [...votes].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]))[0]![0];
    }
    for (const v of vectors) {
      if (v.embedderId !== model) continue;
      const doc = this.docs.get(v.docId);
      if (!doc || doc.meta.addedAt !== v.docAddedAt || v.chunkIds.some((id, i) => doc.chunks[i]?.id !== id)) continue;
      if (!this.dense || this.denseModel !== model) {
        if (this.embedderValue && this.embedderValue.dim !== v.dim) continue;
        this.dense = new FlatIndex({ dim: v.dim, metric: 'cosine' });
        this.denseModel = model;
      }
      if (this.dense.dim !== v.dim) continue;
      this.dense.addMany(v.chunkIds, v.data);
      doc.rows = v.chunkIds.length;
    }
  }

  /**
   * Chunks the text with the embedder's tokenizer, stores the document (one transaction), indexes
   * it lexically, then embeds its chunks batch by batch (progress: chunk → index → embed → done).
   * Cancelled before the document is stored: nothing changes. Cancelled after: the document stays
   * whole and searchable lexically, with the vectors embedded so far.
   */
  async addDocument(input: AddDocumentInput, cb: IngestCallbacks = {}): Promise<AddDocumentResult> {
    return this.embedStaged(await this.storeAndIndex(input, cb), cb);
  }

  /**
   * `addDocument` that returns once the document is stored and searchable by its words: its
   * embedding is queued behind the documents staged before it (one at a time, in the order they
   * were staged), so a batch parses and indexes its next file while earlier ones are embedded.
   * `embedded` settles like `addDocument` would have (cancelled: `aborted`, the document stays).
   */
  async stageDocument(
    input: AddDocumentInput,
    cb: IngestCallbacks = {},
  ): Promise<{ readonly stored: StagedDocument; readonly embedded: Promise<AddDocumentResult> }> {
    const staged = await this.storeAndIndex(input, cb);
    this.staged.add(staged.doc);
    const embedded = this.embedQueue
      .then(() => this.embedStaged(staged, cb))
      .finally(() => this.staged.delete(staged.doc));
    // The queue goes on after a failed or cancelled document; its own caller gets the error.
    this.embedQueue = embedded.then(
      () => undefined,
      () => undefined,
    );
    return { stored: staged.result, embedded };
  }

  /** Chunks, stores (one transaction) and indexes a document; its embedding is left to `embedStaged`. */
  private async storeAndIndex(input: AddDocumentInput, cb: IngestCallbacks): Promise<Staged> {
    validateInput(input);
    const embedder = this.embedderValue;
    if (!embedder) throw new EvidentError('model_not_found', 'Load the embedding model before adding documents.');
    const { signal, onProgress } = cb;

    const t0 = performance.now();
    onProgress?.({ docId: input.docId, phase: 'chunk', done: 0, total: 0 });
    const cut = chunkDocument(
      { docId: input.docId, text: input.text, format: input.format },
      // Chunks must fit what the model reads, or their tails would be silently ignored.
      { countTokens: (t) => embedder.countTokens(t), maxTokens: Math.min(128, embedder.maxTokens) },
    );
    // Paged formats (PDF): each chunk gets the page its first character is on.
    const paged = input.pages && input.pages.length > 0 ? assignPages(cut, input.pages) : cut;
    // Text a reader cannot see is marked on its chunks; the verifier never takes it as evidence.
    const chunks = assignHidden(paged, input.hidden);
    if (chunks.length === 0) throw new EvidentError('empty_file', `"${input.title}" has no text to index.`);
    const bytes = utf8Bytes(input.text);
    const bytesHash = await sha256Hex(bytes);
    const chunkMs = performance.now() - t0;
    throwIfAborted(signal);

    // Commit: storage first (one transaction), then memory. A failed or cancelled write changes neither.
    const t1 = performance.now();
    const addedAt = Math.max(Date.now(), this.lastAddedAt + 1);
    const meta: DocumentRecord = {
      id: input.docId,
      title: input.title,
      sourceType: input.sourceType ?? 'unknown',
      status: input.status ?? 'current',
      ...(input.effectiveDate ? { effectiveDate: input.effectiveDate } : {}),
      ...(input.language ? { language: input.language } : {}),
      fileName: input.fileName ?? '',
      format: input.fileFormat ?? input.format,
      size: bytes.length,
      bytesHash,
      addedAt,
      updatedAt: addedAt,
      chunkCount: chunks.length,
      pageCount: input.pages && input.pages.length > 0 ? Math.max(...input.pages.map((p) => p.page)) : null,
      vectorState: 'pending',
      ...ocrPagesOf(input.pages),
    };
    // A PDF keeps its bytes and page ranges for the page view, in the document's transaction.
    const original =
      input.original && input.pages && meta.format === 'pdf'
        ? { bytes: input.original, pages: input.pages }
        : undefined;
    await this.store?.putDocument({ document: meta, chunks, dequeue: cb.dequeue, ...(original ? { original } : {}) });
    this.lastAddedAt = addedAt;
    const replaced = this.removeDocument(meta.id);
    const doc: StoredDoc = { meta, chunks, rows: 0 };
    this.docs.set(meta.id, doc);
    for (const chunk of chunks) this.chunks.set(chunk.id, { chunk, doc });
    this.dirty = true;
    if (!cb.deferIndex) this.rebuild();
    const indexMs = performance.now() - t1;
    onProgress?.({ docId: meta.id, phase: 'index', done: chunks.length, total: chunks.length });
    const result: StagedDocument = {
      docId: meta.id,
      chunks: chunks.length,
      tokens: chunks.reduce((s, c) => s + c.tokens, 0),
      chunkMs,
      indexMs,
      replaced,
    };
    return { doc, embedder, result };
  }

  /** Embeds a stored document's chunks (unless the engine is keyword-only), then reports it done. */
  private async embedStaged({ doc, embedder, result }: Staged, cb: IngestCallbacks): Promise<AddDocumentResult> {
    const t2 = performance.now();
    throwIfAborted(cb.signal);
    if (this.options.vectors) await this.embedDocument(doc, embedder, cb.signal, cb.onProgress);
    const embedMs = performance.now() - t2;
    const n = doc.chunks.length;
    cb.onProgress?.({ docId: doc.meta.id, phase: 'done', done: n, total: n });
    return { ...result, embedMs };
  }

  /**
   * Adds a batch: with a store, every file is first written to the ingest queue (one
   * transaction, with `settings`), then ingested in order, each leaving the queue in its
   * document's transaction — so a batch cut short resumes with `resumeQueued` (ingest-files.ts). A file that cannot
   * be ingested (no text, bad input) is reported and dropped; a full disk ends the batch.
   */
  async addDocuments(
    inputs: readonly AddDocumentInput[],
    opts: {
      signal?: AbortSignal;
      onProgress?: (p: BatchProgress) => void;
      settings?: { demoInstalled?: boolean };
    } = {},
  ): Promise<AddDocumentsResult> {
    if (!Array.isArray(inputs)) throw new EvidentError('invalid_input', 'addDocuments: expected a list of documents.');
    inputs.forEach(validateInput);
    if (!this.store)
      return this.ingestAll(
        inputs.map((input) => ({ input, seq: undefined })),
        opts,
      );
    const now = Date.now();
    const queued = await this.store.enqueue(
      inputs.map((input) => toQueueEntry(input, now)),
      opts.settings,
    );
    if (queued.length !== inputs.length) {
      throw new EvidentError('internal', `addDocuments: queued ${queued.length} of ${inputs.length} documents.`);
    }
    return this.ingestAll(
      // The inputs themselves (same order): they carry what a queue entry does not (pages, the file format).
      inputs.map((input, i) => ({ input, seq: queued[i]?.seq })),
      opts,
    );
  }

  private async ingestAll(
    items: readonly { input: AddDocumentInput; seq: number | undefined }[],
    opts: { signal?: AbortSignal; onProgress?: (p: BatchProgress) => void },
  ): Promise<AddDocumentsResult> {
    const added: AddDocumentResult[] = [];
    const failed: AddDocumentsResult['failed'][number][] = [];
    for (const [index, { input, seq }] of items.entries()) {
      throwIfAborted(opts.signal);
      const at = { index, count: items.length, title: input.title };
      try {
        added.push(
          await this.addDocument(input, {
            signal: opts.signal,
            dequeue: seq,
            deferIndex: index < items.length - 1,
            onProgress: (p) => opts.onProgress?.({ ...p, ...at }),
          }),
        );
      } catch (err) {
        const code = err instanceof EvidentError ? err.code : 'internal';
        if (!PER_FILE_ERRORS.has(code)) {
          // A full disk fails every later file too: give up the rest of the queue (the message names the file).
          if (code === 'storage_full') await this.store?.clearQueue().catch(() => {});
          throw err;
        }
        failed.push({ docId: input.docId, title: input.title, error: (err as EvidentError).toValue() });
        if (seq !== undefined) await this.store?.dequeue(seq);
      }
    }
    return { added, failed };
  }

  /**
   * Embeds every chunk that has no vector of the current model yet (documents added while the
   * worker was killed or the call cancelled, or embedded by another model), document by
   * document, persisting as it goes.
   */
  async fillVectors(
    opts: { signal?: AbortSignal; onProgress?: (p: IngestProgress) => void } = {},
  ): Promise<FillVectorsResult> {
    const embedder = this.embedderValue;
    if (!embedder) throw new EvidentError('model_not_found', 'Load the embedding model first.');
    const t0 = performance.now();
    let documents = 0;
    let chunks = 0;
    for (const doc of [...this.docs.values()]) {
      throwIfAborted(opts.signal);
      // Another embedder took over (a profile was loaded): its own fill embeds the rest.
      if (this.embedderValue !== embedder) break;
      if (this.docs.get(doc.meta.id) !== doc || doc.rows >= doc.chunks.length) continue;
      // A document staged by an ingest is embedded by its queue (one embedding per document).
      if (this.staged.has(doc)) continue;
      const before = doc.rows;
      await this.embedDocument(doc, embedder, opts.signal, opts.onProgress);
      documents++;
      chunks += doc.rows - before;
    }
    return { documents, chunks, ms: performance.now() - t0 };
  }

  /**
   * Embeds `doc`'s chunks from `doc.rows` on, one batch at a time: each batch joins the dense
   * index at once and the growing segment is persisted (at the end, and on the way at doubling
   * sizes so a long document is not rewritten per batch). Stops quietly when the document or
   * the model changed meanwhile.
   */
  private async embedDocument(
    doc: StoredDoc,
    embedder: Embedder,
    signal: AbortSignal | undefined,
    onProgress: ((p: IngestProgress) => void) | undefined,
  ): Promise<void> {
    // Never switch the engine back to the embedder this call started with (a profile replaced it).
    if (this.embedderValue !== embedder) return;
    // Removed or replaced while it waited for its turn.
    if (this.docs.get(doc.meta.id) !== doc) return;
    if (!this.dense || this.denseModel !== embedder.id) this.setEmbedder(embedder);
    const dense = this.dense as FlatIndex;
    const { chunks } = doc;
    const { id: docId } = doc.meta;
    const total = chunks.length;
    const dim = embedder.dim;
    const data = new Float32Array(total * dim);
    for (let i = 0; i < doc.rows; i++) data.set(dense.get((chunks[i] as Chunk).id) as Float32Array, i * dim);
    let persisted = doc.rows;
    const current = (): boolean =>
      this.docs.get(docId) === doc && this.embedderValue === embedder && this.dense === dense;
    const persist = async (): Promise<void> => {
      const rows = doc.rows;
      if (!this.store || rows === persisted) return;
      try {
        await this.store.putVectors({
          docId,
          embedderId: embedder.id,
          dim,
          encoding: 'f32',
          chunkIds: chunks.slice(0, rows).map((c) => c.id),
          data: data.slice(0, rows * dim),
          docAddedAt: doc.meta.addedAt,
        });
      } catch (err) {
        if (err instanceof EvidentError && err.code === 'storage_full') {
          throw new EvidentError(
            'storage_full',
            `Storage is full: remove documents or free space. "${doc.meta.title}" was saved and is searchable by its words, but its vectors were not saved.`,
          );
        }
        throw err;
      }
      persisted = rows;
    };
    // Removing or replacing the document aborts the model call in flight (`removeDocument`), so
    // a removed document stops costing time within one model call, not one batch.
    const removal = new AbortController();
    this.embeddingNow.get(doc)?.abort();
    this.embeddingNow.set(doc, removal);
    const stop = signal ? AbortSignal.any([signal, removal.signal]) : removal.signal;
    try {
      while (doc.rows < total) {
        throwIfAborted(stop);
        const from = doc.rows;
        const to = Math.min(total, from + this.options.embedBatch);
        const batch = chunks.slice(from, to);
        const t0 = performance.now();
        const vectors = await embedder.embed(batch.map(embeddingText), {
          signal: stop,
          onProgress: (done) => onProgress?.({ docId, phase: 'embed', done: from + done, total }),
        });
        if (!current()) return;
        this.timeBatch(batch.length, performance.now() - t0);
        data.set(vectors, from * dim);
        dense.addMany(
          batch.map((c) => c.id),
          vectors,
        );
        doc.rows = to;
        if (to === total || to - persisted >= Math.max(4 * this.options.embedBatch, persisted)) await persist();
      }
    } catch (err) {
      // Removed or replaced meanwhile: nothing is left to embed, which is not an error.
      if (!current() && removal.signal.aborted) return;
      // Keep what was embedded: resuming starts after it.
      if (current()) await persist().catch(() => {});
      throw err;
    } finally {
      if (this.embeddingNow.get(doc) === removal) this.embeddingNow.delete(doc);
    }
  }

  /** Folds one batch's time into the measured rate (EWMA, α = 0.3: a few batches follow a change of load). */
  private timeBatch(chunks: number, ms: number): void {
    if (ms <= 0 || chunks === 0) return;
    const rate = (chunks * 1000) / ms;
    this.embedRateValue = this.embedRateValue === null ? rate : 0.7 * this.embedRateValue + 0.3 * rate;
  }

  /**
   * What is being embedded now: the document whose chunks are in flight (null when none), and the
   * measured rate in chunks per second (null before the first batch). The status strip's estimate
   * of the time left is the chunks without vectors over this rate.
   */
  get embedding(): { readonly docId: string | null; readonly rate: number | null } {
    let docId: string | null = null;
    for (const doc of this.embeddingNow.keys()) docId = doc.meta.id;
    return { docId, rate: this.embedRateValue };
  }

  /**
   * Deletes a document; false when it was not in the library. Unlike every other change it leaves
   * memory first — search, ask and the embedding in flight stop seeing it at once — and storage
   * then, through `write` (the worker's write lock: after a store in flight, never after a parse
   * or an embedding). If storage refuses, the document comes back (without vectors: they are
   * computed again) and the error is thrown. A version added again meanwhile is kept.
   */
  async deleteDocument(
    docId: string,
    opts: { write?: <T>(fn: () => Promise<T>) => Promise<T> } = {},
  ): Promise<boolean> {
    if (typeof docId !== 'string') throw new EvidentError('invalid_input', 'deleteDocument: docId must be a string.');
    const doc = this.docs.get(docId);
    const inMemory = this.removeDocument(docId);
    const write = opts.write ?? ((fn) => fn());
    try {
      const stored = await write(async () => {
        const now = this.docs.get(docId);
        // Added again after this removal began: that version stays, in storage too.
        if (now && now.meta.addedAt > (doc?.meta.addedAt ?? 0)) return false;
        return (await this.store?.deleteDocument(docId)) ?? false;
      });
      return inMemory || stored;
    } catch (err) {
      if (doc && !this.docs.has(docId)) this.restoreDocument(doc);
      throw err;
    }
  }

  /** Puts back a document whose removal storage refused; its vectors were dropped and are embedded again. */
  private restoreDocument(doc: StoredDoc): void {
    doc.rows = 0;
    this.docs.set(doc.meta.id, doc);
    for (const chunk of doc.chunks) this.chunks.set(chunk.id, { chunk, doc });
    this.dirty = true;
  }

  /** Edits a document's title, source type, status, effective date or language. */
  async updateMeta(docId: string, patch: unknown): Promise<LibraryDocument> {
    const clean = validateMetaPatch(patch);
    const doc = this.docs.get(docId);
    if (!doc) throw new EvidentError('invalid_input', `There is no document "${docId}" in the library.`);
    const next = this.store ? await this.store.updateMeta(docId, clean) : applyMetaPatch(doc.meta, clean, Date.now());
    const retitled = next.title !== doc.meta.title;
    doc.meta = { ...next, vectorState: doc.meta.vectorState };
    if (retitled) {
      this.dirty = true;
      this.rebuild();
    }
    return toLibraryDocument(doc);
  }

  /** Removes a document from memory only; false when it was not there. */
  removeDocument(docId: string): boolean {
    const doc = this.docs.get(docId);
    if (!doc) return false;
    this.embeddingNow.get(doc)?.abort();
    for (const c of doc.chunks) {
      this.chunks.delete(c.id);
      this.dense?.delete(c.id);
    }
    this.docs.delete(docId);
    this.dirty = true;
    return true;
  }

  /** Hybrid search with per-signal trace. BM25-only (and `dense: false`) without an embedder. */
  async search(query: string, opts: { k?: number; signal?: AbortSignal } = {}): Promise<SearchResponse> {
    if (typeof query !== 'string') throw new EvidentError('invalid_input', 'The query must be text.');
    const k = opts.k ?? 10;
    if (!Number.isInteger(k) || k < 1 || k > this.options.maxK) {
      throw new EvidentError('invalid_option', `search: k must be an integer in 1…${this.options.maxK}, got ${k}.`);
    }
    this.rebuild();
    const bm25 = this.bm25;
    const empty: SearchResponse = {
      query,
      hits: [],
      queryTerms: bm25?.analyze(query) ?? [],
      dense: false,
      fusion: this.options.fusion,
      timings: { lexicalMs: 0, embedMs: 0, denseMs: 0, fuseMs: 0 },
    };
    if (!bm25 || query.trim() === '') return empty;

    const t0 = performance.now();
    const queryTerms = bm25.analyze(query);
    // Learned query-term weights: the one lexical search the CLIs' harnesses also run; then the
    // search inside the sections the question names (a no-op where it names none).
    const weighted = weightedQuery(bm25, queryTerms);
    const named = this.sectionIndex(bm25).match(query);
    const { hits: lexical, traces: sectionTraces } = searchNamedSections(
      bm25,
      weighted,
      named,
      bm25.searchWeighted(weighted, { k: this.options.poolSize }),
      { ...DEFAULT_SECTION_SEARCH, k: this.options.poolSize },
    );
    const lexicalMs = performance.now() - t0;

    let denseHits: Hit[] = [];
    let embedMs = 0;
    let denseMs = 0;
    const embedder = this.embedderValue;
    const dense =
      embedder && this.dense && this.denseModel === embedder.id && this.dense.size > 0 && !this.denseOnHold
        ? this.dense
        : null;
    if (embedder && dense) {
      const t1 = performance.now();
      const q = await embedder.embed([query], { signal: opts.signal, kind: 'query' });
      embedMs = performance.now() - t1;
      throwIfAborted(opts.signal);
      const t2 = performance.now();
      denseHits = dense.search(q, this.options.poolSize);
      denseMs = performance.now() - t2;
    }

    const t3 = performance.now();
    const fused = fuse(
      { bm25: lexical, dense: denseHits },
      {
        mode: this.options.fusion,
        limit: k,
        docIdOf: (id) => this.chunks.get(id)?.doc.meta.id ?? id,
      },
    );
    const fuseMs = performance.now() - t3;
    const byId = new Map(lexical.map((h) => [h.id, h]));
    const hits = fused.map((c, i) => this.toHit(c, i + 1, byId.get(c.id), sectionTraces.get(c.id)));
    return {
      query,
      hits,
      queryTerms,
      dense: dense !== null,
      fusion: this.options.fusion,
      timings: { lexicalMs, embedMs, denseMs, fuseMs },
    };
  }

  private toHit(c: Candidate, rank: number, lexical: Bm25Hit | undefined, section?: SectionHitTrace): SearchHit {
    const ref = this.chunks.get(c.id);
    if (!ref) throw new EvidentError('internal', `search: chunk ${c.id} is not in the library.`);
    const meta = ref.doc.meta;
    const terms: TermExplanation[] = (lexical?.terms ?? []).map((t) => ({
      term: t.term,
      score: t.contribution,
      detail: { tf: t.tf, idf: t.idf, queryTf: t.queryTf },
    }));
    // Retrieval entries precede fusion's own, so the trace reads in pipeline order.
    const retrieval: TraceEntry[] = [];
    if (c.scores.bm25 !== undefined) {
      retrieval.push({ stage: 'bm25', score: c.scores.bm25, kept: true, detail: { rank: c.ranks.bm25 ?? null } });
    }
    if (section) {
      retrieval.push({
        stage: 'section',
        score: section.bonus,
        kept: true,
        reason:
          section.via === 'name'
            ? `the question names “${section.section}”`
            : `the measure asked for is computed from “${section.section}”`,
        detail: { section: section.section, via: section.via },
      });
    }
    if (c.scores.dense !== undefined) {
      retrieval.push({ stage: 'dense', score: c.scores.dense, kept: true, detail: { rank: c.ranks.dense ?? null } });
    }
    return {
      rank,
      chunkId: c.id,
      docId: meta.id,
      title: meta.title,
      headings: ref.chunk.headings,
      text: ref.chunk.text,
      ...(ref.chunk.context ? { context: ref.chunk.context } : {}),
      sourceType: meta.sourceType,
      status: meta.status,
      score: c.score,
      scores: c.scores,
      ranks: c.ranks,
      terms,
      trace: [...retrieval, ...c.trace],
    };
  }

  /** The section names of the indexed chunks, for the questions that name one. */
  private sectionIndex(bm25: Bm25Index): SectionIndex {
    this.sections ??= SectionIndex.build(
      this.sectionedChunks(),
      (text) => bm25.analyze(text),
      (term) => bm25.df(term),
      bm25.size,
    );
    return this.sections;
  }

  private *sectionedChunks(): Iterable<SectionedChunk> {
    for (const { meta, chunks } of this.docs.values()) {
      for (const chunk of chunks) {
        yield { id: chunk.id, docId: meta.id, docTitle: meta.title, names: sectionNames(chunk) };
      }
    }
  }

  /** Brings the BM25 index up to date with the documents (incrementally when it can). */
  private rebuild(): void {
    if (!this.dirty) return;
    const updated = this.updatedIndex();
    if (updated !== undefined) {
      this.bm25 = updated;
      this.lexicalUpdate = 'updated';
    } else {
      const docs = [...this.docs.values()].flatMap(indexable);
      this.bm25 = docs.length > 0 ? Bm25Index.build(docs) : null;
      this.lexicalUpdate = 'built';
    }
    this.indexed = this.indexedNow();
    this.bm25Fingerprint = this.fingerprint();
    this.sections = null;
    this.dirty = false;
    this.scheduleLexicalSave();
  }

  private indexedNow(): Map<string, { readonly doc: StoredDoc; readonly title: string }> {
    return new Map([...this.docs.values()].map((doc) => [doc.meta.id, { doc, title: doc.meta.title }]));
  }

  /**
   * The current index without the documents removed, replaced or retitled since it was built and
   * with the new ones appended: the same documents, in the same order, as `Bm25Index.build` over
   * the library (so the same scores and the same order of ties). Undefined when a build is needed:
   * no index yet, nothing left, or an order a build would not give (a document that stays after
   * one that changed: a retitle keeps its place in the library).
   */
  private updatedIndex(): Bm25Index | undefined {
    const old = this.bm25;
    if (!old) return undefined;
    const removed: string[] = [];
    for (const [docId, was] of this.indexed) {
      const now = this.docs.get(docId);
      if (now !== was.doc || now.meta.title !== was.title) for (const c of was.doc.chunks) removed.push(c.id);
    }
    const keptIds: string[] = [];
    const added: StoredDoc[] = [];
    for (const doc of this.docs.values()) {
      const was = this.indexed.get(doc.meta.id);
      if (was && was.doc === doc && was.title === doc.meta.title) {
        if (added.length > 0) return undefined;
        for (const c of doc.chunks) keptIds.push(c.id);
      } else added.push(doc);
    }
    if (keptIds.length === 0) return undefined;
    const rest = old.without(removed);
    const restIds = rest.serialize().ids;
    if (restIds.length !== keptIds.length || restIds.some((id, i) => id !== keptIds[i])) return undefined;
    return rest.withAdded(added.flatMap(indexable));
  }
}

/**
 * A document's chunks as BM25 indexes them: its title; each chunk's heading trail and, for a table
 * chunk, its context's title lines as the headings field, so a question naming a statement or
 * section ("balance sheet", "Note 12") matches the chunks under it; its text. The context's column
 * header rows are left out: period labels and units on every table chunk ("2018", "millions")
 * matched most financial questions (financebench-dev, keywords only: packet page hit 43 % with
 * them, 52 % without; DESIGN.md, Chunking).
 */
function indexable({ meta, chunks }: StoredDoc): IndexableDoc[] {
  return chunks.map((chunk) => ({
    id: chunk.id,
    title: meta.title,
    headings: [...chunk.headings, ...contextTitleLines(chunk.context)].join(' / '),
    text: chunk.text,
  }));
}

/**
 * What the embedder sees for a chunk: its heading trail, then its context (a table chunk's title
 * and column header), then its text. The trail names the section ("Remote Work Policy ›
 * Eligibility and limits") that a short chunk's text leaves implicit.
 */
export function embeddingText(chunk: Chunk): string {
  const body = contextualText(chunk);
  return chunk.headings.length > 0 ? `${chunk.headings.join(' › ')}\n${body}` : body;
}

function toLibraryDocument({ meta, chunks, rows }: StoredDoc): LibraryDocument {
  return {
    docId: meta.id,
    title: meta.title,
    chunks: chunks.length,
    sourceType: meta.sourceType,
    status: meta.status,
    ...(meta.effectiveDate ? { effectiveDate: meta.effectiveDate } : {}),
    fileName: meta.fileName,
    addedAt: meta.addedAt,
    vectors: rows,
    vectorState: vectorStateOf(rows, chunks.length),
    format: meta.format,
    pageCount: meta.pageCount,
    ...(meta.language ? { language: meta.language } : {}),
    ...(meta.ocrPages ? { ocrPages: meta.ocrPages } : {}),
  };
}

/** The pages OCR read (`PageRange.ocr`), kept on the document so sources and the trail can mark them. */
function ocrPagesOf(pages: AddDocumentInput['pages']): { ocrPages?: OcrPageMark[] } {
  const marks = (pages ?? []).flatMap((p) =>
    'ocr' in p && p.ocr ? [{ page: p.page, confidence: (p.ocr as { confidence: number }).confidence }] : [],
  );
  return marks.length > 0 ? { ocrPages: marks } : {};
}

function toQueueEntry(input: AddDocumentInput, queuedAt: number): QueueEntry {
  return {
    docId: input.docId,
    title: input.title,
    fileName: input.fileName ?? '',
    source: { kind: 'text', text: input.text, format: input.format },
    ...(input.sourceType ? { sourceType: input.sourceType } : {}),
    ...(input.status ? { status: input.status } : {}),
    ...(input.effectiveDate ? { effectiveDate: input.effectiveDate } : {}),
    queuedAt,
  };
}

/** True when a stored index was analyzed as `Bm25Index.build` analyzes today (postings depend on it). */
function sameAnalyzer(options: { readonly stem?: unknown; readonly stopwords?: unknown }): boolean {
  return options.stem === DEFAULT_BM25_OPTIONS.stem && options.stopwords === DEFAULT_BM25_OPTIONS.stopwords;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Utf8Encoder {
  encode(text: string): Uint8Array;
}
let encoder: Utf8Encoder | null = null;

function utf8Bytes(text: string): Uint8Array {
  encoder ??= new TextEncoder();
  return encoder.encode(text);
}

/** Hex SHA-256 (Web Crypto: the worker and Node 20 both have it). */
async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const b of digest) hex += b.toString(16).padStart(2, '0');
  return hex;
}

function validateInput(input: AddDocumentInput): void {
  if (typeof input !== 'object' || input === null)
    throw new EvidentError('invalid_input', 'addDocument: expected a document.');
  if (typeof input.docId !== 'string' || input.docId === '') {
    throw new EvidentError('invalid_input', 'addDocument: docId must be a non-empty string.');
  }
  if (typeof input.text !== 'string') throw new EvidentError('invalid_input', 'addDocument: text must be a string.');
  if (input.fileName !== undefined && typeof input.fileName !== 'string') {
    throw new EvidentError('invalid_input', 'addDocument: fileName must be a string.');
  }
  if (input.language !== undefined && typeof input.language !== 'string') {
    throw new EvidentError('invalid_input', 'addDocument: language must be a string.');
  }
  if (input.format !== 'markdown' && input.format !== 'text') {
    throw new EvidentError(
      'invalid_input',
      `addDocument: format must be one of markdown, text, got "${String(input.format)}".`,
    );
  }
}
