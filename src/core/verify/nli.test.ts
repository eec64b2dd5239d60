import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildCorpus, candidate, deepFreeze } from '../select/testing';
import type { EntailmentModel } from './nli';
import { maximumIndependentSet, resolveContradictions } from './nli';
import { extractValues } from './values';

/**
 * A deterministic stand-in for an NLI model (a fake dependency, not the unit under test): two
 * statements with numbers contradict when their numbers differ, entail when they share them.
 */
const numberMismatch: EntailmentModel = {
  id: 'number-mismatch',
  async classify(pairs) {
    return pairs.map(({ premise, hypothesis }) => {
      const a = new Set(
        extractValues(premise)
          .filter((v) => v.kind === 'number')
          .map((v) => v.key),
      );
      const b = extractValues(hypothesis)
        .filter((v) => v.kind === 'number')
        .map((v) => v.key);
      if (a.size === 0 || b.length === 0) return { entailment: 0.1, neutral: 0.8, contradiction: 0.1 };
      return b.every((x) => a.has(x))
        ? { entailment: 0.9, neutral: 0.05, contradiction: 0.05 }
        : { entailment: 0.05, neutral: 0.05, contradiction: 0.9 };
    });
  },
};

function brute(n: number, edges: [number, number][], w: number[]): { size: number; weight: number } {
  let best = { size: -1, weight: -1 };
  for (let mask = 0; mask < 1 << n; mask++) {
    if (edges.some(([a, b]) => mask & (1 << a) && mask & (1 << b))) continue;
    let size = 0;
    let weight = 0;
    for (let i = 0; i < n; i++) {
      if (mask & (1 << i)) {
        size++;
        weight += w[i]!;
      }
    }
    if (size > best.size || (size === best.size && weight > best.weight + 1e-12)) best = { size, weight };
  }
  return best;
}

describe('maximumIndependentSet', () => {
  it('is exact against brute force for small graphs, ties broken by weight (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }).chain((n) =>
          fc.tuple(
            fc.constant(n),
            fc.array(fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 })), {
              maxLength: 25,
            }),
            fc.array(fc.double({ min: 0.01, max: 1, noNaN: true }), { minLength: n, maxLength: n }),
          ),
        ),
        ([n, edges, w]) => {
          const set = maximumIndependentSet(n, edges, w);
          for (const [a, b] of edges) if (a !== b) expect(set.includes(a) && set.includes(b)).toBe(false);
          const best = brute(
            n,
            edges.filter(([a, b]) => a !== b),
            w,
          );
          expect(set.length).toBe(best.size);
          expect(set.reduce((s, i) => s + w[i]!, 0)).toBeCloseTo(best.weight, 9);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('returns a maximal independent set greedily beyond the exact limit', () => {
    const n = 40;
    const edges: [number, number][] = Array.from({ length: n - 1 }, (_, i) => [i, i + 1]);
    const set = maximumIndependentSet(n, edges, Array(n).fill(0.5), 24);
    for (const [a, b] of edges) expect(set.includes(a) && set.includes(b)).toBe(false);
    expect(set.length).toBe(20); // a path of 40: every other vertex
  });
});

describe('resolveContradictions', () => {
  const corpus = buildCorpus([
    { id: 'gov', sourceType: 'government', chunks: ['The hotel cap is 180 EUR per night for business travel.'] },
    { id: 'hb', sourceType: 'internal_policy', chunks: ['Business travel hotels are capped at 180 EUR a night.'] },
    { id: 'blog', sourceType: 'blog', chunks: ['The hotel cap for business travel is 250 EUR per night.'] },
  ]);
  const lookup = { chunks: corpus.chunks, documents: corpus.documents };
  const cands = deepFreeze([candidate('blog#0', 0.9), candidate('gov#0', 0.8), candidate('hb#0', 0.7)]);
  const question = 'What is the hotel cap per night?';

  it('keeps the largest consistent set and says why the rest was dropped', async () => {
    const r = await resolveContradictions(cands, { question, lookup, model: numberMismatch });
    expect(r.model).toBe('number-mismatch');
    expect(r.kept.map((c) => c.id).sort()).toEqual(['gov#0', 'hb#0']);
    expect(r.dropped.map((c) => c.id)).toEqual(['blog#0']);
    expect(r.dropped[0]!.trace.at(-1)!.reason).toMatch(/contradicts gov#0, hb#0/);
    expect(r.edges).toHaveLength(2);
  });

  it('breaks a one-against-one tie toward the more reliable, higher-ranked candidate', async () => {
    const r = await resolveContradictions([cands[0]!, cands[1]!], { question, lookup, model: numberMismatch });
    expect(r.kept.map((c) => c.id)).toEqual(['gov#0']);
  });

  it('ignores edges that touch protected candidates, and passes through without a model', async () => {
    const r = await resolveContradictions(cands, {
      question,
      lookup,
      model: numberMismatch,
      protectedIds: new Set(['blog#0']),
    });
    expect(r.dropped).toEqual([]);
    const none = await resolveContradictions(cands, { question, lookup });
    expect(none.model).toBeNull();
    expect(none.kept.map((c) => c.trace.at(-1)!.reason)).toEqual(
      Array(3).fill('no entailment model loaded: contradiction check skipped'),
    );
  });

  it('rejects a model that returns the wrong number of results', async () => {
    const broken: EntailmentModel = { id: 'broken', classify: async () => [] };
    await expect(resolveContradictions(cands, { question, lookup, model: broken })).rejects.toThrow(
      /returned 0 results/,
    );
  });
});
