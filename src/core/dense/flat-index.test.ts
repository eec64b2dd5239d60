import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EvidentError } from '../errors';
import type { Hit } from '../types';
import { randomUnitVectors } from '../util/prng';
import { FlatIndex } from './flat-index';
import { kernelModuleBytes, simdAvailable } from './simd-kernel';

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

const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => `v${i}`);

/** Mean over queries of |top-k(a) ∩ top-k(b)| / k. */
function overlapAtK(a: FlatIndex, b: FlatIndex, queries: Float32Array, dim: number, k: number): number {
  let sum = 0;
  const nq = queries.length / dim;
  for (let i = 0; i < nq; i++) {
    const q = queries.subarray(i * dim, (i + 1) * dim);
    const want = new Set(b.search(q, k).map((h) => h.id));
    sum += a.search(q, k).filter((h) => want.has(h.id)).length / k;
  }
  return sum / nq;
}

describe('FlatIndex scan kernels and int8', () => {
  it('runs on the WASM SIMD kernel in Node where the dimension fits, and in JS where it does not', () => {
    expect(simdAvailable()).toBe(true);
    expect(WebAssembly.validate(kernelModuleBytes())).toBe(true);
    expect(new FlatIndex({ dim: 32 }).simd).toBe(true);
    expect(new FlatIndex({ dim: 32, kernel: 'js' }).simd).toBe(false);
    expect(new FlatIndex({ dim: 24 }).simd).toBe(false);
    expect(new FlatIndex({ dim: 48, quantization: 'int8' }).simd).toBe(false);
    expect(new FlatIndex({ dim: 64, quantization: 'int8' }).simd).toBe(true);
  });

  it('SIMD and JS scans return identical top-k under random adds, deletes and growth (float32, exact integers)', () => {
    const dim = 32;
    const vec = fc.array(fc.integer({ min: -4, max: 4 }), { minLength: dim, maxLength: dim });
    const op: fc.Arbitrary<Op> = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({ kind: fc.constant('add' as const), id: fc.integer({ min: 0, max: 60 }), v: vec }),
      },
      {
        weight: 1,
        arbitrary: fc.record({ kind: fc.constant('delete' as const), id: fc.integer({ min: 0, max: 60 }) }),
      },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), vec, fc.integer({ min: 0, max: 20 }), (ops, query, k) => {
        const simd = new FlatIndex({ dim, metric: 'dot', initialCapacity: 1 });
        const js = new FlatIndex({ dim, metric: 'dot', initialCapacity: 1, kernel: 'js' });
        for (const o of ops) {
          for (const index of [simd, js]) {
            if (o.kind === 'add') index.add(`d${o.id}`, o.v);
            else index.delete(`d${o.id}`);
          }
        }
        expect(simd.simd).toBe(true);
        expect(simd.search(query, k)).toEqual(js.search(query, k));
      }),
      { numRuns: 200 },
    );
  });

  it('SIMD and JS float32 scans agree on real-valued cosine data', () => {
    const dim = 128;
    const data = randomUnitVectors(500, dim, 1);
    const queries = randomUnitVectors(20, dim, 2);
    const simd = new FlatIndex({ dim });
    const js = new FlatIndex({ dim, kernel: 'js' });
    simd.addMany(ids(500), data);
    js.addMany(ids(500), data);
    for (let i = 0; i < 20; i++) {
      const q = queries.subarray(i * dim, (i + 1) * dim);
      const a = simd.search(q, 10);
      const b = js.search(q, 10);
      a.forEach((h, r) => expect(h.score).toBeCloseTo(b[r]?.score as number, 5));
    }
    expect(overlapAtK(simd, js, queries, dim, 10)).toBe(1);
  });

  it('int8: SIMD and JS give identical results (integer sums), accept filters, deletes move scales', () => {
    const dim = 64;
    const data = randomUnitVectors(300, dim, 3);
    const simd = new FlatIndex({ dim, quantization: 'int8', initialCapacity: 8 });
    const js = new FlatIndex({ dim, quantization: 'int8', initialCapacity: 8, kernel: 'js' });
    for (const index of [simd, js]) {
      index.addMany(ids(300), data);
      for (let i = 0; i < 300; i += 7) index.delete(`v${i}`);
    }
    expect(simd.simd).toBe(true);
    const queries = randomUnitVectors(10, dim, 4);
    const accept = (id: string): boolean => !id.endsWith('3');
    for (let i = 0; i < 10; i++) {
      const q = queries.subarray(i * dim, (i + 1) * dim);
      expect(simd.search(q, 15)).toEqual(js.search(q, 15));
      const filtered = simd.search(q, 15, { accept });
      expect(filtered).toEqual(js.search(q, 15, { accept }));
      expect(filtered.every((h) => accept(h.id))).toBe(true);
    }
  });

  it('int8 keeps most of the float top-10 on random unit vectors, and rescoring keeps nearly all', () => {
    const dim = 512;
    const n = 3000;
    const data = randomUnitVectors(n, dim, 5);
    const queries = randomUnitVectors(30, dim, 6);
    const exact = new FlatIndex({ dim, kernel: 'js' });
    const int8 = new FlatIndex({ dim, quantization: 'int8' });
    const rescored = new FlatIndex({ dim, quantization: 'int8', rescore: 4 });
    for (const index of [exact, int8, rescored]) index.addMany(ids(n), data);
    // Random vectors are the hard case: top scores crowd within a few hundredths.
    expect(overlapAtK(int8, exact, queries, dim, 10)).toBeGreaterThanOrEqual(0.9);
    expect(overlapAtK(rescored, exact, queries, dim, 10)).toBeGreaterThanOrEqual(0.99);
    // int8 scores approximate the cosine closely.
    const q = queries.subarray(0, dim);
    const best = exact.search(q, 1)[0] as Hit;
    const approx = int8.search(q, n).find((h) => h.id === best.id) as Hit;
    expect(Math.abs(approx.score - best.score)).toBeLessThan(0.01);
  });

  it('int8 with a shortlist covering every row equals the exact float scan', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 1000 }), (n, seed) => {
        const dim = 32;
        const data = randomUnitVectors(n, dim, seed);
        const exact = new FlatIndex({ dim, kernel: 'js' });
        const rescored = new FlatIndex({ dim, quantization: 'int8', rescore: n });
        exact.addMany(ids(n), data);
        rescored.addMany(ids(n), data);
        const q = randomUnitVectors(1, dim, seed + 1);
        expect(rescored.search(q, 1)).toEqual(exact.search(q, 1));
        expect(rescored.search(q, n)).toEqual(exact.search(q, n));
      }),
      { numRuns: 50 },
    );
  });

  it('int8 stores a quarter of the bytes and dequantizes within half a step', () => {
    const dim = 512;
    const data = randomUnitVectors(1000, dim, 7);
    const float = new FlatIndex({ dim, initialCapacity: 1000 });
    const int8 = new FlatIndex({ dim, quantization: 'int8', initialCapacity: 1000 });
    float.addMany(ids(1000), data);
    int8.addMany(ids(1000), data);
    expect(float.memoryBytes).toBeGreaterThanOrEqual(1000 * dim * 4);
    expect(int8.memoryBytes).toBeLessThan(0.3 * float.memoryBytes);
    const v = data.subarray(0, dim);
    const back = int8.get('v0') as Float32Array;
    const step = Math.max(...Array.from(v, Math.abs)) / 127;
    for (let j = 0; j < dim; j++)
      expect(Math.abs((back[j] as number) - (v[j] as number))).toBeLessThanOrEqual(step / 2 + 1e-6);
  });

  it('validates quantization options', () => {
    expect(() => new FlatIndex({ dim: 4, rescore: 2 })).toThrow(/rescore applies to quantization "int8"/);
    expect(() => new FlatIndex({ dim: 4, quantization: 'int4' as 'int8' })).toThrow(/Allowed: none, int8/);
    expect(() => new FlatIndex({ dim: 4, kernel: 'gpu' as 'js' })).toThrow(/Allowed: auto, js/);
    expect(() => new FlatIndex({ dim: 4, quantization: 'int8', rescore: -1 })).toThrow(/rescore/);
    const zero = new FlatIndex({ dim: 32, quantization: 'int8' });
    zero.add('z', new Float32Array(32));
    zero.add(
      'a',
      Float32Array.from({ length: 32 }, (_, j) => (j === 0 ? 1 : 0)),
    );
    expect(zero.search(new Float32Array(32), 2).map((h) => h.score)).toEqual([0, 0]);
    expect(
      zero.search(
        Float32Array.from({ length: 32 }, (_, j) => (j === 0 ? 1 : 0)),
        1,
      )[0]?.id,
    ).toBe('a');
  });
});
