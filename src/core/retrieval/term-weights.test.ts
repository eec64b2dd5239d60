import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../lexical/bm25';
import type { IndexableDoc } from '../types';
import {
  bm25TermStats,
  DEFAULT_TERM_COEFFICIENTS,
  PLAIN_TERM_COEFFICIENTS,
  termFeatures,
  toWeightedQuery,
  weighQueryTerms,
  type TermStats,
} from './term-weights';
import { fitTermWeights, scoreCandidates, termFitObjective, type TermTrainingQuery } from './term-weights-fit';

const stats = (df: Record<string, number>, titleDf: Record<string, number>): TermStats => ({
  df: (t) => df[t] ?? 0,
  titleDf: (t) => titleDf[t] ?? 0,
});

describe('termFeatures', () => {
  it('computes title share, digit, length and repeat (hand-computed)', () => {
    const s = stats({ p53: 4, risk: 10 }, { p53: 3 });
    expect(termFeatures('p53', 1, s)).toEqual({ titleShare: 0.75, digit: 1, length: 0.3, repeat: 0 });
    expect(termFeatures('risk', 3, s)).toEqual({ titleShare: 0, digit: 0, length: 0.4, repeat: 2 });
    // Unknown terms and code points beyond the BMP.
    expect(termFeatures('𝛼x', 1, s)).toEqual({ titleShare: 0, digit: 0, length: 0.2, repeat: 0 });
  });
});

describe('weighQueryTerms', () => {
  const s = stats({ aspirin: 4, risk: 10 }, { aspirin: 2 });

  it('plain coefficients give the query term frequency (plain BM25)', () => {
    const out = weighQueryTerms(['risk', 'aspirin', 'risk'], s, PLAIN_TERM_COEFFICIENTS);
    expect(out.map((t) => [t.term, t.qtf, t.weight])).toEqual([
      ['risk', 2, 2],
      ['aspirin', 1, 1],
    ]);
  });

  it('applies qtf · exp(θ · φ) with the default θ (hand-computed)', () => {
    const theta = DEFAULT_TERM_COEFFICIENTS;
    const [risk, aspirin] = weighQueryTerms(['risk', 'aspirin', 'risk'], s);
    expect(risk!.weight).toBeCloseTo(2 * Math.exp(theta.length * 0.4 + theta.repeat * 1), 12);
    expect(aspirin!.weight).toBeCloseTo(Math.exp(theta.titleShare * 0.5 + theta.length * 0.7), 12);
    expect(toWeightedQuery([risk!, aspirin!])).toEqual(
      new Map([
        ['risk', risk!.weight],
        ['aspirin', aspirin!.weight],
      ]),
    );
  });

  it('rejects unknown or non-finite coefficients', () => {
    expect(() => weighQueryTerms(['a'], s, { bogus: 1 } as never)).toThrow(/bogus/);
    expect(() => weighQueryTerms(['a'], s, { digit: Number.NaN })).toThrow(/digit/);
  });

  it('returns nothing for an empty query', () => {
    expect(weighQueryTerms([], s)).toEqual([]);
  });
});

// "aspirin" is in 3 documents, 2 of them in the title; "risk" in 2, never in a title: plain
// BM25 prefers the rarer "risk", the learned weights prefer the topical "aspirin".
const docs: IndexableDoc[] = [
  { id: 'a1', title: 'Aspirin trial', headings: '', text: 'patients were followed for a year' },
  { id: 'a2', title: 'Aspirin dosing', headings: '', text: 'dosing schedules were compared' },
  { id: 'x', title: 'Cohort', headings: '', text: 'aspirin users in the cohort' },
  { id: 'y', title: 'Cohort', headings: '', text: 'risk factors in the cohort' },
  { id: 'z', title: 'Survey', headings: '', text: 'risk perception in a survey' },
  { id: 'w', title: 'Survey', headings: '', text: 'nothing relevant in this one' },
];

describe('bm25TermStats', () => {
  const index = Bm25Index.build(docs);

  it('counts title document frequency from the postings', () => {
    const s = bm25TermStats(index);
    const [aspirin] = index.analyze('aspirin');
    const [risk] = index.analyze('risk');
    expect(s.df(aspirin!)).toBe(3);
    expect(s.titleDf(aspirin!)).toBe(2);
    expect(s.df(risk!)).toBe(2);
    expect(s.titleDf(risk!)).toBe(0);
    expect(s.titleDf('unknown')).toBe(0);
    // A re-parameterised view of the same postings reads the same statistics.
    expect(bm25TermStats(index.withParams({ k1: 0.9 })).titleDf(aspirin!)).toBe(2);
  });

  it('reorders BM25 toward the topical term', () => {
    const terms = index.analyze('aspirin risk');
    const plain = index.searchWeighted(
      toWeightedQuery(weighQueryTerms(terms, bm25TermStats(index), PLAIN_TERM_COEFFICIENTS)),
      {
        k: 6,
      },
    );
    expect(plain.map((h) => h.id)).toEqual(index.search('aspirin risk', { k: 6 }).map((h) => h.id));
    const plainRank = plain.map((h) => h.id);
    expect(plainRank.indexOf('y')).toBeLessThan(plainRank.indexOf('x'));
    const learned = index
      .searchWeighted(toWeightedQuery(weighQueryTerms(terms, bm25TermStats(index))), { k: 6 })
      .map((h) => h.id);
    expect(learned.indexOf('x')).toBeLessThan(learned.indexOf('y'));
  });
});

// Synthetic training set: each query has a digit term and a plain term; the relevant candidate
// matches only the digit term, a distractor matches only the plain term with a larger
// contribution. Plain weights rank the distractor first; the fit must learn digit > 0.
function synthetic(n: number): TermTrainingQuery[] {
  const out: TermTrainingQuery[] = [];
  for (let i = 0; i < n; i++) {
    const big = 1.2 + (i % 5) * 0.1;
    out.push({
      features: [
        { titleShare: 0, digit: 1, length: 0.3, repeat: 0 },
        { titleShare: 0, digit: 0, length: 0.3, repeat: 0 },
      ],
      qtf: [1, 1],
      contributions: [
        [1, 0],
        [0, big],
        [0.2, 0.2],
      ],
      relevant: [true, false, false],
    });
  }
  return out;
}

describe('fitTermWeights', () => {
  it('has an exact gradient (finite differences)', () => {
    const data = synthetic(7).map((q, i) => ({ ...q, extra: [0.1 * i, 0, 0.05] }));
    const theta = new Float64Array([0.3, -0.2, 0.5, 0.1]);
    const { grad } = termFitObjective(data, theta);
    const h = 1e-6;
    for (let j = 0; j < theta.length; j++) {
      const up = Float64Array.from(theta);
      const down = Float64Array.from(theta);
      up[j] = (up[j] as number) + h;
      down[j] = (down[j] as number) - h;
      const numeric = (termFitObjective(data, up).loss - termFitObjective(data, down).loss) / (2 * h);
      expect(grad[j]).toBeCloseTo(numeric, 5);
    }
  });

  it('learns the feature that marks the relevant candidate', () => {
    const data = synthetic(20);
    const top1 = (theta: Parameters<typeof scoreCandidates>[1]): number =>
      data.filter((q) => {
        const s = scoreCandidates(q, theta);
        return s.indexOf(Math.max(...s)) === 0;
      }).length / data.length;
    expect(top1(PLAIN_TERM_COEFFICIENTS)).toBe(0);
    const fit = fitTermWeights(data);
    expect(fit.lossAfter).toBeLessThan(fit.lossBefore);
    expect(fit.coefficients.digit).toBeGreaterThan(0.5);
    expect(top1(fit.coefficients)).toBe(1);
  });

  it('is deterministic and refuses data without a relevant candidate', () => {
    const data = synthetic(5);
    expect(fitTermWeights(data)).toEqual(fitTermWeights(data));
    expect(() => fitTermWeights([{ ...data[0]!, relevant: [false, false, false] }])).toThrow(/relevant/);
    expect(() => fitTermWeights(data, { temperature: 0 })).toThrow(/temperature/);
  });
});
