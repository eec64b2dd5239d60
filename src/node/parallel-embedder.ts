/**
 * An embedder that spreads large calls over helper processes (Node only).
 *
 * USE lite on TF.js WASM runs on one core in Node (the backend disables threads there), so a cold
 * embedding cache fills at one core's speed. `withHelperProcesses` keeps the given embedder for one
 * share of each large call and forks helpers (`embed-child.ts`, run with tsx's loader) that load the
 * same model with the same options for the other shares. A text's vector depends on the other
 * texts of its model call in the last bits (use-embedder.test.ts: < 1e-5), so the shares are whole
 * batches of the single-process plan (`planShares`) and the helpers run the same backend (checked
 * at start): the vectors are bit-identical to `embed(texts, { batchSize })` in one process
 * (parallel-embedder.test.ts checks that).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EvidentError, assertKnownOptions } from '../core/errors';
import { throwIfAborted } from '../core/util/abort';
import type { EmbedOptions, Embedder } from '../models/embedder';

export interface HelperProcessOptions {
  /** Processes in all, this one included (1: no helpers). */
  readonly processes?: number;
  /** Calls with fewer texts stay in this process (a helper's share would not repay the messages). */
  readonly minTexts?: number;
  /**
   * Texts per model call when the caller gives none. A shared call needs a fixed size: the same
   * batches as one process makes (with that size) is what makes the vectors bit-identical. 16 is
   * as fast as USE lite's time-sized batches on long and short texts (see USE_DEFAULT_BATCH_SIZE).
   */
  readonly batchSize?: number;
}

const DEFAULTS: Required<HelperProcessOptions> = Object.freeze({ processes: 2, minTexts: 64, batchSize: 16 });

/** What a helper needs to load the same embedder: passed to `embed-child.ts` as its first message. */
export interface HelperInit {
  /** Options for `loadUseEmbedderNode` in the helper (JSON-serialisable). */
  readonly load: Record<string, unknown>;
  /** The backend this process runs: a helper on another backend is refused (vectors would differ). */
  readonly backend: string;
}

/** Messages between this process and a helper (`embed-child.ts`). */
export type ToHelper =
  | { readonly type: 'init'; readonly init: HelperInit }
  | { readonly type: 'embed'; readonly seq: number; readonly texts: readonly string[]; readonly batchSize?: number };
export type FromHelper =
  | { readonly type: 'ready'; readonly id: string; readonly dim: number }
  | { readonly type: 'progress'; readonly seq: number; readonly done: number }
  | { readonly type: 'result'; readonly seq: number; readonly vectors: Float32Array }
  | { readonly type: 'error'; readonly seq: number | null; readonly message: string };

const CHILD = fileURLToPath(new URL('./embed-child.ts', import.meta.url));

/** tsx's ESM loader, so the helper runs the TypeScript sources as `npm run eval` does. */
function tsxLoader(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
}

interface Pending {
  readonly resolve: (v: Float32Array) => void;
  readonly reject: (e: Error) => void;
  readonly onDone: (n: number) => void;
}

/** One helper process: started on first use; calls are told apart by a sequence number. */
class Helper {
  private child: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  private seq = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly init: HelperInit,
    private readonly expect: { readonly id: string; readonly dim: number },
  ) {}

  start(): Promise<void> {
    this.ready ??= new Promise<void>((resolve, reject) => {
      const child = fork(CHILD, [], {
        execArgv: ['--import', tsxLoader()],
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      this.child = child;
      const fail = (why: string): void => {
        reject(helperError(why));
        if (this.child === child) this.stop(why);
      };
      child.on('message', (m: FromHelper) => {
        if (m.type === 'ready') {
          if (m.id === this.expect.id && m.dim === this.expect.dim) {
            child.channel?.unref();
            resolve();
          } else fail(`it loaded ${m.id} (${m.dim}-d), this process has ${this.expect.id}`);
        } else if (m.type === 'error' && m.seq === null) fail(m.message);
        else this.answer(m);
      });
      child.on('error', (e) => fail(e.message));
      child.on('exit', (code, signal) => fail(`it exited with ${signal ?? code}`));
      child.send({ type: 'init', init: this.init } satisfies ToHelper);
    });
    return this.ready;
  }

  async embed(
    texts: readonly string[],
    batchSize: number | undefined,
    onDone: (n: number) => void,
  ): Promise<Float32Array> {
    await this.start();
    const child = this.child as ChildProcess;
    const seq = ++this.seq;
    // The channel keeps this process alive only while a call waits on the helper.
    child.channel?.ref();
    try {
      return await new Promise<Float32Array>((resolve, reject) => {
        this.pending.set(seq, { resolve, reject, onDone });
        child.send({ type: 'embed', seq, texts, ...(batchSize ? { batchSize } : {}) } satisfies ToHelper);
      });
    } finally {
      this.pending.delete(seq);
      if (this.pending.size === 0) child.channel?.unref();
    }
  }

  private answer(m: Exclude<FromHelper, { type: 'ready' }>): void {
    const call = m.seq === null ? undefined : this.pending.get(m.seq);
    if (!call) return;
    if (m.type === 'progress') call.onDone(m.done);
    else if (m.type === 'result') call.resolve(m.vectors);
    else call.reject(helperError(m.message));
  }

  /** Ends the helper; waiting calls fail, and the next call starts a new one. */
  stop(why = 'it was stopped'): void {
    const child = this.child;
    this.child = null;
    this.ready = null;
    for (const call of this.pending.values()) call.reject(helperError(why));
    this.pending.clear();
    if (child && child.exitCode === null && child.signalCode === null) child.kill();
  }
}

function helperError(why: string): EvidentError {
  return new EvidentError(
    'worker_crashed',
    `An embedding helper process failed (${why}). Set EVIDENT_EMBED_PROCESSES=1 to embed in one process.`,
  );
}

/**
 * Which texts each process embeds, so that every model call is one the single-process call
 * `embed(texts, { batchSize })` makes: texts that have tokens, shortest first (ties by position),
 * cut into batches of `batchSize` — the order USE lite's `embed` runs them in — and whole batches
 * handed out as contiguous runs of about equal tokens. `tokens[i]` is what the model reads of text
 * `i` (0: no model call, a zero row). Each share is in that order, so the process embedding it
 * (with the same `batchSize`) sorts nothing and cuts the same batches.
 */
export function planShares(tokens: readonly number[], parts: number, batchSize: number): number[][] {
  const order = tokens.map((_, i) => i).filter((i) => (tokens[i] as number) > 0);
  order.sort((a, b) => (tokens[a] as number) - (tokens[b] as number) || a - b);
  const units = (from: number): number =>
    order.slice(from, from + batchSize).reduce((a, i) => a + (tokens[i] as number) + 1, 0);
  const total = order.reduce((a, i) => a + (tokens[i] as number) + 1, 0);
  const shares: number[][] = [];
  let start = 0;
  let sum = 0;
  for (let at = 0; at < order.length; at += batchSize) {
    sum += units(at);
    if (shares.length < parts - 1 && sum >= (total * (shares.length + 1)) / parts) {
      shares.push(order.slice(start, at + batchSize));
      start = at + batchSize;
    }
  }
  shares.push(order.slice(start));
  while (shares.length < parts) shares.push([]);
  return shares;
}

/**
 * Wraps `embedder` (loaded in this process with `init.load`) so that calls of at least `minTexts`
 * texts are shared with `processes − 1` helper processes. Same id, dimension and vectors.
 */
export function withHelperProcesses(
  embedder: Embedder,
  init: HelperInit,
  options: HelperProcessOptions = {},
): Embedder {
  assertKnownOptions(options, DEFAULTS, 'withHelperProcesses');
  const opts = { ...DEFAULTS, ...options };
  if (!Number.isInteger(opts.processes) || opts.processes < 1) {
    throw new EvidentError('invalid_option', `processes must be a positive integer, got ${opts.processes}.`);
  }
  const helpers = Array.from({ length: opts.processes - 1 }, () => new Helper(init, embedder));

  const embed = async (texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array> => {
    if (helpers.length === 0 || texts.length < opts.minTexts) return embedder.embed(texts, options);
    const { signal, onProgress } = options;
    const batchSize = options.batchSize ?? opts.batchSize;
    const tokens = texts.map((t) => Math.min(embedder.countTokens(t), embedder.maxTokens));
    const shares = planShares(tokens, helpers.length + 1, batchSize);
    const empty = tokens.filter((n) => n === 0).length;
    const done = shares.map(() => 0);
    const report = (part: number) => (n: number) => {
      done[part] = n;
      onProgress?.(empty + done.reduce((a, b) => a + b, 0), texts.length);
    };
    const textsOf = (share: readonly number[]): string[] => share.map((i) => texts[i] as string);
    const onAbort = (): void => helpers.forEach((h) => h.stop());
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const parts = await Promise.all([
        embedder.embed(textsOf(shares[0] as number[]), { ...options, batchSize, onProgress: report(0) }),
        ...helpers.map((h, p) => h.embed(textsOf(shares[p + 1] as number[]), batchSize, report(p + 1))),
      ]);
      throwIfAborted(signal, 'Embedding');
      const { dim } = embedder;
      const out = new Float32Array(texts.length * dim);
      parts.forEach((v, p) =>
        (shares[p] as number[]).forEach((i, r) => out.set(v.subarray(r * dim, (r + 1) * dim), i * dim)),
      );
      return out;
    } catch (err) {
      throwIfAborted(signal, 'Embedding');
      throw err;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  };

  return {
    id: embedder.id,
    dim: embedder.dim,
    maxTokens: embedder.maxTokens,
    countTokens: (t) => embedder.countTokens(t),
    embed,
    dispose: () => {
      helpers.forEach((h) => h.stop());
      embedder.dispose();
    },
  };
}
