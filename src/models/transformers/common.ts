/**
 * Small pieces the role backends share: the structural types of the Transformers.js objects we
 * call (narrower than the library's own typings, so a change there surfaces here), batching,
 * abort checks and a numerically stable softmax.
 */
import { EvidentError } from '../../core/errors';

/** The part of a Transformers.js `Tensor` we read. */
export interface TensorLike {
  readonly dims: readonly number[];
  readonly data: ArrayLike<number> | ArrayLike<bigint>;
  readonly type: string;
  dispose?(): void;
}

/** The part of a Transformers.js tokenizer we call. */
export interface TokenizerLike {
  (
    text: string | string[],
    options?: { text_pair?: string | string[] | null; padding?: boolean; truncation?: boolean },
  ): Record<string, TensorLike>;
  encode(text: string, options?: { add_special_tokens?: boolean }): number[];
  decode(ids: readonly (number | bigint)[], options?: { skip_special_tokens?: boolean }): string;
  readonly model_max_length: number;
  readonly chat_template: unknown;
}

/** The part of a Transformers.js `PreTrainedModel` we call. */
export interface ModelLike {
  (inputs: Record<string, TensorLike>): Promise<Record<string, TensorLike>>;
  readonly config: Readonly<Record<string, unknown>>;
  dispose(): Promise<unknown>;
}

/** Texts (or pairs) per model call, unless the caller says otherwise. */
export const DEFAULT_BATCH_SIZE = 16;

export function assertBatchSize(n: number): void {
  if (!Number.isInteger(n) || n < 1) {
    throw new EvidentError('invalid_option', `batchSize must be a positive integer, got ${n}.`);
  }
}

/** A macrotask turn, so an abort message (worker) or timer (Node) can land between batches. */
export function yieldToEventLoop(): Promise<void> {
  const g = globalThis as { setImmediate?: (fn: () => void) => unknown };
  return new Promise((resolve) => (g.setImmediate ? g.setImmediate(resolve) : setTimeout(resolve, 0)));
}

/** Copies a float tensor's data into a new `Float32Array` (it may be a view into WASM memory). */
export function floatData(t: TensorLike, what: string): Float32Array {
  if (t.type !== 'float32') throw new EvidentError('internal', `${what}: expected float32 output, got ${t.type}.`);
  return Float32Array.from(t.data as ArrayLike<number>);
}

/** Softmax of `row`, computed around its maximum so large logits cannot overflow. */
export function softmax(row: ArrayLike<number>): number[] {
  let max = -Infinity;
  for (let i = 0; i < row.length; i++) max = Math.max(max, row[i] as number);
  const exps = Array.from({ length: row.length }, (_, i) => Math.exp((row[i] as number) - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

/** Releases a Transformers.js object without letting a late rejection go unhandled. */
export function disposeQuietly(target: { dispose(): Promise<unknown> | void } | null | undefined): void {
  if (!target) return;
  try {
    void Promise.resolve(target.dispose()).catch(() => {});
  } catch {
    // Already released.
  }
}
