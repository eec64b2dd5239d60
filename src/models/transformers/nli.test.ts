/**
 * The Transformers.js NLI backend on the tiny 3-label classifier, whose `id2label` is
 * {0: contradiction, 1: entailment, 2: neutral} — not the MNLI order — so the mapping must be
 * read from config.json. Expected probabilities: softmax of a direct onnxruntime-node run.
 */
import { AutoTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as ort from 'onnxruntime-node';
import { TINY_NLI_ID2LABEL } from '../../../scripts/make-tiny-models';
import { int64, ortSession, setupTiny } from '../../../test/tiny-models';
import type { ModelSpec } from '../manifest';
import { loadTransformersNli, nliLabelIndex, type TransformersEntailmentModel } from './nli';

const PAIRS = [
  {
    premise: 'The remote work policy allows up to three days per week at home.',
    hypothesis: 'Remote work is allowed.',
  },
  { premise: 'Sick leave is paid for the first ten days.', hypothesis: 'Sick leave is never paid.' },
  { premise: 'The court held that the clause was void.', hypothesis: 'Interest is charged monthly.' },
];

let spec: ModelSpec;
let nli: TransformersEntailmentModel;
let session: ort.InferenceSession;

async function referenceLogits(premise: string, hypothesis: string): Promise<number[]> {
  const tokenizer = await AutoTokenizer.from_pretrained('tiny/nli');
  const enc = tokenizer(premise, { text_pair: hypothesis });
  const ids = Array.from(enc.input_ids.data as BigInt64Array);
  const out = await session.run({
    input_ids: int64([ids]),
    attention_mask: int64([ids.map(() => 1)]),
    token_type_ids: int64([Array.from(enc.token_type_ids!.data as BigInt64Array)]),
  });
  return Array.from((out.logits as ort.Tensor).data as Float32Array);
}

function softmax(xs: number[]): number[] {
  const m = Math.max(...xs);
  const e = xs.map((x) => Math.exp(x - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

beforeAll(async () => {
  spec = (await setupTiny()).nli;
  session = await ortSession('nli');
  ({ nli } = await loadTransformersNli(spec));
});

describe('Transformers.js NLI on the tiny classifier', () => {
  it('reads the label order from config.json id2label', () => {
    expect(TINY_NLI_ID2LABEL).toEqual({ 0: 'contradiction', 1: 'entailment', 2: 'neutral' });
    expect(nli.labelIndex).toEqual({ contradiction: 0, entailment: 1, neutral: 2 });
  });

  it('maps softmax probabilities of the raw logits to the named labels', async () => {
    const results = await nli.classify(PAIRS);
    expect(results).toHaveLength(PAIRS.length);
    for (let i = 0; i < PAIRS.length; i++) {
      const { premise, hypothesis } = PAIRS[i]!;
      const p = softmax(await referenceLogits(premise, hypothesis));
      const r = results[i]!;
      expect(r.contradiction).toBeCloseTo(p[0]!, 5);
      expect(r.entailment).toBeCloseTo(p[1]!, 5);
      expect(r.neutral).toBeCloseTo(p[2]!, 5);
      expect(r.entailment + r.neutral + r.contradiction).toBeCloseTo(1, 6);
      // The three probabilities are far enough apart that a wrong order could not pass.
      const sorted = [r.entailment, r.neutral, r.contradiction].sort();
      expect(sorted[1]! - sorted[0]!).toBeGreaterThan(0.01);
      expect(sorted[2]! - sorted[1]!).toBeGreaterThan(0.01);
    }
  });

  it('is independent of batch company and handles empty input and abort', async () => {
    const all = await nli.classify(PAIRS);
    const one = await nli.classify([PAIRS[1]!]);
    expect(one[0]!.entailment).toBeCloseTo(all[1]!.entailment, 5);
    expect(await nli.classify([])).toEqual([]);
    const controller = new AbortController();
    controller.abort();
    await expect(nli.classify(PAIRS, controller.signal)).rejects.toMatchObject({ code: 'aborted' });
    await expect(nli.classify([{ premise: 'x' } as never])).rejects.toMatchObject({ code: 'invalid_input' });
  });
});

describe('nliLabelIndex', () => {
  it('accepts any order and any case', () => {
    expect(nliLabelIndex({ 0: 'CONTRADICTION', 1: 'NEUTRAL', 2: 'ENTAILMENT' }, 'm')).toEqual({
      contradiction: 0,
      neutral: 1,
      entailment: 2,
    });
  });

  it('rejects label sets that are not the three NLI labels, naming what the model has', () => {
    expect(() => nliLabelIndex({ 0: 'LABEL_0', 1: 'LABEL_1', 2: 'LABEL_2' }, 'm')).toThrow(/LABEL_0/);
    expect(() => nliLabelIndex({ 0: 'entailment', 1: 'contradiction' }, 'm')).toThrow(/not a 3-way NLI model/);
    expect(() => nliLabelIndex({ 0: 'entailment', 1: 'entailment', 2: 'neutral' }, 'm')).toThrow(/expected the labels/);
    expect(() => nliLabelIndex(undefined, 'm')).toThrow(/id2label/);
  });
});
