import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel } from '@tensorflow/tfjs-converter';
// The reference wrapper: its `embed()` builds the sparse input from its own (quadratic) tokenizer.
import {
  Tokenizer as ReferenceTokenizer,
  UniversalSentenceEncoder as ReferenceUse,
} from '@tensorflow-models/universal-sentence-encoder';
import { EvidentError } from '../../core/errors';
import type { Embedder } from '../embedder';
import { loadUseEmbedderNode, readUseArtifacts } from '../../node/use-node';
import type { UseTokenizer } from './tokenizer';
import {
  initTfBackend,
  loadUseEmbedder,
  USE_DEFAULT_BATCH_SIZE,
  USE_DIM,
  USE_MAX_TOKENS,
  type TfBackendReport,
} from './use-embedder';

let embedder: Embedder;
let backend: TfBackendReport;

beforeAll(async () => {
  ({ embedder, backend } = await loadUseEmbedderNode());
});
afterAll(() => embedder?.dispose());

function cosine(m: Float32Array, i: number, j: number): number {
  let dot = 0;
  for (let k = 0; k < USE_DIM; k++) dot += (m[i * USE_DIM + k] as number) * (m[j * USE_DIM + k] as number);
  return dot;
}

function norm(m: Float32Array, i: number): number {
  return Math.sqrt(cosine(m, i, i));
}

function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  let d = 0;
  for (let k = 0; k < a.length; k++) d = Math.max(d, Math.abs((a[k] as number) - (b[k] as number)));
  return d;
}

/** A text of about `words` words, deterministic. */
function longText(words: number, seed = 1): string {
  const lexicon = [
    'cell',
    'protein',
    'the',
    'expression',
    'of',
    'in',
    'patients',
    'with',
    'increased',
    'risk',
    'study',
  ];
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(lexicon[(i * 7 + seed * 3 + ((i * i) % 5)) % lexicon.length] as string);
  return out.join(' ');
}

describe('USE lite embedder (Node, wasm, real model)', () => {
  it('runs on the wasm backend in Node', () => {
    expect(backend.backend).toBe('wasm');
    expect(backend.attempts.at(-1)).toEqual({ backend: 'wasm', ok: true });
    expect(embedder.dim).toBe(512);
    expect(embedder.maxTokens).toBe(128);
  });

  it('returns one unit-norm 512-d row per text', async () => {
    const texts = ['Hello world.', 'A second, somewhat longer sentence about proteins.', 'x'];
    const m = await embedder.embed(texts);
    expect(m).toBeInstanceOf(Float32Array);
    expect(m.length).toBe(texts.length * 512);
    for (let i = 0; i < texts.length; i++) expect(norm(m, i)).toBeCloseTo(1, 5);
  });

  it('places paraphrases closer than unrelated sentences', async () => {
    const texts = [
      'How old are you?',
      'What is your age?',
      'A man is playing a guitar.',
      'Someone is performing music on a guitar.',
      'The stock market fell sharply on Monday.',
      'Share prices dropped steeply at the start of the week.',
    ];
    const m = await embedder.embed(texts);
    for (let p = 0; p < texts.length; p += 2) {
      const para = cosine(m, p, p + 1);
      for (let q = 0; q < texts.length; q++) {
        if (q === p || q === p + 1) continue;
        expect(para, `${texts[p]} ~ ${texts[p + 1]} vs ${texts[q]}`).toBeGreaterThan(cosine(m, p, q));
      }
    }
  });

  it('does not depend on batch size or batch company', async () => {
    const texts = ['short one', longText(60), 'Vitamin D deficiency and bone density.', longText(200, 2)];
    const a = await embedder.embed(texts, { batchSize: 1 });
    const b = await embedder.embed(texts, { batchSize: 3 });
    expect(maxAbsDiff(a, b)).toBeLessThan(1e-5);
    const single = await embedder.embed([texts[2] as string]);
    expect(maxAbsDiff(a.subarray(2 * 512, 3 * 512), single)).toBeLessThan(1e-5);
  });

  it('reads only the first 128 tokens', async () => {
    const prefix = longText(300);
    const a = `${prefix} and then it ends one way entirely`;
    const b = `${prefix} whereas this other text closes with quite different words`;
    const tok = (embedder as unknown as { tokenizer: UseTokenizer }).tokenizer;
    // Sanity of the fixture: the texts differ in tokens, but not within the first 128.
    expect(embedder.countTokens(prefix)).toBeGreaterThan(2 * USE_MAX_TOKENS);
    expect(tok.encode(a)).not.toEqual(tok.encode(b));
    const m = await embedder.embed([a, b, `changed ${prefix}`]);
    expect(maxAbsDiff(m.subarray(0, 512), m.subarray(512, 1024))).toBeLessThan(1e-6);
    // A change inside the window does change the vector.
    expect(maxAbsDiff(m.subarray(0, 512), m.subarray(1024, 1536))).toBeGreaterThan(1e-3);
  });

  it('gives empty texts a zero row and keeps every other row in place', async () => {
    const m = await embedder.embed(['', 'hello there', '']);
    expect(norm(m, 0)).toBe(0);
    expect(norm(m, 2)).toBe(0);
    const alone = await embedder.embed(['hello there']);
    expect(maxAbsDiff(m.subarray(512, 1024), alone)).toBeLessThan(1e-5);
    expect(await embedder.embed([])).toEqual(new Float32Array(0));
  });

  it('reports progress per batch, ending at the total', async () => {
    const calls: [number, number][] = [];
    await embedder.embed(['a', 'b', 'c', 'd', 'e'], { batchSize: 2, onProgress: (d, t) => calls.push([d, t]) });
    expect(calls).toEqual([
      [2, 5],
      [4, 5],
      [5, 5],
    ]);
  });

  it('aborts between batches with code "aborted"', async () => {
    const texts = Array.from({ length: 24 }, (_, i) => longText(40, i));
    const controller = new AbortController();
    let batches = 0;
    const run = embedder.embed(texts, {
      batchSize: 2,
      signal: controller.signal,
      onProgress: () => {
        batches++;
        // Aborted from a later task, as a worker message would be: embed must yield to see it.
        if (batches === 1) setTimeout(() => controller.abort(), 0);
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'EvidentError', code: 'aborted' });
    expect(batches).toBeLessThan(texts.length / 2);

    const already = new AbortController();
    already.abort();
    await expect(embedder.embed(['x'], { signal: already.signal })).rejects.toBeInstanceOf(EvidentError);
  });

  it('sizes batches by time without a batchSize: long texts in small batches, short ones in large, same vectors', async () => {
    const long = Array.from({ length: 16 }, (_, i) => longText(150, i));
    const short = Array.from({ length: 64 }, (_, i) => `word${i}`);
    const steps = async (texts: string[]): Promise<{ sizes: number[]; m: Float32Array }> => {
      const done: number[] = [0];
      const m = await embedder.embed(texts, { onProgress: (d) => done.push(d) });
      return { sizes: done.slice(1).map((d, i) => d - (done[i] as number)), m };
    };
    await steps(long); // the rate is measured on the kind of text that follows
    const l = await steps(long);
    // ~50 ms per full-length text on 2 cores: a 100 ms target keeps well below the old fixed 8.
    expect(Math.max(...l.sizes)).toBeLessThan(8);
    expect(maxAbsDiff(l.m, await embedder.embed(long, { batchSize: 1 }))).toBeLessThan(1e-5);
    await steps(short);
    const s = await steps(short);
    expect(Math.max(...s.sizes)).toBeGreaterThan(8);
    expect(Math.max(...s.sizes)).toBeLessThanOrEqual(USE_DEFAULT_BATCH_SIZE);
    expect(maxAbsDiff(s.m, await embedder.embed(short, { batchSize: 1 }))).toBeLessThan(1e-5);
  });

  it('rejects an invalid batch size', async () => {
    await expect(embedder.embed(['x'], { batchSize: 0 })).rejects.toMatchObject({ code: 'invalid_option' });
  });

  it('counts tokens like the tokenizer, without truncation', () => {
    expect(embedder.countTokens('')).toBe(0);
    expect(embedder.countTokens(longText(300))).toBeGreaterThan(USE_MAX_TOKENS);
  });

  it('matches the reference tfjs-models embed() on the same graph', async () => {
    // The reference wrapper's load() fetches from URLs (needs tfjs-node for file://), so we give it
    // the same in-memory graph and vocabulary; what is compared is tokenization + sparse input.
    const artifacts = await readUseArtifacts();
    const graph = await loadGraphModel(
      tf.io.fromMemory({
        modelTopology: artifacts.modelJson.modelTopology,
        weightSpecs: artifacts.modelJson.weightsManifest.flatMap((g) => g.weights),
        weightData: [...artifacts.weights],
      }),
    );
    const reference = new ReferenceUse() as unknown as {
      model: unknown;
      tokenizer: unknown;
      embed(x: string[]): Promise<tf.Tensor2D>;
    };
    reference.model = graph;
    reference.tokenizer = new ReferenceTokenizer(artifacts.vocabulary as [string, number][]);
    const texts = [
      'The quick brown fox jumps over the lazy dog.',
      'Naïve café résumé — “quoted” text 😀',
      'IL-6 and TNF-α levels (p < 0.05) in BRCA1/2 carriers.',
    ];
    const expectedTensor = await reference.embed(texts);
    const expected = (await expectedTensor.data()) as Float32Array;
    expectedTensor.dispose();
    graph.dispose();
    expect(maxAbsDiff(await embedder.embed(texts), expected)).toBeLessThan(1e-5);
  });

  it('falls back along the backend list and names what failed', async () => {
    const report = await initTfBackend(['webgpu', 'wasm'], { wasmPaths: '/nonexistent/' });
    // wasm is already running from beforeAll, so it initialises; Node has no navigator.gpu, so
    // WebGPU is refused before its package is imported.
    expect(report.attempts[0]).toMatchObject({ backend: 'webgpu', ok: false });
    expect(report.attempts[0]?.reason).toMatch(/^navigator\.gpu is missing/);
    expect(report.backend).toBe('wasm');
    await expect(initTfBackend(['webgpu'])).rejects.toMatchObject({ code: 'model_load_failed' });
    await expect(initTfBackend(['tpu' as 'cpu'])).rejects.toMatchObject({ code: 'invalid_option' });
  });

  it('refuses incomplete model files', async () => {
    const artifacts = await readUseArtifacts();
    await expect(loadUseEmbedder({ ...artifacts, weights: artifacts.weights.slice(1) })).rejects.toMatchObject({
      code: 'model_load_failed',
    });
  });
});
