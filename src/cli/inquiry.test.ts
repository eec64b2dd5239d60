import { describe, expect, it } from 'vitest';
import { describeShared, sharedPath } from '../node/shared-data';
import { evaluateInquiry, signTest, summarise } from './inquiry';

describe('inquiry evaluation arithmetic', () => {
  it('two-sided exact sign test (hand-computed)', () => {
    expect(signTest(22, 0)).toBeCloseTo(2 / 2 ** 22, 12);
    expect(signTest(5, 1)).toBeCloseTo((2 * (1 + 6)) / 64, 12);
    expect(signTest(3, 3)).toBe(1);
    expect(signTest(0, 0)).toBe(1);
  });

  it('safe, unsafe and abstain shares and decisive recall', () => {
    const m = summarise([
      { world: 'a', hops: 1, released: true, correct: true, decisiveRecall: 1 },
      { world: 'b', hops: 2, released: true, correct: false, decisiveRecall: 0.5 },
      { world: 'c', hops: 2, released: false, correct: false, decisiveRecall: 0 },
      { world: 'd', hops: 1, released: false, correct: false, decisiveRecall: 0.5 },
    ]);
    expect(m).toEqual({ n: 4, safe: 0.25, unsafe: 0.25, abstain: 0.5, decisive_recall: 0.5 });
  });
});

describeShared('inquiry-dev (issue 15 thresholds)', 'datasets/inquiry-dev/worlds.jsonl', () => {
  it('premise-directed: ≥ 90 % safe, 0 unsafe, two-hop ≥ 85 %; the controls in the same run', async () => {
    const report = await evaluateInquiry(sharedPath('datasets', 'inquiry-dev'), { budget: 2, topR: 3 });
    const by = new Map(report.configs.map((c) => [c.name, c]));
    const premise = by.get('premise')!;
    expect(premise.metrics.safe).toBeGreaterThanOrEqual(0.9);
    expect(premise.metrics.unsafe).toBe(0);
    expect(premise.byHops['2-hop']?.safe).toBeGreaterThanOrEqual(0.85);
    expect(by.get('default')?.metrics).toEqual(premise.metrics);
    for (const name of ['none', 'repeat', 'expansion']) {
      const c = by.get(name)!;
      expect(c.metrics.n).toBe(premise.metrics.n);
      expect(c.metrics.unsafe).toBe(0); // the same release guard holds for every policy
      expect(c.metrics.safe).toBeLessThan(premise.metrics.safe);
    }
    expect(report.paired.p).toBeLessThan(0.05);
    // The fixed-context defenses see only the initial context: they cannot reach the decisive record.
    for (const name of ['keyword-agg', 'cluster-filter']) {
      const c = by.get(name)!;
      expect(c.metrics.n).toBe(premise.metrics.n);
      expect(c.metrics.safe).toBeLessThan(premise.metrics.safe);
      expect(c.metrics.decisive_recall).toBe(0);
    }
  });
});
