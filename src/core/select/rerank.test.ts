import { describe, expect, it } from 'vitest';
import { rerankCandidates, structuredPassage, type CrossEncoder } from './rerank';
import { buildCorpus, candidate, deepFreeze } from './testing';
import { EvidentError } from '../errors';
import { words } from './common';

/**
 * A deterministic stand-in cross-encoder (a fake dependency, not a mock of the stage): its logit
 * is the number of distinct question words in the passage's [TEXT] part, minus 2.
 */
class OverlapCrossEncoder implements CrossEncoder {
  readonly id = 'test-overlap';
  readonly seen: string[][] = [];
  async score(query: string, passages: string[]): Promise<number[]> {
    this.seen.push(passages);
    const q = new Set(words(query));
    return passages.map((p) => {
      const text = new Set(words(p.split('[TEXT]')[1] ?? ''));
      let n = 0;
      for (const w of q) if (text.has(w)) n++;
      return n - 2;
    });
  }
}

const corpus = buildCorpus([
  { id: 'a', title: 'Leave policy', status: 'current', chunks: [{ text: 'cats and dogs', headings: ['Pets'] }] },
  { id: 'b', title: 'Other', chunks: ['sick leave days for employees'] },
  { id: 'c', title: 'Misc', chunks: ['paid sick leave'] },
  { id: 'd', chunks: ['unrelated text'] },
  { id: 'e', chunks: ['more unrelated text'] },
]);
const lookup = { chunks: corpus.chunks, documents: corpus.documents };
const question = 'how many sick leave days do employees get';
const pool = () =>
  deepFreeze([
    candidate('a#0', 0.05),
    candidate('d#0', 0.04),
    candidate('c#0', 0.03),
    candidate('b#0', 0.02),
    candidate('e#0', 0.01),
  ]);

describe('structuredPassage', () => {
  it('formats [TITLE] … [SECTION] … [STATUS] … [TEXT] …', () => {
    expect(structuredPassage('Policy', ['Leave', 'Sick leave'], 'current', 'Ten days.')).toBe(
      '[TITLE] Policy [SECTION] Leave › Sick leave [STATUS] current [TEXT] Ten days.',
    );
  });
});

describe('rerankCandidates', () => {
  it('passes scores through and says so when no cross-encoder is loaded', async () => {
    const r = await rerankCandidates(pool(), { question, lookup });
    expect(r.reranker).toBeNull();
    expect(r.candidates.map((c) => c.score)).toEqual([0.05, 0.04, 0.03, 0.02, 0.01]);
    for (const c of r.candidates) {
      expect(c.trace.at(-1)).toMatchObject({
        stage: 'rerank',
        kept: true,
        reason: 'no cross-encoder loaded: scores passed through',
      });
    }
  });

  it('replaces the fused score of the top N with the sigmoid of the cross-encoder score', async () => {
    const ce = new OverlapCrossEncoder();
    const r = await rerankCandidates(pool(), { question, lookup, crossEncoder: ce }, { topN: 4 });
    expect(r.reranker).toBe('test-overlap');
    // overlap: b#0 = 4 (sick, leave, days, employees), c#0 = 2, a#0 = 0, d#0 = 0
    expect(r.candidates.slice(0, 2).map((c) => c.id)).toEqual(['b#0', 'c#0']);
    const b = r.candidates[0]!;
    expect(b.score).toBeCloseTo(1 / (1 + Math.exp(-2)), 10);
    expect(b.scores).toMatchObject({ fused: 0.02, rerank: b.score });
    expect(b.trace.at(-1)).toMatchObject({ stage: 'rerank', detail: { raw: 2, fusedRank: 4 } });
    // The model saw structured passages, in fused order.
    expect(ce.seen[0]![0]).toBe('[TITLE] Leave policy [SECTION] Pets [STATUS] current [TEXT] cats and dogs');
  });

  it('keeps the candidates past N below every reranked one, in fused order', async () => {
    const many = Array.from({ length: 8 }, (_, i) => candidate(`x${i}`, 1 - i / 10));
    const ce: CrossEncoder = { id: 'const', score: async (_q, ps) => ps.map(() => -5) };
    const r = await rerankCandidates(many, { question, lookup, crossEncoder: ce }, { topN: 3 });
    const head = r.candidates.filter((c) => c.scores.rerank !== undefined);
    const tail = r.candidates.filter((c) => c.scores.rerank === undefined);
    expect(head).toHaveLength(3);
    expect(Math.max(...tail.map((c) => c.score))).toBeLessThan(Math.min(...head.map((c) => c.score)));
    expect(tail.map((c) => c.id)).toEqual(['x3', 'x4', 'x5', 'x6', 'x7']);
    expect(tail[0]!.trace.at(-1)!.reason).toMatch(/past the top 3/);
  });

  it('throws when the cross-encoder answers with the wrong number of scores', async () => {
    const ce: CrossEncoder = { id: 'broken', score: async () => [1] };
    await expect(rerankCandidates(pool(), { question, lookup, crossEncoder: ce })).rejects.toThrow(
      /returned 1 scores for 5 passages/,
    );
  });

  it('stops quietly with an aborted error when cancelled', async () => {
    const ce = new OverlapCrossEncoder();
    const err = await rerankCandidates(pool(), { question, lookup, crossEncoder: ce, signal: { aborted: true } }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EvidentError);
    expect((err as EvidentError).code).toBe('aborted');
    expect(ce.seen).toHaveLength(0);
  });

  it('validates options', async () => {
    await expect(rerankCandidates([], { question, lookup }, { topK: 3 } as never)).rejects.toThrow(
      /unknown option "topK"/,
    );
    await expect(rerankCandidates([], { question, lookup }, { normalize: 'softmax' as never })).rejects.toThrow(
      /sigmoid, none/,
    );
  });
});
