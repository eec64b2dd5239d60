import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { decodeLibrary } from '../core/library-format';
import type { Chunk } from '../core/types';
import {
  migrate,
  isQuotaError,
  openEvidentDb,
  toStorageError,
  writeTx,
  type AnyVersionDB,
  type AnyVersionDb,
} from './db';
import { Library } from './library';
import { DB_VERSION } from './schema';
import { chunksOf, documentRecord, queueEntry } from './testing';

let n = 0;
const uniqueName = (): string => `evident-db-test-${n++}`;

/** Builds a database exactly as schema version `version` did, with `migrate`'s steps up to it. */
async function openAtVersion(name: string, version: number): Promise<AnyVersionDb> {
  return openDB<AnyVersionDB>(name, version, {
    upgrade(db, oldVersion, _new, tx) {
      void migrate(db, oldVersion, version, tx);
    },
  });
}

describe('schema migrations', () => {
  it('creates every store and index of the current version on a fresh database', async () => {
    const db = await openEvidentDb({ name: uniqueName() });
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames].sort()).toEqual(
      [
        'chunkSets',
        'documents',
        'feedback',
        'ingestQueue',
        'lexical',
        'originals',
        'priors',
        'settings',
        'vectorSets',
      ].sort(),
    );
    const tx = db.transaction(['documents', 'feedback', 'vectorSets'], 'readonly');
    expect([...tx.objectStore('documents').indexNames]).toEqual(['by-hash']);
    expect([...tx.objectStore('feedback').indexNames]).toEqual(['by-doc']);
    expect([...tx.objectStore('vectorSets').indexNames]).toEqual(['by-doc']);
    db.close();
  });

  it('upgrades a v1 database with data to the current version with the data intact and derived fields filled', async () => {
    const name = uniqueName();
    const v1 = await openAtVersion(name, 1);
    expect([...v1.objectStoreNames]).not.toContain('ingestQueue');
    expect([...v1.objectStoreNames]).not.toContain('feedback');
    // Records as v1 wrote them: no vectorState / updatedAt on documents, no docAddedAt / encoding on vectors.
    const raw = v1;
    const docBase = {
      title: 'Remote Work Policy',
      sourceType: 'internal_policy',
      status: 'current',
      fileName: 'policy.md',
      format: 'markdown',
      size: 10,
      bytesHash: 'ab'.repeat(32),
      pageCount: null,
    };
    const tx = raw.transaction(['documents', 'chunks', 'vectors', 'settings', 'priors'], 'readwrite');
    await Promise.all([
      tx.objectStore('documents').put({ ...docBase, id: 'full', addedAt: 10, chunkCount: 2 } as never),
      tx.objectStore('documents').put({ ...docBase, id: 'half', addedAt: 20, chunkCount: 2 } as never),
      tx.objectStore('documents').put({ ...docBase, id: 'none', addedAt: 30, chunkCount: 1 } as never),
      tx.objectStore('chunks').put({ id: 'full#0', docId: 'full', ordinal: 0, text: 'x' } as never),
      tx.objectStore('chunks').put({ id: 'full#1', docId: 'full', ordinal: 1, text: 'y' } as never),
      tx.objectStore('vectors').put({
        docId: 'full',
        embedderId: 'm',
        dim: 2,
        chunkIds: ['full#0', 'full#1'],
        data: new Float32Array([1, 0, 0, 1]),
      } as never),
      tx
        .objectStore('vectors')
        .put({ docId: 'half', embedderId: 'm', dim: 2, chunkIds: ['half#0'], data: new Float32Array([1, 0]) } as never),
      tx.objectStore('settings').put(true, 'demoInstalled'),
      tx.done,
    ]);
    v1.close();

    const db = await openEvidentDb({ name });
    expect(db.version).toBe(DB_VERSION);
    const docs = await db.getAll('documents');
    expect(docs.map((d) => [d.id, d.vectorState, d.updatedAt])).toEqual([
      ['full', 'complete', 10],
      ['half', 'partial', 20],
      ['none', 'pending', 30],
    ]);
    expect(docs[0]).toMatchObject(docBase);
    const full = await db.get('vectorSets', ['m', 'full']);
    expect(full).toMatchObject({ encoding: 'f32', docAddedAt: 10, chunkIds: ['full#0', 'full#1'] });
    expect(Array.from(full!.data)).toEqual([1, 0, 0, 1]);
    expect([...db.objectStoreNames]).not.toContain('chunks');
    expect(await db.get('settings', 'demoInstalled')).toBe(true);
    // v3/v4: each document's chunks as one record (the only copy), from the chunks v1 stored.
    expect(await db.getAll('chunkSets')).toEqual([
      {
        docId: 'full',
        docAddedAt: 10,
        chunks: [
          { id: 'full#0', docId: 'full', ordinal: 0, text: 'x' },
          { id: 'full#1', docId: 'full', ordinal: 1, text: 'y' },
        ],
      },
      { docId: 'half', docAddedAt: 20, chunks: [] },
      { docId: 'none', docAddedAt: 30, chunks: [] },
    ]);
    // v2 stores and the new index work on the migrated data.
    expect((await db.getAllFromIndex('documents', 'by-hash', 'ab'.repeat(32))).length).toBe(3);
    await db.add('ingestQueue', queueEntry('q'));
    expect(await db.count('ingestQueue')).toBe(1);
    db.close();
  });

  it('upgrades a v2 database: every document gets its chunk set, in reading order, and nothing else changes', async () => {
    const name = uniqueName();
    const v2 = await openAtVersion(name, 2);
    expect([...v2.objectStoreNames]).not.toContain('chunkSets');
    const raw = v2;
    const tx = raw.transaction(['documents', 'chunks', 'feedback'], 'readwrite');
    await Promise.all([
      tx.objectStore('documents').put(documentRecord('a', 12, 5)),
      tx.objectStore('documents').put(documentRecord('b', 1, 6)),
      // Ordinals 0…11: stored by id, "a#10" sorts before "a#2".
      ...chunksOf('a', 12).map((c) => tx.objectStore('chunks').put(c)),
      tx.objectStore('chunks').put(chunksOf('b', 1)[0]!),
      // A chunk whose document is gone (never written by Evident) is in no set, and goes with `chunks` (v4).
      tx.objectStore('chunks').put(chunksOf('gone', 1)[0]!),
      tx.objectStore('feedback').add({ docId: 'a', chunkId: 'a#0', kind: 'helpful', at: 1 } as never),
      tx.done,
    ]);
    v2.close();

    const db = await openEvidentDb({ name });
    expect(db.version).toBe(DB_VERSION);
    const sets = await db.getAll('chunkSets');
    expect(sets.map((x) => [x.docId, x.docAddedAt, x.chunks.map((c) => c.ordinal)])).toEqual([
      ['a', 5, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]],
      ['b', 6, [0]],
    ]);
    expect(sets[0]!.chunks).toEqual(chunksOf('a', 12));
    expect([...db.objectStoreNames]).not.toContain('chunks');
    expect(await db.count('feedback')).toBe(1);
    db.close();
  });

  it('upgrades a v3 database to v4: the chunk sets become the only copy, nothing is lost', async () => {
    const name = uniqueName();
    const v3 = await openAtVersion(name, 3);
    expect([...v3.objectStoreNames]).toContain('chunks');
    // a: set in step (what v3 always wrote); b: set missing; c: set of an older version;
    // d: set shorter than the document; e: no chunks at all.
    const complete = { vectorState: 'complete' } as const;
    const docs = [
      documentRecord('a', 12, 10, complete),
      documentRecord('b', 2, 11, complete),
      documentRecord('c', 3, 12, complete),
      documentRecord('d', 4, 13, complete),
      documentRecord('e', 0, 14, complete),
    ];
    const perChunk = [...chunksOf('a', 12), ...chunksOf('b', 2), ...chunksOf('c', 3), ...chunksOf('d', 4)];
    const vectors = {
      docId: 'a',
      embedderId: 'm',
      dim: 2,
      encoding: 'f32',
      chunkIds: chunksOf('a', 12).map((c) => c.id),
      data: Float32Array.from({ length: 24 }, (_, i) => i / 8),
      docAddedAt: 10,
    } as const;
    const tx = v3.transaction(
      ['documents', 'chunks', 'chunkSets', 'vectors', 'feedback', 'settings', 'lexical', 'ingestQueue'],
      'readwrite',
    );
    await Promise.all([
      ...docs.map((d) => tx.objectStore('documents').put(d)),
      ...perChunk.map((c) => tx.objectStore('chunks').put(c)),
      tx.objectStore('chunkSets').put({ docId: 'a', docAddedAt: 10, chunks: chunksOf('a', 12) }),
      tx.objectStore('chunkSets').put({
        docId: 'c',
        docAddedAt: 2,
        chunks: chunksOf('c', 3).map((c) => ({ ...c, text: 'old version' })),
      }),
      tx.objectStore('chunkSets').put({ docId: 'd', docAddedAt: 13, chunks: chunksOf('d', 2) }),
      tx.objectStore('chunkSets').put({ docId: 'gone', docAddedAt: 1, chunks: chunksOf('gone', 1) }),
      tx.objectStore('chunkSets').put({ docId: 'e', docAddedAt: 14, chunks: [] }),
      tx.objectStore('vectors').put(vectors),
      tx.objectStore('feedback').add({ docId: 'c', chunkId: 'c#1', sourceType: 'blog', verdict: 'helpful', at: 1 }),
      tx.objectStore('settings').put(41, 'libraryVersion'),
      tx.objectStore('lexical').put({ fingerprint: 'f', index: { stored: true } as never }, 'bm25'),
      tx.objectStore('ingestQueue').add(queueEntry('q')),
      tx.done,
    ]);
    v3.close();

    // The new code opens it: the migration runs, then the library loads and exports as before.
    const lib = await Library.open({ name });
    const text = await lib.loadText();
    const byId = (x: Chunk, y: Chunk): number => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
    // What v3's startup read: the in-step set for a, the per-chunk records for the others.
    expect([...text.chunks].sort(byId)).toEqual([...perChunk].sort(byId));
    expect(text.documents).toEqual(docs);
    expect(text.settings.libraryVersion).toBe(41);
    expect(text.queued).toBe(1);
    const [stored] = await lib.loadVectors();
    expect(stored).toMatchObject({ docId: 'a', chunkIds: vectors.chunkIds, docAddedAt: 10 });
    expect(Array.from(stored!.data)).toEqual(Array.from(vectors.data));
    expect((await lib.loadLexical())?.fingerprint).toBe('f');
    expect(await lib.feedback('c')).toMatchObject([{ chunkId: 'c#1', verdict: 'helpful' }]);
    const exported = decodeLibrary(await lib.exportLibrary());
    expect(exported.documents.map((d) => d.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect([...exported.chunks].sort(byId)).toEqual([...perChunk].sort(byId));
    lib.close();

    const db = await openEvidentDb({ name });
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames]).not.toContain('chunks');
    const sets = await db.getAll('chunkSets');
    expect(sets.map((x) => [x.docId, x.docAddedAt, x.chunks.map((c) => c.ordinal)])).toEqual([
      ['a', 10, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]],
      ['b', 11, [0, 1]],
      ['c', 12, [0, 1, 2]],
      ['d', 13, [0, 1, 2, 3]],
      ['e', 14, []],
    ]);
    expect(sets[2]!.chunks.map((c) => c.text)).toEqual([
      'chunk 0 of c about remote work',
      'chunk 1 of c about remote work',
      'chunk 2 of c about remote work',
    ]);
    db.close();
  });

  it('opening the current version again changes nothing', async () => {
    const name = uniqueName();
    const db = await openEvidentDb({ name });
    await db.put('settings', 7, 'libraryVersion');
    db.close();
    const again = await openEvidentDb({ name });
    expect(await again.get('settings', 'libraryVersion')).toBe(7);
    again.close();
  });
});

describe('writeTx', () => {
  it('commits every request of the transaction', async () => {
    const db = await openEvidentDb({ name: uniqueName() });
    await writeTx(db, ['settings'], (tx, keep) => {
      keep(tx.objectStore('settings').put(1, 'budget'));
      keep(tx.objectStore('settings').put(0.7, 'mmrLambda'));
    });
    expect(await db.get('settings', 'mmrLambda')).toBe(0.7);
    db.close();
  });

  it('aborts the whole transaction when a request fails late: the earlier writes are not kept', async () => {
    const db = await openEvidentDb({ name: uniqueName() });
    await expect(
      writeTx(db, ['settings', 'ingestQueue'], async (tx, keep) => {
        keep(tx.objectStore('settings').put(1, 'budget'));
        // ConstraintError: the key exists.
        const seq = await keep(tx.objectStore('ingestQueue').add(queueEntry('a')));
        await keep(tx.objectStore('ingestQueue').add({ ...queueEntry('b'), seq }));
      }),
    ).rejects.toMatchObject({ name: 'ConstraintError' });
    expect(await db.get('settings', 'budget')).toBeUndefined();
    expect(await db.count('ingestQueue')).toBe(0);
    db.close();
  });
});

describe('storage error mapping', () => {
  const quotaShapes: [string, unknown][] = [
    ['a QuotaExceededError DOMException', new DOMException('quota', 'QuotaExceededError')],
    ['Firefox NS_ERROR_DOM_QUOTA_REACHED as a name', { name: 'NS_ERROR_DOM_QUOTA_REACHED', message: '' }],
    [
      'Firefox NS_ERROR_DOM_QUOTA_REACHED in the message',
      new Error('Component returned failure code: 0x80530016 (NS_ERROR_DOM_QUOTA_REACHED)'),
    ],
    ['the legacy DOMException code 22', { name: 'Error', code: 22 }],
    ['an abort caused by quota', { name: 'AbortError', error: new DOMException('quota', 'QuotaExceededError') }],
    [
      'an error whose cause is quota',
      new Error('write failed', { cause: new DOMException('q', 'QuotaExceededError') }),
    ],
  ];
  for (const [name, err] of quotaShapes) {
    it(`maps ${name} to storage_full naming the document`, () => {
      expect(isQuotaError(err)).toBe(true);
      expect(toStorageError(err, 'Policy')).toMatchObject({
        code: 'storage_full',
        message: 'Storage is full: remove documents or free space. Nothing was saved for "Policy".',
      });
    });
  }

  it('leaves other errors alone', () => {
    const other = new DOMException('x', 'ConstraintError');
    expect(isQuotaError(other)).toBe(false);
    expect(isQuotaError(new DOMException('aborted', 'AbortError'))).toBe(false);
    expect(toStorageError(other, 'Policy')).toBe(other);
    expect(isQuotaError(null)).toBe(false);
  });
});
