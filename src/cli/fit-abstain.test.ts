import { describe, expect, it } from 'vitest';
import { featureVector, pCorrect, type AbstentionSignals } from '../core/answer/abstain';
import {
  abstentionPr,
  chooseBudgetThreshold,
  chooseThreshold,
  f1Cost,
  fitLogistic,
  forModel,
  type Example,
  type ExampleSource,
} from './fit-abstain';
import { bestThreshold, f1At } from './fit-support';
import { bestOnGrid, formatTable, THRESHOLD_GRID } from './common';

const signals = (voteSources: number, more: Partial<AbstentionSignals> = {}): AbstentionSignals => ({
  answerScore: 1,
  topScore: 0.5,
  margin: 0.1,
  agreement: null,
  independentSources: 3,
  conflict: false,
  flagged: 0,
  coverage: 1,
  typed: true,
  voteSources,
  voteShare: 0.5,
  missingEntities: [],
  ...more,
});
const example = (s: AbstentionSignals, y: 0 | 1, source: ExampleSource = 'rgb', f1 = 0): Example => ({
  signals: s,
  y,
  x: featureVector(s),
  source,
  f1,
});

describe('fitLogistic and chooseThreshold', () => {
  it('learns that the informative feature raises the probability of a correct answer', () => {
    const data = [
      ...[0, 1, 1, 0].map((v) => example(signals(v), 0)),
      ...[3, 4, 2, 3].map((v) => example(signals(v), 1)),
    ];
    const m = fitLogistic(data);
    expect(m.weights.voteSources).toBeGreaterThan(0);
    expect(pCorrect(signals(4), m)).toBeGreaterThan(0.5);
    expect(pCorrect(signals(0), m)).toBeLessThan(0.5);
    const t = chooseThreshold(data, m);
    for (const e of data) expect(pCorrect(e.signals, m) >= t).toBe(e.y === 1);
  });

  it('fits only the features it is given, and reads a missing agreement as the mean', () => {
    const data = [0.0, 0.2, 0.2, 0.6, 0.8, 0.8].map((a, i) =>
      example(signals(i % 2, { agreement: a, questionKind: 'descriptive' }), a > 0.5 ? 1 : 0),
    );
    data.push(example(signals(0, { agreement: null, questionKind: 'descriptive' }), 1));
    const m = fitLogistic(data, ['agreement']);
    expect(m.weights.voteSources).toBe(0);
    expect(m.weights.agreement).toBeGreaterThan(0);
    expect(Number.isFinite(m.mean.agreement)).toBe(true);
    // Without dense retrieval the feature contributes nothing: the probability is the bias's.
    expect(pCorrect(signals(0, { agreement: null }), m)).toBeCloseTo(1 / (1 + Math.exp(-m.bias)), 10);
  });
});

describe('forModel', () => {
  it('routes examples by question kind and leaves out what the rules decide', () => {
    const data = [
      example(signals(1), 1),
      example(signals(1, { questionKind: 'descriptive' }), 1),
      example(signals(1, { conflict: true }), 0),
      example(signals(1, { answerScore: 0, questionKind: 'descriptive' }), 0),
    ];
    expect(forModel(data, 'factoid')).toEqual([data[0]]);
    expect(forModel(data, 'descriptive')).toEqual([data[1]]);
  });
});

describe('the F1 budget threshold', () => {
  // Answerable claims whose selection F1 grows with agreement; unanswerable ones at low agreement.
  const desc = (a: number, source: ExampleSource, f1: number, y: 0 | 1): Example =>
    example(signals(0, { agreement: a, questionKind: 'descriptive' }), y, source, f1);
  const data = [
    desc(0.1, 'scifact', 0, 0),
    desc(0.3, 'scifact', 0.5, 1),
    desc(0.5, 'scifact', 1, 1),
    desc(0.9, 'scifact', 1, 1),
    desc(0.0, 'scifact-unanswerable', 0, 0),
    desc(0.1, 'scifact-unanswerable', 0, 0),
    desc(0.2, 'scifact-unanswerable', 0, 0),
  ];
  const m = fitLogistic(data, ['agreement']);

  it('costs the F1 of every answerable claim it abstains on, averaged over the answerable claims', () => {
    expect(f1Cost(data, m, 0)).toBe(0);
    expect(f1Cost(data, m, 1)).toBeCloseTo(2.5 / 4, 10);
  });

  it('is the highest cut whose cost stays within the budget', () => {
    const t = chooseBudgetThreshold(data, m, 0);
    expect(f1Cost(data, m, t)).toBe(0);
    expect(f1Cost(data, m, t + 0.01)).toBeGreaterThan(0);
    // The claim with F1 0 and the unanswerable ones fall below it.
    expect(pCorrect(data[0]!.signals, m)).toBeLessThan(t);
    expect(pCorrect(data[1]!.signals, m)).toBeGreaterThanOrEqual(t);
  });
});

describe('abstentionPr', () => {
  it('counts an abstention as right when the withheld answer was not correct', () => {
    const r = abstentionPr([
      { abstained: true, correct: false },
      { abstained: true, correct: true },
      { abstained: false, correct: false },
      { abstained: false, correct: true },
      { abstained: true, correct: false },
    ]);
    expect(r).toEqual({ cases: 5, abstained: 3, shouldAbstain: 3, precision: 2 / 3, recall: 2 / 3 });
  });
});

describe('f1At and bestThreshold', () => {
  it('computes precision, recall and F1 by hand', () => {
    const items = [
      { score: 0.9, positive: true },
      { score: 0.6, positive: true },
      { score: 0.2, positive: true },
      { score: 0.7, positive: false },
      { score: 0.1, positive: false },
    ];
    const r = f1At(items, 0.5);
    expect(r.p).toBeCloseTo(2 / 3, 10);
    expect(r.r).toBeCloseTo(2 / 3, 10);
    expect(r.f1).toBeCloseTo(2 / 3, 10);
    expect(bestThreshold(items)).toBe(0.15);
  });
});

describe('cli common', () => {
  it('picks the lowest grid value among equal utilities', () => {
    expect(THRESHOLD_GRID).toHaveLength(19);
    expect(bestOnGrid((t) => -Math.abs(t - 0.42))).toBe(0.4);
    expect(bestOnGrid(() => 1)).toBe(0.05);
  });

  it('aligns a table: first column left, the rest right', () => {
    expect(
      formatTable(
        ['row', 'n'],
        [
          ['a', '10'],
          ['long', '2'],
        ],
      ),
    ).toBe('row    n\na     10\nlong   2');
  });
});
