import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../core/util/prng';
import type { Embedder } from '../models/embedder';
import { planShares } from './parallel-embedder';
import { loadUseEmbedderNode } from './use-node';

const WORDS = (
  'the cell protein gene expression of in patients with increased risk reduced mice tumour ' +
  'insulin receptor binding 12.5 mg/kg β-catenin signalling pathway was were not significantly ' +
  'associated über naïve 東京 😀 — (p < 0.05) HIV-1 CD4+ T-cells randomised trial cohort'
).split(' ');

/** Texts of 0 to 80 words, every 50th of 300 (beyond the 128-token window), a few repeated; seeded. */
function corpus(n: number, seed: number): string[] {
  const rand = mulberry32(seed);
  const texts: string[] = [];
  for (let i = 0; i < n; i++) {
    if (i > 0 && rand() < 0.05) {
      texts.push(texts[Math.floor(rand() * i)] as string);
      continue;
    }
    const len = i % 50 === 7 ? 300 : Math.floor(rand() ** 2 * 80);
    texts.push(Array.from({ length: len }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' '));
  }
  return texts;
}

describe('planShares', () => {
  const rand = mulberry32(5);
  const tokens = Array.from({ length: 700 }, () => (rand() < 0.05 ? 0 : 1 + Math.floor(rand() * 128)));
  const runOrder = tokens
    .map((_, i) => i)
    .filter((i) => tokens[i]! > 0)
    .sort((a, b) => tokens[a]! - tokens[b]! || a - b);

  it('hands out the single-process run order in whole batches of about equal tokens', () => {
    for (const [parts, batch] of [
      [1, 16],
      [2, 16],
      [3, 8],
      [2, 1],
    ] as const) {
      const shares = planShares(tokens, parts, batch);
      expect(shares).toHaveLength(parts);
      // Concatenated, the shares are the order one process runs the texts in (empty texts left out).
      expect(shares.flat()).toEqual(runOrder);
      // Every share but the last starts and ends on a batch boundary of that order.
      for (const s of shares.slice(0, -1)) expect(s.length % batch).toBe(0);
      const units = (s: number[]): number => s.reduce((a, i) => a + tokens[i]! + 1, 0);
      const total = units(runOrder);
      // Each share is within one batch (≤ batch × 129 units) of an equal share.
      for (const s of shares) expect(Math.abs(units(s) - total / parts)).toBeLessThanOrEqual(batch * 129);
    }
  });

  it('gives empty shares when there is too little to share', () => {
    expect(planShares([3, 0, 2], 3, 16)).toEqual([[2, 0], [], []]);
    expect(planShares([], 2, 16)).toEqual([[], []]);
  });
});

describe('USE lite over two processes', () => {
  let single: Embedder;
  let parallel: Embedder;

  beforeAll(async () => {
    single = (await loadUseEmbedderNode()).embedder;
    parallel = (await loadUseEmbedderNode({ processes: 2 })).embedder;
  });
  afterAll(() => {
    single?.dispose();
    parallel?.dispose();
  });

  it('gives bit-identical vectors to one process, with progress up to the total', async () => {
    const texts = corpus(120, 42);
    const progress: number[] = [];
    const a = await single.embed(texts, { batchSize: 16 });
    const b = await parallel.embed(texts, { onProgress: (done, total) => progress.push(total === 120 ? done : -1) });
    expect(parallel.id).toBe(single.id);
    expect(b).toHaveLength(texts.length * single.dim);
    expect(
      Buffer.from(b.buffer, b.byteOffset, b.byteLength).equals(Buffer.from(a.buffer, a.byteOffset, a.byteLength)),
    ).toBe(true);
    // Not all-zero rows: the first non-empty text has a unit vector.
    const first = texts.findIndex((t) => t !== '');
    const norm = Math.hypot(...b.subarray(first * single.dim, (first + 1) * single.dim));
    expect(norm).toBeCloseTo(1, 5);
    expect(progress.at(-1)).toBe(120);
    expect([...progress].sort((x, y) => x - y)).toEqual(progress);
  });

  it('keeps working for a second call and for a call below the helper threshold', async () => {
    const texts = corpus(70, 3);
    const a = await single.embed(texts, { batchSize: 8 });
    expect(await parallel.embed(texts, { batchSize: 8 })).toEqual(a);
    const few = texts.slice(0, 5);
    expect(await parallel.embed(few, { batchSize: 8 })).toEqual(await single.embed(few, { batchSize: 8 }));
  });

  it('stops with `aborted` when cancelled, and embeds again afterwards', async () => {
    const texts = corpus(150, 11);
    const controller = new AbortController();
    const call = parallel.embed(texts, {
      signal: controller.signal,
      onProgress: (done) => {
        if (done > 0) controller.abort();
      },
    });
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
    const again = texts.slice(0, 70);
    expect(await parallel.embed(again)).toEqual(await single.embed(again, { batchSize: 16 }));
  });
});
