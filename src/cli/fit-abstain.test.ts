import { describe, expect, it } from 'vitest';
import { ABSTENTION_FEATURES, pCorrect, type AbstentionSignals } from '../core/answer/abstain';
import { chooseThreshold, fitLogistic, type Example } from './fit-abstain';
import { bestThreshold, f1At } from './fit-support';

const signals = (voteSources: number): AbstentionSignals => ({
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
});
const example = (v: number, y: 0 | 1): Example => {
  const s = signals(v);
  return {
    signals: s,
    y,
    x: Object.fromEntries(
      ABSTENTION_FEATURES.map((f) => [
        f,
        f === 'voteSources' ? v : f === 'typed' ? 1 : (s as unknown as Record<string, number>)[f]!,
      ]),
    ) as Example['x'],
  };
};

describe('fitLogistic and chooseThreshold', () => {
  it('learns that the informative feature raises the probability of a correct answer', () => {
    const data = [...[0, 1, 1, 0].map((v) => example(v, 0)), ...[3, 4, 2, 3].map((v) => example(v, 1))];
    const m = fitLogistic(data);
    expect(m.weights.voteSources).toBeGreaterThan(0);
    expect(pCorrect(signals(4), m)).toBeGreaterThan(0.5);
    expect(pCorrect(signals(0), m)).toBeLessThan(0.5);
    const t = chooseThreshold(data, m);
    for (const e of data) expect(pCorrect(e.signals, m) >= t).toBe(e.y === 1);
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
