import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EvidentError } from '../errors';
import type { Hit } from '../types';
import { FlatIndex } from './flat-index';

/** Plain reference for the dot metric: every stored vector scored, full sort, insertion order on ties. */
function bruteDot(store: Map<string, number[]>, query: readonly number[], k: number): Hit[] {
  return [...store.entries()]
    .map(([id, v], order) => ({ id, order, score: v.reduce((s, x, j) => s + x * (query[j] as number), 0) }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, k)
    .map(({ id, score }) => ({ id, score }));
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, j) => {
    const y = b[j] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  });
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

type Op = { kind: 'add'; id: number; v: number[] } | { kind: 'delete'; id: number };

describe('FlatIndex', () => {
  it('finds the nearest vectors by cosine, best first', () => {
    const index = new FlatIndex({ dim: 3 });
    index.add('x', [1, 0, 0]);
    index.add('y', [0, 10, 0]);
    index.add('xy', [1, 1, 0]);
    const hits = index.search([1.9, 2, 0], 2);
    expect(hits.map((h) => h.id)).toEqual(['xy', 'y']);
    expect(hits[0]?.score).toBeCloseTo(cosine([1.9, 2, 0], [1, 1, 0]), 6);
    // Cosine ignores length: the stored vector is unit-length.
    expect(Math.hypot(...(index.get('y') as Float32Array))).toBeCloseTo(1, 6);
  });

  it('guards its edges: empty index, k = 0, k > size, zero query, bad input', () => {
    const index = new FlatIndex({ dim: 2, initialCapacity: 1 });
    expect(index.search([1, 0], 5)).toEqual([]);
    index.add('a', [1, 0]);
    index.add('b', [0, 1]);
    index.add('c', [-1, 0]);
    expect(index.size).toBe(3);
    expect(index.search([1, 0], 0)).toEqual([]);
    expect(index.search([1, 0], 10).map((h) => h.id)).toEqual(['a', 'b', 'c']);
    // A zero query scores 0 against everything: ties, so insertion order.
    expect(index.search([0, 0], 3)).toEqual([
      { id: 'a', score: 0 },
      { id: 'b', score: 0 },
      { id: 'c', score: 0 },
    ]);
    expect(() => index.search([1, 0, 0], 1)).toThrow(EvidentError);
    expect(() => index.add('d', [1])).toThrow(/length 1, expected 2/);
    expect(() => index.search([1, 0], -1)).toThrow(EvidentError);
    expect(() => new FlatIndex({ dim: 0 })).toThrow(/dim/);
    expect(() => new FlatIndex({ dim: 2, metric: 'l2' as 'dot' })).toThrow(/Allowed: cosine, dot/);
    expect(() => new FlatIndex({ dim: 2, k: 3 } as never)).toThrow(/unknown option "k"/);
  });

  it('deletes and replaces by id', () => {
    const index = new FlatIndex({ dim: 2, metric: 'dot' });
    index.addMany(['a', 'b', 'c'], new Float32Array([3, 0, 2, 0, 1, 0]));
    expect(index.delete('a')).toBe(true);
    expect(index.delete('a')).toBe(false);
    expect(index.has('a')).toBe(false);
    expect(index.search([1, 0], 3)).toEqual([
      { id: 'b', score: 2 },
      { id: 'c', score: 1 },
    ]);
    index.add('c', [5, 0]);
    expect(index.size).toBe(2);
    expect(index.search([1, 0], 1)).toEqual([{ id: 'c', score: 5 }]);
    expect(index.get('zzz')).toBeUndefined();
  });

  it('breaks ties by insertion order even after a delete reorders rows', () => {
    const index = new FlatIndex({ dim: 1, metric: 'dot' });
    for (const id of ['a', 'b', 'c', 'd']) index.add(id, [1]);
    index.delete('a'); // the last row ('d') moves into the first slot
    expect(index.search([1], 2).map((h) => h.id)).toEqual(['b', 'c']);
  });

  it('filters with accept', () => {
    const index = new FlatIndex({ dim: 1, metric: 'dot' });
    ['a', 'b', 'c', 'd'].forEach((id, i) => index.add(id, [i]));
    expect(index.search([1], 2, { accept: (id) => id !== 'd' }).map((h) => h.id)).toEqual(['c', 'b']);
  });

  it('equals a brute-force scan under random adds, deletes and replaces (dot, exact integers)', () => {
    // Small integer vectors make every score exact in float32 and force many ties.
    const dim = 4;
    const vec = fc.array(fc.integer({ min: -3, max: 3 }), { minLength: dim, maxLength: dim });
    const op: fc.Arbitrary<Op> = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({ kind: fc.constant('add' as const), id: fc.integer({ min: 0, max: 30 }), v: vec }),
      },
      {
        weight: 1,
        arbitrary: fc.record({ kind: fc.constant('delete' as const), id: fc.integer({ min: 0, max: 30 }) }),
      },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), vec, fc.integer({ min: 0, max: 12 }), (ops, query, k) => {
        const index = new FlatIndex({ dim, metric: 'dot', initialCapacity: 2 });
        const store = new Map<string, number[]>();
        for (const o of ops) {
          const id = `d${o.id}`;
          if (o.kind === 'add') {
            index.add(id, o.v);
            store.delete(id); // a replaced id counts as a new insert, as documented
            store.set(id, o.v);
          } else {
            expect(index.delete(id)).toBe(store.delete(id));
          }
        }
        expect(index.size).toBe(store.size);
        expect(index.search(query, k)).toEqual(bruteDot(store, query, k));
      }),
      { numRuns: 300 },
    );
  });

  it('returns the brute-force top-k cosine scores on random float data', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 16 }).chain((dim) =>
          fc.tuple(
            fc.array(fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: dim, maxLength: dim }), {
              maxLength: 60,
            }),
            fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: dim, maxLength: dim }),
            fc.constant(dim),
          ),
        ),
        fc.integer({ min: 1, max: 10 }),
        ([vectors, query, dim], k) => {
          const index = new FlatIndex({ dim });
          vectors.forEach((v, i) => index.add(`v${i}`, v));
          const hits = index.search(query, k);
          const expected = vectors.map((v) => cosine(v, query)).sort((a, b) => b - a);
          expect(hits).toHaveLength(Math.min(k, vectors.length));
          hits.forEach((h, i) => {
            // Float32 storage: compare scores, not ids, so near-ties may swap without failing.
            expect(h.score).toBeCloseTo(expected[i] as number, 4);
            expect(h.score).toBeCloseTo(cosine(vectors[Number(h.id.slice(1))] as number[], query), 4);
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});
