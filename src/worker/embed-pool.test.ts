import { describe, expect, it } from 'vitest';
import { EvidentError } from '../core/errors';
import { EmbedPool, embedWorkerCount, MAX_EMBED_WORKERS, ON_DEMAND_TEXTS, type PoolWorker } from './embed-pool';
import { WordHashEmbedder } from './testing';

/** A worker of the pool: the same model (a hashed bag of words) behind an async boundary, counting its calls. */
function fakeWorker(delayMs = 1): PoolWorker & { calls: number; texts: number; terminated: boolean } {
  const model = new WordHashEmbedder();
  const w = {
    calls: 0,
    texts: 0,
    terminated: false,
    async embed(texts: readonly string[]): Promise<Float32Array> {
      w.calls++;
      w.texts += texts.length;
      await new Promise((r) => setTimeout(r, delayMs));
      return model.embed(texts);
    },
    terminate: () => void (w.terminated = true),
  };
  return w;
}

const texts = Array.from({ length: 45 }, (_, i) => `passage ${i} about topic ${i % 7} and words ${i * 3}`);

describe('EmbedPool', () => {
  it('gives the vectors the base model gives, in order, with the work spread over its workers', async () => {
    const base = new WordHashEmbedder();
    const pool = new EmbedPool(base, { step: 4 });
    const workers = [fakeWorker(), fakeWorker(), fakeWorker()];
    pool.attach(workers);
    const progress: number[] = [];
    const out = await pool.embed(texts, { onProgress: (done) => progress.push(done) });
    expect([...out]).toEqual([...(await new WordHashEmbedder().embed(texts))]);
    expect(workers.reduce((s, w) => s + w.texts, 0)).toBe(texts.length);
    expect(workers.every((w) => w.calls >= 2)).toBe(true);
    expect(progress.at(-1)).toBe(texts.length);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(pool.id).toBe(base.id);
  });

  it('embeds queries, and passages before workers are attached, on the base model; asks for workers once', async () => {
    const base = new WordHashEmbedder();
    let demanded = 0;
    const pool = new EmbedPool(base, { onDemand: () => demanded++ });
    await pool.embed(texts.slice(0, ON_DEMAND_TEXTS - 1));
    expect(demanded).toBe(0);
    await pool.embed(texts.slice(0, ON_DEMAND_TEXTS));
    await pool.embed(texts.slice(0, ON_DEMAND_TEXTS));
    expect(demanded).toBe(1);
    const worker = fakeWorker();
    pool.attach([worker]);
    const before = base.calls;
    await pool.embed(['a question?'], { kind: 'query' });
    expect(base.calls).toBe(before + 1);
    expect(worker.calls).toBe(0);
  });

  it('a cancel settles at once with aborted and hands out no more texts', async () => {
    const pool = new EmbedPool(new WordHashEmbedder(), { step: 2 });
    const slow = fakeWorker(30);
    pool.attach([slow]);
    const c = new AbortController();
    const run = pool.embed(texts, { signal: c.signal });
    await new Promise((r) => setTimeout(r, 5));
    c.abort();
    await expect(run).rejects.toEqual(expect.objectContaining({ code: 'aborted' }));
    await new Promise((r) => setTimeout(r, 80));
    expect(slow.calls).toBe(1);
  });

  it('refuses a worker answer of the wrong size; dispose ends the workers', async () => {
    const pool = new EmbedPool(new WordHashEmbedder());
    const bad: PoolWorker = { embed: async () => new Float32Array(3), terminate: () => {} };
    pool.attach([bad]);
    await expect(pool.embed(texts)).rejects.toBeInstanceOf(EvidentError);
    const w = fakeWorker();
    pool.attach([w]);
    pool.dispose();
    expect(w.terminated).toBe(true);
    const late = fakeWorker();
    pool.attach([late]);
    expect(late.terminated).toBe(true);
  });

  it('one worker per logical core, at least one, at most the cap', () => {
    expect(embedWorkerCount(null)).toBe(1);
    expect(embedWorkerCount(2)).toBe(2);
    expect(embedWorkerCount(64)).toBe(MAX_EMBED_WORKERS);
  });
});
