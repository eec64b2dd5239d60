/**
 * Opening the database, its versioned migrations, and the two rules every write follows:
 * one transaction per logical change (aborted as a whole on any failure), and storage errors
 * mapped to values a user can act on.
 */
import { openDB, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import { EvidentError } from '../core/errors';
import { vectorStateOf, type VectorRecord } from '../core/library-format';
import type { Chunk } from '../core/types';
import { DB_NAME, DB_VERSION, type EvidentDB } from './schema';

export type Db = IDBPDatabase<EvidentDB>;

/**
 * Every store any version had: the current ones, v1–v3's per-chunk `chunks` store (keyed by
 * chunk id, index `by-doc`), which v4 removes, and v1–v4's `vectors` (one segment per document,
 * keyed by document id), which v5 replaces with `vectorSets`. Migrations (and tests that build
 * an old database) work on this schema.
 */
export interface AnyVersionDB extends EvidentDB {
  chunks: {
    key: string;
    value: Chunk;
    indexes: { 'by-doc': string };
  };
  vectors: {
    key: string;
    value: VectorRecord;
  };
}
export type AnyVersionDb = IDBPDatabase<AnyVersionDB>;
type UpgradeTx = IDBPTransaction<AnyVersionDB, StoreNames<AnyVersionDB>[], 'versionchange'>;

/** A v1 document: no `vectorState`, no `updatedAt` (v2 derives them). */
interface V1Document {
  readonly id: string;
  readonly chunkCount: number;
  readonly addedAt: number;
  readonly [key: string]: unknown;
}
/** A v1 vector segment: no `docAddedAt`, no `encoding` (v2 adds them). */
interface V1Vectors {
  readonly docId: string;
  readonly chunkIds: readonly string[];
  readonly [key: string]: unknown;
}

/**
 * Brings a database from `oldVersion` to `targetVersion`, one step per version. Every step only
 * adds (stores, indexes, derived fields), so data written by an older Evident stays readable.
 *
 * - v1: documents, chunks (+ by-doc), vectors (one segment per document), lexical, settings, priors.
 * - v2: feedback log (+ by-doc), ingest queue, documents by-hash; documents gain `vectorState`
 *   (derived from their vector rows) and `updatedAt`; vector segments gain `docAddedAt` and `encoding`.
 * - v3: chunk sets (one record per document with all its chunks, read at startup), filled from
 *   the chunks already stored.
 * - v4: the chunk sets become the only copy of the chunks: a document whose set does not match
 *   it (v3 read those from `chunks` at startup) gets its set rebuilt from its per-chunk records,
 *   sets of no document are dropped, then the `chunks` store is deleted. The one step that
 *   removes a store: its data lives on in the sets, as v3 read it.
 * - v5: vectors per (embedding model, document): every v4 segment is copied, unchanged and under
 *   the model id it records, into `vectorSets` (key `[embedderId, docId]`, index `by-doc`), and
 *   `vectors` is deleted. `settings.vectorModels` lists the stored models, the one with the most
 *   rows first (the model v4's startup loaded); the next switch of model trims the list to the
 *   active model and one previous (`src/storage/library.ts`).
 * - v6: `originals` (a PDF's own bytes and page ranges, keyed by document id; the page view).
 *   Documents stored before it have none: their citations open in the passage view.
 *
 * Exported with a target version so tests can build a database exactly as an older version did.
 */
export async function migrate(
  db: AnyVersionDb,
  oldVersion: number,
  targetVersion: number,
  tx: UpgradeTx,
): Promise<void> {
  if (oldVersion < 1 && targetVersion >= 1) {
    db.createObjectStore('documents', { keyPath: 'id' });
    db.createObjectStore('chunks', { keyPath: 'id' }).createIndex('by-doc', 'docId');
    db.createObjectStore('vectors', { keyPath: 'docId' });
    db.createObjectStore('lexical');
    db.createObjectStore('settings');
    db.createObjectStore('priors');
  }
  if (oldVersion < 2 && targetVersion >= 2) {
    db.createObjectStore('feedback', { keyPath: 'id', autoIncrement: true }).createIndex('by-doc', 'docId');
    db.createObjectStore('ingestQueue', { keyPath: 'seq', autoIncrement: true });
    const documents = tx.objectStore('documents');
    documents.createIndex('by-hash', 'bytesHash');
    // Derived fields: only requests on the upgrade transaction are awaited here, so it stays active.
    const vectorStore = tx.objectStore('vectors');
    const addedAt = new Map<string, number>();
    const writes: Promise<unknown>[] = [];
    for (let cursor = await documents.openCursor(); cursor; cursor = await cursor.continue()) {
      const old = cursor.value as unknown as V1Document;
      const vectors = (await vectorStore.get(old.id)) as unknown as V1Vectors | undefined;
      const rows = vectors?.chunkIds.length ?? 0;
      addedAt.set(old.id, old.addedAt);
      writes.push(
        cursor.update({ ...cursor.value, updatedAt: old.addedAt, vectorState: vectorStateOf(rows, old.chunkCount) }),
      );
    }
    for (let cursor = await vectorStore.openCursor(); cursor; cursor = await cursor.continue()) {
      const old = cursor.value as unknown as V1Vectors;
      writes.push(cursor.update({ ...cursor.value, encoding: 'f32', docAddedAt: addedAt.get(old.docId) ?? 0 }));
    }
    await Promise.all(writes);
  }
  if (oldVersion < 3 && targetVersion >= 3) {
    db.createObjectStore('chunkSets', { keyPath: 'docId' });
    const sets = tx.objectStore('chunkSets');
    const byDoc = tx.objectStore('chunks').index('by-doc');
    const writes: Promise<unknown>[] = [];
    for (let cursor = await tx.objectStore('documents').openCursor(); cursor; cursor = await cursor.continue()) {
      const doc = cursor.value;
      const chunks = (await byDoc.getAll(doc.id)).sort((a, b) => a.ordinal - b.ordinal);
      writes.push(sets.put({ docId: doc.id, docAddedAt: doc.addedAt, chunks }));
    }
    await Promise.all(writes);
  }
  if (oldVersion < 4 && targetVersion >= 4) {
    const sets = tx.objectStore('chunkSets');
    const byDoc = tx.objectStore('chunks').index('by-doc');
    const docs = new Map<string, { addedAt: number; chunkCount: number }>();
    for (let cursor = await tx.objectStore('documents').openCursor(); cursor; cursor = await cursor.continue()) {
      docs.set(cursor.value.id, { addedAt: cursor.value.addedAt, chunkCount: cursor.value.chunkCount });
    }
    const writes: Promise<unknown>[] = [];
    const kept = new Set<string>();
    for (let cursor = await sets.openCursor(); cursor; cursor = await cursor.continue()) {
      const doc = docs.get(cursor.value.docId);
      const matches = doc && cursor.value.docAddedAt === doc.addedAt && cursor.value.chunks.length === doc.chunkCount;
      if (matches) kept.add(cursor.value.docId);
      else if (!doc) writes.push(cursor.delete());
    }
    // Rebuilt exactly as v3's startup read them: the document's per-chunk records, by ordinal.
    for (const [docId, doc] of docs) {
      if (kept.has(docId)) continue;
      const chunks = (await byDoc.getAll(docId)).sort((a, b) => a.ordinal - b.ordinal);
      writes.push(sets.put({ docId, docAddedAt: doc.addedAt, chunks }));
    }
    await Promise.all(writes);
    db.deleteObjectStore('chunks');
  }
  if (oldVersion < 5 && targetVersion >= 5) {
    const sets = db.createObjectStore('vectorSets', { keyPath: ['embedderId', 'docId'] });
    sets.createIndex('by-doc', 'docId');
    const rows = new Map<string, number>();
    const writes: Promise<unknown>[] = [];
    for (let cursor = await tx.objectStore('vectors').openCursor(); cursor; cursor = await cursor.continue()) {
      const v = cursor.value;
      rows.set(v.embedderId, (rows.get(v.embedderId) ?? 0) + v.chunkIds.length);
      writes.push(sets.put(v));
    }
    const models = [...rows].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([id]) => id);
    if (models.length > 0) writes.push(tx.objectStore('settings').put(models, 'vectorModels'));
    await Promise.all(writes);
    db.deleteObjectStore('vectors');
  }
  if (oldVersion < 6 && targetVersion >= 6) {
    db.createObjectStore('originals', { keyPath: 'docId' });
  }
}

export interface OpenOptions {
  readonly name?: string;
  /** Called when another tab needs a newer schema: this connection has been closed. */
  readonly onVersionChange?: () => void;
}

/** Opens (creating or migrating) the Evident database. */
export async function openEvidentDb(options: OpenOptions = {}): Promise<Db> {
  if (typeof indexedDB === 'undefined') {
    throw new EvidentError(
      'internal',
      'This browser does not offer IndexedDB here (private mode?): the library cannot be kept.',
    );
  }
  let failed: unknown = null;
  const db = await openDB<EvidentDB>(options.name ?? DB_NAME, DB_VERSION, {
    upgrade(database, oldVersion, _newVersion, transaction) {
      const anyVersion = database as unknown as AnyVersionDb;
      migrate(anyVersion, oldVersion, DB_VERSION, transaction as unknown as UpgradeTx).catch((err: unknown) => {
        // A failed step must not leave a half-migrated schema: abort the version change.
        failed = err;
        try {
          transaction.abort();
        } catch {
          // already finished
        }
      });
    },
    blocking(_current, _blocked, event) {
      // Let a newer Evident in another tab upgrade; this tab must reload to use the library.
      (event.target as IDBDatabase).close();
      options.onVersionChange?.();
    },
  }).catch((err: unknown) => {
    throw failed ?? err;
  });
  return db;
}

// ---------------------------------------------------------------------------------------------
// Transactions
// ---------------------------------------------------------------------------------------------

type Names = StoreNames<EvidentDB>;
export type WriteTx<S extends Names[]> = IDBPTransaction<EvidentDB, S, 'readwrite'>;

/**
 * Runs `fill` in one readwrite transaction and resolves when it has committed. `fill` may only
 * issue requests on `tx` and await them (never unrelated work: the transaction would
 * auto-commit half-done). Requests go through `keep`, so none rejects unobserved. Any failure —
 * a request that throws, one that errors, or a commit the browser refuses (quota) — aborts the
 * whole transaction: nothing of it is written.
 */
export async function writeTx<S extends Names[], T>(
  db: Db,
  stores: S,
  fill: (tx: WriteTx<S>, keep: <R>(request: Promise<R>) => Promise<R>) => Promise<T> | T,
): Promise<T> {
  const tx = db.transaction(stores, 'readwrite');
  const done = tx.done;
  done.catch(() => {});
  const pending: Promise<unknown>[] = [];
  const keep = <R>(request: Promise<R>): Promise<R> => {
    request.catch(() => {});
    pending.push(request);
    return request;
  };
  let result: T;
  try {
    result = await fill(tx, keep);
    await Promise.all(pending);
  } catch (err) {
    try {
      tx.abort();
    } catch {
      // The transaction already ended (it failed on its own).
    }
    // The transaction's own error (quota at commit, or its abort) says more than a request's
    // AbortError, or than the "inactive" error of a request made after the transaction aborted.
    throw (await done.then(
      () => err,
      (txErr: unknown) => ((isAbortError(err) || isInactiveError(err)) && txErr ? txErr : err),
    )) as unknown;
  }
  await done;
  return result;
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

function nameOf(err: unknown): string {
  return typeof err === 'object' && err !== null && typeof (err as { name?: unknown }).name === 'string'
    ? (err as { name: string }).name
    : '';
}

function isAbortError(err: unknown): boolean {
  return nameOf(err) === 'AbortError';
}

/** A request on a transaction that already ended (Chromium: TransactionInactiveError; some: InvalidStateError). */
function isInactiveError(err: unknown): boolean {
  return nameOf(err) === 'TransactionInactiveError' || nameOf(err) === 'InvalidStateError';
}

/**
 * True for every way a browser says "no space": Chromium and Safari's QuotaExceededError (at a
 * request or at commit), Firefox's NS_ERROR_DOM_QUOTA_REACHED (as a name or in the message,
 * legacy code 1014), the legacy DOMException code 22, and an abort whose cause is one of these.
 */
export function isQuotaError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { name?: unknown; message?: unknown; code?: unknown; cause?: unknown; error?: unknown };
  const name = nameOf(err);
  if (name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED') return true;
  if (typeof e.message === 'string' && /NS_ERROR_DOM_QUOTA_REACHED|QuotaExceededError/.test(e.message)) return true;
  if (e.code === 22 || e.code === 1014) return true;
  return (
    (e.cause !== undefined && e.cause !== err && isQuotaError(e.cause)) ||
    (e.error !== undefined && e.error !== err && isQuotaError(e.error))
  );
}

/** The message for a write that did not fit; `what` is quoted unless `quoted` says it already is. */
export function storageFullError(what: string, quoted = false): EvidentError {
  return new EvidentError(
    'storage_full',
    `Storage is full: remove documents or free space. Nothing was saved for ${quoted ? what : `"${what}"`}.`,
  );
}

/** Maps a failed write about `title` to an `EvidentError`; quota becomes `storage_full`. */
export function toStorageError(err: unknown, title: string, quoted = false): unknown {
  if (err instanceof EvidentError) return err;
  if (isQuotaError(err)) return storageFullError(title, quoted);
  if (isAbortError(err)) {
    // The browser (or a failing request) aborted the transaction: as a whole, so nothing of it is stored.
    return new EvidentError(
      'internal',
      `The browser cancelled the write, so nothing was saved for ${quoted ? title : `"${title}"`}. Try again; if it keeps failing, reload the page.`,
    );
  }
  if (nameOf(err) === 'InvalidStateError') {
    return new EvidentError(
      'internal',
      'The library database was closed (Evident was updated in another tab?). Reload the page.',
    );
  }
  return err;
}
