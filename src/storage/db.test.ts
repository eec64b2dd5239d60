import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { migrate, isQuotaError, openEvidentDb, toStorageError, writeTx, type Db } from './db';
import { DB_VERSION, type EvidentDB } from './schema';

let n = 0;
const uniqueName = (): string => `evident-db-test-${n++}`;

/** Builds a database exactly as schema version `version` did, with `migrate`'s steps up to it. */
async function openAtVersion(name: string, version: number): Promise<Db> {
  return openDB<EvidentDB>(name, version, {
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
        'chunks',
        'documents',
        'feedback',
        'ingestQueue',
        'lexical',
        'priors',
        'settings',
        'vectors',
      ].sort(),
    );
    const tx = db.transaction(['documents', 'chunks', 'feedback'], 'readonly');
    expect([...tx.objectStore('documents').indexNames]).toEqual(['by-hash']);
    expect([...tx.objectStore('chunks').indexNames]).toEqual(['by-doc']);
    expect([...tx.objectStore('feedback').indexNames]).toEqual(['by-doc']);
    db.close();
  });

  it('upgrades a v1 database with data to the current version with the data intact and derived fields filled', async () => {
    const name = uniqueName();
    const v1 = await openAtVersion(name, 1);
    expect([...v1.objectStoreNames]).not.toContain('ingestQueue');
    expect([...v1.objectStoreNames]).not.toContain('feedback');
    // Records as v1 wrote them: no vectorState / updatedAt on documents, no docAddedAt / encoding on vectors.
    const raw = v1 as unknown as Db;
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
    const full = await db.get('vectors', 'full');
    expect(full).toMatchObject({ encoding: 'f32', docAddedAt: 10, chunkIds: ['full#0', 'full#1'] });
    expect(Array.from(full!.data)).toEqual([1, 0, 0, 1]);
    expect(await db.getAllKeysFromIndex('chunks', 'by-doc', 'full')).toEqual(['full#0', 'full#1']);
    expect(await db.get('settings', 'demoInstalled')).toBe(true);
    // v3: each document's chunks as one record, from the chunks v1 stored.
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
    await db.add('ingestQueue', {
      docId: 'q',
      title: 'Q',
      fileName: 'q.txt',
      source: { kind: 'text', text: 'q', format: 'text' },
      queuedAt: 1,
    });
    expect(await db.count('ingestQueue')).toBe(1);
    db.close();
  });

  it('upgrades a v2 database: every document gets its chunk set, in reading order, and nothing else changes', async () => {
    const name = uniqueName();
    const v2 = await openAtVersion(name, 2);
    expect([...v2.objectStoreNames]).not.toContain('chunkSets');
    const raw = v2 as unknown as Db;
    const doc = (id: string, addedAt: number, chunkCount: number): never =>
      ({
        id,
        title: id,
        sourceType: 'unknown',
        status: 'current',
        fileName: `${id}.md`,
        format: 'markdown',
        size: 1,
        bytesHash: id.repeat(64).slice(0, 64),
        addedAt,
        updatedAt: addedAt,
        chunkCount,
        pageCount: null,
        vectorState: 'pending',
      }) as never;
    const chunk = (docId: string, ordinal: number): never =>
      ({ id: `${docId}#${ordinal}`, docId, ordinal, text: `${docId} ${ordinal}`, headings: [] }) as never;
    const tx = raw.transaction(['documents', 'chunks', 'feedback'], 'readwrite');
    await Promise.all([
      tx.objectStore('documents').put(doc('a', 5, 12)),
      tx.objectStore('documents').put(doc('b', 6, 1)),
      // Ordinals 0…11: stored by id, "a#10" sorts before "a#2".
      ...Array.from({ length: 12 }, (_, i) => tx.objectStore('chunks').put(chunk('a', i))),
      tx.objectStore('chunks').put(chunk('b', 0)),
      // A chunk whose document is gone (never written by Evident) stays where it is, in no set.
      tx.objectStore('chunks').put(chunk('gone', 0)),
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
    expect(sets[0]!.chunks[3]).toEqual(await db.get('chunks', 'a#3'));
    expect(await db.count('chunks')).toBe(14);
    expect(await db.count('feedback')).toBe(1);
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
        const seq = await keep(
          tx.objectStore('ingestQueue').add({
            docId: 'a',
            title: 'A',
            fileName: '',
            source: { kind: 'text', text: '', format: 'text' },
            queuedAt: 0,
          }),
        );
        await keep(
          tx.objectStore('ingestQueue').add({
            seq,
            docId: 'b',
            title: 'B',
            fileName: '',
            source: { kind: 'text', text: '', format: 'text' },
            queuedAt: 0,
          }),
        );
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
