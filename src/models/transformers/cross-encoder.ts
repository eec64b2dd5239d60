/**
 * A Transformers.js sequence classifier with one output behind the `CrossEncoder` interface (e.g.
 * ms-marco-MiniLM-L-6-v2). Each (query, passage) pair is encoded together; the score is the raw
 * logit — a softmax over one label would be 1 for everything — and the rerank stage maps it
 * through a sigmoid. Pairs longer than the model's window are cut at the end (the passage tail).
 */
import { EvidentError } from '../../core/errors';
import type { AbortSignalLike } from '../../core/util/abort';
import type { CrossEncoder } from '../../core/select/rerank';
import type { ModelSpec } from '../manifest';
import { DEFAULT_BATCH_SIZE, assertBatchSize, disposeQuietly } from './common';
import { loadTransformersModel, type LoadOptions, type LoadReport } from './loader';
import { loadPairClassifier, pairLogits, type PairClassifier } from './pair-classifier';

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
    const classifier = await loadPairClassifier(ctx);
    const id2label = classifier.model.config.id2label as Record<string, string> | undefined;
    const labels = Object.keys(id2label ?? { 0: 'LABEL_0' });
    if (labels.length !== 1) {
      disposeQuietly(classifier.model);
      throw new EvidentError(
        'model_load_failed',
        `${spec.id} has ${labels.length} labels; a cross-encoder must output one relevance logit.`,
      );
    }
    return new TransformersCrossEncoderImpl(spec.id, classifier, batchSize);
  });
  return { crossEncoder: value, report };
}

class TransformersCrossEncoderImpl implements TransformersCrossEncoder {
  private disposed = false;

  constructor(
    readonly id: string,
    private readonly classifier: PairClassifier,
    private readonly batchSize: number,
  ) {}

  async score(query: string, passages: string[], signal?: AbortSignalLike): Promise<number[]> {
    if (this.disposed) throw new EvidentError('internal', 'The cross-encoder was already released.');
    if (typeof query !== 'string' || !Array.isArray(passages)) {
      throw new EvidentError('invalid_input', 'score: expected a query string and an array of passages.');
    }
    const rows = await pairLogits(
      this.classifier,
      passages.map((p) => [query, p] as const),
      { labels: 1, batchSize: this.batchSize, signal, stage: 'Reranking', what: 'Cross-encoder' },
    );
    return rows.map((r) => r[0] as number);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    disposeQuietly(this.classifier.model);
  }
}
