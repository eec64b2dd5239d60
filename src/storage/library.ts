/**
 * The persisted library: documents, their chunks and vectors, settings, priors, the feedback log
 * and the ingest queue, in IndexedDB. Every change that must be all-or-nothing is one
 * transaction: a document with all its chunks (and its queue entry's removal), a deletion with
 * everything that hangs off the document, an import. A full disk aborts the transaction and
 * surfaces as `storage_full` naming what was not saved.
 *
 * Vectors are kept per (embedding model, document), for at most two models: the active one and
 * the one before it (`Settings.vectorModels`, `KEPT_VECTOR_MODELS`). Writing a model's vectors or
 * switching to it (`useVectorModel`) puts it first and, in the same transaction, deletes the
 * vectors of a model pushed past the bound; so switching back to the previous model finds its
 * vectors, and a document's vectors of each model go with the document.
 */
import { EvidentError } from '../core/errors';
import { decryptLibrary, encryptLibrary, isEncryptedLibrary } from '../core/library-crypto';
import {
  applyMetaPatch,
  decodeLibrary,
  encodeLibrary,
  pageOf,
  validateMetaPatch,
  vectorStateOf,
  type DocumentRecord,
  type FeedbackRecord,
  type ImportLimits,
  type LibrarySnapshot,
  type OriginalPage,
  type OriginalRecord,
  type VectorRecord,
  type VectorState,
} from '../core/library-format';
import { createPriorState, parsePriorState, type PriorState, type PriorStore } from '../core/select/priors';
import type { Chunk } from '../core/types';
import { openEvidentDb, toStorageError, writeTx, type Db, type OpenOptions, type WriteTx } from './db';
import {
  KEPT_VECTOR_MODELS,
  type ChunkSet,
  type LexicalRecord,
  type QueueEntry,
  type SettingKey,
  type Settings,
} from './schema';

export { storageUsage, type StorageUsage } from './usage';

export interface PutDocumentInput {
  readonly document: DocumentRecord;
  /** Every chunk of the document. */
  readonly chunks: readonly Chunk[];
  readonly vectors?: VectorRecord;
  /** A PDF's own bytes and page ranges, kept for the page view (stored in the same transaction). */
  readonly original?: { readonly bytes: Uint8Array; readonly pages: readonly OriginalPage[] };
  /** The ingest-queue entry the document came from: removed in the same transaction. */
  readonly dequeue?: number;
}

/** What startup reads before the library is searchable lexically. */
export interface LoadedText {
  readonly documents: DocumentRecord[];
  readonly chunks: Chunk[];
  readonly settings: Partial<Settings>;
  /** Files of an interrupted batch still waiting in the ingest queue. */
  readonly queued: number;
  readonly ms: number;
}

export interface LoadedLibrary extends LoadedText {
  readonly vectors: VectorRecord[];
  readonly vectorsMs: number;
}

export interface ImportOptions {
  /** `merge` (default) adds the file's documents, replacing ones with the same id; `replace` empties the library first. */
  readonly mode?: 'merge' | 'replace';
  readonly limits?: Partial<ImportLimits>;
  /** Opens a protected file (`src/core/library-crypto.ts`); a protected file without it is refused. */
  readonly passphrase?: string;
}

export interface ExportOptions {
  /** Seals the file with this passphrase (AES-GCM, PBKDF2); without it the file is plain. */
  readonly passphrase?: string;
}

export interface ImportSummary {
  readonly documents: number;
  readonly chunks: number;
  /**
   * Vector rows of the library's active model (the first of `vectorModels`) that came with the
   * file: what search can use at once. Rows of another model are stored for a switch to it
   * (as the previous model) but not counted: their chunks still need the active model's.
   */
  readonly vectors: number;
  /** Documents of the library that the import replaced (same id). */
  readonly replaced: number;
}

type DocStores = ['documents', 'chunkSets', 'vectorSets', 'originals', 'feedback', 'settings'];
/** Any readwrite transaction that includes the stores a helper uses (the helper names them). */
type AnyWriteTx = { objectStore(name: never): unknown };

export class Library {
  private constructor(private readonly db: Db) {}

  static async open(options: OpenOptions = {}): Promise<Library> {
    return new Library(await openEvidentDb(options));
  }

  close(): void {
    this.db.close();
  }

  /**
   * Stores a document with all its chunks (and vectors, when given) in one transaction,
   * replacing an earlier version with the same id. Resolves with whether it replaced one.
   */
  async putDocument(input: PutDocumentInput): Promise<{ replaced: boolean }> {
    const { document: doc, chunks, vectors, dequeue, original } = input;
    if (original && doc.format !== 'pdf') {
      throw new EvidentError('internal', `putDocument: only a PDF keeps its original ("${doc.id}" is ${doc.format}).`);
    }
    if (chunks.length !== doc.chunkCount || chunks.some((c) => c.docId !== doc.id)) {
      throw new EvidentError('internal', `putDocument: the chunks of "${doc.id}" do not match its record.`);
    }
    if (vectors && (vectors.docId !== doc.id || vectors.docAddedAt !== doc.addedAt)) {
      throw new EvidentError('internal', `putDocument: the vectors do not belong to "${doc.id}".`);
    }
    const record: DocumentRecord = {
      ...doc,
      vectorState: vectorStateOf(vectors?.chunkIds.length ?? 0, doc.chunkCount),
    };
    try {
      return await writeTx(
        this.db,
        ['documents', 'chunkSets', 'vectorSets', 'originals', 'feedback', 'settings', 'ingestQueue'],
        async (tx, keep) => {
          const replaced = (await keep(tx.objectStore('documents').get(doc.id))) !== undefined;
          if (replaced) await removeDocumentData(tx, keep, doc.id, { keepFeedback: true });
          keep(tx.objectStore('documents').put(record));
          keep(tx.objectStore('chunkSets').put(chunkSetOf(doc, chunks)));
          if (original) keep(tx.objectStore('originals').put(originalOf(doc, original)));
          if (vectors) {
            await useModels(tx, keep, [vectors.embedderId], 0);
            keep(tx.objectStore('vectorSets').put(vectors));
          }
          if (dequeue !== undefined) keep(tx.objectStore('ingestQueue').delete(dequeue));
          await bumpLibraryVersion(tx, keep);
          return { replaced };
        },
      );
    } catch (err) {
      throw toStorageError(err, doc.title);
    }
  }

  /**
   * Stores a document's vector segment of one model (all rows so far) and its vector state (of
   * the model written last). The model becomes the active one (`vectorModels`): only the active
   * model's vectors are written. Resolves `null`, writing nothing, when that version of the
   * document is gone (deleted or replaced meanwhile).
   */
  async putVectors(vectors: VectorRecord): Promise<VectorState | null> {
    if (vectors.data.length !== vectors.chunkIds.length * vectors.dim) {
      throw new EvidentError('internal', `putVectors: "${vectors.docId}" has a segment of the wrong length.`);
    }
    let title = vectors.docId;
    try {
      return await writeTx(this.db, ['documents', 'vectorSets', 'settings'], async (tx, keep) => {
        const doc = await keep(tx.objectStore('documents').get(vectors.docId));
        if (!doc || doc.addedAt !== vectors.docAddedAt) return null;
        title = doc.title;
        if (vectors.chunkIds.length > doc.chunkCount) {
          throw new EvidentError('internal', `putVectors: more rows than chunks for "${doc.id}".`);
        }
        const vectorState = vectorStateOf(vectors.chunkIds.length, doc.chunkCount);
        await useModels(tx, keep, [vectors.embedderId], 0);
        keep(tx.objectStore('vectorSets').put(vectors));
        if (doc.vectorState !== vectorState) keep(tx.objectStore('documents').put({ ...doc, vectorState }));
        return vectorState;
      });
    } catch (err) {
      throw toStorageError(err, title);
    }
  }

  /** Removes a document with its chunks, every model's vectors, feedback and per-document priors. False when absent. */
  async deleteDocument(docId: string): Promise<boolean> {
    const stores = ['documents', 'chunkSets', 'vectorSets', 'originals', 'feedback', 'settings', 'priors'] as const;
    return writeTx(this.db, [...stores], async (tx, keep) => {
      const doc = await keep(tx.objectStore('documents').get(docId));
      if (!doc) return false;
      await removeDocumentData(tx, keep, docId, { keepFeedback: false });
      const priors = tx.objectStore('priors');
      const state = await keep(priors.get('state'));
      if (state && Object.hasOwn(state.docs, docId)) {
        const docs = { ...state.docs };
        delete docs[docId];
        keep(priors.put({ ...state, docs }, 'state'));
      }
      await bumpLibraryVersion(tx, keep);
      return true;
    });
  }

  /** Edits a document's metadata (title, source type, status, effective date, language). */
  async updateMeta(docId: string, patch: unknown): Promise<DocumentRecord> {
    const clean = validateMetaPatch(patch);
    try {
      return await writeTx(this.db, ['documents', 'settings'], async (tx, keep) => {
        const doc = await keep(tx.objectStore('documents').get(docId));
        if (!doc) throw new EvidentError('invalid_input', `There is no document "${docId}" in the library.`);
        const next = applyMetaPatch(doc, clean, Date.now());
        keep(tx.objectStore('documents').put(next));
        // The title is a BM25 field: a stored lexical index no longer matches.
        if (next.title !== doc.title) await bumpLibraryVersion(tx, keep);
        return next;
      });
    } catch (err) {
      throw toStorageError(err, docId);
    }
  }

  async getDocument(docId: string): Promise<DocumentRecord | undefined> {
    return this.db.get('documents', docId);
  }

  /** A PDF's stored original (bytes and page ranges), or undefined: not a PDF, or stored before v6. */
  async getOriginal(docId: string): Promise<OriginalRecord | undefined> {
    const tx = this.db.transaction(['documents', 'originals'], 'readonly');
    const [doc, original] = await Promise.all([
      tx.objectStore('documents').get(docId),
      tx.objectStore('originals').get(docId),
      tx.done,
    ]);
    return doc && original && original.docAddedAt === doc.addedAt ? original : undefined;
  }

  async findByHash(bytesHash: string): Promise<DocumentRecord[]> {
    return this.db.getAllFromIndex('documents', 'by-hash', bytesHash);
  }

  /**
   * Documents, chunks and settings: enough to search lexically. One read transaction; the chunks
   * come from the chunk sets (one record per document), in document order.
   */
  async loadText(): Promise<LoadedText> {
    const t0 = performance.now();
    const tx = this.db.transaction(['documents', 'chunkSets', 'settings', 'ingestQueue'], 'readonly');
    const settingsStore = tx.objectStore('settings');
    const [documents, sets, keys, values, queued] = await Promise.all([
      tx.objectStore('documents').getAll(),
      tx.objectStore('chunkSets').getAll(),
      settingsStore.getAllKeys(),
      settingsStore.getAll(),
      tx.objectStore('ingestQueue').count(),
    ]);
    await tx.done;
    const chunks = chunksOfDocuments(documents, sets, 'skip');
    const settings: Record<string, unknown> = {};
    keys.forEach((k, i) => (settings[k] = values[i]));
    return { documents, chunks, settings: settings as Partial<Settings>, queued, ms: performance.now() - t0 };
  }

  /**
   * The stored vector segments of one embedding model (one read transaction): `embedderId`'s, or
   * by default the active model's (the first of `vectorModels`: what startup loads before any
   * model is). With no model recorded, every segment (none, unless written around this class).
   */
  async loadVectors(embedderId?: string): Promise<VectorRecord[]> {
    const tx = this.db.transaction(['settings', 'vectorSets'], 'readonly');
    const model = embedderId ?? modelsOf(await tx.objectStore('settings').get('vectorModels'))[0];
    const sets = tx.objectStore('vectorSets');
    const vectors = await (model === undefined ? sets.getAll() : sets.getAll(modelRange(model)));
    await tx.done;
    return vectors;
  }

  /** Ids of the models whose vectors are stored, the active one first (at most `KEPT_VECTOR_MODELS`). */
  async vectorModels(): Promise<string[]> {
    return [...modelsOf(await this.db.get('settings', 'vectorModels'))];
  }

  /**
   * The library's dense side switches to `embedderId` (`src/worker/embedder-switch.ts`): it
   * becomes the active model, the one active until now stays as the previous model, and the
   * vectors of a model pushed past `KEPT_VECTOR_MODELS` are deleted — one transaction, which also
   * reads the new model's stored segments unless `read` is false (they are loaded already).
   */
  async useVectorModel(embedderId: string, options: { read?: boolean } = {}): Promise<VectorRecord[]> {
    try {
      return await writeTx(this.db, ['settings', 'vectorSets'], async (tx, keep) => {
        await useModels(tx, keep, [embedderId], 0);
        return options.read === false ? [] : keep(tx.objectStore('vectorSets').getAll(modelRange(embedderId)));
      });
    } catch (err) {
      throw toStorageError(err, `the vectors of ${embedderId}`);
    }
  }

  /** Everything startup needs, with the time of each part. */
  async loadAll(): Promise<LoadedLibrary> {
    const text = await this.loadText();
    const t0 = performance.now();
    const vectors = await this.loadVectors();
    return { ...text, vectors, vectorsMs: performance.now() - t0 };
  }

  async getSetting<K extends SettingKey>(key: K): Promise<Settings[K] | undefined> {
    return (await this.db.get('settings', key)) as Settings[K] | undefined;
  }

  async setSetting<K extends SettingKey>(key: K, value: Settings[K]): Promise<void> {
    try {
      await writeTx(this.db, ['settings'], (tx, keep) => keep(tx.objectStore('settings').put(value, key)));
    } catch (err) {
      throw toStorageError(err, `the setting ${key}`);
    }
  }

  /** The stored lexical index (the caller checks its fingerprint against the documents it loaded). */
  async loadLexical(): Promise<LexicalRecord | undefined> {
    return this.db.get('lexical', 'bm25');
  }

  /** Replaces the stored lexical index. */
  async saveLexical(record: LexicalRecord): Promise<void> {
    try {
      await writeTx(this.db, ['lexical'], (tx, keep) => keep(tx.objectStore('lexical').put(record, 'bm25')));
    } catch (err) {
      throw toStorageError(err, 'the search index');
    }
  }

  /**
   * Queues a batch of files (one transaction) before any is ingested, so a batch cut short by a
   * reload resumes; `settings` are written in the same transaction (e.g. `demoInstalled`).
   * Returns the entries with their keys, in order.
   */
  async enqueue(entries: readonly QueueEntry[], settings: Partial<Settings> = {}): Promise<QueueEntry[]> {
    const more = entries.length - 1;
    const what = `"${entries[0]?.title ?? ''}"${more > 0 ? ` and ${more} more file${more === 1 ? '' : 's'}` : ''}`;
    try {
      return await writeTx(this.db, ['ingestQueue', 'settings'], async (tx, keep) => {
        const queue = tx.objectStore('ingestQueue');
        const keys = await Promise.all(entries.map((e) => keep(queue.add(e))));
        for (const [k, v] of Object.entries(settings)) keep(tx.objectStore('settings').put(v, k as SettingKey));
        return entries.map((e, i) => ({ ...e, seq: keys[i] as number }));
      });
    } catch (err) {
      throw toStorageError(err, what, true);
    }
  }

  /** Entries still waiting, oldest first. */
  async queued(): Promise<QueueEntry[]> {
    return this.db.getAll('ingestQueue');
  }

  /**
   * Counts one more start of queue entry `seq` (kept across reloads, in the same transaction as
   * the read) and resolves with the count: 1 the first time, more when earlier starts never
   * finished (a reload, or a file that kills the worker).
   */
  async beginQueued(seq: number): Promise<number> {
    try {
      return await writeTx(this.db, ['settings'], async (tx, keep) => {
        const settings = tx.objectStore('settings');
        const last = (await keep(settings.get('ingestAttempt'))) as Settings['ingestAttempt'] | undefined;
        const count = last?.seq === seq ? last.count + 1 : 1;
        keep(settings.put({ seq, count }, 'ingestAttempt'));
        return count;
      });
    } catch (err) {
      throw toStorageError(err, 'the ingest queue');
    }
  }

  /** Drops a queue entry that cannot be ingested (its error was reported). */
  async dequeue(seq: number): Promise<void> {
    await writeTx(this.db, ['ingestQueue'], (tx, keep) => keep(tx.objectStore('ingestQueue').delete(seq)));
  }

  /** Empties the queue (a batch given up after a full disk). */
  async clearQueue(): Promise<void> {
    await writeTx(this.db, ['ingestQueue'], (tx, keep) => keep(tx.objectStore('ingestQueue').clear()));
  }

  async addFeedback(record: FeedbackRecord): Promise<number> {
    const { id: _id, ...rest } = record;
    try {
      return await writeTx(this.db, ['feedback'], (tx, keep) => keep(tx.objectStore('feedback').add(rest)));
    } catch (err) {
      throw toStorageError(err, 'your feedback');
    }
  }

  async feedback(docId?: string): Promise<FeedbackRecord[]> {
    return docId === undefined ? this.db.getAll('feedback') : this.db.getAllFromIndex('feedback', 'by-doc', docId);
  }

  /** The source priors, kept in the `priors` store. */
  get priors(): PriorStore {
    return new IdbPriorStore(this.db);
  }

  /**
   * The whole library as one export file (read in one transaction, then encoded). Vectors: the
   * active model's only (one segment per document, as export files have always held), so a
   * backup is not twice the size; the previous model's are re-made by a switch to it.
   */
  async exportLibrary(options: ExportOptions = {}): Promise<Uint8Array> {
    const tx = this.db.transaction(
      ['documents', 'chunkSets', 'vectorSets', 'originals', 'priors', 'feedback', 'settings'],
      'readonly',
    );
    const vectorSets = tx.objectStore('vectorSets');
    const activeVectors = tx
      .objectStore('settings')
      .get('vectorModels')
      .then((value) => {
        const active = modelsOf(value)[0];
        return active === undefined ? [] : vectorSets.getAll(modelRange(active));
      });
    const [documents, sets, vectors, stored, priors, feedback] = await Promise.all([
      tx.objectStore('documents').getAll(),
      tx.objectStore('chunkSets').getAll(),
      activeVectors,
      tx.objectStore('originals').getAll(),
      tx.objectStore('priors').get('state'),
      tx.objectStore('feedback').getAll(),
      tx.done,
    ]);
    const chunks = chunksOfDocuments(documents, sets, 'throw');
    const versions = new Map(documents.map((d) => [d.id, d.addedAt]));
    const originals = stored.filter((o) => versions.get(o.docId) === o.docAddedAt);
    const snapshot: LibrarySnapshot = { documents, chunks, vectors, priors: priors ?? null, feedback, originals };
    const plain = encodeLibrary(snapshot);
    return options.passphrase === undefined ? plain : encryptLibrary(plain, options.passphrase);
  }

  /**
   * Validates an export file completely, then writes it in one transaction. An invalid file
   * throws `invalid_input` and a full disk `storage_full`; in both cases nothing is written.
   * The file's vectors are stored under their model: the library's active model stays active;
   * another model of the file becomes the previous one (so switching to it reuses them), which
   * deletes the vectors of a model pushed past `KEPT_VECTOR_MODELS`.
   */
  async importLibrary(bytes: Uint8Array, options: ImportOptions = {}): Promise<ImportSummary> {
    const mode = options.mode ?? 'merge';
    if (mode !== 'merge' && mode !== 'replace') {
      throw new EvidentError(
        'invalid_option',
        `importLibrary: mode must be one of merge, replace, got "${String(mode)}".`,
      );
    }
    // A protected file is opened whole (every part authenticated) before anything is decoded or written.
    const plain = isEncryptedLibrary(bytes) ? await decryptLibrary(bytes, options.passphrase ?? '') : bytes;
    const snap = decodeLibrary(plain, options.limits);
    try {
      return await writeTx(
        this.db,
        ['documents', 'chunkSets', 'vectorSets', 'originals', 'feedback', 'settings', 'priors', 'lexical'],
        async (tx, keep) => {
          let replaced = 0;
          // The file's models by rows, most first; they follow the active model (the same
          // ordering as v5's migration).
          const rowsOf = new Map<string, number>();
          for (const v of snap.vectors) rowsOf.set(v.embedderId, (rowsOf.get(v.embedderId) ?? 0) + v.chunkIds.length);
          const fileModels = [...rowsOf].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([id]) => id);
          if (mode === 'replace') {
            const stores = [
              'documents',
              'chunkSets',
              'vectorSets',
              'originals',
              'feedback',
              'priors',
              'lexical',
            ] as const;
            for (const store of stores) {
              keep(tx.objectStore(store).clear());
            }
          } else {
            for (const d of snap.documents) {
              if ((await keep(tx.objectStore('documents').get(d.id))) === undefined) continue;
              replaced++;
              await removeDocumentData(tx, keep, d.id, { keepFeedback: false });
            }
          }
          for (const d of snap.documents) keep(tx.objectStore('documents').put(d));
          const chunksOf = new Map<string, Chunk[]>();
          for (const c of snap.chunks) {
            const list = chunksOf.get(c.docId);
            if (list) list.push(c);
            else chunksOf.set(c.docId, [c]);
          }
          for (const d of snap.documents)
            keep(tx.objectStore('chunkSets').put(chunkSetOf(d, chunksOf.get(d.id) ?? [])));
          const models = await useModels(tx, keep, fileModels, 1, mode === 'replace');
          for (const v of snap.vectors) if (models.includes(v.embedderId)) keep(tx.objectStore('vectorSets').put(v));
          for (const o of snap.originals ?? []) keep(tx.objectStore('originals').put(o));
          for (const f of snap.feedback) keep(tx.objectStore('feedback').add(f));
          if (
            snap.priors &&
            (mode === 'replace' || (await keep(tx.objectStore('priors').get('state'))) === undefined)
          ) {
            keep(tx.objectStore('priors').put(snap.priors, 'state'));
          }
          await bumpLibraryVersion(tx, keep);
          return {
            documents: snap.documents.length,
            chunks: snap.chunks.length,
            vectors: rowsOf.get(models[0] ?? '') ?? 0,
            replaced,
          };
        },
      );
    } catch (err) {
      throw toStorageError(err, 'the imported library');
    }
  }
}

/** Deletes a document's record, chunks, vectors and original (and feedback) inside the caller's transaction. */
async function removeDocumentData(
  tx: AnyWriteTx,
  keep: <R>(request: Promise<R>) => Promise<R>,
  docId: string,
  opts: { keepFeedback: boolean },
): Promise<void> {
  const t = tx as unknown as WriteTx<DocStores>;
  keep(t.objectStore('chunkSets').delete(docId));
  keep(t.objectStore('originals').delete(docId));
  const vectorSets = t.objectStore('vectorSets');
  for (const key of await keep(vectorSets.index('by-doc').getAllKeys(docId))) keep(vectorSets.delete(key));
  keep(t.objectStore('documents').delete(docId));
  if (!opts.keepFeedback) {
    const feedback = t.objectStore('feedback');
    for (const k of await keep(feedback.index('by-doc').getAllKeys(docId))) keep(feedback.delete(k));
  }
}

/**
 * Every chunk of `documents`, document by document, each in reading order. A set that is missing
 * or belongs to another version cannot come from Evident (a document and its set are written and
 * deleted in one transaction). Startup (`skip`) leaves that document's chunks out, and the engine
 * reports it as skipped; an export (`throw`) refuses with `cache_corrupted` rather than write a
 * file its own import would reject.
 */
function chunksOfDocuments(
  documents: readonly DocumentRecord[],
  sets: readonly ChunkSet[],
  damaged: 'skip' | 'throw',
): Chunk[] {
  const setOf = new Map(sets.map((set) => [set.docId, set]));
  const chunks: Chunk[] = [];
  for (const doc of documents) {
    const set = setOf.get(doc.id);
    if (set && set.docAddedAt === doc.addedAt && set.chunks.length === doc.chunkCount) chunks.push(...set.chunks);
    else if (damaged === 'throw') {
      throw new EvidentError(
        'cache_corrupted',
        `The stored passages of "${doc.title}" do not match the document (damaged library data), so the ` +
          'library cannot be exported whole. Remove that document and add it again, then export.',
      );
    }
  }
  return chunks;
}

/** The stored `vectorModels` setting (a list of model ids; anything else reads as none). */
function modelsOf(value: unknown): Settings['vectorModels'] {
  return Array.isArray(value) && value.every((m) => typeof m === 'string') ? (value as string[]) : [];
}

/** Every key of one model's segments: `[embedderId, docId]` for any document id (arrays sort after strings). */
function modelRange(embedderId: string): IDBKeyRange {
  return IDBKeyRange.bound([embedderId], [embedderId, []]);
}

/**
 * Puts `ids` at position `at` of the kept models (0: the active model; 1: after it, an
 * import's), keeps the first `KEPT_VECTOR_MODELS` and deletes every segment of the models
 * pushed out, inside the caller's transaction (stores `settings` and `vectorSets`). With
 * `cleared`, the stored vectors were just cleared: only the active model's place is kept.
 * Resolves with the kept models.
 */
async function useModels(
  tx: AnyWriteTx,
  keep: <R>(request: Promise<R>) => Promise<R>,
  ids: readonly string[],
  at: 0 | 1,
  cleared = false,
): Promise<readonly string[]> {
  const t = tx as unknown as WriteTx<['settings', 'vectorSets']>;
  const settings = t.objectStore('settings');
  const before = modelsOf(await keep(settings.get('vectorModels')));
  const current = cleared ? before.slice(0, 1) : before;
  const moving = at === 0 ? ids : ids.filter((id) => id !== current[0]);
  const rest = current.filter((m) => !moving.includes(m));
  const pos = Math.min(at, rest.length);
  const next = [...rest.slice(0, pos), ...moving, ...rest.slice(pos)];
  const kept = next.slice(0, KEPT_VECTOR_MODELS);
  if (kept.length === before.length && kept.every((m, i) => m === before[i])) return before;
  for (const m of before) if (!kept.includes(m)) keep(t.objectStore('vectorSets').delete(modelRange(m)));
  keep(settings.put(kept, 'vectorModels'));
  return kept;
}

/** A PDF's original as its record: a copy of the bytes (the caller's buffer may be transferred later). */
function originalOf(
  doc: DocumentRecord,
  original: { readonly bytes: Uint8Array; readonly pages: readonly OriginalPage[] },
): OriginalRecord {
  return {
    docId: doc.id,
    docAddedAt: doc.addedAt,
    mime: 'application/pdf',
    bytes: original.bytes.slice(),
    pages: original.pages.map(pageOf),
  };
}

/** A document's chunks as its one record, by ordinal. */
function chunkSetOf(doc: DocumentRecord, chunks: readonly Chunk[]): ChunkSet {
  return { docId: doc.id, docAddedAt: doc.addedAt, chunks: [...chunks].sort((a, b) => a.ordinal - b.ordinal) };
}

async function bumpLibraryVersion(tx: AnyWriteTx, keep: <R>(request: Promise<R>) => Promise<R>): Promise<void> {
  const settings = (tx as unknown as WriteTx<['settings']>).objectStore('settings');
  const version = ((await keep(settings.get('libraryVersion'))) as number | undefined) ?? 0;
  keep(settings.put(version + 1, 'libraryVersion'));
}

/** `PriorStore` on the `priors` store; an unreadable stored state throws `cache_corrupted` (priors.ts). */
export class IdbPriorStore implements PriorStore {
  constructor(private readonly db: Db) {}

  async load(): Promise<PriorState> {
    const stored = await this.db.get('priors', 'state');
    return stored === undefined ? createPriorState() : parsePriorState(stored);
  }

  async save(state: PriorState): Promise<void> {
    const clean = parsePriorState(state);
    try {
      await writeTx(this.db, ['priors'], (tx, keep) => keep(tx.objectStore('priors').put(clean, 'state')));
    } catch (err) {
      throw toStorageError(err, 'the source priors');
    }
  }
}
