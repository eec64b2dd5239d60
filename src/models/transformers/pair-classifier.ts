/**
 * What the cross-encoder (one label) and the NLI model (three labels) share: both are a
 * Transformers.js sequence classifier over text pairs. `loadPairClassifier` creates the tokenizer
 * and the model; `pairLogits` encodes the pairs together in batches, checks the logits' shape and
 * returns one row of raw logits per pair, yielding to the event loop and checking the abort signal
 * between batches. What a row means (a relevance logit, or three logits to soften) is the caller's.
 */
import { AutoModelForSequenceClassification, AutoTokenizer } from '@huggingface/transformers';
import { EvidentError } from '../../core/errors';
import type { AbortSignalLike } from '../../core/util/abort';
import { throwIfAborted } from '../../core/util/abort';
import { floatData, yieldToEventLoop, type ModelLike, type TokenizerLike } from './common';
import type { CreateContext } from './loader';

export interface PairClassifier {
  readonly tokenizer: TokenizerLike;
  readonly model: ModelLike;
}

/** `AutoTokenizer` + `AutoModelForSequenceClassification` for the model of `ctx`. */
export async function loadPairClassifier(ctx: CreateContext): Promise<PairClassifier> {
  const common = { revision: ctx.revision, progress_callback: ctx.progress_callback };
  const tokenizer = (await AutoTokenizer.from_pretrained(ctx.modelId, common)) as unknown as TokenizerLike;
  const model = (await AutoModelForSequenceClassification.from_pretrained(ctx.modelId, {
    ...common,
    device: ctx.device,
    dtype: ctx.dtype,
  })) as unknown as ModelLike;
  return { tokenizer, model };
}

export interface PairLogitsOptions {
  /** Logits per pair the model must return. */
  readonly labels: number;
  readonly batchSize: number;
  readonly signal?: AbortSignalLike;
  /** The stage named in a cancellation message ("Reranking", "Verification"). */
  readonly stage: string;
  /** The model named in a shape error ("Cross-encoder", "NLI model"). */
  readonly what: string;
}

/** Raw logits of each `[first, second]` pair (encoded together; longer pairs are cut at the end). */
export async function pairLogits(
  { tokenizer, model }: PairClassifier,
  pairs: readonly (readonly [string, string])[],
  o: PairLogitsOptions,
): Promise<Float32Array[]> {
  throwIfAborted(o.signal, o.stage);
  const out: Float32Array[] = [];
  for (let start = 0; start < pairs.length; start += o.batchSize) {
    const batch = pairs.slice(start, start + o.batchSize);
    const inputs = tokenizer(
      batch.map((p) => p[0]),
      { text_pair: batch.map((p) => p[1]), padding: true, truncation: true },
    );
    const { logits } = await model(inputs);
    if (!logits || logits.dims.length !== 2 || logits.dims[0] !== batch.length || logits.dims[1] !== o.labels) {
      throw new EvidentError('internal', `${o.what} returned logits [${logits?.dims}] for ${batch.length} pairs.`);
    }
    const data = floatData(logits, o.what);
    for (let r = 0; r < batch.length; r++) out.push(data.slice(r * o.labels, (r + 1) * o.labels));
    await yieldToEventLoop();
    throwIfAborted(o.signal, o.stage);
  }
  return out;
}
