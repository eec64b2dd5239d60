/**
 * `EmbedderSwitch` over a real `Engine` with stored vectors: a profile's embedder takes the dense
 * side, search is by keywords only until every chunk has a vector of it (re-embedded in the
 * background, with progress), vectors of each model are reused by id, and switching back never
 * lets a stale fill put the old model back.
 */
import { describe, expect, it } from 'vitest';
import type { VectorRecord } from '../core/library-format';
import type { AddDocumentInput } from './api';
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

  it('reuses stored vectors of the model switched to (keyed by embedder id): nothing is embedded again', async () => {
    const { engine, embedders, base } = await setup();
    const profile = new WordHashEmbedder({ id: 'profile-model' });
    await embedders.use(profile);
    await embedders.settled();
    // Back to the default: storage now holds the profile's vectors, so the default re-embeds.
    await embedders.use(null);
    expect(engine.embedder).toBe(base);
    expect((await embedders.settled()).state).toBe('done');
    // And to the profile again: its vectors were overwritten per document, so it re-embeds too;
    // a second switch to the model whose vectors are stored embeds nothing.
    await embedders.use(profile);
    await embedders.settled();
    const calls = profile.calls;
    await embedders.use(new WordHashEmbedder({ id: 'profile-model' }));
    expect(embedders.report()).toMatchObject({ denseOnHold: false, reembed: { state: 'done', total: 0 } });
    expect(profile.calls).toBe(calls);
    expect((await engine.search('flights')).dense).toBe(true);
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
