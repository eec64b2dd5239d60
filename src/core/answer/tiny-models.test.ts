/**
 * The model paths of verification and answering, end to end on the tiny generated models
 * (`npm run models:tiny`; made on demand): the tiny 3-label classifier as the entailment model of
 * the verify stage's contradiction graph and of answer validation, and the tiny causal LM as the
 * generative answerer. The tiny models are random: these tests check the plumbing (what each stage
 * sends to the model and how it reads the reply), not the quality of a verdict.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { setupTiny } from '../../../test/tiny-models';
import { loadTransformersGenerator, type TransformersGenerator } from '../../models/transformers/generator';
import { loadTransformersNli, type TransformersEntailmentModel } from '../../models/transformers/nli';
import { selectEvidence } from '../select/select';
import { buildCorpus, candidate } from '../select/testing';
import type { AbortSignalLike } from '../util/stage';
import type { EntailmentModel, EntailmentPair, EntailmentScores } from '../verify/nli';
import { resolveContradictions } from '../verify/nli';
import { answerGenerative, buildPrompt, parseGeneration } from './generative';
import { validateAnswer } from './validate';

let nli: TransformersEntailmentModel;
let generator: TransformersGenerator;

beforeAll(async () => {
  const tiny = await setupTiny();
  ({ nli } = await loadTransformersNli(tiny.nli));
  ({ generator } = await loadTransformersGenerator(tiny.generator));
}, 300_000);

/** The real model, with every call it answers written down (a recorder around it, not a stand-in). */
function recording(model: EntailmentModel): EntailmentModel & {
  calls: { pairs: readonly EntailmentPair[]; scores: EntailmentScores[] }[];
} {
  const calls: { pairs: readonly EntailmentPair[]; scores: EntailmentScores[] }[] = [];
  return {
    id: model.id,
    calls,
    async classify(pairs: readonly EntailmentPair[], signal?: AbortSignalLike) {
      const scores = await model.classify(pairs, signal);
      calls.push({ pairs, scores });
      return scores;
    },
  };
}

const corpus = buildCorpus([
  { id: 'gov', sourceType: 'government', chunks: ['The hotel cap is 180 EUR per night for business travel.'] },
  { id: 'hb', sourceType: 'internal_policy', chunks: ['Business travel hotels are capped at 180 EUR a night.'] },
  { id: 'blog', sourceType: 'blog', chunks: ['The hotel cap for business travel is 250 EUR per night.'] },
]);
const lookup = { chunks: corpus.chunks, documents: corpus.documents };
const candidates = [candidate('blog#0', 0.9), candidate('gov#0', 0.8), candidate('hb#0', 0.7)];
const question = 'What is the hotel cap per night?';

describe('verify: the contradiction graph on the tiny NLI model', () => {
  it('builds its edges from the model’s own probabilities, both directions, and keeps an independent set', async () => {
    const model = recording(nli);
    // Threshold 0.34: just above a uniform 3-way softmax, so the random model yields some edges.
    const r = await resolveContradictions(candidates, { question, lookup, model }, { contradiction: 0.34 });
    expect(r.model).toBe(nli.id);
    expect(model.calls).toHaveLength(1);
    const { pairs, scores } = model.calls[0]!;
    // Three documents, one claim each: every pair of documents in both directions.
    expect(pairs).toHaveLength(6);
    for (const s of scores) expect(s.entailment + s.neutral + s.contradiction).toBeCloseTo(1, 5);
    const textOf = (id: string): string => corpus.chunks.get(id)!.text;
    const expected = new Map<string, number>();
    for (let i = 0; i < candidates.length; i++) {
      for (let j = i + 1; j < candidates.length; j++) {
        const [a, b] = [textOf(candidates[i]!.id), textOf(candidates[j]!.id)];
        const p = pairs
          .map((x, k) => ({ x, k }))
          .filter(({ x }) => (x.premise === a && x.hypothesis === b) || (x.premise === b && x.hypothesis === a))
          .map(({ k }) => scores[k]!.contradiction);
        expect(p).toHaveLength(2);
        if (Math.max(...p) >= 0.34) expected.set(`${candidates[i]!.id}|${candidates[j]!.id}`, Math.max(...p));
      }
    }
    expect(expected.size).toBeGreaterThan(0);
    expect(new Map(r.edges.map((e) => [`${e.a}|${e.b}`, e.contradiction]))).toEqual(expected);
    const kept = new Set(r.kept.map((c) => c.id));
    expect(kept.size + r.dropped.length).toBe(3);
    for (const e of r.edges) expect(kept.has(e.a) && kept.has(e.b)).toBe(false);
  });

  it('runs inside selectEvidence: every passage verify kept carries the model’s nli trace', async () => {
    const packet = await selectEvidence(
      { question, candidates, chunks: corpus.chunks, documents: corpus.documents, entailment: nli },
      { verify: {}, cutoff: { minKeep: 3 } },
    );
    expect(packet.sources.length).toBeGreaterThan(0);
    for (const s of packet.sources) {
      const c = packet.candidates.find((x) => x.id === s.candidateId)!;
      expect(c.trace.some((t) => t.stage === 'verify' && t.detail?.check === 'nli' && t.detail?.model === nli.id)).toBe(
        true,
      );
    }
  });
});

describe('validation on the tiny NLI model', () => {
  it('scores each claim by the best entailment probability of its cited passages', async () => {
    const packet = await selectEvidence(
      { question, candidates, chunks: corpus.chunks, documents: corpus.documents },
      { verify: null, cutoff: { minKeep: 3 } },
    );
    const [s1, s2] = packet.sources;
    const claim = 'Hotels are capped at 180 EUR a night';
    const v = await validateAnswer({
      answer: `${claim} [${s1!.citationId}][${s2!.citationId}]. It is unlimited [S9].`,
      sources: packet.sources,
      entailment: nli,
    });
    const body = (t: string): string => t.slice(t.indexOf('\n') + 1);
    const direct = await nli.classify([s1!, s2!].map((s) => ({ premise: body(s.text), hypothesis: `${claim}.` })));
    expect(v.claims[0]).toMatchObject({ method: 'nli', citations: [s1!.citationId, s2!.citationId] });
    expect(v.claims[0]!.score).toBeCloseTo(Math.max(...direct.map((d) => d.entailment)), 5);
    expect(v.claims[0]!.supported).toBe(v.claims[0]!.score >= 0.5);
    // An unknown citation is rejected before any model is asked.
    expect(v.claims[1]).toMatchObject({ supported: false, method: 'uncited', unknown: ['S9'] });
    expect(v.unknownCitations).toEqual(['S9']);
  });
});

describe('the generative answerer on the tiny causal LM', () => {
  it('sends the prompt it builds, streams the reply and parses exactly what the model wrote', async () => {
    const packet = await selectEvidence(
      { question, candidates, chunks: corpus.chunks, documents: corpus.documents },
      { verify: {}, cutoff: { minKeep: 3 } },
    );
    const input = { question, sources: packet.sources, conflicts: packet.conflicts, flags: packet.flags };
    const raw = await generator.generate(buildPrompt(input), { maxTokens: 12 });
    const pieces: string[] = [];
    const answer = await answerGenerative(generator, { ...input, onToken: (t) => pieces.push(t) }, { maxTokens: 12 });
    expect(answer.answerer).toBe(generator.id);
    expect(pieces.join('')).toBe(raw);
    const parsed = parseGeneration(raw);
    if (parsed.kind === 'insufficient') expect(answer.kind).toBe('insufficient');
    else expect(answer.text).toBe(parsed.text);
    // Whatever the random model wrote, validation reads it: citations parsed, unknown ids rejected.
    const v = await validateAnswer({ answer: answer.text, sources: packet.sources, entailment: nli });
    expect(['supported', 'partial', 'unsupported']).toContain(v.outcome);
  });
});
