import { describe, expect, it } from 'vitest';
import type { Hit } from '../types';
import {
  averagePrecision,
  evaluateQuery,
  evaluateRun,
  mrrAt,
  ndcgAt,
  precisionAt,
  recallAt,
  trecOrder,
  type Qrels,
} from './metrics';

const TOL = 4; // toBeCloseTo digits: |diff| < 5e-5, inside the 1e-4 tolerance

function hits(...pairs: [string, number][]): Hit[] {
  return pairs.map(([id, score]) => ({ id, score }));
}

// Binary case. Relevant: d1, d3, d5; d9 judged non-relevant. Ranked d1 d2 d3 d4 d9 d5.
const binaryJudged = new Map([
  ['d1', 1],
  ['d3', 1],
  ['d5', 1],
  ['d9', 0],
]);
const binaryRun = hits(['d1', 0.9], ['d2', 0.8], ['d3', 0.7], ['d4', 0.6], ['d9', 0.5], ['d5', 0.4]);

// Graded case. Grades c=3, a=2, b=1. Ranked b x c a.
const gradedJudged = new Map([
  ['a', 2],
  ['b', 1],
  ['c', 3],
]);
const gradedRun = hits(['b', 3], ['x', 2], ['c', 1], ['a', 0.5]);

describe('metrics, binary relevance (by hand)', () => {
  it('P@k divides by k, not by the number retrieved', () => {
    expect(precisionAt(binaryRun, binaryJudged, 10)).toBeCloseTo(0.3, TOL); // 3/10
    expect(precisionAt(binaryRun, binaryJudged, 2)).toBeCloseTo(0.5, TOL); // d1 of d1,d2
    expect(precisionAt(binaryRun, binaryJudged, 5)).toBeCloseTo(0.4, TOL); // d1,d3 of 5
  });

  it('R@k is relevant-in-top-k over all relevant', () => {
    expect(recallAt(binaryRun, binaryJudged, 10)).toBeCloseTo(1, TOL);
    expect(recallAt(binaryRun, binaryJudged, 3)).toBeCloseTo(2 / 3, TOL);
    expect(recallAt(binaryRun, binaryJudged, 1)).toBeCloseTo(1 / 3, TOL);
  });

  it('nDCG@10 = (1 + 1/log2 4 + 1/log2 7) / (1 + 1/log2 3 + 1/log2 4)', () => {
    // DCG 1.856207, IDCG 2.130930
    expect(ndcgAt(binaryRun, binaryJudged, 10)).toBeCloseTo(0.871079, TOL);
  });

  it('MRR and MAP', () => {
    expect(mrrAt(binaryRun, binaryJudged, 10)).toBeCloseTo(1, TOL);
    expect(mrrAt(binaryRun.slice(1), binaryJudged, 10)).toBeCloseTo(1 / 2, TOL); // d3 now at rank 2
    expect(mrrAt(binaryRun.slice(1), binaryJudged, 1)).toBe(0); // cut at 1 misses it
    // (1/1 + 2/3 + 3/6) / 3
    expect(averagePrecision(binaryRun, binaryJudged)).toBeCloseTo(0.722222, TOL);
    // An unretrieved relevant document adds 0 but still counts in the denominator.
    expect(averagePrecision(binaryRun.slice(0, 3), binaryJudged)).toBeCloseTo((1 + 2 / 3) / 3, TOL);
  });
});

describe('metrics, graded relevance (by hand)', () => {
  it('nDCG uses the grade as gain and the ideal from the qrels', () => {
    // DCG@10 = 1/1 + 0 + 3/log2 4 + 2/log2 5 = 3.361353; IDCG = 3 + 2/log2 3 + 1/2 = 4.761860
    expect(ndcgAt(gradedRun, gradedJudged, 10)).toBeCloseTo(0.705891, TOL);
    // @2: DCG = 1; IDCG = 3 + 2/log2 3 = 4.261860
    expect(ndcgAt(gradedRun, gradedJudged, 2)).toBeCloseTo(0.234639, TOL);
  });

  it('binary metrics count any grade ≥ 1 as relevant', () => {
    expect(mrrAt(gradedRun, gradedJudged, 10)).toBeCloseTo(1, TOL);
    expect(averagePrecision(gradedRun, gradedJudged)).toBeCloseTo((1 + 2 / 3 + 3 / 4) / 3, TOL); // 0.805556
    expect(precisionAt(gradedRun, gradedJudged, 10)).toBeCloseTo(0.3, TOL);
  });
});

describe('metrics, a query with no relevant document', () => {
  it('scores 0 on every metric', () => {
    const judged = new Map([['z', 0]]);
    const values = evaluateQuery(hits(['z', 1], ['y', 0.5]), judged);
    for (const v of Object.values(values)) expect(v).toBe(0);
  });
});

describe('trec_eval ordering', () => {
  it('sorts by score descending, then document id descending', () => {
    const ordered = trecOrder(hits(['a', 0.5], ['c', 0.9], ['b', 0.5], ['d', 0.1]));
    expect(ordered.map((h) => h.id)).toEqual(['c', 'b', 'a', 'd']);
  });

  it('metrics use that order, not the input order', () => {
    // a and b tie: trec_eval ranks b first, so the relevant a is at rank 2.
    const values = evaluateQuery(hits(['a', 0.5], ['b', 0.5]), new Map([['a', 1]]));
    expect(values['mrr@10']).toBeCloseTo(0.5, TOL);
    expect(values['ndcg@10']).toBeCloseTo(1 / Math.log2(3), TOL);
  });
});

describe('evaluateRun', () => {
  it('means over the qrels queries; a query missing from the run counts 0', () => {
    const qrels: Qrels = new Map([
      ['q1', binaryJudged],
      ['q2', gradedJudged],
      ['q3', new Map([['d1', 1]])],
    ]);
    const run = new Map([
      ['q1', binaryRun],
      ['q2', [...gradedRun].reverse()], // input order must not matter
      ['q-unjudged', hits(['d1', 1])], // not in qrels: ignored
    ]);
    const { mean, perQuery } = evaluateRun(run, qrels);
    expect(perQuery.size).toBe(3);
    expect(perQuery.get('q3')?.['ndcg@10']).toBe(0);
    expect(mean['ndcg@10']).toBeCloseTo((0.871079 + 0.705891 + 0) / 3, TOL);
    expect(mean.map).toBeCloseTo((0.722222 + 0.805556 + 0) / 3, TOL);
    expect(mean['recall@100']).toBeCloseTo((1 + 1 + 0) / 3, TOL);
    expect(mean['p@10']).toBeCloseTo((0.3 + 0.3 + 0) / 3, TOL);
  });

  it('rejects a cutoff below 1', () => {
    expect(() => ndcgAt(binaryRun, binaryJudged, 0)).toThrow(/k must be/);
  });
});
