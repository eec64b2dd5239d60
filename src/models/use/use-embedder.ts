/**
 * Universal Sentence Encoder lite (TF.js graph model, 512-d) behind the `Embedder` interface.
 * Runtime-neutral: the caller supplies the model files (fetched in the worker, read from disk in
 * Node) and initialises a TF.js backend with `initTfBackend` first.
 */
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel, type GraphModel } from '@tensorflow/tfjs-converter';
import { EvidentError } from '../../core/errors';
import { throwIfAborted } from '../../core/util/abort';
import { defaultWasmThreads, probeWebGpu } from '../runtime-probe';
import type { EmbedOptions, Embedder } from '../embedder';
import { UseTokenizer, type UseVocabulary } from './tokenizer';

/** Output width of USE lite. */
export const USE_DIM = 512;
/**
 * The encoder reads at most 128 tokens: the graph's `ClipToMaxLength` drops every sparse entry
 * with column ≥ 128. We truncate before building the input so the bytes we send match what is
 * read, and so two texts sharing their first 128 tokens embed identically.
 */
export const USE_MAX_TOKENS = 128;
/** Identity of model + tokenizer + truncation; cache keys depend on it, so bump it on any change. */
export const USE_EMBEDDER_ID = 'use-lite-512@1/sp-ref-1.3.3/max128';
/**
 * Most texts per model call when the caller leaves the batch size open (the batch is then sized
 * by time, see `USE_TARGET_BATCH_MS`). Measured in Node on wasm-simd, single thread, 2 cores: a
 * quiet machine gave 23.7 / 23.7 / 24.6 inputs/s at batch 1 / 8 / 32 on 120-token inputs
 * (synthetic ids); a loaded one, with `npx tsx src/cli/bench-embed.ts` (interleaved rounds,
 * SciFact chunks), gave 7.9 / 10.1 / 9.8 on 121-token chunks and 27.5 / 29.4 / 26.4 at batch
 * 1 / 16 / 32 on 28-token texts. Compute (proportional to tokens) dominates long texts, so
 * batching them gains little; short texts (queries, titles) gain several times from batching.
 */
export const USE_DEFAULT_BATCH_SIZE = 32;
/**
 * Wall time one model call should take when the batch is sized by time. Abort is checked between
 * calls and a call cannot be interrupted, so this bounds how long an abort waits (the issue asks
 * for 200 ms). A full 128-token text takes ~50 ms on 2 cores, so long texts go 2 at a time (no
 * slower per text than 8 at a time) and short ones up to `USE_DEFAULT_BATCH_SIZE`.
 */
export const USE_TARGET_BATCH_MS = 100;
/** Fixed cost of a row in token units (the per-call and per-row work beyond its tokens). */
const ROW_OVERHEAD_TOKENS = 8;

/** The files of the converted graph model, already in memory. */
export interface UseArtifacts {
  /** Parsed `model.json`. */
  readonly modelJson: tf.io.ModelJSON;
  /** Weight shards in the order `weightsManifest` lists their paths (see `useShardPaths`). */
  readonly weights: readonly ArrayBuffer[];
  /** Parsed `vocab.json`. */
  readonly vocabulary: UseVocabulary;
}

export interface UseEmbedderOptions {
  /** Most texts per model call when `embed` is given no `batchSize` (see `USE_DEFAULT_BATCH_SIZE`). */
  readonly batchSize?: number;
  /** Target duration of one model call when `embed` is given no `batchSize` (see `USE_TARGET_BATCH_MS`). */
  readonly targetBatchMs?: number;
}

const DEFAULT_OPTIONS: Required<UseEmbedderOptions> = Object.freeze({
  batchSize: USE_DEFAULT_BATCH_SIZE,
  targetBatchMs: USE_TARGET_BATCH_MS,
});

/** Shard file names of a model, in the order `UseArtifacts.weights` expects them. */
export function useShardPaths(modelJson: tf.io.ModelJSON): string[] {
  return modelJson.weightsManifest.flatMap((group) => group.paths);
}

/** Loads USE lite from in-memory artifacts onto the current TF.js backend. */
export async function loadUseEmbedder(artifacts: UseArtifacts, options: UseEmbedderOptions = {}): Promise<Embedder> {
  const opts = { ...DEFAULT_OPTIONS, ...options };
  assertBatchSize(opts.batchSize);
  const { modelJson, weights, vocabulary } = artifacts;
  const expected = useShardPaths(modelJson).length;
  if (weights.length !== expected) {
    throw new EvidentError(
      'model_load_failed',
      `The embedding model is incomplete: ${weights.length} of ${expected} weight files were provided.`,
    );
  }
  let model: GraphModel;
  try {
    model = await loadGraphModel(
      tf.io.fromMemory({
        modelTopology: modelJson.modelTopology,
        weightSpecs: modelJson.weightsManifest.flatMap((group) => group.weights),
        weightData: weights.length === 1 ? (weights[0] as ArrayBuffer) : [...weights],
        format: modelJson.format,
        generatedBy: modelJson.generatedBy,
        convertedBy: modelJson.convertedBy,
      }),
    );
  } catch (err) {
    throw new EvidentError('model_load_failed', `The embedding model could not be loaded: ${describe(err)}`);
  }
  return new UseEmbedder(model, UseTokenizer.fromVocabulary(vocabulary), opts.batchSize, opts.targetBatchMs);
}

class UseEmbedder implements Embedder {
  readonly id = USE_EMBEDDER_ID;
  readonly dim = USE_DIM;
  readonly maxTokens = USE_MAX_TOKENS;
  private disposed = false;
  /** Measured milliseconds per token unit (moving average); null until a call has been timed. */
  private msPerToken: number | null = null;
  /** The first model call sets up the graph and kernels: its time says nothing about the next. */
  private calls = 0;

  constructor(
    private readonly model: GraphModel,
    readonly tokenizer: UseTokenizer,
    private readonly maxBatch: number,
    private readonly targetBatchMs: number,
  ) {}

  countTokens(text: string): number {
    return this.tokenizer.count(text);
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array> {
    if (this.disposed) throw new EvidentError('internal', 'The embedding model was already released.');
    const fixed = options.batchSize;
    if (fixed !== undefined) assertBatchSize(fixed);
    const { signal, onProgress } = options;
    const total = texts.length;
    const out = new Float32Array(total * USE_DIM);
    throwIfAborted(signal, 'Embedding');

    const ids = texts.map((t) => this.tokenizer.encode(t, USE_MAX_TOKENS));
    // Texts with no tokens keep their zero row: the graph sizes its batch from the largest row
    // index, so an empty last text would silently vanish. Shortest first groups similar lengths,
    // which wastes less work on padding (the result does not depend on batch company).
    const order = ids.map((_, i) => i).filter((i) => (ids[i] as number[]).length > 0);
    order.sort((a, b) => (ids[a] as number[]).length - (ids[b] as number[]).length || a - b);
    const units = (i: number): number => (ids[i] as number[]).length + ROW_OVERHEAD_TOKENS;
    let done = total - order.length;

    for (let start = 0; start < order.length;) {
      const size = fixed ?? this.timedBatchSize(order, start, units);
      const batch = order.slice(start, start + size);
      start += batch.length;
      const t0 = performance.now();
      const rows = await this.runBatch(batch.map((i) => ids[i] as number[]));
      this.record(
        performance.now() - t0,
        batch.reduce((a, i) => a + units(i), 0),
      );
      batch.forEach((textIndex, r) => writeNormalised(rows, r, out, textIndex));
      done += batch.length;
      onProgress?.(done, total);
      // A macrotask turn lets an abort message (worker) or timer (Node) land between batches.
      await yieldToEventLoop();
      throwIfAborted(signal, 'Embedding');
    }
    if (order.length === 0) onProgress?.(total, total);
    return out;
  }

  /**
   * Texts for the next call from `order[start]` on: as many as fit `targetBatchMs` at the measured
   * rate (at least one, at most `maxBatch`); a single text until a call has been timed.
   */
  private timedBatchSize(order: readonly number[], start: number, units: (i: number) => number): number {
    const rate = this.msPerToken;
    if (rate === null) return 1;
    const budget = this.targetBatchMs / rate;
    let n = 0;
    let used = 0;
    while (start + n < order.length && n < this.maxBatch) {
      used += units(order[start + n] as number);
      if (n > 0 && used > budget) break;
      n++;
    }
    return Math.max(1, n);
  }

  /** Updates the measured rate (the batch's own time over its token units). */
  private record(ms: number, units: number): void {
    this.calls++;
    if (this.calls === 1 || units <= 0) return;
    const rate = ms / units;
    // Halfway towards each new measurement: follows a machine that got busier within a few calls.
    this.msPerToken = this.msPerToken === null ? rate : (this.msPerToken + rate) / 2;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.model.dispose();
  }

  /** One model call; rows in input order. Same sparse layout as the reference `embed()`. */
  private async runBatch(batch: readonly number[][]): Promise<Float32Array> {
    let nnz = 0;
    for (const row of batch) nnz += row.length;
    const indices = new Int32Array(nnz * 2);
    const values = new Int32Array(nnz);
    let k = 0;
    batch.forEach((row, r) => {
      for (let c = 0; c < row.length; c++, k++) {
        indices[2 * k] = r;
        indices[2 * k + 1] = c;
        values[k] = row[c] as number;
      }
    });
    const inputs = { indices: tf.tensor2d(indices, [nnz, 2], 'int32'), values: tf.tensor1d(values, 'int32') };
    try {
      const result = (await this.model.executeAsync(inputs)) as tf.Tensor;
      try {
        if (result.shape[0] !== batch.length || result.shape[1] !== USE_DIM) {
          throw new EvidentError(
            'internal',
            `Embedding model returned shape [${result.shape}] for ${batch.length} texts.`,
          );
        }
        return (await result.data()) as Float32Array;
      } finally {
        result.dispose();
      }
    } finally {
      inputs.indices.dispose();
      inputs.values.dispose();
    }
  }
}

/** Copies row `r` of `rows` into row `at` of `out`, L2-normalised (the graph already normalises;
 * redoing it in float32 makes the contract hold exactly for dot-product search). */
function writeNormalised(rows: Float32Array, r: number, out: Float32Array, at: number): void {
  const src = rows.subarray(r * USE_DIM, (r + 1) * USE_DIM);
  let sq = 0;
  for (let j = 0; j < USE_DIM; j++) sq += (src[j] as number) * (src[j] as number);
  const norm = Math.sqrt(sq);
  // A zero vector cannot be normalised; it stays zero (cosine 0 with everything).
  const scale = norm > 0 ? 1 / norm : 0;
  const base = at * USE_DIM;
  for (let j = 0; j < USE_DIM; j++) out[base + j] = (src[j] as number) * scale;
}

function assertBatchSize(n: number): void {
  if (!Number.isInteger(n) || n < 1) {
    throw new EvidentError('invalid_option', `batchSize must be a positive integer, got ${n}.`);
  }
}

let yieldChannel: MessageChannel | null = null;
const yieldWaiters: (() => void)[] = [];

function yieldToEventLoop(): Promise<void> {
  const g = globalThis as { setImmediate?: (fn: () => void) => unknown };
  // setImmediate (Node) skips the 1 ms timer clamp. In a worker a MessageChannel message is a task
  // without the 4 ms clamp that chained setTimeout(0) calls get (a few % of a 100 ms batch).
  if (g.setImmediate) return new Promise((resolve) => g.setImmediate?.(resolve));
  if (typeof MessageChannel === 'undefined') return new Promise((resolve) => setTimeout(resolve, 0));
  if (!yieldChannel) {
    yieldChannel = new MessageChannel();
    yieldChannel.port1.onmessage = () => yieldWaiters.shift()?.();
  }
  const channel = yieldChannel;
  return new Promise((resolve) => {
    yieldWaiters.push(resolve);
    channel.port2.postMessage(null);
  });
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'object' && err !== null && 'message' in err) return String(err.message);
  return String(err);
}

// ── Backend selection ────────────────────────────────────────────────────────────────────────

/**
 * TF.js backends in the order we prefer them. WebGPU is loaded only where `navigator.gpu` gives
 * an adapter (its package is a separate chunk, fetched then); WASM is the working default.
 */
export const TF_BACKENDS = ['webgpu', 'wasm', 'cpu'] as const;
export type TfBackendName = (typeof TF_BACKENDS)[number];

export interface TfBackendOptions {
  /**
   * Where the tfjs-backend-wasm `.wasm` files are served from, self-hosted: a folder path in Node
   * (ending in `/`), a URL prefix in the browser, or a map from file name to URL (Vite `?url`).
   */
  readonly wasmPaths?: string | Readonly<Record<string, string>>;
  /** XNNPACK threads for threaded wasm (browsers with cross-origin isolation only). */
  readonly threads?: number;
}

export interface TfBackendAttempt {
  readonly backend: TfBackendName;
  readonly ok: boolean;
  readonly reason?: string;
}

export interface TfBackendReport {
  readonly backend: TfBackendName;
  /** Threads the wasm backend really uses (1 when single-threaded), null for other backends. */
  readonly threads: number | null;
  /** Every backend tried, in order, with why it failed; the chosen one last. */
  readonly attempts: readonly TfBackendAttempt[];
}

const BACKEND_SETUP: Record<TfBackendName, (options: TfBackendOptions) => Promise<void>> = {
  webgpu: async () => {
    // Probe before importing: a machine without an adapter never downloads the backend's chunk.
    const missing = await probeWebGpu();
    if (missing !== null) throw new Error(missing);
    const webgpu = await import('@tensorflow/tfjs-backend-webgpu');
    // The package registers itself only where it sees `navigator.gpu`.
    if (!tf.findBackendFactory('webgpu')) throw new Error('the TF.js WebGPU backend did not register in this context');
    keepIntegersOnCpu(webgpu.WebGPUBackend.prototype as unknown as WebGpuBackendProto);
  },
  wasm: async (options) => {
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    if (options.wasmPaths === undefined) {
      // Without a path tfjs fetches next to the bundle or from a CDN: refuse rather than leak requests.
      throw new Error('wasmPaths is required (self-hosted .wasm files)');
    }
    wasm.setWasmPaths(options.wasmPaths as string | Record<string, string>);
    wasm.setThreadsCount(options.threads ?? defaultWasmThreads());
  },
  cpu: async () => {
    await import('@tensorflow/tfjs-backend-cpu');
  },
};

interface TensorRef {
  readonly dataId: object;
  readonly dtype: string;
}

interface WebGpuBackendProto {
  uploadToGPU(dataId: object): void;
  shouldExecuteOnCPU(inputs: readonly TensorRef[], sizeThreshold?: number): boolean;
  readonly tensorMap: { get(dataId: object): { dtype: string; values: unknown } | undefined };
  evidentIntegersOnCpu?: true;
}

const isInteger = (dtype: string): boolean => dtype === 'int32' || dtype === 'bool';

/**
 * USE lite's graph computes shapes and sizes from the token ids (integer tensors) and the
 * converter reads them synchronously (`dataSync`: SparseToDense's output shape, Reshape's shape).
 * TF.js's WebGPU backend runs integer ops over more than 1,000 elements on the GPU and drops a
 * tensor's CPU copy once uploaded, so such a read needs its synchronous GPU readback (an
 * OffscreenCanvas copy), which fails in Chromium 156 ("A valid external Instance reference no
 * longer exists", SwiftShader, page and worker alike). So integer tensors keep their CPU copy
 * and integer-only ops whose inputs have one run on the CPU (ids and shapes: a few KB per call);
 * every float op — the model's compute — still runs on the GPU.
 */
function keepIntegersOnCpu(proto: WebGpuBackendProto): void {
  if (proto.evidentIntegersOnCpu) return;
  const upload = proto.uploadToGPU;
  const onCpu = proto.shouldExecuteOnCPU;
  proto.uploadToGPU = function (this: WebGpuBackendProto, dataId: object): void {
    const data = this.tensorMap.get(dataId);
    const values = data && isInteger(data.dtype) ? data.values : null;
    upload.call(this, dataId);
    if (data && values != null) data.values = values;
  };
  proto.shouldExecuteOnCPU = function (this: WebGpuBackendProto, inputs, sizeThreshold): boolean {
    const integers = inputs.length > 0 && inputs.every((t) => isInteger(t.dtype));
    return onCpu.call(this, inputs, integers ? Infinity : sizeThreshold);
  };
  proto.evidentIntegersOnCpu = true;
}

/** Why `tf.setBackend` refused a backend (TF.js only logs its own error). */
function setBackendFailure(name: TfBackendName): string {
  return name === 'webgpu'
    ? 'the TF.js WebGPU backend failed to initialise (the GPU device could not be created)'
    : `tf.setBackend('${name}') failed to initialise`;
}

/**
 * Tries `preferred` backends in order and activates the first that initialises. Throws
 * `model_load_failed` naming every failure when none does.
 */
export async function initTfBackend(
  preferred: readonly TfBackendName[],
  options: TfBackendOptions = {},
): Promise<TfBackendReport> {
  const attempts: TfBackendAttempt[] = [];
  for (const name of preferred) {
    if (!(TF_BACKENDS as readonly string[]).includes(name)) {
      throw new EvidentError('invalid_option', `Unknown TF.js backend "${name}". Allowed: ${TF_BACKENDS.join(', ')}.`);
    }
    try {
      await BACKEND_SETUP[name](options);
      // setBackend resolves false (and logs) when the backend's own init fails.
      if (!(await tf.setBackend(name))) throw new Error(setBackendFailure(name));
      await tf.ready();
      attempts.push({ backend: name, ok: true });
      return { backend: name, threads: name === 'wasm' ? await wasmThreads() : null, attempts };
    } catch (err) {
      attempts.push({ backend: name, ok: false, reason: describe(err) });
    }
  }
  throw new EvidentError(
    'model_load_failed',
    `No TF.js backend could start (${attempts.map((a) => `${a.backend}: ${a.reason}`).join('; ') || 'none requested'}).`,
  );
}

async function wasmThreads(): Promise<number> {
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  try {
    return wasm.getThreadsCount();
  } catch {
    return 1;
  }
}
