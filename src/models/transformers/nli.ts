/**
 * A Transformers.js 3-label sequence classifier behind the `EntailmentModel` interface (e.g.
 * nli-deberta-v3-xsmall). Which logit means what is read from the model's `config.json`
 * (`id2label`), never assumed: NLI checkpoints disagree on the order (MNLI heads use
 * contradiction/neutral/entailment, sentence-transformers' cross-encoders
 * contradiction/entailment/neutral). Probabilities are a softmax over the three logits.
 */
import { AutoModelForSequenceClassification, AutoTokenizer } from '@huggingface/transformers';
import { EvidentError } from '../../core/errors';
import type { AbortSignalLike } from '../../core/select/common';
import type { EntailmentModel, EntailmentPair, EntailmentScores } from '../interfaces';
import type { ModelSpec } from '../manifest';
import {
  DEFAULT_BATCH_SIZE,
  assertBatchSize,
  disposeQuietly,
  floatData,
  softmax,
  throwIfAborted,
  yieldToEventLoop,
  type ModelLike,
  type TokenizerLike,
} from './common';
import { loadTransformersModel, type LoadOptions, type LoadReport } from './loader';

export const NLI_LABELS = ['entailment', 'neutral', 'contradiction'] as const;
export type NliLabel = (typeof NLI_LABELS)[number];

export interface TransformersEntailmentModel extends EntailmentModel {
  /** Logit index of each label, as read from `id2label`. */
  readonly labelIndex: Readonly<Record<NliLabel, number>>;
  dispose(): void;
}

export interface NliOptions extends LoadOptions {
  /** Pairs per model call (16). */
  readonly batchSize?: number;
}

/**
 * Maps `id2label` to label indices. Names are matched case-insensitively; anything other than
 * exactly the three NLI labels throws `model_load_failed` naming what the model has.
 */
export function nliLabelIndex(id2label: unknown, modelId: string): Record<NliLabel, number> {
  const entries = typeof id2label === 'object' && id2label !== null ? Object.entries(id2label) : [];
  const index: Partial<Record<NliLabel, number>> = {};
  for (const [k, v] of entries) {
    const label = String(v).toLowerCase() as NliLabel;
    const i = Number(k);
    if (!NLI_LABELS.includes(label) || !Number.isInteger(i) || i < 0 || index[label] !== undefined) {
      index[label] = -1;
      continue;
    }
    index[label] = i;
  }
  const ok = entries.length === 3 && NLI_LABELS.every((l) => index[l] !== undefined && index[l] >= 0 && index[l] < 3);
  if (!ok) {
    throw new EvidentError(
      'model_load_failed',
      `${modelId} is not a 3-way NLI model: config.json id2label is ${JSON.stringify(id2label)}, ` +
        `expected the labels ${NLI_LABELS.join(', ')}.`,
    );
  }
  return index as Record<NliLabel, number>;
}

/** Loads `AutoTokenizer` + `AutoModelForSequenceClassification` for `spec` (three labels). */
export async function loadTransformersNli(
  spec: ModelSpec,
  options: NliOptions = {},
): Promise<{ nli: TransformersEntailmentModel; report: LoadReport }> {
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
    try {
      return new TransformersNli(spec.id, tokenizer, model, nliLabelIndex(model.config.id2label, spec.id), batchSize);
    } catch (err) {
      disposeQuietly(model);
      throw err;
    }
  });
  return { nli: value, report };
}

class TransformersNli implements TransformersEntailmentModel {
  private disposed = false;

  constructor(
    readonly id: string,
    private readonly tokenizer: TokenizerLike,
    private readonly model: ModelLike,
    readonly labelIndex: Readonly<Record<NliLabel, number>>,
    private readonly batchSize: number,
  ) {}

  async classify(pairs: readonly EntailmentPair[], signal?: AbortSignalLike): Promise<EntailmentScores[]> {
    if (this.disposed) throw new EvidentError('internal', 'The NLI model was already released.');
    if (
      !Array.isArray(pairs) ||
      pairs.some((p) => typeof p?.premise !== 'string' || typeof p?.hypothesis !== 'string')
    ) {
      throw new EvidentError('invalid_input', 'classify: expected an array of { premise, hypothesis } strings.');
    }
    throwIfAborted(signal, 'Verification');
    const out: EntailmentScores[] = [];
    for (let start = 0; start < pairs.length; start += this.batchSize) {
      const batch = pairs.slice(start, start + this.batchSize);
      const inputs = this.tokenizer(
        batch.map((p) => p.premise),
        { text_pair: batch.map((p) => p.hypothesis), padding: true, truncation: true },
      );
      const { logits } = await this.model(inputs);
      if (!logits || logits.dims.length !== 2 || logits.dims[0] !== batch.length || logits.dims[1] !== 3) {
        throw new EvidentError('internal', `NLI model returned logits [${logits?.dims}] for ${batch.length} pairs.`);
      }
      const data = floatData(logits, 'classify');
      for (let r = 0; r < batch.length; r++) {
        const p = softmax(data.subarray(r * 3, r * 3 + 3));
        out.push({
          entailment: p[this.labelIndex.entailment] as number,
          neutral: p[this.labelIndex.neutral] as number,
          contradiction: p[this.labelIndex.contradiction] as number,
        });
      }
      await yieldToEventLoop();
      throwIfAborted(signal, 'Verification');
    }
    return out;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    disposeQuietly(this.model);
  }
}
