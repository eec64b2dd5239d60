/**
 * `EmbedderSwitch` over a real `Engine` with stored vectors: a profile's embedder takes the dense
 * side, search is by keywords only until every chunk has a vector of it (re-embedded in the
 * background, with progress), vectors of each model are reused by id — from IndexedDB
 * (fake-indexeddb: the real `idb` code), which keeps the active and the previous model's — and
 * switching back never lets a stale fill put the old model back.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { VectorRecord } from '../core/library-format';
import { Library } from '../storage/library';
import type { AddDocumentInput, SearchResponse } from './api';
import { EmbedderSwitch } from './embedder-switch';
import { Engine } from './engine';
import { WordHashEmbedder } from './testing';

const docs: AddDocumentInput[] = [
  {
    docId: 'remote',
    title: 'Remote Work Policy',
    format: 'markdown',
    text: '# Remote Work\n\nEmployees may work remotely for up to three days per week.\n\nA home office allowance of EUR 600 covers a desk.\n',
  },
  {
    docId: 'travel',
    title: 'Travel Policy',
    format: 'markdown',
    text: '# Travel\n\nBook flights through the travel desk.\n\nMeals are covered up to EUR 60 per day.\n',
  },
];

/** An engine whose writes of vectors land in `stored` (what IndexedDB keeps per document). */
async function setup() {
  const stored = new Map<string, VectorRecord>();
  const engine = new Engine();
  engine.attachStore({
    putDocument: async () => {},
    putVectors: async (v: VectorRecord) => {
      stored.set(v.docId, v);
      return null;
    },
    deleteDocument: async () => true,
    updateMeta: async () => {
      throw new Error('unused');
    },
    enqueue: async () => [],
    queued: async () => [],
    dequeue: async () => {},
    clearQueue: async () => {},
    saveLexical: async () => {},
  } as unknown as Parameters<Engine['attachStore']>[0]);
  const base = new WordHashEmbedder({ id: 'default-model' });
  const embedders = new EmbedderSwitch(engine, async () => [...stored.values()]);
  await embedders.setDefault(base);
  for (const d of docs) await engine.addDocument(d);
  return { engine, embedders, base, stored };
}

let dbCount = 0;
const libraries: Library[] = [];
afterEach(() => {
  for (const l of libraries.splice(0)) l.close();
});

/** An engine on a stored library (fake-indexeddb), wired to the switch as `worker.ts` wires them. */
async function setupStored(base: WordHashEmbedder) {
  const library = await Library.open({ name: `evident-switch-test-${dbCount++}` });
  libraries.push(library);
  const engine = new Engine();
  engine.attachStore(library);
  const embedders = new EmbedderSwitch(engine, (id, options) => library.useVectorModel(id, options));
  await embedders.setDefault(base);
  await engine.addDocuments(docs);
  return { engine, embedders, library };
}

/** Each hit's chunk and dense score (what the dense side contributed). */
const denseScores = (res: SearchResponse): [string, number | undefined][] =>
  res.hits.map((h) => [h.chunkId, h.scores.dense]);

describe('EmbedderSwitch', () => {
  it('re-embeds the library for a profile embedder in the background; keywords only until done', async () => {
    const { engine, embedders, stored } = await setup();
    expect((await engine.search('remote days')).dense).toBe(true);
    const chunks = engine.chunkCount;

    const profile = new WordHashEmbedder({ id: 'profile-model', yieldEvery: 1 });
    await embedders.use(profile);
    expect(engine.embedder).toBe(profile);
    const running = embedders.report();
    expect(running).toMatchObject({ activeEmbedder: 'profile-model', denseOnHold: true });
    expect(running.reembed).toMatchObject({ state: 'running', embedderId: 'profile-model', total: chunks });
    // Mid-way: no dense list over part of the library.
    const during = await engine.search('remote days');
    expect(during.dense).toBe(false);
    expect(during.hits.every((h) => h.scores.dense === undefined)).toBe(true);

    const done = await embedders.settled();
    expect(done).toMatchObject({ state: 'done', embedderId: 'profile-model', done: chunks, total: chunks });
    expect(embedders.report().denseOnHold).toBe(false);
    const after = await engine.search('remote days');
    expect(after.dense).toBe(true);
    expect(after.hits.some((h) => h.scores.dense !== undefined)).toBe(true);
    // Persisted under the profile model's id.
    expect([...stored.values()].every((v) => v.embedderId === 'profile-model')).toBe(true);
  });

  it('A → B → A with a stored library: the switch back to A embeds nothing and searches with A’s stored vectors', async () => {
    // Two models with different dimensions, so vectors of one can never pass for the other's.
    const a = new WordHashEmbedder({ id: 'model-a', dim: 64 });
    const b = new WordHashEmbedder({ id: 'model-b', dim: 48 });
    const { engine, embedders, library } = await setupStored(a);
    const chunks = engine.chunkCount;
    const withA = await engine.search('remote days per week');
    expect(withA.dense).toBe(true);

    await embedders.use(b);
    expect(await embedders.settled()).toMatchObject({ state: 'done', embedderId: 'model-b', total: chunks });
    expect(b.calls).toBeGreaterThan(0);
    expect(engine.vectorOf('remote#0')).toHaveLength(48);
    expect(await library.vectorModels()).toEqual(['model-b', 'model-a']);

    // Back to A (the profile released): its vectors are still stored, so nothing is embedded.
    const aCalls = a.calls;
    await embedders.use(null);
    expect(engine.embedder).toBe(a);
    expect(embedders.report()).toMatchObject({
      activeEmbedder: 'model-a',
      denseOnHold: false,
      reembed: { state: 'done', embedderId: 'model-a', total: 0 },
    });
    expect(await embedders.settled()).toMatchObject({ state: 'done', total: 0 });
    expect(a.calls).toBe(aCalls);
    expect(engine.vectorCount).toBe(chunks);
    expect(engine.vectorOf('remote#0')).toHaveLength(64);
    const backToA = await engine.search('remote days per week');
    expect(a.calls).toBe(aCalls + 1); // the query only
    expect(backToA.dense).toBe(true);
    expect(denseScores(backToA)).toEqual(denseScores(withA));
    expect(await library.vectorModels()).toEqual(['model-a', 'model-b']);

    // And to B again: B's vectors were kept as the previous model's.
    const bCalls = b.calls;
    await embedders.use(b);
    expect(embedders.report()).toMatchObject({ denseOnHold: false, reembed: { state: 'done', total: 0 } });
    expect(b.calls).toBe(bCalls);
    expect((await engine.search('flights')).dense).toBe(true);
  });

  it('re-embeds only the documents that lack vectors of the model switched back to', async () => {
    const a = new WordHashEmbedder({ id: 'model-a', dim: 64 });
    const b = new WordHashEmbedder({ id: 'model-b', dim: 48 });
    const { engine, embedders } = await setupStored(a);
    await embedders.use(b);
    await embedders.settled();
    // While B is active, one document changes (a new version: every model's vectors of it go).
    const changed = { ...docs[1]!, text: '# Travel\n\nBook trains through the travel desk.\n' };
    await engine.addDocument(changed);
    const changedChunks = engine.document('travel')!.chunks;
    const aCalls = a.calls;
    await embedders.use(null);
    expect(embedders.status()).toMatchObject({ state: 'running', embedderId: 'model-a', total: changedChunks });
    expect(await embedders.settled()).toMatchObject({ state: 'done', done: changedChunks, total: changedChunks });
    // One batch: the changed document's chunks, nothing of the unchanged one.
    expect(a.calls).toBe(aCalls + 1);
    expect(engine.vectorCount).toBe(engine.chunkCount);
    expect((await engine.search('trains')).hits[0]?.docId).toBe('travel');
  });

  it('keeps the vectors of two models only: a third deletes the oldest one’s', async () => {
    const a = new WordHashEmbedder({ id: 'model-a', dim: 64 });
    const { engine, embedders, library } = await setupStored(a);
    const b = new WordHashEmbedder({ id: 'model-b', dim: 48 });
    const c = new WordHashEmbedder({ id: 'model-c', dim: 32 });
    await embedders.use(b);
    await embedders.settled();
    await embedders.use(c);
    await embedders.settled();
    expect(await library.vectorModels()).toEqual(['model-c', 'model-b']);
    expect(await library.loadVectors('model-a')).toEqual([]);
    expect((await library.loadVectors('model-b')).map((v) => v.docId).sort()).toEqual(['remote', 'travel']);
    // A's vectors are gone: switching back to it embeds the library again.
    const aCalls = a.calls;
    await embedders.use(null);
    expect(await embedders.settled()).toMatchObject({ state: 'done', total: engine.chunkCount });
    expect(a.calls).toBeGreaterThan(aCalls);
    expect(await library.vectorModels()).toEqual(['model-a', 'model-c']);
    expect(await library.loadVectors('model-b')).toEqual([]);
  });

  it('stops the running re-embed before switching, and a stale fill never puts the old model back', async () => {
    const { engine, embedders, base } = await setup();
    const slow = new WordHashEmbedder({ id: 'slow-model', yieldEvery: 1 });
    await embedders.use(slow);
    expect(embedders.status().state).toBe('running');
    // Releasing the profile: the fill with `slow` is stopped and awaited before `use` returns.
    await embedders.use(null);
    slow.dispose();
    expect(engine.embedder).toBe(base);
    const back = await embedders.settled();
    expect(back.embedderId).toBe('default-model');
    expect(back.state).toBe('done');
    expect(engine.embedder).toBe(base);
    expect(engine.pendingVectors).toBe(0);
  });

  it('a fill started with one embedder stops when another takes over (Engine.fillVectors)', async () => {
    const { engine } = await setup();
    const a = new WordHashEmbedder({ id: 'model-a', yieldEvery: 1 });
    const b = new WordHashEmbedder({ id: 'model-b' });
    engine.switchEmbedder(a);
    const fill = engine.fillVectors({
      onProgress: () => {
        if (engine.embedder === a) engine.switchEmbedder(b);
      },
    });
    await fill;
    expect(engine.embedder).toBe(b);
    // `b` has no vectors yet: nothing of `a` leaked into its dense index.
    expect(engine.vectorCount).toBe(0);
  });

  it('the default at startup keeps partial vectors searchable and leaves the rest to the session', async () => {
    const { engine, stored } = await setup();
    const base = new WordHashEmbedder({ id: 'default-model' });
    // A worker restart: the engine has the library but no embedder; one document's vectors are stored.
    engine.switchEmbedder(null);
    const onlyRemote = [...stored.values()].filter((v) => v.docId === 'remote');
    const embedders = new EmbedderSwitch(engine, async () => onlyRemote);
    await embedders.setDefault(base);
    expect(engine.pendingVectors).toBeGreaterThan(0);
    expect(embedders.report()).toMatchObject({ activeEmbedder: 'default-model', denseOnHold: false });
    expect(embedders.status().state).toBe('idle');
    expect(base.calls).toBe(0);
    const res = await engine.search('remote days');
    expect(res.dense).toBe(true);
  });
});
