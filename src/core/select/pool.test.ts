import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { poolCandidates, poolSize } from './pool';
import { candidate, deepFreeze } from './testing';

describe('poolCandidates', () => {
  it('sizes the pool max(50, 3 × maxEvidence)', () => {
    expect(poolSize()).toBe(50);
    expect(poolSize({ maxEvidence: 12 })).toBe(50);
    expect(poolSize({ maxEvidence: 20 })).toBe(60);
    expect(poolSize({ maxEvidence: 5, minPool: 10 })).toBe(15);
  });

  it('keeps the best poolSize candidates in score order and says why the rest went', () => {
    const input = Array.from({ length: 70 }, (_, i) => candidate(`c${i}`, i / 100));
    const r = poolCandidates(input, { maxEvidence: 12 });
    expect(r.size).toBe(50);
    expect(r.pool.map((c) => c.score)).toEqual(Array.from({ length: 50 }, (_, i) => (69 - i) / 100));
    expect(r.dropped).toHaveLength(20);
    expect(r.dropped[0]!.trace.at(-1)).toMatchObject({
      stage: 'pool',
      kept: false,
      reason: 'outside the pool (rank 51 > pool size 50)',
    });
    expect(r.pool[0]!.trace.at(-1)).toMatchObject({ stage: 'pool', kept: true, detail: { rank: 1, poolSize: 50 } });
  });

  it('keeps one copy of a repeated id: the best-scored one', () => {
    const r = poolCandidates([candidate('a', 0.2), candidate('a', 0.9), candidate('b', 0.5)]);
    expect(r.pool.map((c) => [c.id, c.score])).toEqual([
      ['a', 0.9],
      ['b', 0.5],
    ]);
    expect(r.dropped[0]!.trace.at(-1)!.reason).toMatch(/repeated candidate id/);
  });

  it('rejects unknown options naming them', () => {
    expect(() => poolCandidates([], { size: 3 } as never)).toThrow(/pool: unknown option "size"/);
    expect(() => poolCandidates([], { maxEvidence: 0 })).toThrow(/maxEvidence/);
  });

  it('partitions its input and never mutates it (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.double({ noNaN: true })), { maxLength: 120 }),
        (rows) => {
          const input = deepFreeze(rows.map(([id, s]) => candidate(`c${id}`, s)));
          const r = poolCandidates(input, { maxEvidence: 4, minPool: 10 });
          expect(r.pool.length + r.dropped.length).toBe(input.length);
          expect(new Set(r.pool.map((c) => c.id)).size).toBe(r.pool.length);
          expect(r.pool.length).toBeLessThanOrEqual(12);
          for (const c of [...r.pool, ...r.dropped]) expect(c.trace).toHaveLength(1);
        },
      ),
    );
  });
});
