import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { COVER_RULE, cutoffCandidates, findElbow } from './cutoff';
import { candidate, deepFreeze } from './testing';
import { EvidentError } from '../errors';

const cands = (scores: readonly number[]) => scores.map((s, i) => candidate(`c${String(i).padStart(3, '0')}`, s));

describe('findElbow', () => {
  it('cuts after the first gap whose z-score exceeds 1', () => {
    // gaps: .05 .05 .60 .05 .05 → mean .16, std .22; z(.60) = 2.0
    expect(findElbow([1, 0.95, 0.9, 0.3, 0.25, 0.2])).toEqual({ elbow: 3, rule: 'z-gap' });
  });

  it('takes the first outstanding gap, not the largest', () => {
    // gaps .8 .01 .01 .01 .8 .01: both .8 gaps have z = 1.41; the first one decides.
    expect(findElbow([2, 1.2, 1.19, 1.18, 1.17, 0.37, 0.36])).toEqual({ elbow: 1, rule: 'z-gap' });
    // gaps .5 .01 .01 .01 .8 .01: z(.5) = 0.88 does not qualify, z(.8) = 1.84 does.
    expect(findElbow([1, 0.5, 0.49, 0.48, 0.47, -0.33, -0.34]).elbow).toBe(5);
  });

  it('falls back to the maximum second difference when no gap stands out', () => {
    // Three points: two gaps always have z = ±1, never > 1.
    expect(findElbow([1, 0.5, 0.49])).toEqual({ elbow: 1, rule: 'second-diff' }); // knee: cut before the point
    expect(findElbow([1, 0.99, 0.5])).toEqual({ elbow: 2, rule: 'second-diff' }); // shoulder: cut after it
  });

  it('calls fewer than three items and equal gaps degenerate and keeps them all', () => {
    expect(findElbow([])).toEqual({ elbow: 0, rule: 'degenerate' });
    expect(findElbow([0.7])).toEqual({ elbow: 1, rule: 'degenerate' });
    expect(findElbow([0.9, 0.1])).toEqual({ elbow: 2, rule: 'degenerate' });
    expect(findElbow([0.5, 0.5, 0.5, 0.5])).toEqual({ elbow: 4, rule: 'degenerate' });
    expect(findElbow([0.4, 0.3, 0.2, 0.1])).toEqual({ elbow: 4, rule: 'degenerate' });
  });

  it('is invariant to shifting and scaling the scores', () => {
    const curve = [0.9, 0.85, 0.82, 0.4, 0.39, 0.3, 0.1];
    const base = findElbow(curve);
    expect(findElbow(curve.map((s) => s * 1000 - 7))).toEqual(base);
    expect(findElbow(curve.map((s) => s * 1e-6))).toEqual(base);
  });
});

describe('cutoffCandidates', () => {
  it('keeps the elbow, drops the rest with a reason, and exposes the curve', () => {
    const r = cutoffCandidates(cands([0.3, 1, 0.25, 0.95, 0.2, 0.9]));
    expect(r.kept.map((c) => c.score)).toEqual([1, 0.95, 0.9]);
    expect(r.curve).toEqual([1, 0.95, 0.9, 0.3, 0.25, 0.2]);
    expect(r.position).toBe(3);
    expect(r.rule).toBe('z-gap');
    for (const c of r.dropped) {
      const e = c.trace.at(-1)!;
      expect(e).toMatchObject({ stage: 'cutoff', kept: false });
      expect(e.reason).toMatch(/below the elbow: rank \d > cut 3 \(z-gap\)/);
    }
    expect(r.kept[0]!.trace.at(-1)).toMatchObject({
      stage: 'cutoff',
      kept: true,
      detail: { position: 3, rule: 'z-gap', rank: 1 },
    });
  });

  it("reports 'bound' when maxKeep or minKeep moves the elbow", () => {
    // 20 nearly flat, then a drop: the elbow is at 20.
    const scores = [...Array.from({ length: 20 }, (_, i) => 1 - i * 0.001), 0.1, 0.09, 0.08];
    const r = cutoffCandidates(cands(scores), { maxKeep: 12 });
    expect(r).toMatchObject({ elbow: 20, position: 12, rule: 'bound' });
    const lo = cutoffCandidates(cands([1, 0.2, 0.19, 0.18, 0.17]), { minKeep: 3 });
    expect(lo).toMatchObject({ elbow: 1, position: 3, rule: 'bound' });
  });

  it('handles 0, 1 and 2 candidates and equal scores', () => {
    expect(cutoffCandidates([])).toMatchObject({ kept: [], dropped: [], position: 0, rule: 'degenerate' });
    expect(cutoffCandidates(cands([0.4]))).toMatchObject({ position: 1, rule: 'degenerate' });
    expect(cutoffCandidates(cands([0.9, 0.1]))).toMatchObject({ position: 2, rule: 'degenerate' });
    const equal = cutoffCandidates(cands(Array(20).fill(0.5)));
    expect(equal).toMatchObject({ position: 12, rule: 'degenerate' });
    // Ties are cut deterministically by id.
    expect(equal.kept.map((c) => c.id)).toEqual(Array.from({ length: 12 }, (_, i) => `c${String(i).padStart(3, '0')}`));
  });

  it('drops candidates whose score is not finite', () => {
    const r = cutoffCandidates(cands([0.9, Number.NaN, 0.8, Number.POSITIVE_INFINITY]));
    expect(r.curve).toEqual([0.9, 0.8]);
    expect(r.dropped.map((c) => c.trace.at(-1)!.reason)).toEqual([
      'score is not a finite number',
      'score is not a finite number',
    ]);
  });

  it('rejects unknown or inconsistent options', () => {
    expect(() => cutoffCandidates([], { topK: 3 } as never)).toThrow(/unknown option "topK"/);
    expect(() => cutoffCandidates([], { minKeep: 5, maxKeep: 3 })).toThrow(EvidentError);
  });

  it('does not mutate its input', () => {
    const input = deepFreeze(cands([0.9, 0.5, 0.1, 0.05]));
    const before = JSON.stringify(input);
    cutoffCandidates(input);
    expect(JSON.stringify(input)).toBe(before);
  });

  it('stays within bounds and keeps the best for any input (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), fc.constant(0.5)), {
          maxLength: 80,
        }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 20 }),
        (scores, minKeep, extra) => {
          const maxKeep = Math.max(1, minKeep) + extra;
          const r = cutoffCandidates(cands(scores), { minKeep, maxKeep });
          const n = scores.length;
          expect(r.position).toBeGreaterThanOrEqual(Math.min(minKeep, n));
          expect(r.position).toBeLessThanOrEqual(Math.min(maxKeep, n));
          expect(r.kept.length).toBe(r.position);
          expect(r.kept.length + r.dropped.length).toBe(n);
          for (let i = 1; i < r.curve.length; i++) expect(r.curve[i - 1]!).toBeGreaterThanOrEqual(r.curve[i]!);
          const worstKept = Math.min(...r.kept.map((c) => c.score));
          for (const d of r.dropped) expect(d.score).toBeLessThanOrEqual(worstKept);
          expect(['z-gap', 'second-diff', 'bound', 'degenerate']).toContain(r.rule);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('rationale cover', () => {
  // Curve 0.85 | 0.75 0.72 0.70 0.69 0.68: the first gap (0.10) is the elbow, so one is kept.
  const scored = [
    candidate('a#0', 0.85),
    candidate('a#1', 0.75),
    candidate('b#0', 0.72),
    candidate('a#2', 0.7),
    candidate('a#3', 0.69),
    candidate('c#0', 0.68),
  ];
  const covers = new Map<string, string[]>([
    ['a#0', ['R1']],
    ['a#1', ['R2']],
    ['b#0', ['R3']],
    ['a#3', ['R4']],
  ]);

  it('keeps the best candidate of an uncovered rationale from a kept document, near the top', () => {
    expect(cutoffCandidates(scored, { coverFloor: null }, { covers }).kept.map((c) => c.id)).toEqual(['a#0']);
    const r = cutoffCandidates(scored, {}, { covers });
    // a#1 (R2, same document, 0.75 ≥ 0.8 × 0.85, rank 2) comes back; b#0 is another document;
    // a#3 (R4) ranks 5, beyond the first 3.
    expect(r.kept.map((c) => c.id)).toEqual(['a#0', 'a#1']);
    expect(r.position).toBe(1);
    expect(r.kept[1]!.trace.at(-1)).toMatchObject({
      stage: 'cutoff',
      kept: true,
      reason: 'kept below the cut: covers rationale R2',
      detail: { rule: COVER_RULE, rank: 2 },
    });
    expect(r.dropped.map((c) => c.id)).toEqual(['b#0', 'a#2', 'a#3', 'c#0']);
  });

  it('respects the floor, the ranks, the document rule, covered rationales and maxKeep', () => {
    const ids = (o: Parameters<typeof cutoffCandidates>[1], m = covers) =>
      cutoffCandidates(scored, o, { covers: m }).kept.map((c) => c.id);
    expect(ids({ coverFloor: 0.9 })).toEqual(['a#0']);
    expect(ids({ coverSameDocument: false })).toEqual(['a#0', 'a#1', 'b#0']);
    expect(ids({ coverRanks: 5 })).toEqual(['a#0', 'a#1', 'a#3']);
    expect(ids({}, new Map([...covers, ['a#0', ['R1', 'R2']]]))).toEqual(['a#0']);
    expect(ids({ maxKeep: 1 })).toEqual(['a#0']);
    expect(cutoffCandidates(scored).kept.map((c) => c.id)).toEqual(['a#0']);
    expect(() => cutoffCandidates(scored, { coverFloor: 1.5 })).toThrow(EvidentError);
    expect(() => cutoffCandidates(scored, { coverRanks: 0 })).toThrow(EvidentError);
  });

  it('keeps within maxKeep, never drops a candidate above the cut, accounts for everyone (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.double({ min: 0, max: 1, noNaN: true }),
            fc.integer({ min: 0, max: 3 }),
            fc.subarray(['R1', 'R2', 'R3']),
          ),
          {
            maxLength: 30,
          },
        ),
        fc.integer({ min: 1, max: 8 }),
        (rows, maxKeep) => {
          const list = rows.map(([s, d], i) => candidate(`d${d}#${i}`, s));
          const m = new Map(rows.map(([, , rs], i) => [list[i]!.id, rs]));
          const plain = cutoffCandidates(list, { maxKeep, coverFloor: null });
          const r = cutoffCandidates(list, { maxKeep }, { covers: m });
          expect(r.kept.length).toBeLessThanOrEqual(maxKeep);
          expect(r.kept.length + r.dropped.length).toBe(list.length);
          const kept = new Set(r.kept.map((c) => c.id));
          for (const c of plain.kept) expect(kept.has(c.id)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
