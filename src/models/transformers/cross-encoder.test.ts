/**
 * The Transformers.js cross-encoder on the tiny 1-label classifier: scores are the raw logits of
 * the ONNX graph for the (query, passage) pair, checked against a direct onnxruntime-node run.
 */
import { AutoTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as ort from 'onnxruntime-node';
import type { ModelSpec } from '../manifest';
import { int64, ortSession, setupTiny } from '../../../test/tiny-models';
import { loadTransformersCrossEncoder, type TransformersCrossEncoder } from './cross-encoder';

const QUERY = 'how many days per week can I work from home?';
const PASSAGES = [
  'The remote work policy allows up to three days per week at home.',
  'Interest is charged monthly on the outstanding balance of the loan.',
  'The court held that the clause was void.',
  'Employees must request approval from their manager before working abroad.',
];

let spec: ModelSpec;
let ce: TransformersCrossEncoder;
let session: ort.InferenceSession;

/** Reference logit of one pair: BERT pair encoding, token types 0 then 1, one ONNX run. */
async function referenceLogit(query: string, passage: string): Promise<number> {
  const tokenizer = await AutoTokenizer.from_pretrained('tiny/cross-encoder');
  const enc = tokenizer(query, { text_pair: passage });
  const ids = Array.from(enc.input_ids.data as BigInt64Array);
  const types = Array.from(enc.token_type_ids!.data as BigInt64Array);
  // The pair really is encoded as a pair: some tokens belong to segment B.
  expect(types.some((t) => t === 1n)).toBe(true);
  const out = await session.run({
    input_ids: int64([ids]),
    attention_mask: int64([ids.map(() => 1)]),
    token_type_ids: int64([types]),
  });
  return (out.logits as ort.Tensor).data[0] as number;
}

beforeAll(async () => {
  spec = (await setupTiny())['cross-encoder'];
  session = await ortSession('cross-encoder');
  ({ crossEncoder: ce } = await loadTransformersCrossEncoder(spec));
});

describe('Transformers.js cross-encoder on the tiny classifier', () => {
  it('scores each pair with the raw logit of the ONNX graph', async () => {
    const scores = await ce.score(QUERY, PASSAGES);
    expect(scores).toHaveLength(PASSAGES.length);
    for (let i = 0; i < PASSAGES.length; i++) {
      expect(scores[i]).toBeCloseTo(await referenceLogit(QUERY, PASSAGES[i] as string), 5);
    }
    // A logit, not a probability: the tiny head gives negative scores for some pairs.
    expect(scores.some((s) => s < 0)).toBe(true);
  });

  it('does not depend on batch company or order', async () => {
    const all = await ce.score(QUERY, PASSAGES);
    const reversed = await ce.score(QUERY, [...PASSAGES].reverse());
    reversed.reverse().forEach((s, i) => expect(s).toBeCloseTo(all[i] as number, 5));
    const single = await ce.score(QUERY, [PASSAGES[2] as string]);
    expect(single[0]).toBeCloseTo(all[2] as number, 5);
  });

  it('depends on the query (the pair is scored jointly)', async () => {
    const a = await ce.score(QUERY, PASSAGES);
    const b = await ce.score('court clause signed', PASSAGES);
    expect(a.some((s, i) => Math.abs(s - (b[i] as number)) > 1e-3)).toBe(true);
  });

  it('handles no passages, batches of one, and aborts', async () => {
    expect(await ce.score(QUERY, [])).toEqual([]);
    const { crossEncoder: one } = await loadTransformersCrossEncoder(spec, { batchSize: 1 });
    try {
      const all = await ce.score(QUERY, PASSAGES);
      const byOne = await one.score(QUERY, PASSAGES);
      byOne.forEach((s, i) => expect(s).toBeCloseTo(all[i] as number, 5));
      const controller = new AbortController();
      controller.abort();
      await expect(one.score(QUERY, PASSAGES, controller.signal)).rejects.toMatchObject({ code: 'aborted' });
    } finally {
      one.dispose();
    }
  });

  it('refuses a classifier with more than one label', async () => {
    const nli = (await setupTiny()).nli;
    await expect(loadTransformersCrossEncoder(nli)).rejects.toMatchObject({
      code: 'model_load_failed',
      message: expect.stringMatching(/3 labels/),
    });
  });
});
