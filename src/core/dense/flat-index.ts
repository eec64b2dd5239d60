/**
 * Exact dense retrieval: vectors in one contiguous Float32Array, a linear scan per query, top-k by
 * a bounded min-heap. At 100k × 512 the scan is bounded by memory bandwidth (see ARCHITECTURE.md,
 * Scale); no approximate index is needed at a personal library's size.
 */
import { EvidentError, assertKnownOptions } from '../errors';
import type { Hit } from '../types';
import { TopK } from '../util/topk';

export const METRICS = ['cosine', 'dot'] as const;
export type Metric = (typeof METRICS)[number];

export interface FlatIndexOptions {
  /** Vector length; every vector added and every query must have it. */
  readonly dim: number;
  /** `cosine` stores unit vectors and normalises queries; `dot` uses vectors as given. */
  readonly metric?: Metric;
  /** Rows allocated up front; the store doubles when full. */
  readonly initialCapacity?: number;
}

const DEFAULTS: Required<Omit<FlatIndexOptions, 'dim'>> & { dim: number } = Object.freeze({
  dim: 0,
  metric: 'cosine' as Metric,
  initialCapacity: 1024,
});

export interface SearchOptions {
  /** Only ids for which this returns true can be returned. */
  readonly accept?: (id: string) => boolean;
}

export class FlatIndex {
  readonly dim: number;
  readonly metric: Metric;
  private data: Float32Array;
  private capacity: number;
  private count = 0;
  /** Per row: the caller's id and the insertion sequence number (ties rank earlier inserts first). */
  private rowId: string[] = [];
  private rowSeq: Float64Array;
  private readonly rowOf = new Map<string, number>();
  private readonly idOfSeq = new Map<number, string>();
  private nextSeq = 0;

  constructor(options: FlatIndexOptions) {
    assertKnownOptions(options, DEFAULTS, 'FlatIndex');
    const opts = { ...DEFAULTS, ...options };
    if (!Number.isInteger(opts.dim) || opts.dim < 1) {
      throw new EvidentError('invalid_option', `FlatIndex: dim must be a positive integer, got ${opts.dim}.`);
    }
    if (!METRICS.includes(opts.metric)) {
      throw new EvidentError(
        'invalid_option',
        `FlatIndex: unknown metric "${opts.metric}". Allowed: ${METRICS.join(', ')}.`,
      );
    }
    if (!Number.isInteger(opts.initialCapacity) || opts.initialCapacity < 1) {
      throw new EvidentError('invalid_option', `FlatIndex: initialCapacity must be a positive integer.`);
    }
    this.dim = opts.dim;
    this.metric = opts.metric;
    this.capacity = opts.initialCapacity;
    this.data = new Float32Array(this.capacity * this.dim);
    this.rowSeq = new Float64Array(this.capacity);
  }

  /** Number of vectors stored. */
  get size(): number {
    return this.count;
  }

  has(id: string): boolean {
    return this.rowOf.has(id);
  }

  /** Adds or replaces the vector of `id` (a replaced id ranks as a new insert on ties). */
  add(id: string, vector: ArrayLike<number>): void {
    this.checkDim(vector.length, `vector for "${id}"`);
    this.delete(id);
    if (this.count === this.capacity) this.grow(this.capacity * 2);
    const row = this.count++;
    const base = row * this.dim;
    for (let j = 0; j < this.dim; j++) this.data[base + j] = vector[j] as number;
    if (this.metric === 'cosine') normaliseInPlace(this.data, base, this.dim);
    const seq = this.nextSeq++;
    this.rowId[row] = id;
    this.rowSeq[row] = seq;
    this.rowOf.set(id, row);
    this.idOfSeq.set(seq, id);
  }

  /** Adds `ids.length` vectors from a row-major matrix (e.g. `Embedder.embed` output). */
  addMany(ids: readonly string[], matrix: Float32Array): void {
    this.checkDim(matrix.length, 'matrix', ids.length * this.dim);
    const need = this.count + ids.length;
    if (need > this.capacity) this.grow(Math.max(need, this.capacity * 2));
    ids.forEach((id, i) => this.add(id, matrix.subarray(i * this.dim, (i + 1) * this.dim)));
  }

  /** Removes `id`; O(dim) by moving the last row into its place. Returns whether it was there. */
  delete(id: string): boolean {
    const row = this.rowOf.get(id);
    if (row === undefined) return false;
    this.rowOf.delete(id);
    this.idOfSeq.delete(this.rowSeq[row] as number);
    const last = --this.count;
    if (row !== last) {
      this.data.copyWithin(row * this.dim, last * this.dim, (last + 1) * this.dim);
      const movedId = this.rowId[last] as string;
      this.rowId[row] = movedId;
      this.rowSeq[row] = this.rowSeq[last] as number;
      this.rowOf.set(movedId, row);
    }
    this.rowId.length = last;
    return true;
  }

  /** A copy of the stored vector (unit-length under `cosine`). */
  get(id: string): Float32Array | undefined {
    const row = this.rowOf.get(id);
    return row === undefined ? undefined : this.data.slice(row * this.dim, (row + 1) * this.dim);
  }

  /**
   * The `k` stored vectors most similar to `query`, best first. Scores are cosine similarities
   * (or raw dot products); equal scores rank the earlier-inserted id first. NaN scores are dropped.
   */
  search(query: ArrayLike<number>, k: number, options: SearchOptions = {}): Hit[] {
    this.checkDim(query.length, 'query');
    if (!Number.isInteger(k) || k < 0) throw new EvidentError('invalid_option', `FlatIndex: k must be ≥ 0, got ${k}.`);
    const q = Float32Array.from(query);
    if (this.metric === 'cosine') normaliseInPlace(q, 0, this.dim);
    const { data, dim, rowSeq } = this;
    const { accept } = options;
    const top = new TopK(k);
    for (let row = 0; row < this.count; row++) {
      if (accept && !accept(this.rowId[row] as string)) continue;
      const base = row * dim;
      let s = 0;
      for (let j = 0; j < dim; j++) s += (q[j] as number) * (data[base + j] as number);
      // Seq as the heap id: ties go to the earlier insert, stable under deletes.
      if (s >= top.threshold) top.push(rowSeq[row] as number, s);
    }
    return top.results().map(({ id, score }) => ({ id: this.idOfSeq.get(id) as string, score }));
  }

  private grow(capacity: number): void {
    const data = new Float32Array(capacity * this.dim);
    data.set(this.data.subarray(0, this.count * this.dim));
    const seq = new Float64Array(capacity);
    seq.set(this.rowSeq.subarray(0, this.count));
    this.data = data;
    this.rowSeq = seq;
    this.capacity = capacity;
  }

  private checkDim(length: number, what: string, expected = this.dim): void {
    if (length !== expected) {
      throw new EvidentError('invalid_input', `FlatIndex: ${what} has length ${length}, expected ${expected}.`);
    }
  }
}

/** Scales `a[base .. base+dim)` to unit length; a zero vector stays zero (cosine 0 with all). */
function normaliseInPlace(a: Float32Array, base: number, dim: number): void {
  let sq = 0;
  for (let j = 0; j < dim; j++) sq += (a[base + j] as number) ** 2;
  if (sq === 0 || !Number.isFinite(sq)) return;
  const inv = 1 / Math.sqrt(sq);
  for (let j = 0; j < dim; j++) a[base + j] = (a[base + j] as number) * inv;
}
