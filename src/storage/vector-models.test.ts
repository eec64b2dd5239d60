/**
 * Vectors per (embedding model, document), schema v5: the v4 → v5 migration keeps every stored
 * segment under the model it records; the library keeps the active and the previous model's
 * vectors and deletes a third's; a document's deletion or replacement takes every model's
 * vectors with it; export carries the active model's, import stores another model's as the
 * previous one. On fake-indexeddb (the real `idb` code on an in-memory IndexedDB).
 */
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeLibrary, type DocumentRecord, type VectorRecord } from '../core/library-format';
import { migrate, openEvidentDb, type AnyVersionDB, type AnyVersionDb } from './db';
import { Library } from './library';
import { DB_VERSION } from './schema';
import { chunksOf, documentRecord } from './testing';

let n = 0;
const uniqueName = (): string => `evident-vector-models-test-${n++}`;
const libraries: Library[] = [];
afterEach(() => {
  for (const l of libraries.splice(0)) l.close();
});

async function open(name = uniqueName()): Promise<Library> {
  const lib = await Library.open({ name });
  libraries.push(lib);
  return lib;
}

/** Builds a database exactly as schema version `version` did, with `migrate`'s steps up to it. */
async function openAtVersion(name: string, version: number): Promise<AnyVersionDb> {
  return openDB<AnyVersionDB>(name, version, {
    upgrade(db, oldVersion, _new, tx) {
      void migrate(db, oldVersion, version, tx);
    },
  });
}

/** `rows` vectors of `model` for `doc`, with values that tell the model and row apart. */
function vectorsOf(doc: DocumentRecord, model: string, rows = doc.chunkCount, dim = 3): VectorRecord {
  const seed = [...model].reduce((sum, ch) => sum + ch.charCodeAt(0), 0);
  return {
    docId: doc.id,
    embedderId: model,
    dim,
    encoding: 'f32',
    chunkIds: chunksOf(doc.id, doc.chunkCount)
      .slice(0, rows)
      .map((c) => c.id),
    data: Float32Array.from({ length: rows * dim }, (_, i) => seed + i / 4),
    docAddedAt: doc.addedAt,
  };
}

const byDoc = (vs: readonly VectorRecord[]): VectorRecord[] => [...vs].sort((x, y) => (x.docId < y.docId ? -1 : 1));
const plain = (v: VectorRecord) => ({ ...v, data: Array.from(v.data) });

describe('schema v5: vectors per (model, document)', () => {
  it('migrates a v4 database: every segment kept under its model id, the model with most rows first', async () => {
    const name = uniqueName();
    const v4 = await openAtVersion(name, 4);
    expect([...v4.objectStoreNames]).toContain('vectors');
    expect([...v4.objectStoreNames]).not.toContain('vectorSets');
    const a = documentRecord('a', 3, 10, { vectorState: 'complete' });
    const b = documentRecord('b', 2, 11, { vectorState: 'complete' });
    const c = documentRecord('c', 2, 12, { vectorState: 'partial' });
    // As v4 stored a library caught mid-switch: one segment per document, of two models.
    const stored = [vectorsOf(a, 'use'), vectorsOf(b, 'use'), vectorsOf(c, 'bge', 1)];
    const tx = v4.transaction(['documents', 'chunkSets', 'vectors', 'settings'], 'readwrite');
    await Promise.all([
      ...[a, b, c].map((d) => tx.objectStore('documents').put(d)),
      ...[a, b, c].map((d) =>
        tx.objectStore('chunkSets').put({ docId: d.id, docAddedAt: d.addedAt, chunks: chunksOf(d.id, d.chunkCount) }),
      ),
      ...stored.map((v) => tx.objectStore('vectors').put(v)),
      tx.objectStore('settings').put(5, 'libraryVersion'),
      tx.done,
    ]);
    v4.close();

    const lib = await open(name);
    expect(await lib.vectorModels()).toEqual(['use', 'bge']);
    // Startup's read (no model named): the first model's segments, unchanged.
    expect(byDoc(await lib.loadVectors()).map(plain)).toEqual([plain(stored[0]!), plain(stored[1]!)]);
    expect((await lib.loadVectors('bge')).map(plain)).toEqual([plain(stored[2]!)]);
    const text = await lib.loadText();
    expect(text.documents).toEqual([a, b, c]);
    expect(text.settings.libraryVersion).toBe(5);
    // Export: the active model's vectors.
    const exported = decodeLibrary(await lib.exportLibrary());
    expect(exported.vectors.map((v) => [v.docId, v.embedderId])).toEqual([
      ['a', 'use'],
      ['b', 'use'],
    ]);
    lib.close();

    const db = await openEvidentDb({ name });
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames]).not.toContain('vectors');
    expect((await db.getAllKeys('vectorSets')).sort()).toEqual([
      ['bge', 'c'],
      ['use', 'a'],
      ['use', 'b'],
    ]);
    db.close();
  });

  it('keeps the active and the previous model’s vectors; a third model deletes the oldest', async () => {
    const lib = await open();
    const a = documentRecord('a', 2, 10);
    await lib.putDocument({ document: a, chunks: chunksOf('a', 2) });
    expect(await lib.vectorModels()).toEqual([]);
    expect(await lib.putVectors(vectorsOf(a, 'm1'))).toBe('complete');
    expect(await lib.putVectors(vectorsOf(a, 'm2', 1))).toBe('partial');
    expect(await lib.vectorModels()).toEqual(['m2', 'm1']);
    // Both kept, each under its model.
    expect((await lib.loadVectors('m1')).map(plain)).toEqual([plain(vectorsOf(a, 'm1'))]);
    expect((await lib.loadVectors()).map(plain)).toEqual([plain(vectorsOf(a, 'm2', 1))]);

    // Switching back to m1 reads its vectors and keeps m2's.
    expect((await lib.useVectorModel('m1')).map(plain)).toEqual([plain(vectorsOf(a, 'm1'))]);
    expect(await lib.vectorModels()).toEqual(['m1', 'm2']);
    expect(await lib.useVectorModel('m1', { read: false })).toEqual([]);
    expect(await lib.loadVectors('m2')).toHaveLength(1);

    // A third model: m2 (neither active nor previous) loses its vectors.
    expect(await lib.useVectorModel('m3')).toEqual([]);
    expect(await lib.vectorModels()).toEqual(['m3', 'm1']);
    expect(await lib.loadVectors('m2')).toEqual([]);
    expect(await lib.loadVectors('m1')).toHaveLength(1);
  });

  it('deleting or replacing a document deletes its vectors of every model, and only its', async () => {
    const lib = await open();
    const a = documentRecord('a', 2, 10);
    const b = documentRecord('b', 1, 11);
    await lib.putDocument({ document: a, chunks: chunksOf('a', 2) });
    await lib.putDocument({ document: b, chunks: chunksOf('b', 1) });
    for (const m of ['m1', 'm2']) for (const d of [a, b]) await lib.putVectors(vectorsOf(d, m));
    expect(await lib.deleteDocument('a')).toBe(true);
    expect((await lib.loadVectors('m1')).map((v) => v.docId)).toEqual(['b']);
    expect((await lib.loadVectors('m2')).map((v) => v.docId)).toEqual(['b']);
    // A new version of b: its old vectors of both models go.
    const b2 = documentRecord('b', 1, 20);
    await lib.putDocument({ document: b2, chunks: chunksOf('b', 1) });
    expect(await lib.loadVectors('m1')).toEqual([]);
    expect(await lib.loadVectors('m2')).toEqual([]);
  });

  it('a backup carries the active model’s vectors; importing another model’s keeps them as the previous model', async () => {
    const src = await open();
    const a = documentRecord('a', 2, 10);
    await src.putDocument({ document: a, chunks: chunksOf('a', 2) });
    await src.putVectors(vectorsOf(a, 'other'));
    await src.putVectors(vectorsOf(a, 'bge'));
    const file = await src.exportLibrary();
    expect(decodeLibrary(file).vectors.map((v) => v.embedderId)).toEqual(['bge']);

    // A library whose active model is another: the file's vectors are stored, not counted.
    const dst = await open();
    const b = documentRecord('b', 1, 11);
    await dst.putDocument({ document: b, chunks: chunksOf('b', 1) });
    await dst.putVectors(vectorsOf(b, 'use'));
    await dst.putVectors(vectorsOf(b, 'old'));
    await dst.useVectorModel('use');
    expect(await dst.importLibrary(file)).toEqual({ documents: 1, chunks: 2, vectors: 0, replaced: 0 });
    expect(await dst.vectorModels()).toEqual(['use', 'bge']);
    expect(await dst.loadVectors('old')).toEqual([]);
    expect((await dst.useVectorModel('bge')).map(plain)).toEqual([plain(vectorsOf(a, 'bge'))]);

    // An empty library: the file's model becomes the active one, its rows count.
    const fresh = await open();
    expect(await fresh.importLibrary(file, { mode: 'replace' })).toEqual({
      documents: 1,
      chunks: 2,
      vectors: 2,
      replaced: 0,
    });
    expect(await fresh.vectorModels()).toEqual(['bge']);
    expect((await fresh.loadVectors()).map(plain)).toEqual([plain(vectorsOf(a, 'bge'))]);
  });
});
