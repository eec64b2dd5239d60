/**
 * A minimal ONNX writer: encodes a `ModelProto` as protobuf bytes by hand, with no dependency.
 *
 * Only what the tiny test models need: nodes with int / float / ints / tensor attributes, fp32 and
 * int64 initializers stored as `raw_data`, and inputs/outputs with symbolic or fixed dimensions.
 * Field numbers follow onnx/onnx.proto (IR version 8). Repeated scalars are written unpacked, the
 * proto2 default, which every protobuf parser accepts.
 */

/** `TensorProto.DataType` values we use. */
export const DataType = { FLOAT: 1, INT32: 6, INT64: 7, BOOL: 9 } as const;
export type ElemType = (typeof DataType)[keyof typeof DataType];

/** `AttributeProto.AttributeType` values we use. */
const AttrType = { FLOAT: 1, INT: 2, TENSOR: 4, INTS: 7 } as const;

// ── protobuf primitives ─────────────────────────────────────────────────────────────────────────

class Writer {
  private readonly parts: number[] = [];

  varint(value: number | bigint): this {
    // int64 fields carry negative numbers as their 64-bit two's complement (10 bytes).
    let v = BigInt.asUintN(64, BigInt(value));
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v !== 0n) byte |= 0x80;
      this.parts.push(byte);
    } while (v !== 0n);
    return this;
  }

  private tag(field: number, wire: 0 | 1 | 2 | 5): this {
    return this.varint((field << 3) | wire);
  }

  int(field: number, value: number | bigint): this {
    return this.tag(field, 0).varint(value);
  }

  float(field: number, value: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    this.tag(field, 5);
    for (const x of b) this.parts.push(x);
    return this;
  }

  bytes(field: number, data: Uint8Array): this {
    this.tag(field, 2).varint(data.length);
    for (const x of data) this.parts.push(x);
    return this;
  }

  string(field: number, s: string): this {
    return this.bytes(field, new TextEncoder().encode(s));
  }

  message(field: number, inner: Writer): this {
    return this.bytes(field, inner.finish());
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

// ── ONNX messages ───────────────────────────────────────────────────────────────────────────────

export type Dim = number | string;

export interface Tensor {
  readonly name: string;
  readonly type: ElemType;
  readonly dims: readonly number[];
  readonly data: Float32Array | BigInt64Array | Int32Array | Uint8Array;
}

export type Attr =
  | { readonly kind: 'int'; readonly value: number }
  | { readonly kind: 'float'; readonly value: number }
  | { readonly kind: 'ints'; readonly value: readonly number[] }
  | { readonly kind: 'tensor'; readonly value: Tensor };

export const attr = {
  int: (value: number): Attr => ({ kind: 'int', value }),
  float: (value: number): Attr => ({ kind: 'float', value }),
  ints: (value: readonly number[]): Attr => ({ kind: 'ints', value }),
  tensor: (value: Tensor): Attr => ({ kind: 'tensor', value }),
};

export interface Node {
  readonly op: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly name: string;
  readonly attrs: Readonly<Record<string, Attr>>;
}

export interface ValueInfo {
  readonly name: string;
  readonly type: ElemType;
  readonly shape: readonly Dim[];
}

function tensorProto(t: Tensor): Writer {
  const w = new Writer();
  for (const d of t.dims) w.int(1, d);
  w.int(2, t.type);
  w.string(8, t.name);
  w.bytes(9, new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  return w;
}

function valueInfoProto(v: ValueInfo): Writer {
  const shape = new Writer();
  for (const d of v.shape) {
    const dim = new Writer();
    if (typeof d === 'number') dim.int(1, d);
    else dim.string(2, d);
    shape.message(1, dim);
  }
  const tensorType = new Writer().int(1, v.type).message(2, shape);
  const type = new Writer().message(1, tensorType);
  return new Writer().string(1, v.name).message(2, type);
}

function attributeProto(name: string, a: Attr): Writer {
  const w = new Writer().string(1, name);
  switch (a.kind) {
    case 'float':
      w.float(2, a.value).int(20, AttrType.FLOAT);
      break;
    case 'int':
      w.int(3, a.value).int(20, AttrType.INT);
      break;
    case 'tensor':
      w.message(5, tensorProto(a.value)).int(20, AttrType.TENSOR);
      break;
    case 'ints':
      for (const v of a.value) w.int(8, v);
      w.int(20, AttrType.INTS);
      break;
  }
  return w;
}

function nodeProto(n: Node): Writer {
  const w = new Writer();
  for (const i of n.inputs) w.string(1, i);
  for (const o of n.outputs) w.string(2, o);
  w.string(3, n.name).string(4, n.op);
  for (const [k, a] of Object.entries(n.attrs)) w.message(5, attributeProto(k, a));
  return w;
}

// ── builder ─────────────────────────────────────────────────────────────────────────────────────

/** Builds one graph; `op` returns the generated output names so graphs read like expressions. */
export class GraphBuilder {
  private readonly nodes: Node[] = [];
  private readonly initializers: Tensor[] = [];
  private readonly inputs: ValueInfo[] = [];
  private readonly outputs: ValueInfo[] = [];
  private counter = 0;

  constructor(readonly name: string) {}

  input(name: string, type: ElemType, shape: readonly Dim[]): string {
    this.inputs.push({ name, type, shape });
    return name;
  }

  output(name: string, type: ElemType, shape: readonly Dim[]): void {
    this.outputs.push({ name, type, shape });
  }

  /** An fp32 initializer. */
  weight(name: string, data: Float32Array, dims: readonly number[]): string {
    checkSize(name, data.length, dims);
    this.initializers.push({ name, type: DataType.FLOAT, dims, data });
    return name;
  }

  /** An int64 initializer (indices, axes, shapes). */
  ints(name: string, values: readonly number[], dims: readonly number[] = [values.length]): string {
    checkSize(name, values.length, dims);
    this.initializers.push({ name, type: DataType.INT64, dims, data: BigInt64Array.from(values.map(BigInt)) });
    return name;
  }

  /** A scalar fp32 initializer. */
  scalar(name: string, value: number): string {
    this.initializers.push({ name, type: DataType.FLOAT, dims: [], data: Float32Array.of(value) });
    return name;
  }

  /** Adds a node with one output; `out` names it (default: generated). */
  op(op: string, inputs: readonly string[], attrs: Record<string, Attr> = {}, out?: string): string {
    const output = out ?? `${op.toLowerCase()}_${this.counter}`;
    this.nodes.push({ op, inputs, outputs: [output], name: `${op}_${this.counter++}`, attrs });
    return output;
  }

  /** Serializes the graph as a complete ModelProto. */
  toModel(options: { readonly opset: number; readonly producer: string; readonly docString?: string }): Uint8Array {
    const graph = new Writer();
    for (const n of this.nodes) graph.message(1, nodeProto(n));
    graph.string(2, this.name);
    for (const t of this.initializers) graph.message(5, tensorProto(t));
    for (const v of this.inputs) graph.message(11, valueInfoProto(v));
    for (const v of this.outputs) graph.message(12, valueInfoProto(v));

    const opset = new Writer().string(1, '').int(2, options.opset);
    const model = new Writer().int(1, 8).string(2, options.producer).string(3, '1');
    if (options.docString) model.string(6, options.docString);
    return model.message(7, graph).message(8, opset).finish();
  }
}

function checkSize(name: string, length: number, dims: readonly number[]): void {
  const expected = dims.reduce((a, b) => a * b, 1);
  if (expected !== length) throw new Error(`initializer ${name}: ${length} values for dims [${dims}]`);
}
