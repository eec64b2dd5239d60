import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { diffKeys, diffWords } from './diff';

describe('diffWords', () => {
  it('isolates the one edited span of two near-identical passages', () => {
    const d = diffWords(
      'The game was played at Raymond James Stadium in Tampa, Florida, the home stadium.',
      'The game was played at Raymond James Stadium in Glendale, Arizona, the home stadium.',
    );
    expect(d.hunks).toHaveLength(1);
    const h = d.hunks[0]!;
    expect(d.a.slice(h.aStart, h.aEnd).map((t) => t.raw)).toEqual(['Tampa', 'Florida']);
    expect(d.b.slice(h.bStart, h.bEnd).map((t) => t.raw)).toEqual(['Glendale', 'Arizona']);
    expect(d.ratio).toBeGreaterThan(0.85);
  });

  it('gives ratio 1 and no hunks for equal texts (case and accents folded)', () => {
    const d = diffWords('Chloé Zhao won', 'chloe zhao WON');
    expect(d.hunks).toEqual([]);
    expect(d.ratio).toBe(1);
  });

  it('keeps the unchanged tokens in order and in equal number (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 25 }),
        fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 25 }),
        (a, b) => {
          const { hunks, common, ratio } = diffKeys(a, b);
          const keptA = a.filter((_, i) => !hunks.some((h) => i >= h.aStart && i < h.aEnd));
          const keptB = b.filter((_, j) => !hunks.some((h) => j >= h.bStart && j < h.bEnd));
          expect(keptA).toEqual(keptB);
          expect(keptA.length).toBe(common);
          expect(ratio).toBeCloseTo(diffKeys(b, a).ratio, 12);
        },
      ),
    );
  });
});
