/**
 * A Transformers.js feature-extraction model behind the `Embedder` interface (e.g. bge-small with
 * CLS pooling). Pooling and normalisation come from the manifest; rows are L2-normalised again in
 * float32 so the `Embedder` contract (dot product = cosine) holds exactly whatever the model did.
 *
 * Instruction prefixes come from the manifest too: `embed(texts, { kind: 'query' })` puts
 * `queryPrefix` before each text (BGE v1.5's retrieval instruction, e5's `query: `), a passage
 * gets `passagePrefix` (e5's `passage: `). The passage prefix changes every stored vector, so it is
 * part of the id; the query prefix changes only the query's vector, so it is not (vectors stored
 * before it changed stay valid). The window (`maxTokens`) leaves room for the passage prefix.
 */
import { pipeline } from '@huggingface/transformers';
import { EvidentError } from '../../core/errors';
import { fnv1a64 } from '../../core/util/hash';
import { throwIfAborted } from '../../core/util/abort';
import type { EmbedOptions, Embedder } from '../embedder';
import type { ModelSpec, Pooling } from '../manifest';
import {
  DEFAULT_BATCH_SIZE,
  assertBatchSize,
  disposeQuietly,
  floatData,
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
  private readonly queryPrefix: string;
  private readonly passagePrefix: string;
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
    this.queryPrefix = spec.queryPrefix ?? '';
    this.passagePrefix = spec.passagePrefix ?? '';
    // The model reads model_max_length tokens including [CLS]/[SEP] and the passage prefix;
    // maxTokens counts the passage's own tokens.
    const specials = extractor.tokenizer.encode('').length;
    const prefixTokens = this.passagePrefix ? this.countTokens(this.passagePrefix) : 0;
    this.maxTokens = Math.max(1, extractor.tokenizer.model_max_length - specials - prefixTokens);
    const passage = this.passagePrefix ? `/passage-${fnv1a64(this.passagePrefix).slice(0, 8)}` : '';
    this.id = `${spec.id}@${spec.revision ?? 'main'}/${spec.dtype}/${pooling}${normalize ? '-norm' : ''}${passage}/max${this.maxTokens}`;
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
    const prefix = options.kind === 'query' ? this.queryPrefix : this.passagePrefix;
    const total = texts.length;
    const out = new Float32Array(total * this.dim);
    // A text without tokens keeps its zero row (the contract), prefix or not.
    const lengths = texts.map((t) => this.countTokens(t));
    const order = lengths.map((_, i) => i).filter((i) => (lengths[i] as number) > 0);
    // Similar lengths together waste less work on padding; the result does not depend on it.
    order.sort((a, b) => (lengths[a] as number) - (lengths[b] as number) || a - b);
    let done = total - order.length;

    for (let start = 0; start < order.length; start += batchSize) {
      const batch = order.slice(start, start + batchSize);
      const tensor = await this.extractor(
        batch.map((i) => prefix + (texts[i] as string)),
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
