/**
 * Exact dense retrieval: vectors in one contiguous array, a linear scan per query, top-k by a
 * bounded min-heap. No approximate index: at a personal library's size (100k × 512) the scan
 * runs at the memory-bandwidth bound (`npm run bench -- --dense`).
 *
 * - Scan kernel: a WebAssembly SIMD dot product (`simd-kernel.ts`) where the runtime has it and
 *   the dimension fits (dim % 16 = 0 for float32, % 32 for int8); plain JS otherwise, or with
 *   `kernel: 'js'` (the reference the SIMD path is tested against). The vectors then live in the
 *   kernel's memory, so the scan reads them where they are.
 * - `quantization: 'int8'`: each vector is stored as int8 codes with its own scale
 *   (symmetric: code = round(127·v/max|v|)), a quarter of the bytes; the query is quantized the
 *   same way and scores are integer dot products times both scales. Optional `rescore`: the
 *   best `rescore × k` rows by the int8 score are rescored with exact float32 dot products (a
 *   float copy is kept for that: 1.25× the float index). The nDCG cost on SciFact is in BENCHMARKS.md.
 */
import { EvidentError, assertKnownOptions } from '../errors';
import type { Hit } from '../types';
import { TopK } from '../util/topk';
import { SimdKernel } from './simd-kernel';

export const METRICS = ['cosine', 'dot'] as const;
export type Metric = (typeof METRICS)[number];
export const QUANTIZATIONS = ['none', 'int8'] as const;
export type Quantization = (typeof QUANTIZATIONS)[number];
export const KERNELS = ['auto', 'js'] as const;
export type ScanKernel = (typeof KERNELS)[number];

export interface FlatIndexOptions {
  /** Vector length; every vector added and every query must have it. */
  readonly dim: number;
  /** `cosine` stores unit vectors and normalises queries; `dot` uses vectors as given. */
  readonly metric?: Metric;
  /** Rows allocated up front; the store doubles when full. */
  readonly initialCapacity?: number;
  /** `int8`: per-vector symmetric int8 codes (¼ of the bytes, approximate scores). Default `none`. */
  readonly quantization?: Quantization;
  /**
   * With `int8`: rescore the best `rescore × k` rows exactly in float32 (keeps a float copy).
   * 0 (default): int8 scores as they are.
   */
  readonly rescore?: number;
  /** `auto` (default): the WASM SIMD kernel where available; `js`: plain JS. */
  readonly kernel?: ScanKernel;
}

const DEFAULTS: Required<Omit<FlatIndexOptions, 'dim'>> & { dim: number } = Object.freeze({
  dim: 0,
  metric: 'cosine' as Metric,
  initialCapacity: 1024,
  quantization: 'none' as Quantization,
  rescore: 0,
  kernel: 'auto' as ScanKernel,
});

export interface SearchOptions {
  /** Only ids for which this returns true can be returned. */
  readonly accept?: (id: string) => boolean;
}

export class FlatIndex {
  readonly dim: number;
  readonly metric: Metric;
  readonly quantization: Quantization;
  readonly rescore: number;
  private capacity: number;
  private count = 0;
  /** Float32 rows: the scanned store without quantization, the rescoring copy with it; else null. */
  private floats: Float32Array | null = null;
  /** int8 rows and their scales (value ≈ code · scale), with quantization. */
  private codes: Int8Array | null = null;
  private scales: Float32Array | null = null;
  /** Holds the scanned rows (floats or codes) when the SIMD kernel is in use. */
  private kernel: SimdKernel | null;
  /** One row's worth of float32 scratch (normalising before quantizing). */
  private readonly tmp: Float32Array;
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
    const oneOf = <T extends string>(what: string, v: T, allowed: readonly T[]): void => {
      if (!allowed.includes(v)) {
        throw new EvidentError('invalid_option', `FlatIndex: unknown ${what} "${v}". Allowed: ${allowed.join(', ')}.`);
      }
    };
    oneOf('metric', opts.metric, METRICS);
    oneOf('quantization', opts.quantization, QUANTIZATIONS);
    oneOf('kernel', opts.kernel, KERNELS);
    if (!Number.isInteger(opts.initialCapacity) || opts.initialCapacity < 1) {
      throw new EvidentError('invalid_option', `FlatIndex: initialCapacity must be a positive integer.`);
    }
    if (!Number.isInteger(opts.rescore) || opts.rescore < 0) {
      throw new EvidentError('invalid_option', `FlatIndex: rescore must be an integer ≥ 0, got ${opts.rescore}.`);
    }
    if (opts.rescore > 0 && opts.quantization === 'none') {
      throw new EvidentError('invalid_option', 'FlatIndex: rescore applies to quantization "int8" only.');
    }
    this.dim = opts.dim;
    this.metric = opts.metric;
    this.quantization = opts.quantization;
    this.rescore = opts.rescore;
    this.capacity = opts.initialCapacity;
    this.tmp = new Float32Array(this.dim);
    const int8 = this.quantization === 'int8';
    const fits = int8 ? this.dim % 32 === 0 : this.dim % 16 === 0;
    this.kernel = opts.kernel === 'auto' && fits ? SimdKernel.create(this.capacity * this.rowBytes) : null;
    this.rowSeq = new Float64Array(this.capacity);
    this.allocate(this.capacity);
  }

  /** Number of vectors stored. */
  get size(): number {
    return this.count;
  }

  /** Whether scans run on the WASM SIMD kernel (else plain JS). */
  get simd(): boolean {
    return this.kernel !== null;
  }

  /** Bytes the index holds for vectors (scanned rows, scales, a rescoring copy, kernel scratch). */
  get memoryBytes(): number {
    const plain = (a: { byteLength: number } | null, inKernel: boolean): number => (a && !inKernel ? a.byteLength : 0);
    const int8 = this.quantization === 'int8';
    return (
      (this.kernel?.byteLength ?? 0) +
      plain(this.floats, this.kernel !== null && !int8) +
      plain(this.codes, this.kernel !== null) +
      plain(this.scales, false) +
      this.rowSeq.byteLength
    );
  }

  /** Bytes of the WASM memory holding the scanned rows (0 without the kernel). Heap measures omit it. */
  get wasmBytes(): number {
    return this.kernel?.byteLength ?? 0;
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
    this.writeRow(row, vector);
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
      const { dim } = this;
      this.floats?.copyWithin(row * dim, last * dim, (last + 1) * dim);
      this.codes?.copyWithin(row * dim, last * dim, (last + 1) * dim);
      if (this.scales) this.scales[row] = this.scales[last] as number;
      const movedId = this.rowId[last] as string;
      this.rowId[row] = movedId;
      this.rowSeq[row] = this.rowSeq[last] as number;
      this.rowOf.set(movedId, row);
    }
    this.rowId.length = last;
    return true;
  }

  /** A copy of the stored vector (unit-length under `cosine`; dequantized when only int8 is kept). */
  get(id: string): Float32Array | undefined {
    const row = this.rowOf.get(id);
    if (row === undefined) return undefined;
    const { dim } = this;
    if (this.floats) return this.floats.slice(row * dim, (row + 1) * dim);
    const codes = this.codes as Int8Array;
    const scale = (this.scales as Float32Array)[row] as number;
    const out = new Float32Array(dim);
    for (let j = 0; j < dim; j++) out[j] = (codes[row * dim + j] as number) * scale;
    return out;
  }

  /**
   * The `k` stored vectors most similar to `query`, best first. Scores are cosine similarities
   * (or raw dot products; approximate under int8 without rescoring); equal scores rank the
   * earlier-inserted id first. NaN scores are dropped.
   */
  search(query: ArrayLike<number>, k: number, options: SearchOptions = {}): Hit[] {
    this.checkDim(query.length, 'query');
    if (!Number.isInteger(k) || k < 0) throw new EvidentError('invalid_option', `FlatIndex: k must be ≥ 0, got ${k}.`);
    const q = Float32Array.from(query);
    if (this.metric === 'cosine') normaliseInPlace(q, 0, this.dim);
    const { accept } = options;
    let top: TopK;
    if (this.quantization === 'none') {
      top = this.kernel ? this.scanFloatSimd(q, k, accept) : this.scanFloatJs(q, k, accept);
    } else {
      const shortlist = this.rescore > 0 ? Math.min(this.count, k * this.rescore) : k;
      top = this.scanInt8(q, shortlist, accept);
      if (this.rescore > 0) top = this.rescoreRows(q, top, k);
    }
    return top.results().map(({ id, score }) => ({ id: this.idOfSeq.get(id) as string, score }));
  }

  /** Reference scan: float32 rows, double accumulation, fused with the heap. */
  private scanFloatJs(q: Float32Array, k: number, accept?: (id: string) => boolean): TopK {
    const { dim, rowSeq } = this;
    const data = this.floats as Float32Array;
    const top = new TopK(k);
    for (let row = 0; row < this.count; row++) {
      if (accept && !accept(this.rowId[row] as string)) continue;
      const base = row * dim;
      let s = 0;
      for (let j = 0; j < dim; j++) s += (q[j] as number) * (data[base + j] as number);
      // Seq as the heap id: ties go to the earlier insert, stable under deletes.
      if (s >= top.threshold) top.push(rowSeq[row] as number, s);
    }
    return top;
  }

  private scanFloatSimd(q: Float32Array, k: number, accept?: (id: string) => boolean): TopK {
    const kernel = this.kernel as SimdKernel;
    const { dim, count, rowSeq } = this;
    const at = kernel.scratch;
    new Float32Array(kernel.buffer, at, dim).set(q);
    kernel.dotF32(at, count, dim, at + dim * 4);
    const scores = new Float32Array(kernel.buffer, at + dim * 4, count);
    const top = new TopK(k);
    for (let row = 0; row < count; row++) {
      const s = scores[row] as number;
      if (s < top.threshold || (accept && !accept(this.rowId[row] as string))) continue;
      top.push(rowSeq[row] as number, s);
    }
    return top;
  }

  /**
   * int8 scores: the query quantized like a row (its own scale), integer dot products times both
   * scales. Heap ids are insertion sequence numbers, or rows when a rescoring pass follows.
   */
  private scanInt8(q: Float32Array, k: number, accept?: (id: string) => boolean): TopK {
    const { dim, count, rowSeq } = this;
    const scales = this.scales as Float32Array;
    const byRow = this.rescore > 0;
    let max = 0;
    for (let j = 0; j < dim; j++) max = Math.max(max, Math.abs(q[j] as number));
    const qScale = max > 0 ? max / 127 : 0;
    let sums: Int32Array;
    const kernel = this.kernel;
    if (kernel) {
      const at = kernel.scratch;
      const q16 = new Int16Array(kernel.buffer, at, dim);
      for (let j = 0; j < dim; j++) q16[j] = qScale > 0 ? Math.round((q[j] as number) / qScale) : 0;
      kernel.dotI8(at, count, dim, at + dim * 4);
      sums = new Int32Array(kernel.buffer, at + dim * 4, count);
    } else {
      const codes = this.codes as Int8Array;
      const q8 = new Int8Array(dim);
      for (let j = 0; j < dim; j++) q8[j] = qScale > 0 ? Math.round((q[j] as number) / qScale) : 0;
      sums = new Int32Array(count);
      for (let row = 0; row < count; row++) {
        const base = row * dim;
        let s = 0;
        for (let j = 0; j < dim; j++) s = (s + (q8[j] as number) * (codes[base + j] as number)) | 0;
        sums[row] = s;
      }
    }
    const top = new TopK(k);
    for (let row = 0; row < count; row++) {
      const s = (sums[row] as number) * (scales[row] as number) * qScale;
      if (s < top.threshold || (accept && !accept(this.rowId[row] as string))) continue;
      top.push(byRow ? row : (rowSeq[row] as number), s);
    }
    return top;
  }

  /** Exact float32 scores (as `scanFloatJs` computes them) for a shortlist of rows. */
  private rescoreRows(q: Float32Array, shortlist: TopK, k: number): TopK {
    const { dim, rowSeq } = this;
    const data = this.floats as Float32Array;
    const top = new TopK(k);
    for (const { id: row } of shortlist.results()) {
      const base = row * dim;
      let s = 0;
      for (let j = 0; j < dim; j++) s += (q[j] as number) * (data[base + j] as number);
      top.push(rowSeq[row] as number, s);
    }
    return top;
  }

  private get rowBytes(): number {
    return this.quantization === 'int8' ? this.dim : this.dim * 4;
  }

  /** Stores one vector in `row`: normalised under cosine, quantized under int8. */
  private writeRow(row: number, vector: ArrayLike<number>): void {
    const { dim, tmp } = this;
    for (let j = 0; j < dim; j++) tmp[j] = vector[j] as number;
    if (this.metric === 'cosine') normaliseInPlace(tmp, 0, dim);
    this.floats?.set(tmp, row * dim);
    if (this.codes) {
      let max = 0;
      for (let j = 0; j < dim; j++) max = Math.max(max, Math.abs(tmp[j] as number));
      const scale = max > 0 && Number.isFinite(max) ? max / 127 : 0;
      const base = row * dim;
      for (let j = 0; j < dim; j++) this.codes[base + j] = scale > 0 ? Math.round((tmp[j] as number) / scale) : 0;
      (this.scales as Float32Array)[row] = scale;
    }
  }

  /**
   * (Re)creates the row arrays for `capacity` rows, keeping the stored ones. The scanned rows
   * live in the kernel's memory when there is one; a memory that cannot grow moves them to
   * plain arrays (JS scan) rather than failing.
   */
  private allocate(capacity: number): void {
    const { dim } = this;
    const int8 = this.quantization === 'int8';
    const keep = this.count * dim;
    if (this.kernel) {
      try {
        this.kernel.reserve(capacity * this.rowBytes, dim * 4 + capacity * 4);
        const buffer = this.kernel.buffer;
        if (int8) this.codes = new Int8Array(buffer, 0, capacity * dim);
        else this.floats = new Float32Array(buffer, 0, capacity * dim);
      } catch {
        const kernel = this.kernel;
        this.kernel = null;
        const old = int8 ? new Int8Array(kernel.buffer, 0, keep) : new Float32Array(kernel.buffer, 0, keep);
        if (int8) (this.codes = new Int8Array(capacity * dim)).set(old);
        else (this.floats = new Float32Array(capacity * dim)).set(old);
      }
    } else if (int8) {
      const codes = new Int8Array(capacity * dim);
      if (this.codes) codes.set(this.codes.subarray(0, keep));
      this.codes = codes;
    } else {
      const floats = new Float32Array(capacity * dim);
      if (this.floats) floats.set(this.floats.subarray(0, keep));
      this.floats = floats;
    }
    if (int8) {
      const scales = new Float32Array(capacity);
      if (this.scales) scales.set(this.scales.subarray(0, this.count));
      this.scales = scales;
      if (this.rescore > 0) {
        const floats = new Float32Array(capacity * dim);
        if (this.floats) floats.set(this.floats.subarray(0, keep));
        this.floats = floats;
      }
    }
  }

  private grow(capacity: number): void {
    this.allocate(capacity);
    const seq = new Float64Array(capacity);
    seq.set(this.rowSeq.subarray(0, this.count));
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
