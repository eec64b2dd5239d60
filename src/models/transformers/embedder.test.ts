/**
 * The Transformers.js embedder on the tiny BERT-shaped encoder (onnxruntime-node, device cpu).
 * Expected vectors are computed independently: the same token ids through a direct
 * onnxruntime-node session, pooled and normalised by hand.
 */
import { AutoTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as ort from 'onnxruntime-node';
import { EvidentError } from '../../core/errors';
import type { Embedder } from '../embedder';
import type { ModelSpec } from '../manifest';
import { int64, ortSession, setupTiny } from '../../../test/tiny-models';
import { loadTransformersEmbedder } from './embedder';
import type { LoadReport } from './loader';

const TEXTS = [
  'The remote work policy allows up to three days per week at home.',
  'Sick leave is paid.',
  'What is the answer?',
];

let spec: ModelSpec;
let embedder: Embedder;
let report: LoadReport;
let session: ort.InferenceSession;

/** Reference: run the ONNX graph directly and pool `last_hidden_state` by hand. */
async function reference(texts: string[], pooling: 'mean' | 'cls'): Promise<Float32Array[]> {
  const tokenizer = await AutoTokenizer.from_pretrained('tiny/encoder');
  const out: Float32Array[] = [];
  for (const text of texts) {
    const ids = tokenizer.encode(text);
    const feeds = {
      input_ids: int64([ids]),
      attention_mask: int64([ids.map(() => 1)]),
      token_type_ids: int64([ids.map(() => 0)]),
    };
    const hidden = (await session.run(feeds)).last_hidden_state as ort.Tensor;
    const [, seq, dim] = hidden.dims as [number, number, number];
    const data = hidden.data as Float32Array;
    const v = new Float32Array(dim);
    if (pooling === 'cls') v.set(data.subarray(0, dim));
    else {
      for (let t = 0; t < seq; t++)
        for (let j = 0; j < dim; j++) v[j] = (v[j] as number) + (data[t * dim + j] as number) / seq;
    }
    const norm = Math.hypot(...v);
    out.push(v.map((x) => x / norm));
  }
  return out;
}

function rowOf(m: Float32Array, dim: number, i: number): number[] {
  return Array.from(m.subarray(i * dim, (i + 1) * dim));
}

function expectClose(actual: readonly number[], expected: ArrayLike<number>, tol = 1e-5): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((a, i) => expect(Math.abs(a - (expected[i] as number))).toBeLessThan(tol));
}

beforeAll(async () => {
  spec = (await setupTiny()).embedder;
  session = await ortSession('encoder');
  ({ embedder, report } = await loadTransformersEmbedder(spec));
});

describe('Transformers.js embedder on the tiny encoder', () => {
  it('reports its identity, width, token window and the device it runs on', () => {
    expect(spec.pooling).toBe('mean');
    expect(embedder.dim).toBe(32);
    // model_max_length 64 minus [CLS] and [SEP].
    expect(embedder.maxTokens).toBe(62);
    expect(embedder.id).toBe('tiny/encoder@main/fp32/mean-norm/max62');
    expect(report.device).toBe('cpu');
    expect(report.fallbackReason).toBeNull();
    expect(report.bytes).toBe(spec.bytes);
  });

  it('returns unit rows equal to mean pooling of the raw ONNX output', async () => {
    const vectors = await embedder.embed(TEXTS);
    expect(vectors.length).toBe(TEXTS.length * 32);
    const expected = await reference(TEXTS, 'mean');
    TEXTS.forEach((_, i) => {
      const row = rowOf(vectors, 32, i);
      expect(Math.hypot(...row)).toBeCloseTo(1, 5);
      expectClose(row, expected[i] as Float32Array);
    });
  });

  it('pools the [CLS] vector when the manifest says cls', async () => {
    const cls = await loadTransformersEmbedder({ ...spec, pooling: 'cls' });
    try {
      expect(cls.embedder.id).toContain('/cls-norm/');
      const vectors = await cls.embedder.embed(TEXTS);
      const expected = await reference(TEXTS, 'cls');
      TEXTS.forEach((_, i) => expectClose(rowOf(vectors, 32, i), expected[i] as Float32Array));
      // Different pooling, different vectors: the option really reached the pipeline.
      const mean = await embedder.embed(TEXTS);
      expect(Math.abs(rowOf(mean, 32, 0)[0]! - rowOf(vectors, 32, 0)[0]!)).toBeGreaterThan(1e-3);
    } finally {
      cls.embedder.dispose();
    }
  });

  it("puts the manifest's query prefix before queries only, and the passage prefix before passages", async () => {
    const q = await loadTransformersEmbedder({ ...spec, queryPrefix: 'query: ' });
    const qp = await loadTransformersEmbedder({ ...spec, queryPrefix: 'query: ', passagePrefix: 'passage: ' });
    try {
      const plain = await embedder.embed(TEXTS);
      // A query prefix leaves passages (and so the id of their stored vectors) as they were…
      expect(q.embedder.id).toBe(embedder.id);
      const passages = await q.embedder.embed(TEXTS, { kind: 'passage' });
      TEXTS.forEach((_, i) => expectClose(rowOf(passages, 32, i), rowOf(plain, 32, i)));
      expectClose(rowOf(await q.embedder.embed(TEXTS), 32, 0), rowOf(plain, 32, 0));
      // …and makes the query's vector that of the prefixed text, unlike the plain one.
      const query = rowOf(await q.embedder.embed([TEXTS[2]!], { kind: 'query' }), 32, 0);
      const [prefixed] = await reference([`query: ${TEXTS[2]}`], 'mean');
      expectClose(query, prefixed as Float32Array);
      expect(Math.max(...query.map((x, j) => Math.abs(x - rowOf(plain, 32, 2)[j]!)))).toBeGreaterThan(1e-3);
      // Without prefixes in the manifest a query is embedded as a passage.
      expectClose(rowOf(await embedder.embed([TEXTS[2]!], { kind: 'query' }), 32, 0), rowOf(plain, 32, 2));

      // A passage prefix changes every stored vector: a new id, and a window that leaves it room.
      expect(qp.embedder.id).toMatch(/^tiny\/encoder@main\/fp32\/mean-norm\/passage-[0-9a-f]{8}\/max\d+$/);
      expect(qp.embedder.maxTokens).toBe(62 - embedder.countTokens('passage: '));
      const [withPrefix] = await reference([`passage: ${TEXTS[0]}`], 'mean');
      expectClose(rowOf(await qp.embedder.embed([TEXTS[0]!]), 32, 0), withPrefix as Float32Array);
      const [queryRef] = await reference([`query: ${TEXTS[0]}`], 'mean');
      expectClose(rowOf(await qp.embedder.embed([TEXTS[0]!], { kind: 'query' }), 32, 0), queryRef as Float32Array);
      // A text without tokens stays a zero row, prefix or not.
      expect(rowOf(await qp.embedder.embed(['']), 32, 0).every((x) => x === 0)).toBe(true);
    } finally {
      q.embedder.dispose();
      qp.embedder.dispose();
    }
  });

  it('gives a text the same vector alone and in a padded batch (padding is masked)', async () => {
    const alone = await embedder.embed(['Sick leave is paid.']);
    const batched = await embedder.embed(TEXTS, { batchSize: 3 });
    expectClose(rowOf(batched, 32, 1), rowOf(alone, 32, 0));
  });

  it('gives the empty string an all-zero row and reports progress to the end', async () => {
    const seen: [number, number][] = [];
    const vectors = await embedder.embed(['', 'hello there', ''], {
      batchSize: 1,
      onProgress: (d, t) => seen.push([d, t]),
    });
    expect(rowOf(vectors, 32, 0).every((x) => x === 0)).toBe(true);
    expect(rowOf(vectors, 32, 2).every((x) => x === 0)).toBe(true);
    expect(Math.hypot(...rowOf(vectors, 32, 1))).toBeCloseTo(1, 5);
    expect(seen.at(-1)).toEqual([3, 3]);
  });

  it('counts tokens without special tokens', () => {
    expect(embedder.countTokens('')).toBe(0);
    // "remote" and "work" are whole words in the tiny vocabulary.
    expect(embedder.countTokens('remote work')).toBe(2);
  });

  it('stops between batches when aborted', async () => {
    const controller = new AbortController();
    const promise = embedder.embed(TEXTS, {
      batchSize: 1,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(promise).rejects.toMatchObject({ code: 'aborted' });
    await expect(embedder.embed(TEXTS, { batchSize: 0 })).rejects.toBeInstanceOf(EvidentError);
  });
});
