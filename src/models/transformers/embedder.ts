/**
 * A Transformers.js feature-extraction model behind the `Embedder` interface (e.g. bge-small with
 * CLS pooling). Pooling and normalisation come from the manifest; rows are L2-normalised again in
 * float32 so the `Embedder` contract (dot product = cosine) holds exactly whatever the model did.
 */
import { pipeline } from '@huggingface/transformers';
import { EvidentError } from '../../core/errors';
import type { EmbedOptions, Embedder } from '../embedder';
import type { ModelSpec, Pooling } from '../manifest';
import {
  DEFAULT_BATCH_SIZE,
  assertBatchSize,
  disposeQuietly,
  floatData,
  throwIfAborted,
  yieldToEventLoop,
  type ModelLike,
  type TensorLike,
  type TokenizerLike,
} from './common';
import { loadTransformersModel, type LoadOptions, type LoadReport } from './loader';

/** The part of the feature-extraction pipeline we call. */
interface ExtractorLike {
  (texts: string[], options: { pooling: Pooling; normalize: boolean }): Promise<TensorLike>;
  readonly tokenizer: TokenizerLike;
  readonly model: ModelLike;
  dispose(): Promise<unknown>;
}

export interface TransformersEmbedderOptions extends LoadOptions {
  /** Default texts per model call (16). */
  readonly batchSize?: number;
}

/** Loads the embedder of `spec` (role `embedder`, runtime `transformers`). */
export async function loadTransformersEmbedder(
  spec: ModelSpec,
  options: TransformersEmbedderOptions = {},
): Promise<{ embedder: Embedder; report: LoadReport }> {
  const { pooling, normalize } = spec;
  if (spec.task !== 'feature-extraction' || pooling === undefined || normalize === undefined) {
    throw new EvidentError(
      'invalid_option',
      `${spec.id} is not a feature-extraction model with pooling and normalize.`,
    );
  }
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  assertBatchSize(batchSize);
  const { value, report } = await loadTransformersModel(spec, options, async (ctx) => {
    const extractor = (await pipeline('feature-extraction', ctx.modelId, {
      device: ctx.device,
      dtype: ctx.dtype,
      revision: ctx.revision,
      progress_callback: ctx.progress_callback,
    })) as unknown as ExtractorLike;
    try {
      return new TransformersEmbedder(spec, extractor, pooling, normalize, batchSize);
    } catch (err) {
      disposeQuietly(extractor);
      throw err;
    }
  });
  return { embedder: value, report };
}

class TransformersEmbedder implements Embedder {
  readonly id: string;
  readonly dim: number;
  readonly maxTokens: number;
  private disposed = false;

  constructor(
    spec: ModelSpec,
    private readonly extractor: ExtractorLike,
    private readonly pooling: Pooling,
    private readonly normalize: boolean,
    private readonly batchSize: number,
  ) {
    const hidden = extractor.model.config.hidden_size;
    if (typeof hidden !== 'number' || !Number.isInteger(hidden) || hidden < 1) {
      throw new EvidentError('model_load_failed', `${spec.id}: config.json has no hidden_size.`);
    }
    this.dim = hidden;
    // The model reads model_max_length tokens including [CLS]/[SEP]; maxTokens counts text tokens.
    const specials = extractor.tokenizer.encode('').length;
    this.maxTokens = Math.max(1, extractor.tokenizer.model_max_length - specials);
    this.id = `${spec.id}@${spec.revision ?? 'main'}/${spec.dtype}/${pooling}${normalize ? '-norm' : ''}/max${this.maxTokens}`;
  }

  countTokens(text: string): number {
    return this.extractor.tokenizer.encode(text, { add_special_tokens: false }).length;
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array> {
    if (this.disposed) throw new EvidentError('internal', 'The embedding model was already released.');
    const batchSize = options.batchSize ?? this.batchSize;
    assertBatchSize(batchSize);
    const { signal, onProgress } = options;
    throwIfAborted(signal, 'Embedding');
    const total = texts.length;
    const out = new Float32Array(total * this.dim);
    // A text without tokens keeps its zero row (the contract); the model would embed [CLS][SEP].
    const lengths = texts.map((t) => this.countTokens(t));
    const order = lengths.map((_, i) => i).filter((i) => (lengths[i] as number) > 0);
    // Similar lengths together waste less work on padding; the result does not depend on it.
    order.sort((a, b) => (lengths[a] as number) - (lengths[b] as number) || a - b);
    let done = total - order.length;

    for (let start = 0; start < order.length; start += batchSize) {
      const batch = order.slice(start, start + batchSize);
      const tensor = await this.extractor(
        batch.map((i) => texts[i] as string),
        { pooling: this.pooling, normalize: this.normalize },
      );
      try {
        if (tensor.dims.length !== 2 || tensor.dims[0] !== batch.length || tensor.dims[1] !== this.dim) {
          throw new EvidentError(
            'internal',
            `Embedding model returned shape [${tensor.dims}] for ${batch.length} texts.`,
          );
        }
        const rows = floatData(tensor, 'embed');
        batch.forEach((textIndex, r) => writeNormalised(rows, r, this.dim, out, textIndex));
      } finally {
        tensor.dispose?.();
      }
      done += batch.length;
      onProgress?.(done, total);
      await yieldToEventLoop();
      throwIfAborted(signal, 'Embedding');
    }
    if (order.length === 0) onProgress?.(total, total);
    return out;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    disposeQuietly(this.extractor);
  }
}

/** Row `r` of `rows` into row `at` of `out`, L2-normalised; a zero vector stays zero. */
function writeNormalised(rows: Float32Array, r: number, dim: number, out: Float32Array, at: number): void {
  const src = rows.subarray(r * dim, (r + 1) * dim);
  let sq = 0;
  for (let j = 0; j < dim; j++) sq += (src[j] as number) * (src[j] as number);
  const norm = Math.sqrt(sq);
  const scale = norm > 0 ? 1 / norm : 0;
  for (let j = 0; j < dim; j++) out[at * dim + j] = (src[j] as number) * scale;
}
