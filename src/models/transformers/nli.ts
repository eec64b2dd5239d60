/**
 * A Transformers.js 3-label sequence classifier behind the `EntailmentModel` interface (e.g.
 * nli-deberta-v3-xsmall). Which logit means what is read from the model's `config.json`
 * (`id2label`), never assumed: NLI checkpoints disagree on the order (MNLI heads use
 * contradiction/neutral/entailment, sentence-transformers' cross-encoders
 * contradiction/entailment/neutral). Probabilities are a softmax over the three logits.
 */
import { EvidentError } from '../../core/errors';
import type { AbortSignalLike } from '../../core/util/abort';
import type { EntailmentModel, EntailmentPair, EntailmentScores } from '../interfaces';
import type { ModelSpec } from '../manifest';
import { DEFAULT_BATCH_SIZE, assertBatchSize, disposeQuietly, softmax } from './common';
import { loadTransformersModel, type LoadOptions, type LoadReport } from './loader';
import { loadPairClassifier, pairLogits, type PairClassifier } from './pair-classifier';

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
    const classifier = await loadPairClassifier(ctx);
    try {
      const labelIndex = nliLabelIndex(classifier.model.config.id2label, spec.id);
      return new TransformersNli(spec.id, classifier, labelIndex, batchSize);
    } catch (err) {
      disposeQuietly(classifier.model);
      throw err;
    }
  });
  return { nli: value, report };
}

class TransformersNli implements TransformersEntailmentModel {
  private disposed = false;

  constructor(
    readonly id: string,
    private readonly classifier: PairClassifier,
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
    const rows = await pairLogits(
      this.classifier,
      pairs.map((p) => [p.premise, p.hypothesis] as const),
      { labels: 3, batchSize: this.batchSize, signal, stage: 'Verification', what: 'NLI model' },
    );
    return rows.map((row) => {
      const p = softmax(row);
      return {
        entailment: p[this.labelIndex.entailment] as number,
        neutral: p[this.labelIndex.neutral] as number,
        contradiction: p[this.labelIndex.contradiction] as number,
      };
    });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    disposeQuietly(this.classifier.model);
  }
}
