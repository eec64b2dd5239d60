/**
 * `ask` with a loaded model profile, in Node (onnxruntime-node) on the tiny generated models:
 * the profile's embedder gives the dense side (the library re-embedded through `EmbedderSwitch`),
 * the cross-encoder feeds the rerank stage, the NLI model verification and validation, and the
 * generator writes the answer — streamed, with the evidence budget counted by its tokenizer and
 * fitted to its window. Plumbing only: the tiny models say nothing about answer quality, so no
 * assertion here reads the answer's content.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPrompt } from '../core/answer/generative';
import { SOURCE_SEPARATOR, type PackedSource } from '../core/select/pack';
import { MODELS_DIR, setupTiny } from '../../test/tiny-models';
import { DEMO_DOCUMENTS, DEMO_QUESTION } from '../ui/demo';
import { ask, type AskModels } from './ask';
import { GENERATOR_WINDOW, planGeneration, type AskGenerator } from './ask-generate';
import type { AskProgress, AskSource } from './ask-api';
import { EmbedderSwitch } from './embedder-switch';
import { Engine } from './engine';
import { ModelHost, modelDevices } from './models';
import { SettingsHost } from './settings';
import { WordHashEmbedder } from './testing';

/** A result's source as the prompt builder takes it (its text is the passage body). */
function asPacked(s: AskSource): PackedSource {
  return {
    ...s,
    candidateId: s.chunkId,
    text: `[${s.citationId}] ${s.title}\n${s.text}`,
    page: s.page ?? undefined,
    effectiveDate: s.effectiveDate ?? undefined,
    group: null,
  } as PackedSource;
}

let host: ModelHost;
let engine: Engine;
let models: AskModels;
const settings = new SettingsHost(() => null);

beforeAll(async () => {
  await setupTiny();
  host = new ModelHost({ modelsPath: `${MODELS_DIR}/`, wasmPaths: { mjs: '/unused.mjs', wasm: '/unused.wasm' } });
  // WebGPU first, as in a browser without it: every role falls back, and the trail must say why.
  await host.loadProfile('tiny', { allowRemote: false, devices: ['webgpu', 'cpu'] });
  engine = new Engine();
  const embedders = new EmbedderSwitch(engine);
  await embedders.setDefault(new WordHashEmbedder());
  for (const d of DEMO_DOCUMENTS) await engine.addDocument(d);
  await embedders.use(host.backends.embedder);
  expect((await embedders.settled()).state).toBe('done');
  const { crossEncoder, nli, generator } = host.backends;
  models = { crossEncoder, nli, generator, devices: modelDevices(host.loaded, null, null) };
}, 120_000);

afterAll(() => host?.disposeProfile());

describe('ask with the tiny profile', () => {
  it('says which model did what: tiny embedder, cross-encoder, NLI and generator', async () => {
    const events: AskProgress[] = [];
    const result = await ask({ engine, settings, models: () => models }, DEMO_QUESTION, {
      onProgress: (p) => events.push(p),
    });
    expect(result.models).toEqual({
      embedder: expect.stringMatching(/^tiny\/encoder@/),
      reranker: 'tiny/cross-encoder',
      nli: 'tiny/nli',
      answerer: 'tiny/causal-lm',
      budgetTokens: 'tiny/causal-lm',
      generatorFallback: null,
      devices: (['embedder', 'cross-encoder', 'nli', 'generator'] as const).map((role) => ({
        role,
        id: `tiny/${role === 'embedder' ? 'encoder' : role === 'generator' ? 'causal-lm' : role}`,
        device: 'cpu',
        fallbackReason: expect.stringMatching(/^webgpu: WebGPU is not used in Node/),
      })),
    });
    expect(result.answer.answerer).toBe('tiny/causal-lm');
    expect(result.retrieval.dense).toBe(true);
    // The rerank stage ran the cross-encoder on the head of the pool, and the trail shows it.
    const reranked = result.candidates.filter((c) =>
      c.trace.some((e) => e.stage === 'rerank' && e.reason === 'cross-encoder tiny/cross-encoder'),
    );
    expect(reranked.length).toBeGreaterThan(0);
    expect(reranked.every((c) => typeof c.scores.rerank === 'number')).toBe(true);

    // Streamed: every partial text extends the one before; the answer is parsed from the last.
    const partials = events.filter((e) => e.phase === 'answer' && e.partial !== undefined).map((e) => e.partial!);
    expect(partials.length).toBeGreaterThan(1);
    partials.forEach((p, i) => i > 0 && expect(p.startsWith(partials[i - 1]!)).toBe(true));
    expect(events.filter((e) => e.partial !== undefined).every((e) => e.answerer === 'tiny/causal-lm')).toBe(true);
    if (result.answer.kind === 'answer') expect(partials.at(-1)!.trim()).toBe(result.answer.text);
    expect(events.map((e) => e.phase).filter((p, i, a) => p !== a[i - 1])).toEqual([
      'retrieve',
      'select',
      'answer',
      'validate',
      'done',
    ]);
  }, 120_000);

  it('packs the evidence in the generator’s tokens, within its window', async () => {
    const generator = models.generator!;
    const result = await ask({ engine, settings, models: () => models }, DEMO_QUESTION);
    const values = await settings.values();
    const plan = planGeneration(generator, DEMO_QUESTION, values.budget);
    if ('skip' in plan) throw new Error(plan.skip);
    // The tiny LM has 2,048 positions: less room than the user's budget of 3,000.
    expect(plan.window).toBe(2048);
    expect(plan.evidenceTokens).toBeLessThan(values.budget);
    expect(result.budget.limit).toBe(plan.evidenceTokens);
    expect(result.sources.length).toBeGreaterThan(0);
    // Each source is counted by the generator's tokenizer (not ⌈chars/3.5⌉), plus its tag allowance.
    for (const s of result.sources) {
      const header = `[${s.citationId}] ${s.title}${s.headings.length > 0 ? ` › ${s.headings.join(' › ')}` : ''}`;
      expect(s.tokens).toBe(generator.countTokens(`${header}\n${s.text}`) + plan.tagTokens);
    }
    const sep = generator.countTokens(SOURCE_SEPARATOR);
    const used = result.sources.reduce((a, s) => a + s.tokens, 0) + sep * (result.sources.length - 1);
    expect(result.budget.used).toBe(used);
    expect(result.budget.used).toBeLessThanOrEqual(result.budget.limit);
    // The real prompt, as the generator's chat template will see it, fits with the answer.
    const prompt = buildPrompt({ question: DEMO_QUESTION, sources: result.sources.map(asPacked) });
    const promptTokens = prompt.reduce((a, m) => a + generator.countTokens(m.content), 0);
    expect(promptTokens + plan.answerTokens).toBeLessThan(plan.window);
  }, 120_000);

  it('a generator that fails leaves the extractive answer, and the trail says why', async () => {
    const broken: AskGenerator = {
      id: 'broken-lm',
      contextTokens: 4096,
      countTokens: (t) => Math.ceil(t.length / 4),
      generate: async () => {
        throw new Error('session lost');
      },
    };
    const result = await ask({ engine, settings, models: () => ({ ...models, generator: broken }) }, DEMO_QUESTION);
    expect(result.models.answerer).toBe('extractive');
    expect(result.models.budgetTokens).toBe('broken-lm');
    expect(result.models.generatorFallback).toMatch(/^broken-lm failed \(.*session lost\)/);
    expect(result.answer.answerer).toBe('extractive');
  }, 120_000);

  it('a window too small for the instructions skips the generator, saying so', async () => {
    const small: AskGenerator = {
      id: 'small-lm',
      contextTokens: 256,
      countTokens: (t) => models.generator!.countTokens(t),
      generate: async () => {
        throw new Error('must not be called');
      },
    };
    const result = await ask({ engine, settings, models: () => ({ ...models, generator: small }) }, DEMO_QUESTION);
    expect(result.models.answerer).toBe('extractive');
    expect(result.models.budgetTokens).toBe('estimate');
    expect(result.models.generatorFallback).toMatch(/^small-lm's window \(256 tokens\) cannot hold/);
  }, 120_000);

  it('cancelling while the answer is written stops generation with `aborted`', async () => {
    const controller = new AbortController();
    const pending = ask({ engine, settings, models: () => models }, DEMO_QUESTION, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.partial !== undefined) controller.abort();
      },
    });
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
  }, 120_000);

  it('the window never exceeds GENERATOR_WINDOW, whatever the model allows', () => {
    const big: AskGenerator = {
      id: 'big',
      contextTokens: 32_768,
      countTokens: (t) => t.length,
      generate: async () => '',
    };
    const plan = planGeneration(big, 'q?', 100_000);
    if ('skip' in plan) throw new Error(plan.skip);
    expect(plan.window).toBe(GENERATOR_WINDOW);
    expect(plan.evidenceTokens).toBeLessThan(GENERATOR_WINDOW);
  });
});
