import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TopK } from './topk';

/** Plain reference: full sort by score desc, id asc, then slice. */
function bruteTopK(entries: readonly { id: number; score: number }[], k: number): { id: number; score: number }[] {
  return entries
    .filter((e) => !Number.isNaN(e.score))
    .slice()
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .slice(0, k);
}

describe('TopK', () => {
  it('keeps the k best, best first', () => {
    const t = new TopK(3);
    [5, 1, 9, 3, 7, 2].forEach((s, i) => t.push(i, s));
    expect(t.results()).toEqual([
      { id: 2, score: 9 },
      { id: 4, score: 7 },
      { id: 0, score: 5 },
    ]);
    expect(t.threshold).toBe(5);
  });

  it('handles k = 0, empty input and fewer items than k', () => {
    const zero = new TopK(0);
    expect(zero.push(1, 1)).toBe(false);
    expect(zero.results()).toEqual([]);
    expect(zero.threshold).toBe(Infinity);
    expect(new TopK(4).results()).toEqual([]);
    const few = new TopK(10);
    few.push(3, 0.5);
    few.push(1, 0.25);
    expect(few.results()).toEqual([
      { id: 3, score: 0.5 },
      { id: 1, score: 0.25 },
    ]);
    expect(few.threshold).toBe(-Infinity);
  });

  it('breaks ties by smaller id regardless of push order', () => {
    const a = new TopK(2);
    const b = new TopK(2);
    for (const id of [4, 1, 3, 2]) a.push(id, 1);
    for (const id of [2, 3, 1, 4]) b.push(id, 1);
    expect(a.results()).toEqual([
      { id: 1, score: 1 },
      { id: 2, score: 1 },
    ]);
    expect(b.results()).toEqual(a.results());
  });

  it('ignores NaN scores and rejects an invalid k', () => {
    const t = new TopK(2);
    expect(t.push(1, NaN)).toBe(false);
    t.push(2, -Infinity);
    expect(t.results()).toEqual([{ id: 2, score: -Infinity }]);
    expect(() => new TopK(-1)).toThrow(RangeError);
    expect(() => new TopK(1.5)).toThrow(RangeError);
  });

  it('clear() empties it for reuse', () => {
    const t = new TopK(2);
    t.push(1, 1);
    t.clear();
    expect(t.length).toBe(0);
    t.push(2, 0);
    expect(t.results()).toEqual([{ id: 2, score: 0 }]);
  });

  it('equals a brute-force sort on random data (with many ties)', () => {
    fc.assert(
      fc.property(
        // Small integer scores force frequent ties; doubles cover the general case.
        fc.array(fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ noNaN: false })), { maxLength: 300 }),
        fc.integer({ min: 0, max: 40 }),
        (scores, k) => {
          // Shuffle ids relative to push order so tie-breaking by id is actually exercised.
          const entries = scores.map((score, i) => ({ id: (i * 7919) % 1_000_003, score }));
          const t = new TopK(k);
          for (const e of entries) t.push(e.id, e.score);
          expect(t.results()).toEqual(bruteTopK(entries, k));
        },
      ),
      { numRuns: 300 },
    );
  });
});
