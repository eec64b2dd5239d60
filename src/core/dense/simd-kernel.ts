/**
 * WebAssembly SIMD dot-product kernels for the exact dense scan, assembled here byte by byte (no
 * toolchain, ~300 bytes). Plain JS reads one float per operation and stays ~2–3× (float32)
 * and ~10× (int8) from the memory-bandwidth bound at 100k × 512 (`npm run bench -- --dense`);
 * 128-bit SIMD reads 16 bytes per load and reaches it.
 *
 *   dot_f32(q, data, rows, dim, out): out[r] = Σ_j q[j]·data[r·dim + j]  (float32, 4 accumulators)
 *   dot_i8 (q, data, rows, dim, out): out[r] = Σ_j q[j]·data[r·dim + j]  (int8 rows, int16 query, int32 sums)
 *
 *   read(data, bytes) → i32: 16-byte loads summed, nothing else: the bandwidth bound to compare with
 *
 * Arguments are byte offsets into the kernel's own memory. `dot_f32` needs dim % 16 = 0 and
 * `dot_i8` dim % 32 = 0 (USE's 512 and bge-small's 384 both qualify); callers fall back to JS
 * otherwise. int8 × int16 products summed in int32 cannot overflow below dim 2^16 / 2.
 *
 * Runtime-neutral: `WebAssembly` is read from `globalThis`, and `createKernel` returns null where
 * it is missing or lacks SIMD (the caller then scans in JS).
 */

/** The part of the WebAssembly API used here (core compiles without DOM or Node types). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}

const PAGE = 65536;

// --- a tiny assembler --------------------------------------------------------------------------

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    const done = (n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const name = (s: string): number[] => [...uleb(s.length), ...[...s].map((c) => c.charCodeAt(0))];

const I32 = 0x7f;
const V128 = 0x7b;

// Core opcodes.
const get = (i: number): number[] => [0x20, ...uleb(i)];
const set = (i: number): number[] => [0x21, ...uleb(i)];
const tee = (i: number): number[] => [0x22, ...uleb(i)];
const i32c = (n: number): number[] => [0x41, ...sleb(n)];
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const END = [0x0b];
const brIf = (d: number): number[] => [0x0d, ...uleb(d)];
const br = (d: number): number[] => [0x0c, ...uleb(d)];
const I32_ADD = [0x6a];
const I32_SUB = [0x6b];
const I32_SHL = [0x74];
const I32_LT_U = [0x49];
const I32_EQZ = [0x45];
const F32_ADD = [0x92];
const f32Store = [0x38, 2, 0];
const i32Store = [0x36, 2, 0];
// SIMD opcodes (prefix 0xfd, LEB128 sub-opcode).
const simd = (op: number, ...imm: number[]): number[] => [0xfd, ...uleb(op), ...imm];
const v128Load = (offset: number): number[] => simd(0x00, 4, ...uleb(offset));
const V128_ZERO = simd(0x0c, ...new Array<number>(16).fill(0));
const F32X4_ADD = simd(0xe4);
const F32X4_MUL = simd(0xe6);
const f32x4Lane = (l: number): number[] => simd(0x1f, l);
const I32X4_ADD = simd(0xae);
const i32x4Lane = (l: number): number[] => simd(0x1b, l);
const I16X8_EXT_LO = simd(0x87);
const I16X8_EXT_HI = simd(0x88);
const I32X4_DOT = simd(0xba);

// Parameters of both kernels: q, data, rows, dim, out.
const [Q, DATA, ROWS, DIM, OUT] = [0, 1, 2, 3, 4];

/** The dot kernels' row-end (i32) and query-pointer (i32) locals; their accumulators follow. */
const [END_, QP] = [5, 6];

/** Sums the four lanes of the v128 on the stack, kept in local `tmp`: (l0 + l1) + (l2 + l3). */
function laneSum(tmp: number, lane: (l: number) => number[], add: number[]): number[] {
  return [
    ...tee(tmp),
    ...lane(0),
    ...get(tmp),
    ...lane(1),
    ...add,
    ...get(tmp),
    ...lane(2),
    ...get(tmp),
    ...lane(3),
    ...add,
    ...add,
  ];
}

/**
 * The row loop both dot kernels share. While ROWS > 0: zero `acc`, point QP at the query and
 * END_ at DATA + `rowBytes`; run `step`, then advance DATA by `rowStride` and QP by 64, while
 * DATA < END_; store `result` (the row's score from the accumulators) at OUT; OUT += 4, ROWS −= 1.
 */
function dotRows(parts: {
  readonly acc: readonly number[];
  readonly rowBytes: number[];
  readonly step: number[];
  /** Bytes of the row one `step` consumes; the query (f32 or i16) advances 64 bytes a step. */
  readonly rowStride: number;
  readonly result: number[];
  readonly store: number[];
}): number[] {
  return [
    ...BLOCK,
    ...LOOP,
    ...get(ROWS),
    ...I32_EQZ,
    ...brIf(1),
    ...parts.acc.flatMap((a) => [...V128_ZERO, ...set(a)]),
    ...get(Q),
    ...set(QP),
    ...get(DATA),
    ...parts.rowBytes,
    ...I32_ADD,
    ...set(END_),
    ...LOOP,
    ...parts.step,
    ...get(DATA),
    ...i32c(parts.rowStride),
    ...I32_ADD,
    ...tee(DATA),
    ...get(QP),
    ...i32c(64),
    ...I32_ADD,
    ...set(QP),
    ...get(END_),
    ...I32_LT_U,
    ...brIf(0),
    ...END,
    ...get(OUT),
    ...parts.result,
    ...parts.store,
    ...get(OUT),
    ...i32c(4),
    ...I32_ADD,
    ...set(OUT),
    ...get(ROWS),
    ...i32c(1),
    ...I32_SUB,
    ...set(ROWS),
    ...br(0),
    ...END,
    ...END,
  ];
}

/** dot_f32: locals 5 end (i32), 6 qp (i32), 7–10 acc (v128). */
function dotF32Body(): number[] {
  const [A0, A1, A2, A3] = [7, 8, 9, 10];
  const step = (a: number, off: number): number[] => [
    ...get(a),
    ...get(DATA),
    ...v128Load(off),
    ...get(QP),
    ...v128Load(off),
    ...F32X4_MUL,
    ...F32X4_ADD,
    ...set(a),
  ];
  const code = dotRows({
    acc: [A0, A1, A2, A3],
    rowBytes: [...get(DIM), ...i32c(2), ...I32_SHL],
    step: [...step(A0, 0), ...step(A1, 16), ...step(A2, 32), ...step(A3, 48)],
    rowStride: 64,
    // Horizontal sum of (a0 + a1) + (a2 + a3).
    result: [
      ...get(A0),
      ...get(A1),
      ...F32X4_ADD,
      ...get(A2),
      ...get(A3),
      ...F32X4_ADD,
      ...F32X4_ADD,
      ...laneSum(A0, f32x4Lane, F32_ADD),
    ],
    store: f32Store,
  });
  const locals = vec([
    [2, I32],
    [4, V128],
  ]);
  return [...locals, ...code, ...END];
}

/** dot_i8: locals 5 end, 6 qp (i32), 7–8 acc, 9 v (v128). The query is int16 (2·dim bytes). */
function dotI8Body(): number[] {
  const [A0, A1, V] = [7, 8, 9];
  // acc += dot(extend(v), q[off .. off+16))
  const dot = (a: number, ext: number[], qoff: number): number[] => [
    ...get(a),
    ...get(V),
    ...ext,
    ...get(QP),
    ...v128Load(qoff),
    ...I32X4_DOT,
    ...I32X4_ADD,
    ...set(a),
  ];
  const code = dotRows({
    acc: [A0, A1],
    rowBytes: get(DIM),
    step: [
      ...get(DATA),
      ...v128Load(0),
      ...set(V),
      ...dot(A0, I16X8_EXT_LO, 0),
      ...dot(A1, I16X8_EXT_HI, 16),
      ...get(DATA),
      ...v128Load(16),
      ...set(V),
      ...dot(A0, I16X8_EXT_LO, 32),
      ...dot(A1, I16X8_EXT_HI, 48),
    ],
    rowStride: 32,
    result: [...get(A0), ...get(A1), ...I32X4_ADD, ...laneSum(A0, i32x4Lane, I32_ADD)],
    store: i32Store,
  });
  const locals = vec([
    [2, I32],
    [3, V128],
  ]);
  return [...locals, ...code, ...END];
}

/**
 * read(data, bytes) → i32: the least work a scan can do over the same bytes (16-byte loads into
 * four integer accumulators): the memory-bandwidth bound the benchmark compares scans with.
 * Needs bytes % 64 = 0. Locals 2 end (i32), 3–6 acc (v128).
 */
function readBody(): number[] {
  const [D, N, END_, A0, A1, A2, A3] = [0, 1, 2, 3, 4, 5, 6];
  const step = (a: number, off: number): number[] => [...get(a), ...get(D), ...v128Load(off), ...I32X4_ADD, ...set(a)];
  const code = [
    ...get(D),
    ...get(N),
    ...I32_ADD,
    ...set(END_),
    ...BLOCK,
    ...get(N),
    ...I32_EQZ,
    ...brIf(0),
    ...LOOP,
    ...step(A0, 0),
    ...step(A1, 16),
    ...step(A2, 32),
    ...step(A3, 48),
    ...get(D),
    ...i32c(64),
    ...I32_ADD,
    ...tee(D),
    ...get(END_),
    ...I32_LT_U,
    ...brIf(0),
    ...END,
    ...END,
    ...get(A0),
    ...get(A1),
    ...I32X4_ADD,
    ...get(A2),
    ...get(A3),
    ...I32X4_ADD,
    ...I32X4_ADD,
    ...i32x4Lane(0),
  ];
  const locals = vec([
    [1, I32],
    [4, V128],
  ]);
  return [...locals, ...code, ...END];
}

/** The module: imports `env.mem`, exports `dot_f32` (func 0), `dot_i8` (func 1) and `read` (func 2). */
export function kernelModuleBytes(): Uint8Array<ArrayBuffer> {
  const dotType = [0x60, ...vec([[I32], [I32], [I32], [I32], [I32]]), 0x00];
  const readType = [0x60, ...vec([[I32], [I32]]), ...vec([[I32]])];
  const body = (b: number[]): number[] => [...uleb(b.length), ...b];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([dotType, readType])),
    ...section(2, vec([[...name('env'), ...name('mem'), 0x02, 0x00, 0x01]])),
    ...section(3, vec([[0x00], [0x00], [0x01]])),
    ...section(
      7,
      vec([
        [...name('dot_f32'), 0x00, 0x00],
        [...name('dot_i8'), 0x00, 0x01],
        [...name('read'), 0x00, 0x02],
      ]),
    ),
    ...section(10, vec([body(dotF32Body()), body(dotI8Body()), body(readBody())])),
  ]);
}

// --- the kernel as the index uses it -------------------------------------------------------------

type KernelFn = (q: number, data: number, rows: number, dim: number, out: number) => void;

let compiled: object | null | undefined;

function wasmApi(): WasmApi | null {
  const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  return api && typeof api.validate === 'function' ? api : null;
}

function compiledModule(api: WasmApi): object | null {
  if (compiled === undefined) {
    try {
      const bytes = kernelModuleBytes();
      compiled = api.validate(bytes) ? new api.Module(bytes) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

/**
 * One index's kernel memory: the vectors live at offset 0 (`bytes` of them, growable in place),
 * followed by scratch for the query and the per-row scores.
 */
export class SimdKernel {
  private readonly memory: WasmMemory;
  private readonly f32: KernelFn;
  private readonly i8: KernelFn;
  private readonly readFn: (data: number, bytes: number) => number;
  /** Bytes reserved for vectors (a multiple of 16). */
  private dataBytes = 0;

  private constructor(memory: WasmMemory, exports: Record<string, unknown>) {
    this.memory = memory;
    this.f32 = exports.dot_f32 as KernelFn;
    this.i8 = exports.dot_i8 as KernelFn;
    this.readFn = exports.read as (data: number, bytes: number) => number;
  }

  /** A kernel with room for `dataBytes` of vectors, or null where WASM SIMD is unavailable. */
  static create(dataBytes: number): SimdKernel | null {
    const api = wasmApi();
    const module = api && compiledModule(api);
    if (!api || !module) return null;
    try {
      const memory = new api.Memory({ initial: 1 });
      const instance = new api.Instance(module, { env: { mem: memory } });
      const kernel = new SimdKernel(memory, instance.exports);
      kernel.reserve(dataBytes, 0);
      return kernel;
    } catch {
      return null;
    }
  }

  /** The memory's current buffer (views on an older one are detached after a grow). */
  get buffer(): ArrayBuffer {
    return this.memory.buffer;
  }

  /** Total bytes of the kernel's memory (vectors + scratch + slack). */
  get byteLength(): number {
    return this.memory.buffer.byteLength;
  }

  /**
   * Makes room for `dataBytes` of vectors plus `scratchBytes` of scratch after them; the
   * vectors already stored stay in place. Throws RangeError when the memory cannot grow.
   */
  reserve(dataBytes: number, scratchBytes: number): void {
    this.dataBytes = Math.max(this.dataBytes, align16(dataBytes));
    const need = this.dataBytes + align16(scratchBytes);
    const have = this.memory.buffer.byteLength;
    if (need > have) this.memory.grow(Math.ceil((need - have) / PAGE));
  }

  /** Byte offset of the scratch area (just past the vectors). */
  get scratch(): number {
    return this.dataBytes;
  }

  /** Float32 scores of `rows` float32 vectors at offset 0 against the query at `q`, into `out`. */
  dotF32(q: number, rows: number, dim: number, out: number): void {
    this.f32(q, 0, rows, dim, out);
  }

  /** Int32 sums of `rows` int8 vectors at offset 0 against the int16 query at `q`, into `out`. */
  dotI8(q: number, rows: number, dim: number, out: number): void {
    this.i8(q, 0, rows, dim, out);
  }

  /** Reads the first `bytes` (rounded down to 64) of the vectors once; returns a checksum. */
  read(bytes: number): number {
    return this.readFn(0, bytes - (bytes % 64));
  }
}

export function align16(n: number): number {
  return Math.ceil(n / 16) * 16;
}

/** Whether this runtime can run the kernels (WebAssembly with fixed-width SIMD). */
export function simdAvailable(): boolean {
  const api = wasmApi();
  return api !== null && compiledModule(api) !== null;
}
