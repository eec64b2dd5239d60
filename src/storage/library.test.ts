import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { Bm25Index } from '../core/lexical/bm25';
import { isEncryptedLibrary } from '../core/library-crypto';
import { decodeLibrary, type DocumentRecord, type VectorRecord } from '../core/library-format';
import { applyFeedback, createPriorState } from '../core/select/priors';
import type { Chunk } from '../core/types';
import { Library, storageUsage } from './library';
import type { EvidentDB } from './schema';
import { chunksOf, documentRecord, queueEntry } from './testing';

let n = 0;
const open = (): Promise<Library> => Library.open({ name: `evident-lib-test-${n++}` });

function vectors(doc: DocumentRecord, rows: number, dim = 3): VectorRecord {
  return {
    docId: doc.id,
    embedderId: 'm',
    dim,
    encoding: 'f32',
    chunkIds: Array.from({ length: rows }, (_, i) => `${doc.id}#${i}`),
    data: Float32Array.from({ length: rows * dim }, (_, i) => i / 10),
    docAddedAt: doc.addedAt,
  };
}

/**
 * Fakes a full disk in the IndexedDB dependency: the `after`-th put/add from now on throws a
 * QuotaExceededError DOMException, as browsers do for a write that does not fit.
 */
function fillDiskAfter(after: number): () => void {
  const proto = globalThis.IDBObjectStore.prototype;
  const put = proto.put;
  const add = proto.add;
  let calls = 0;
  const guard = <F extends (...args: never[]) => unknown>(fn: F) =>
    function (this: IDBObjectStore, ...args: Parameters<F>) {
      if (++calls > after) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return fn.apply(this, args);
    };
  proto.put = guard(put) as typeof put;
  proto.add = guard(add) as typeof add;
  const restore = (): void => {
    proto.put = put;
    proto.add = add;
  };
  restores.push(restore);
  return restore;
}
const restores: (() => void)[] = [];
afterEach(() => {
  for (const r of restores.splice(0)) r();
});

describe('Library', () => {
  it('stores a document with its chunks in one transaction and loads it back', async () => {
    const lib = await open();
    const doc = documentRecord('a', 3);
    expect(await lib.putDocument({ document: doc, chunks: chunksOf('a', 3) })).toEqual({ replaced: false });
    const loaded = await lib.loadAll();
    expect(loaded.documents).toEqual([doc]);
    expect(loaded.chunks.map((c) => c.id)).toEqual(['a#0', 'a#1', 'a#2']);
    expect(loaded.vectors).toEqual([]);
    expect(loaded.settings.libraryVersion).toBe(1);
    expect(loaded.ms).toBeGreaterThanOrEqual(0);
    lib.close();
  });

  it('keeps one chunk set per document, the only copy of its chunks, in step with every write', async () => {
    const name = `evident-lib-test-${n++}`;
    const lib = await Library.open({ name });
    const raw = await openDB<EvidentDB>(name);
    expect([...raw.objectStoreNames]).not.toContain('chunks');
    const byId = (a: Chunk, b: Chunk): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    /** Each stored set against its document and the chunks last written for it; returns the set ids. */
    const setsMatch = async (expected: Record<string, Chunk[]>): Promise<string[]> => {
      const sets = await raw.getAll('chunkSets');
      for (const set of sets) {
        const doc = await raw.get('documents', set.docId);
        expect(set.docAddedAt).toBe(doc?.addedAt);
        expect(set.chunks).toEqual(expected[set.docId]);
      }
      expect(await raw.count('documents')).toBe(sets.length);
      return sets.map((x) => x.docId);
    };
    const a = documentRecord('a', 12, 1000);
    await lib.putDocument({ document: a, chunks: chunksOf('a', 12).reverse() });
    await lib.putDocument({ document: documentRecord('b', 2, 1001), chunks: chunksOf('b', 2) });
    await lib.putDocument({ document: documentRecord('b', 3, 1002), chunks: chunksOf('b', 3) });
    const both = { a: chunksOf('a', 12), b: chunksOf('b', 3) };
    expect(await setsMatch(both)).toEqual(['a', 'b']);
    const bytes = await lib.exportLibrary();
    expect([...decodeLibrary(bytes).chunks].sort(byId)).toEqual([...both.a, ...both.b].sort(byId));
    expect(await lib.deleteDocument('a')).toBe(true);
    expect(await setsMatch(both)).toEqual(['b']);
    await lib.importLibrary(bytes);
    expect(await setsMatch(both)).toEqual(['a', 'b']);
    await lib.importLibrary(bytes, { mode: 'replace' });
    expect(await setsMatch(both)).toEqual(['a', 'b']);
    expect((await lib.loadText()).chunks).toEqual([...both.a, ...both.b]);

    // Damaged data (never written by Evident): a set missing, or of another version. Startup
    // leaves those documents' chunks out (the engine reports them as skipped); an export refuses.
    await lib.putDocument({ document: documentRecord('c', 2, 1003), chunks: chunksOf('c', 2) });
    await raw.delete('chunkSets', 'a');
    await raw.put('chunkSets', { docId: 'b', docAddedAt: 1, chunks: chunksOf('b', 3) });
    const loaded = await lib.loadText();
    expect(loaded.documents.map((d) => d.id)).toEqual(['a', 'b', 'c']);
    expect(loaded.chunks).toEqual(chunksOf('c', 2));
    await expect(lib.exportLibrary()).rejects.toMatchObject({
      code: 'cache_corrupted',
      message: expect.stringContaining('"Doc a"'),
    });
    raw.close();
    lib.close();
  });

  it('replacing a document removes the chunks and vectors of the earlier version', async () => {
    const lib = await open();
    const v1 = documentRecord('a', 3, 1000);
    await lib.putDocument({ document: v1, chunks: chunksOf('a', 3), vectors: vectors(v1, 3) });
    expect((await lib.getDocument('a'))?.vectorState).toBe('complete');
    const v2 = documentRecord('a', 1, 2000);
    expect(await lib.putDocument({ document: v2, chunks: chunksOf('a', 1) })).toEqual({ replaced: true });
    const loaded = await lib.loadAll();
    expect(loaded.chunks.map((c) => c.id)).toEqual(['a#0']);
    expect(loaded.vectors).toEqual([]);
    expect(loaded.documents[0]).toMatchObject({ addedAt: 2000, vectorState: 'pending' });
    lib.close();
  });

  it('fills vectors progressively and ignores vectors of a version that is gone', async () => {
    const lib = await open();
    const doc = documentRecord('a', 4);
    await lib.putDocument({ document: doc, chunks: chunksOf('a', 4) });
    expect(await lib.putVectors(vectors(doc, 2))).toBe('partial');
    expect((await lib.getDocument('a'))?.vectorState).toBe('partial');
    expect(await lib.putVectors(vectors(doc, 4))).toBe('complete');
    const [stored] = await lib.loadVectors();
    expect(stored!.chunkIds).toHaveLength(4);
    expect(Array.from(stored!.data.subarray(0, 3))).toEqual([0, 0.1, 0.2].map((x) => Math.fround(x)));
    // The document was replaced meanwhile: old vectors are dropped, not stored under the new version.
    await lib.putDocument({ document: documentRecord('a', 4, 5000), chunks: chunksOf('a', 4) });
    expect(await lib.putVectors(vectors(doc, 4))).toBeNull();
    expect(await lib.loadVectors()).toEqual([]);
    await lib.deleteDocument('a');
    expect(await lib.putVectors(vectors(doc, 1))).toBeNull();
    lib.close();
  });

  it('deletes a document with its chunks, vectors, feedback and per-document priors only', async () => {
    const lib = await open();
    const a = documentRecord('a', 2);
    const b = documentRecord('b', 2);
    await lib.putDocument({ document: a, chunks: chunksOf('a', 2), vectors: vectors(a, 2) });
    await lib.putDocument({ document: b, chunks: chunksOf('b', 2), vectors: vectors(b, 1) });
    await lib.addFeedback({ docId: 'a', sourceType: 'internal_policy', verdict: 'misleading', at: 1 });
    await lib.addFeedback({ docId: 'b', sourceType: 'internal_policy', verdict: 'helpful', at: 2 });
    let state = applyFeedback(createPriorState(), {
      docId: 'a',
      sourceType: 'internal_policy',
      verdict: 'misleading',
      at: 1,
    });
    state = applyFeedback(state, { docId: 'b', sourceType: 'internal_policy', verdict: 'helpful', at: 2 });
    await lib.priors.save(state);

    expect(await lib.deleteDocument('a')).toBe(true);
    expect(await lib.deleteDocument('a')).toBe(false);
    const loaded = await lib.loadAll();
    expect(loaded.documents.map((d) => d.id)).toEqual(['b']);
    expect(loaded.chunks.every((c) => c.docId === 'b')).toBe(true);
    expect(loaded.vectors.map((v) => v.docId)).toEqual(['b']);
    expect((await lib.feedback()).map((f) => f.docId)).toEqual(['b']);
    const priors = await lib.priors.load();
    expect(Object.keys(priors.docs)).toEqual(['b']);
    lib.close();
  });

  it('edits metadata, validates the patch, and names a missing document', async () => {
    const lib = await open();
    await lib.putDocument({ document: documentRecord('a', 1), chunks: chunksOf('a', 1) });
    const next = await lib.updateMeta('a', {
      status: 'superseded',
      effectiveDate: '2024-01-01',
      sourceType: 'government',
    });
    expect(next).toMatchObject({ status: 'superseded', effectiveDate: '2024-01-01', sourceType: 'government' });
    expect(await lib.getDocument('a')).toEqual(next);
    await expect(lib.updateMeta('a', { chunkCount: 9 })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(lib.updateMeta('zz', { status: 'draft' })).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'There is no document "zz" in the library.',
    });
    lib.close();
  });

  it('a full disk during an ingest leaves nothing of the document and a clear storage_full error', async () => {
    const lib = await open();
    const a = documentRecord('a', 2);
    await lib.putDocument({ document: a, chunks: chunksOf('a', 2) });
    const [entry] = await lib.enqueue([
      {
        docId: 'big',
        title: 'Big report',
        fileName: 'big.md',
        source: { kind: 'text', text: 'x', format: 'markdown' },
        queuedAt: 1,
      },
    ]);
    // The document record fits; its chunks (one record) do not.
    fillDiskAfter(1);
    await expect(
      lib.putDocument({ document: documentRecord('big', 10), chunks: chunksOf('big', 10), dequeue: entry!.seq }),
    ).rejects.toMatchObject({
      code: 'storage_full',
      message: 'Storage is full: remove documents or free space. Nothing was saved for "Doc big".',
    });
    restores.pop()!();
    const loaded = await lib.loadAll();
    expect(loaded.documents.map((d) => d.id)).toEqual(['a']);
    expect(loaded.chunks.map((c) => c.id)).toEqual(['a#0', 'a#1']);
    expect(loaded.settings.libraryVersion).toBe(1);
    // The queue entry stays: the file can be retried once there is space.
    expect((await lib.queued()).map((e) => e.docId)).toEqual(['big']);
    lib.close();
  });

  it('a full disk while replacing a document keeps the earlier version whole', async () => {
    const lib = await open();
    await lib.putDocument({ document: documentRecord('a', 3, 1000), chunks: chunksOf('a', 3) });
    // The new record fits, its chunks do not.
    fillDiskAfter(1);
    await expect(
      lib.putDocument({ document: documentRecord('a', 5, 2000), chunks: chunksOf('a', 5) }),
    ).rejects.toMatchObject({
      code: 'storage_full',
    });
    restores.pop()!();
    const loaded = await lib.loadAll();
    expect(loaded.documents).toEqual([documentRecord('a', 3, 1000)]);
    expect(loaded.chunks).toHaveLength(3);
    lib.close();
  });

  it('queues a batch with settings in one transaction; a full disk queues none of it', async () => {
    const lib = await open();
    fillDiskAfter(1);
    await expect(lib.enqueue([queueEntry('a'), queueEntry('b')], { demoInstalled: true })).rejects.toMatchObject({
      code: 'storage_full',
      message: 'Storage is full: remove documents or free space. Nothing was saved for "A" and 1 more file.',
    });
    restores.pop()!();
    expect(await lib.queued()).toEqual([]);
    expect(await lib.getSetting('demoInstalled')).toBeUndefined();

    const queued = await lib.enqueue([queueEntry('a'), queueEntry('b')], { demoInstalled: true });
    expect(queued.map((e) => e.seq)).toEqual([1, 2]);
    expect(await lib.getSetting('demoInstalled')).toBe(true);
    // Storing the document removes its queue entry in the same transaction.
    await lib.putDocument({ document: documentRecord('a', 1), chunks: chunksOf('a', 1), dequeue: queued[0]!.seq });
    expect((await lib.queued()).map((e) => e.docId)).toEqual(['b']);
    await lib.dequeue(queued[1]!.seq!);
    expect((await lib.loadText()).queued).toBe(0);
    lib.close();
  });

  it('queues a file as its bytes and counts the starts of an entry across reopening', async () => {
    const name = `evident-lib-test-${n++}`;
    const lib = await Library.open({ name });
    const bytes = Uint8Array.from([0x25, 0x50, 0x44, 0x46, 0, 255, 7]).buffer;
    const [entry] = await lib.enqueue([
      {
        docId: 'file:a.pdf',
        title: 'a',
        fileName: 'a.pdf',
        source: { kind: 'bytes', bytes, mime: 'application/pdf' },
        queuedAt: 1,
      },
    ]);
    const seq = entry!.seq!;
    expect(await lib.beginQueued(seq)).toBe(1);
    lib.close();
    const again = await Library.open({ name });
    const [stored] = await again.queued();
    expect(stored!.source.kind === 'bytes' && Array.from(new Uint8Array(stored!.source.bytes))).toEqual([
      0x25, 0x50, 0x44, 0x46, 0, 255, 7,
    ]);
    expect(await again.beginQueued(seq)).toBe(2);
    // Another entry starts its own count.
    expect(await again.beginQueued(seq + 1)).toBe(1);
    expect(await again.beginQueued(seq)).toBe(1);
    again.close();
  });

  it('persists the prior state as a PriorStore and rejects an invalid one', async () => {
    const lib = await open();
    expect(await lib.priors.load()).toEqual(createPriorState());
    const state = applyFeedback(createPriorState({ blog: 0.3 }), { sourceType: 'blog', verdict: 'helpful', at: 10 });
    await lib.priors.save(state);
    expect(await lib.priors.load()).toEqual(state);
    await expect(lib.priors.save({ ...state, version: 2 } as never)).rejects.toMatchObject({ code: 'cache_corrupted' });
    expect(await lib.priors.load()).toEqual(state);
    lib.close();
  });

  it('stores a serialized lexical index that deserializes to the same ranking', async () => {
    const lib = await open();
    expect(await lib.loadLexical()).toBeUndefined();
    const index = Bm25Index.build(chunksOf('a', 3).map((c) => ({ id: c.id, title: 'A', headings: '', text: c.text })));
    await lib.saveLexical({ fingerprint: 'f1', index: index.serialize() });
    const stored = await lib.loadLexical();
    expect(stored?.fingerprint).toBe('f1');
    expect(Bm25Index.deserialize(stored!.index).search('chunk 1', { k: 3 })).toEqual(index.search('chunk 1', { k: 3 }));
    lib.close();
  });

  it('exports and imports the library; merge replaces same ids, replace empties first', async () => {
    const src = await open();
    const a = documentRecord('a', 2);
    const b = documentRecord('b', 3, 1000, { effectiveDate: '2024-05-01' });
    await src.putDocument({ document: a, chunks: chunksOf('a', 2), vectors: vectors(a, 2) });
    await src.putDocument({ document: b, chunks: chunksOf('b', 3), vectors: vectors(b, 1) });
    await src.addFeedback({ docId: 'a', chunkId: 'a#1', sourceType: 'internal_policy', verdict: 'helpful', at: 3 });
    await src.priors.save(createPriorState({ blog: 0.2 }));
    const bytes = await src.exportLibrary();
    expect(decodeLibrary(bytes).documents).toHaveLength(2);

    const dst = await open();
    const old = documentRecord('a', 5, 500);
    await dst.putDocument({ document: old, chunks: chunksOf('a', 5), vectors: vectors(old, 5) });
    await dst.putDocument({ document: documentRecord('c', 1), chunks: chunksOf('c', 1) });
    expect(await dst.importLibrary(bytes)).toEqual({ documents: 2, chunks: 5, vectors: 3, replaced: 1 });
    const merged = await dst.loadAll();
    expect(merged.documents.map((d) => [d.id, d.chunkCount, d.vectorState])).toEqual([
      ['a', 2, 'complete'],
      ['b', 3, 'partial'],
      ['c', 1, 'pending'],
    ]);
    expect(merged.chunks.filter((c) => c.docId === 'a')).toHaveLength(2);
    expect(Array.from(merged.vectors.find((v) => v.docId === 'b')!.data)).toEqual(Array.from(vectors(b, 1).data));
    expect(await dst.priors.load()).toEqual(createPriorState({ blog: 0.2 }));
    expect(await dst.feedback('a')).toMatchObject([{ chunkId: 'a#1', verdict: 'helpful' }]);

    expect(await dst.importLibrary(bytes, { mode: 'replace' })).toMatchObject({ documents: 2, replaced: 0 });
    expect((await dst.loadAll()).documents.map((d) => d.id)).toEqual(['a', 'b']);
    src.close();
    dst.close();
  });

  it('an invalid import writes nothing; a full disk during import writes nothing', async () => {
    const src = await open();
    const a = documentRecord('a', 2);
    await src.putDocument({ document: a, chunks: chunksOf('a', 2), vectors: vectors(a, 2) });
    const bytes = await src.exportLibrary();
    const dst = await open();
    await dst.putDocument({ document: documentRecord('keep', 1), chunks: chunksOf('keep', 1) });
    const before = await dst.loadAll();

    const broken = bytes.slice(0, bytes.length - 4);
    await expect(dst.importLibrary(broken)).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(dst.importLibrary(new TextEncoder().encode('{"documents":[]}'))).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(dst.importLibrary(bytes, { mode: 'wipe' as never })).rejects.toMatchObject({ code: 'invalid_option' });
    fillDiskAfter(2);
    await expect(dst.importLibrary(bytes, { mode: 'replace' })).rejects.toMatchObject({
      code: 'storage_full',
      message: expect.stringContaining('Nothing was saved for "the imported library"'),
    });
    restores.pop()!();
    const after = await dst.loadAll();
    expect(after.documents).toEqual(before.documents);
    expect(after.chunks).toEqual(before.chunks);
    expect(after.settings).toEqual(before.settings);
    src.close();
    dst.close();
  });

  it('a protected export imports with its passphrase; wrong, missing or tampered, nothing is written', async () => {
    const src = await open();
    const a = documentRecord('a', 2);
    await src.putDocument({ document: a, chunks: chunksOf('a', 2), vectors: vectors(a, 2) });
    const sealed = await src.exportLibrary({ passphrase: 'a long passphrase' });
    expect(isEncryptedLibrary(sealed)).toBe(true);
    expect(Buffer.from(sealed).includes(chunksOf('a', 2)[0]!.text)).toBe(false);
    const dst = await open();
    await dst.putDocument({ document: documentRecord('keep', 1), chunks: chunksOf('keep', 1) });
    const before = await dst.loadAll();

    await expect(dst.importLibrary(sealed, { mode: 'replace' })).rejects.toMatchObject({
      code: 'passphrase_required',
    });
    await expect(dst.importLibrary(sealed, { mode: 'replace', passphrase: 'a long passphrasf' })).rejects.toMatchObject(
      { code: 'wrong_passphrase' },
    );
    const tampered = sealed.slice();
    tampered[tampered.length - 20]! ^= 0x80;
    await expect(
      dst.importLibrary(tampered, { mode: 'replace', passphrase: 'a long passphrase' }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('changed or damaged after it was saved'),
    });
    await expect(
      dst.importLibrary(sealed.subarray(0, sealed.length - 1), { mode: 'replace', passphrase: 'a long passphrase' }),
    ).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringContaining('incomplete') });
    const after = await dst.loadAll();
    expect(after.documents).toEqual(before.documents);
    expect(after.chunks).toEqual(before.chunks);

    expect(await dst.importLibrary(sealed, { mode: 'replace', passphrase: 'a long passphrase' })).toMatchObject({
      documents: 1,
      chunks: 2,
      vectors: 2,
    });
    const restored = await dst.loadAll();
    expect(restored.documents.map((d) => d.id)).toEqual(['a']);
    expect(restored.chunks).toEqual((await src.loadAll()).chunks);
    src.close();
    dst.close();
  });

  it('a transaction aborted mid-write (not a full disk) says the write was cancelled; nothing of the document is stored', async () => {
    const lib = await open();
    await lib.putDocument({ document: documentRecord('keep', 1), chunks: chunksOf('keep', 1) });
    const before = await lib.loadAll();
    const proto = globalThis.IDBObjectStore.prototype;
    const put = proto.put;
    let calls = 0;
    proto.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      const request = put.apply(this, args);
      // The first put of the document's transaction aborts it (as a browser may); the next put meets an ended transaction.
      if (++calls === 1) this.transaction.abort();
      return request;
    };
    restores.push(() => {
      proto.put = put;
    });
    const a = documentRecord('a', 3);
    await expect(
      lib.putDocument({ document: a, chunks: chunksOf('a', 3), vectors: vectors(a, 3) }),
    ).rejects.toMatchObject({
      code: 'internal',
      message: expect.stringMatching(/^The browser cancelled the write, so nothing was saved for "Doc a"\. Try again/),
    });
    restores.pop()!();
    const after = await lib.loadAll();
    expect(after.documents).toEqual(before.documents);
    expect(after.chunks).toEqual(before.chunks);
    expect(after.vectors).toEqual(before.vectors);
    lib.close();
  });

  it('finds a file already in the library by its hash', async () => {
    const lib = await open();
    await lib.putDocument({ document: documentRecord('a', 1), chunks: chunksOf('a', 1) });
    expect((await lib.findByHash(documentRecord('a', 1).bytesHash)).map((d) => d.id)).toEqual(['a']);
    expect(await lib.findByHash('00'.repeat(32))).toEqual([]);
    lib.close();
  });

  it('reports storage usage as unknown where the runtime has no StorageManager', async () => {
    expect(await storageUsage({ requestPersist: true })).toEqual({ usage: null, quota: null, persisted: null });
  });
});
