/**
 * A Transformers.js sequence classifier with one output behind the `CrossEncoder` interface (e.g.
 * ms-marco-MiniLM-L-6-v2). Each (query, passage) pair is encoded together; the score is the raw
 * logit — a softmax over one label would be 1 for everything — and the rerank stage maps it
 * through a sigmoid. Pairs longer than the model's window are cut at the end (the passage tail).
 */
import { AutoModelForSequenceClassification, AutoTokenizer } from '@huggingface/transformers';
import { EvidentError } from '../../core/errors';
import type { AbortSignalLike } from '../../core/select/common';
import type { CrossEncoder } from '../../core/select/rerank';
import type { ModelSpec } from '../manifest';
import {
  DEFAULT_BATCH_SIZE,
  assertBatchSize,
  disposeQuietly,
  floatData,
  throwIfAborted,
  yieldToEventLoop,
  type ModelLike,
  type TokenizerLike,
} from './common';
import { loadTransformersModel, type LoadOptions, type LoadReport } from './loader';

export interface TransformersCrossEncoder extends CrossEncoder {
  /** Frees the model's sessions; the object must not be used afterwards. */
  dispose(): void;
}

export interface CrossEncoderOptions extends LoadOptions {
  /** Pairs per model call (16). */
  readonly batchSize?: number;
}

/** Loads `AutoTokenizer` + `AutoModelForSequenceClassification` for `spec` (one label). */
export async function loadTransformersCrossEncoder(
  spec: ModelSpec,
  options: CrossEncoderOptions = {},
): Promise<{ crossEncoder: TransformersCrossEncoder; report: LoadReport }> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  assertBatchSize(batchSize);
  const { value, report } = await loadTransformersModel(spec, options, async (ctx) => {
    const common = { revision: ctx.revision, progress_callback: ctx.progress_callback };
    const tokenizer = (await AutoTokenizer.from_pretrained(ctx.modelId, common)) as unknown as TokenizerLike;
    const model = (await AutoModelForSequenceClassification.from_pretrained(ctx.modelId, {
      ...common,
      device: ctx.device,
      dtype: ctx.dtype,
    })) as unknown as ModelLike;
    const labels = Object.keys((model.config.id2label as Record<string, string> | undefined) ?? { 0: 'LABEL_0' });
    if (labels.length !== 1) {
      disposeQuietly(model);
      throw new EvidentError(
        'model_load_failed',
        `${spec.id} has ${labels.length} labels; a cross-encoder must output one relevance logit.`,
      );
    }
    return new TransformersCrossEncoderImpl(spec.id, tokenizer, model, batchSize);
  });
  return { crossEncoder: value, report };
}

class TransformersCrossEncoderImpl implements TransformersCrossEncoder {
  private disposed = false;

  constructor(
    readonly id: string,
    private readonly tokenizer: TokenizerLike,
    private readonly model: ModelLike,
    private readonly batchSize: number,
  ) {}

  async score(query: string, passages: string[], signal?: AbortSignalLike): Promise<number[]> {
    if (this.disposed) throw new EvidentError('internal', 'The cross-encoder was already released.');
    if (typeof query !== 'string' || !Array.isArray(passages)) {
      throw new EvidentError('invalid_input', 'score: expected a query string and an array of passages.');
    }
    throwIfAborted(signal, 'Reranking');
    const scores: number[] = [];
    for (let start = 0; start < passages.length; start += this.batchSize) {
      const batch = passages.slice(start, start + this.batchSize);
      const inputs = this.tokenizer(
        batch.map(() => query),
        { text_pair: batch, padding: true, truncation: true },
      );
      const { logits } = await this.model(inputs);
      if (!logits || logits.dims[0] !== batch.length || logits.dims.at(-1) !== 1) {
        throw new EvidentError(
          'internal',
          `Cross-encoder returned logits [${logits?.dims}] for ${batch.length} pairs.`,
        );
      }
      scores.push(...floatData(logits, 'score'));
      await yieldToEventLoop();
      throwIfAborted(signal, 'Reranking');
    }
    return scores;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    disposeQuietly(this.model);
  }
}
