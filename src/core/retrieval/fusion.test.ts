import { describe, expect, it } from 'vitest';
import type { Hit } from '../types';
import { fuse, RRF_K } from './fusion';

const TOL = 6;

function hits(...pairs: [string, number][]): Hit[] {
  return Object.freeze(pairs.map(([id, score]) => Object.freeze({ id, score }))) as Hit[];
}

// bm25 ranks a b c; dense ranks b d a.
const input = Object.freeze({
  bm25: hits(['a', 10], ['b', 6], ['c', 2]),
  dense: hits(['b', 0.9], ['d', 0.5], ['a', 0.1]),
});

describe('rrf', () => {
  it('sums 1/(60 + rank) over the lists (hand-computed)', () => {
    const out = fuse(input, { mode: 'rrf' });
    expect(RRF_K).toBe(60);
    expect(out.map((c) => c.id)).toEqual(['b', 'a', 'd', 'c']);
    const byId = new Map(out.map((c) => [c.id, c]));
    expect(byId.get('b')!.score).toBeCloseTo(1 / 62 + 1 / 61, TOL); // 0.032522
    expect(byId.get('a')!.score).toBeCloseTo(1 / 61 + 1 / 63, TOL); // 0.032266
    expect(byId.get('d')!.score).toBeCloseTo(1 / 62, TOL);
    expect(byId.get('c')!.score).toBeCloseTo(1 / 63, TOL);
  });

  it('keeps raw scores, ranks and a fusion trace', () => {
    const a = fuse(input, { mode: 'rrf' }).find((c) => c.id === 'a')!;
    expect(a.scores).toEqual({ bm25: 10, dense: 0.1, fused: a.score });
    expect(a.ranks).toEqual({ bm25: 1, dense: 3 });
    expect(a.docId).toBe('a');
    expect(a.trace).toEqual([
      { stage: 'fusion', score: a.score, kept: true, detail: { mode: 'rrf', bm25Rank: 1, denseRank: 3, k: 60 } },
    ]);
    const c = fuse(input, { mode: 'rrf' }).find((x) => x.id === 'c')!;
    expect(c.ranks).toEqual({ bm25: 3 });
    expect(c.scores.dense).toBeUndefined();
  });

  it('breaks equal fused scores by best rank, then id', () => {
    const out = fuse({ bm25: hits(['q', 1]), dense: hits(['p', 1]) }, { mode: 'rrf' });
    expect(out.map((c) => c.id)).toEqual(['p', 'q']);
  });
});

describe('weighted', () => {
  it('mixes min-max normalised scores, w·dense + (1−w)·bm25 (hand-computed)', () => {
    // bm25 norm: a 1, b 0.5, c 0. dense norm: b 1, d 0.5, a 0.
    const half = new Map(fuse(input, { mode: 'weighted', denseWeight: 0.5 }).map((c) => [c.id, c.score]));
    expect(half.get('a')).toBeCloseTo(0.5, TOL);
    expect(half.get('b')).toBeCloseTo(0.75, TOL);
    expect(half.get('c')).toBeCloseTo(0, TOL);
    expect(half.get('d')).toBeCloseTo(0.25, TOL);
    const out = fuse(input, { mode: 'weighted', denseWeight: 0.8 });
    expect(out.map((c) => c.id)).toEqual(['b', 'd', 'a', 'c']);
    expect(out.map((c) => c.score)).toEqual([0.9, 0.4, 0.2, 0].map((v) => expect.closeTo(v, TOL)));
    expect(out[1]!.trace[0]!.detail).toEqual({
      mode: 'weighted',
      bm25Rank: null,
      denseRank: 2,
      denseWeight: 0.8,
      bm25Norm: 0,
      denseNorm: 0.5,
    });
  });

  it('w = 0 is the bm25 order and w = 1 the dense order', () => {
    // Past the lists' minimum everything is 0 and ties go to the better rank in either list.
    expect(fuse(input, { mode: 'weighted', denseWeight: 0 }).map((c) => c.id)).toEqual(['a', 'b', 'd', 'c']);
    expect(fuse(input, { mode: 'weighted', denseWeight: 1 }).map((c) => c.id)).toEqual(['b', 'd', 'a', 'c']);
  });

  it('zero spread: a single hit or all-equal scores normalise to 1, not NaN', () => {
    const one = fuse({ bm25: hits(['x', 3]), dense: [] }, { mode: 'weighted', denseWeight: 0.5 });
    expect(one).toHaveLength(1);
    expect(one[0]!.score).toBeCloseTo(0.5, TOL);
    const equal = fuse(
      { bm25: hits(['x', 2], ['y', 2]), dense: hits(['y', 0.3]) },
      { mode: 'weighted', denseWeight: 0.5 },
    );
    expect(equal.map((c) => [c.id, c.score])).toEqual([
      ['y', 1],
      ['x', 0.5],
    ]);
  });
});

describe('fusion edges', () => {
  it('empty lists fuse to nothing', () => {
    expect(fuse({ bm25: [], dense: [] })).toEqual([]);
  });

  it('drops hits with non-finite scores and repeated ids', () => {
    const out = fuse({ bm25: hits(['x', NaN], ['y', 1], ['y', 0.5]), dense: [] }, { mode: 'weighted' });
    expect(out.map((c) => c.id)).toEqual(['y']);
    expect(out[0]!.scores.bm25).toBe(1);
  });

  it('maps ids to documents and honours the limit', () => {
    const out = fuse(
      { bm25: hits(['doc1#0', 2], ['doc2#3', 1]), dense: hits(['doc1#0', 0.5]) },
      { docIdOf: (id) => id.split('#')[0]!, limit: 1 },
    );
    expect(out).toHaveLength(1);
    expect(out[0]!.docId).toBe('doc1');
  });

  it('rejects unknown options and out-of-range values', () => {
    expect(() => fuse(input, { mode: 'max' } as never)).toThrow(/mode must be one of rrf, weighted/);
    expect(() => fuse(input, { denseWeight: 1.5 })).toThrow(/denseWeight/);
    expect(() => fuse(input, { alpha: 0.5 } as never)).toThrow(/unknown option "alpha"/);
  });
});
