/**
 * Golden numbers computed by hand for the selection metrics (1e-4 tolerance).
 */
import { describe, expect, it } from 'vitest';
import { meanSelectionMetrics, sentenceRecall, setPrf, type QuerySelectionMetrics } from './selection-metrics';

const judged = new Map([
  ['d1', 1],
  ['d2', 2],
  ['d3', 0], // judged not relevant
]);

describe('setPrf', () => {
  it('one of two selected is relevant, one of two relevant found: P 1/2, R 1/2, F1 1/2', () => {
    const m = setPrf(['d1', 'x'], judged);
    expect(m.precision).toBeCloseTo(0.5, 4);
    expect(m.recall).toBeCloseTo(0.5, 4);
    expect(m.f1).toBeCloseTo(0.5, 4);
  });

  it('both relevant among three selected (one judged 0): P 2/3, R 1, F1 = 2·(2/3)/(5/3) = 0.8', () => {
    const m = setPrf(['d2', 'd3', 'd1'], judged);
    expect(m.precision).toBeCloseTo(0.6667, 4);
    expect(m.recall).toBeCloseTo(1, 4);
    expect(m.f1).toBeCloseTo(0.8, 4);
  });

  it('one relevant selected alone: P 1, R 1/2, F1 = 2·0.5/1.5 = 0.6667', () => {
    const m = setPrf(['d2'], judged);
    expect(m.precision).toBeCloseTo(1, 4);
    expect(m.recall).toBeCloseTo(0.5, 4);
    expect(m.f1).toBeCloseTo(0.6667, 4);
  });

  it('a repeated id counts once', () => {
    const m = setPrf(['d1', 'd1', 'x'], judged);
    expect(m.precision).toBeCloseTo(0.5, 4);
  });

  it('an empty selection scores 0, not a perfect precision', () => {
    expect(setPrf([], judged)).toEqual({ precision: 0, recall: 0, f1: 0 });
  });

  it('a query with no relevant judgment scores recall 0 and F1 0', () => {
    const m = setPrf(['d3'], new Map([['d3', 0]]));
    expect(m).toEqual({ precision: 0, recall: 0, f1: 0 });
  });
});

describe('sentenceRecall', () => {
  const gold = new Map([
    ['d1', new Set([2, 5, 7])],
    ['d2', new Set([0])],
  ]);

  it('counts gold (document, sentence) pairs inside the packed evidence: 2 of 4', () => {
    const packed = new Map([
      ['d1', new Set([0, 1, 2, 3, 4, 5])], // holds 2 and 5, not 7
      ['d9', new Set([0])], // sentence 0 of another document is not d2's sentence 0
    ]);
    expect(sentenceRecall(gold, packed)).toBeCloseTo(0.5, 4);
  });

  it('is 1 when every gold sentence is packed and 0 when none is', () => {
    expect(
      sentenceRecall(
        gold,
        new Map([
          ['d1', new Set([2, 5, 7])],
          ['d2', new Set([0, 1])],
        ]),
      ),
    ).toBeCloseTo(1, 4);
    expect(sentenceRecall(gold, new Map())).toBe(0);
  });

  it('is null without gold sentences, so the query does not count', () => {
    expect(sentenceRecall(new Map(), new Map([['d1', new Set([0])]]))).toBeNull();
    expect(sentenceRecall(new Map([['d1', new Set<number>()]]), new Map())).toBeNull();
  });
});

describe('meanSelectionMetrics', () => {
  const q = (f1: number, docs: number, tokens: number, s: number | null): QuerySelectionMetrics => ({
    precision: f1,
    recall: f1,
    f1,
    docs,
    tokens,
    sentenceRecall: s,
  });

  it('averages per query; sentence recall only over queries with gold sentences', () => {
    const m = meanSelectionMetrics([q(1, 1, 100, 0.5), q(0.5, 2, 300, null), q(0, 3, 200, 1)]);
    expect(m.f1).toBeCloseTo(0.5, 4); // (1 + 0.5 + 0) / 3
    expect(m.docs).toBeCloseTo(2, 4);
    expect(m.tokens).toBeCloseTo(200, 4);
    expect(m.sentence_recall).toBeCloseTo(0.75, 4); // (0.5 + 1) / 2, the null query left out
    expect(m.queries).toBe(3);
    expect(m.evidenceQueries).toBe(2);
  });

  it('gives zeros for no queries', () => {
    const m = meanSelectionMetrics([]);
    expect([m.f1, m.docs, m.tokens, m.sentence_recall, m.queries]).toEqual([0, 0, 0, 0, 0]);
  });
});
