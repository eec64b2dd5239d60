/**
 * The engine with its IndexedDB store (fake-indexeddb: the real `idb` code on an in-memory
 * IndexedDB). A "worker kill" is simulated by abandoning an engine whose embedder never returns
 * and opening a new engine on the same database: what the first left in storage is all there is.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { EvidentError } from '../core/errors';
import type { EmbedOptions, Embedder } from '../models/embedder';
import { Library } from '../storage/library';
import type { AddDocumentInput, BatchProgress, SearchResponse } from './api';
import { Engine, type LexicalSource } from './engine';
import { resumeQueued } from './ingest-files';

/** Hashed bag of words, 32-d, L2-normalised. After `hangAfter` document batches (calls with more than one text), further batches never resolve; queries still work. */
class TestEmbedder implements Embedder {
  readonly id = 'test-32';
  readonly dim = 32;
  readonly maxTokens = 512;
  calls = 0;
  private batches = 0;
  constructor(private readonly hangAfter = Infinity) {}
  countTokens(text: string): number {
    return text.split(/\s+/).filter(Boolean).length;
  }
  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array> {
    this.calls++;
    if (texts.length > 1 && this.batches++ >= this.hangAfter) return new Promise<Float32Array>(() => {});
    await new Promise((r) => setTimeout(r, 0));
    if (options.signal?.aborted) throw new EvidentError('aborted', 'Cancelled.');
    const out = new Float32Array(texts.length * this.dim);
    texts.forEach((t, i) => {
      for (const w of t.toLowerCase().match(/[a-z]+/g) ?? []) {
        let h = 2166136261;
        for (let j = 0; j < w.length; j++) h = Math.imul(h ^ w.charCodeAt(j), 16777619) >>> 0;
        out[i * this.dim + (h % this.dim)]! += 1;
      }
      let norm = 0;
      for (let j = 0; j < this.dim; j++) norm += out[i * this.dim + j]! ** 2;
      for (let j = 0; j < this.dim; j++) out[i * this.dim + j]! /= Math.sqrt(norm) || 1;
    });
    options.onProgress?.(texts.length, texts.length);
    return out;
  }
  dispose(): void {}
}

const doc = (docId: string, paragraphs: number, topic = 'remote work'): AddDocumentInput => ({
  docId,
  title: `Document ${docId}`,
  format: 'text',
  fileName: `${docId}.txt`,
  sourceType: 'internal_policy',
  // ~90 words per paragraph: one chunk each (the test embedder counts words as tokens; chunks hold ≤ 120).
  text: Array.from(
    { length: paragraphs },
    (_, i) =>
      `Paragraph ${i} of ${docId} is about ${topic} and days per week. ${'More words on the same subject follow. '.repeat(12)}`,
  ).join('\n\n'),
});

let n = 0;
const dbName = (): string => `evident-engine-test-${n++}`;
const libraries: Library[] = [];
afterEach(() => {
  for (const l of libraries.splice(0)) l.close();
});

/** A fresh engine on database `name`, loaded as the worker loads it at start. */
async function startEngine(
  name: string,
  embedder: Embedder = new TestEmbedder(),
): Promise<{ engine: Engine; library: Library; lexical: LexicalSource }> {
  const library = await Library.open({ name });
  libraries.push(library);
  const engine = new Engine({ embedBatch: 4 });
  const text = await library.loadText();
  engine.attachStore(library);
  const loaded = engine.load(text.documents, text.chunks, await library.loadLexical());
  expect(loaded.skipped).toEqual([]);
  engine.loadVectors(await library.loadVectors());
  engine.setEmbedder(embedder);
  return { engine, library, lexical: loaded.lexical };
}

/** The document of the best BM25 hit (fusion with the test embedder may order otherwise). */
const bm25Top = (res: SearchResponse): string | undefined => res.hits.find((h) => h.ranks.bm25 === 1)?.docId;

/** Resolves once `check` holds (polling the event loop; the hung embedder never settles). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((r) => setTimeout(r, 1));
  expect(check()).toBe(true);
}

describe('Engine with IndexedDB', () => {
  it('a reloaded engine has the same library and the same results, without re-embedding', async () => {
    const name = dbName();
    const first = await startEngine(name);
    await first.engine.addDocument(doc('a', 6));
    await first.engine.addDocument(doc('b', 3, 'travel expenses'));
    const before = await first.engine.search('travel expenses', { k: 5 });

    const embedder = new TestEmbedder();
    const second = await startEngine(name, embedder);
    expect(second.engine.documents()).toEqual(first.engine.documents());
    expect(second.engine.vectorCount).toBe(first.engine.chunkCount);
    const after = await second.engine.search('travel expenses', { k: 5 });
    expect(after.hits.map((h) => [h.chunkId, h.scores])).toEqual(before.hits.map((h) => [h.chunkId, h.scores]));
    expect(after.dense).toBe(true);
    expect(embedder.calls).toBe(1); // the query only
    expect(await second.engine.fillVectors()).toMatchObject({ documents: 0, chunks: 0 });
  });

  it('starts from the stored BM25 index while it matches the documents, and rebuilds when it does not', async () => {
    const name = dbName();
    const first = await startEngine(name);
    expect(first.lexical).toBe('empty');
    await first.engine.addDocuments([doc('a', 3), doc('b', 2, 'travel expenses')]);
    await first.engine.flushLexical();
    const query = 'travel expenses days';
    const expected = (await first.engine.search(query, { k: 10 })).hits.map((h) => [h.chunkId, h.scores.bm25]);

    const second = await startEngine(name);
    expect(second.lexical).toBe('stored');
    expect((await second.engine.search(query, { k: 10 })).hits.map((h) => [h.chunkId, h.scores.bm25])).toEqual(
      expected,
    );
    // A new title changes the title field: the index stored before the edit no longer matches.
    const beforeEdit = (await second.library.loadLexical())!;
    await second.engine.updateMeta('b', { title: 'Old per diem rules' });
    await second.engine.flushLexical();
    const third = await startEngine(name);
    expect(third.lexical).toBe('stored');
    expect(bm25Top(await third.engine.search('per diem', { k: 10 }))).toBe('b');
    await third.library.saveLexical(beforeEdit);
    const fourth = await startEngine(name);
    expect(fourth.lexical).toBe('rebuilt');
    expect(bm25Top(await fourth.engine.search('per diem', { k: 10 }))).toBe('b');
    await fourth.engine.flushLexical();
    expect((await startEngine(name)).lexical).toBe('stored');
  });

  it('is searchable lexically before any model is loaded', async () => {
    const name = dbName();
    await (await startEngine(name)).engine.addDocument(doc('a', 3));
    const library = await Library.open({ name });
    libraries.push(library);
    const engine = new Engine();
    const text = await library.loadText();
    engine.load(text.documents, text.chunks);
    engine.loadVectors(await library.loadVectors());
    const res = await engine.search('days per week');
    expect(res.dense).toBe(false);
    expect(res.hits.map((h) => h.docId)).toContain('a');
    expect(engine.vectorCount).toBe(engine.chunkCount);
  });

  it('a worker killed while embedding leaves the whole document; vectors resume after the stored rows', async () => {
    const name = dbName();
    // Batches of 4 chunks: 5 batches are embedded (16 rows persisted at the doubling point), then the model hangs.
    const first = await startEngine(name, new TestEmbedder(5));
    const pending = first.engine.addDocument(doc('big', 40));
    void pending.catch(() => {});
    await until(() => (first.engine.document('big')?.vectors ?? 0) >= 20);
    // Meanwhile the document is searchable: by its words everywhere, densely only where embedded.
    const total = first.engine.document('big')!.chunks;
    expect(total).toBeGreaterThan(24);
    const during = await first.engine.search('paragraph subject', { k: 100 });
    const bigHits = during.hits.filter((h) => h.docId === 'big');
    expect(bigHits.filter((h) => h.scores.bm25 !== undefined)).toHaveLength(total);
    const embedded = new Set(Array.from({ length: 20 }, (_, i) => `big#${i}`));
    expect(bigHits.filter((h) => h.scores.dense !== undefined).every((h) => embedded.has(h.chunkId))).toBe(true);

    const embedder = new TestEmbedder();
    const second = await startEngine(name, embedder);
    expect(second.engine.document('big')).toMatchObject({ chunks: total, vectorState: 'partial', vectors: 16 });
    expect((await second.library.getDocument('big'))?.vectorState).toBe('partial');
    expect(await second.engine.fillVectors()).toMatchObject({ documents: 1, chunks: total - 16 });
    expect(embedder.calls).toBe(Math.ceil((total - 16) / 4)); // resumed after the stored rows: nothing embedded twice
    const third = await startEngine(name);
    expect(third.engine.document('big')).toMatchObject({ vectorState: 'complete', vectors: total });
  });

  it('a batch cut short resumes from the ingest queue; every document is whole', async () => {
    const name = dbName();
    const first = await startEngine(name, new TestEmbedder(1));
    const progress: BatchProgress[] = [];
    void first.engine
      .addDocuments([doc('a', 4), doc('b', 4), doc('c', 4)], { onProgress: (p) => progress.push(p) })
      .catch(() => {});
    // a is embedded (one batch of ≤ 4 chunks); b is stored and its first batch hangs; c is still queued.
    await until(() => first.engine.document('b') !== undefined);
    expect(progress.map((p) => `${p.index}/${p.count}:${p.phase}`)).toContain('1/3:index');
    expect((await first.library.queued()).map((e) => e.docId)).toEqual(['c']);

    const second = await startEngine(name);
    expect(second.engine.documents().map((d) => [d.docId, d.vectorState])).toEqual([
      ['a', 'complete'],
      ['b', 'pending'],
    ]);
    const resumed = await resumeQueued(second.engine, second.library);
    expect(resumed.added.map((r) => r.docId)).toEqual(['c']);
    expect(await second.library.queued()).toEqual([]);
    await second.engine.fillVectors();
    expect(second.engine.documents().map((d) => [d.docId, d.chunks, d.vectorState])).toEqual([
      ['a', 4, 'complete'],
      ['b', 4, 'complete'],
      ['c', 4, 'complete'],
    ]);
  });

  it('a file without text is reported and dropped; the batch goes on', async () => {
    const { engine, library } = await startEngine(dbName());
    const result = await engine.addDocuments([doc('a', 2), { ...doc('empty', 0), text: '  ' }, doc('c', 2)]);
    expect(result.added.map((r) => r.docId)).toEqual(['a', 'c']);
    expect(result.failed).toEqual([
      {
        docId: 'empty',
        title: 'Document empty',
        error: { code: 'empty_file', message: '"Document empty" has no text to index.' },
      },
    ]);
    expect(await library.queued()).toEqual([]);
  });

  it('a full disk leaves the library in memory and in storage as it was', async () => {
    const name = dbName();
    const { engine } = await startEngine(name);
    await engine.addDocument(doc('a', 3));
    const before = engine.documents();
    const proto = globalThis.IDBObjectStore.prototype;
    const put = proto.put;
    let calls = 0;
    // The document's record fits; its chunks (one record, schema v4) do not.
    proto.put = function (this: IDBObjectStore, ...args: Parameters<typeof put>) {
      if (++calls > 1) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, args);
    };
    try {
      await expect(engine.addDocument(doc('big', 30))).rejects.toMatchObject({
        code: 'storage_full',
        message: 'Storage is full: remove documents or free space. Nothing was saved for "Document big".',
      });
    } finally {
      proto.put = put;
    }
    expect(engine.documents()).toEqual(before);
    expect((await engine.search('paragraph', { k: 100 })).hits.every((h) => h.docId === 'a')).toBe(true);
    const reloaded = await startEngine(name);
    expect(reloaded.engine.documents()).toEqual(before);
  });

  it('deletes and edits documents in storage as well as in memory', async () => {
    const name = dbName();
    const { engine } = await startEngine(name);
    await engine.addDocument(doc('a', 2));
    await engine.addDocument(doc('b', 2));
    expect(await engine.deleteDocument('a')).toBe(true);
    expect(await engine.deleteDocument('a')).toBe(false);
    const edited = await engine.updateMeta('b', {
      status: 'superseded',
      title: 'Old travel rules',
      effectiveDate: '2020-02-02',
    });
    expect(edited).toMatchObject({ status: 'superseded', title: 'Old travel rules', effectiveDate: '2020-02-02' });
    expect((await engine.search('old rules')).hits[0]).toMatchObject({
      docId: 'b',
      title: 'Old travel rules',
      status: 'superseded',
    });
    await expect(engine.updateMeta('b', { status: 'gone' })).rejects.toMatchObject({ code: 'invalid_input' });

    const reloaded = await startEngine(name);
    expect(reloaded.engine.documents()).toEqual([
      expect.objectContaining({ docId: 'b', title: 'Old travel rules', status: 'superseded' }),
    ]);
    expect(reloaded.engine.chunkCount).toBe(2);
  });

  it('a removal leaves search at once and storage after the write in flight; refused by storage, the document comes back', async () => {
    const name = dbName();
    const { engine, library } = await startEngine(name);
    await engine.addDocument(doc('a', 2));
    await engine.addDocument(doc('b', 2, 'travel desk'));
    // A write lock held by something else (a file being stored): memory changes at once, storage after it.
    let unlock: () => void = () => {};
    const busy = new Promise<void>((resolve) => (unlock = resolve));
    const write = <T>(fn: () => Promise<T>): Promise<T> => busy.then(fn);
    const removing = engine.deleteDocument('a', { write });
    expect(engine.documents().map((d) => d.docId)).toEqual(['b']);
    expect((await engine.search('remote work')).hits.every((h) => h.docId !== 'a')).toBe(true);
    expect((await library.loadText()).documents.map((d) => d.id).sort()).toEqual(['a', 'b']);
    unlock();
    expect(await removing).toBe(true);
    expect((await library.loadText()).documents.map((d) => d.id)).toEqual(['b']);

    const refusing = { ...library, deleteDocument: () => Promise.reject(new EvidentError('internal', 'no')) };
    engine.attachStore(refusing as unknown as Library);
    await expect(engine.deleteDocument('b')).rejects.toMatchObject({ code: 'internal' });
    expect(engine.documents()).toEqual([expect.objectContaining({ docId: 'b', vectors: 0 })]);
    expect((await engine.search('travel desk')).hits[0]?.docId).toBe('b');
    engine.attachStore(library);
    await engine.fillVectors();
    expect(engine.documents()[0]).toMatchObject({ docId: 'b', vectorState: 'complete' });
  });
});
