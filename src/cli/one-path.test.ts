/**
 * One answer path (issue 26): the same questions asked through the app's worker API (what the UI
 * calls), through the document-QA benchmarks' `benchmarkAsk` (answers, docqa) and through
 * core/pipeline's `answerQuestion` over a `candidateLibrary` (how RGB/RealtimeQA and the SciFact
 * ablation ask) give the same outcome, reason, answer, short answer and sources. A benchmark that
 * composed the stages itself would drift from the app the moment a stage changed; this fails then.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { MARATHON_NOISE, MARATHON_PLANTED, MARATHON_QUESTION, MARATHON_REPORTS } from '../../test/fixtures/marathon';
import type { Candidate } from '../core/types';
import { answerQuestion } from '../core/pipeline/answer-question';
import { candidateLibrary } from '../core/pipeline/candidate-library';
import { DEMO_DOCUMENTS, DEMO_QUESTION } from '../ui/demo';
import { ASK_POOL, selectionOptions } from '../worker/ask';
import type { AskResult } from '../worker/ask-api';
import { appApi, type RunCall } from '../worker/app-api';
import { Engine } from '../worker/engine';
import { asResult } from '../worker/result';
import { SettingsHost } from '../worker/settings';
import { WordHashEmbedder } from '../worker/testing';
import { benchmarkAsk } from './docqa';

const QUESTIONS = [
  DEMO_QUESTION,
  'How much is the daily meal allowance within Europe?',
  'Who approves expense claims above EUR 1,000?',
  'What is the mileage rate for a private car?',
  'Is alcohol reimbursed?',
  MARATHON_QUESTION,
  'What colour is the office cat?',
];

/** What a person reads of one answer: everything the paths must agree on. */
interface Said {
  readonly outcome: string;
  readonly reason: string | null;
  readonly text: string;
  readonly short: string | null;
  readonly sources: readonly string[];
}

const saidOf = (r: AskResult): Said => {
  // The first pass when inquiry settled it (the pipeline's own verdict is the first pass).
  const first = r.firstPass;
  return {
    outcome: first?.outcome ?? r.outcome,
    reason: first ? first.reason : r.reason,
    text: (first?.answer ?? r.answer).text,
    short: (first?.answer ?? r.answer).short?.text ?? null,
    // A settled inquiry appends its records after the first pass's sources.
    sources: r.sources.map((s) => s.chunkId),
  };
};

let engine: Engine;

beforeAll(async () => {
  engine = new Engine();
  engine.setEmbedder(new WordHashEmbedder());
  for (const d of DEMO_DOCUMENTS) await engine.addDocument(d);
  const race = [...MARATHON_PLANTED, ...MARATHON_REPORTS, ...MARATHON_NOISE];
  for (const [i, text] of race.entries()) {
    await engine.addDocument({
      docId: `race-${i}`,
      title: `Race note ${i}`,
      text,
      format: 'text',
      sourceType: 'established_news',
    });
  }
}, 60_000);

async function viaWorkerApi(question: string): Promise<AskResult> {
  const run: RunCall = (_options, onProgress, fn) =>
    asResult(() => fn(new AbortController().signal, (p) => onProgress?.(p as never)));
  const api = appApi({
    run,
    engine,
    settings: new SettingsHost(() => null),
    ready: async () => undefined,
    exclusive: (fn) => fn(),
    embedder: () => null,
  });
  const result = await api.ask(question, {});
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** As RGB and the ablation ask: the pipeline over a library whose retrieval is a function. */
async function viaCandidateLibrary(question: string): Promise<Said> {
  const settings = new SettingsHost(() => null);
  const [values, priors] = await Promise.all([settings.values(), settings.priors()]);
  const library = candidateLibrary({
    chunks: engine.selectionView(engine.documents().map((d) => d.docId)).chunks,
    documents: engine.selectionView(engine.documents().map((d) => d.docId)).documents,
    vectorOf: (id) => engine.vectorOf(id),
    retrieve: async (query, k) =>
      (await engine.search(query, { k })).hits.map((h): Candidate => ({
        id: h.chunkId,
        docId: h.docId,
        score: h.score,
        scores: h.scores,
        ranks: h.ranks,
        trace: h.trace,
      })),
    dense: true,
    fusion: 'engine',
  });
  const run = await answerQuestion(library, question, {
    pool: ASK_POOL,
    selection: selectionOptions(values, question),
    priors,
    now: Date.now(),
    inquiry: values.inquiry,
  });
  return {
    outcome: run.verdict.outcome,
    reason: run.verdict.reason,
    text: run.answer.text,
    short: run.answer.short?.text ?? null,
    sources: run.packet.sources.map((s) => s.chunkId),
  };
}

describe('the worker and every benchmark run one answer path', () => {
  it.each(QUESTIONS)('%s', async (question) => {
    const worker = await viaWorkerApi(question);
    const said = saidOf(worker);
    expect(saidOf(await benchmarkAsk(engine, question))).toEqual(said);
    const piped = await viaCandidateLibrary(question);
    expect(piped).toEqual({ ...said, sources: said.sources.slice(0, piped.sources.length) });
    // The question was really answered or refused, not skipped: an outcome and a reason when refused.
    expect(['supported', 'partial', 'abstain', 'conflict']).toContain(said.outcome);
    if (said.outcome === 'abstain') expect(said.reason).not.toBeNull();
  });

  it('answers the questions the library covers and refuses the one it does not', async () => {
    expect(saidOf(await viaWorkerApi(DEMO_QUESTION)).outcome).toBe('supported');
    expect(saidOf(await viaWorkerApi('What colour is the office cat?')).outcome).toBe('abstain');
  });
});
