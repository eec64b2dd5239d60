/**
 * The one answer path: retrieve → select (verify inside) → answer → validate → decide → inquire.
 * The worker (`worker/ask.ts`) and every benchmark (answers, docqa, RGB/RealtimeQA, the SciFact
 * ablation) call `answerQuestion`, so a benchmark measures what the app says. Runtime-neutral: the
 * library is an interface (the worker's `Engine`, a benchmark's fixture corpus), models and a
 * generator are passed in, and the result is plain data the caller shapes for its own use.
 *
 * Each stage is its own module; this file only composes them in order and times them:
 *   retrieval  — `library.search` (hybrid BM25 + dense in the app)
 *   selection  — core/select/select.ts `selectEvidence` (pool → priors → cutoff → … → verify → pack)
 *   answer     — the caller's answerer (a generator), else core/answer/extractive.ts
 *   validation — core/answer/validate.ts
 *   decision   — core/answer/decide.ts `decideRelease` then `decideOutcome` (the only outcome rules)
 *   inquiry    — core/inquiry `inquire`: follow-up searches when the first outcome is unresolved
 */
import { answerFromPacket, sourceBody, type Answer } from '../answer/extractive';
import { decideOutcome, decideRelease, type Decision } from '../answer/decide';
import type { AbstentionDecision, AbstentionOptions } from '../answer/abstain';
import { validateAnswer, type Validation } from '../answer/validate';
import { inquire, searchOf, type InquiryTrace } from '../inquiry';
import type { EvidencePacket } from '../select/packet';
import type { TokenCounter } from '../select/pack';
import type { PriorState } from '../select/priors';
import type { CrossEncoder } from '../select/rerank';
import { termsOf } from '../select/rationales';
import { selectEvidence, type SelectionOptions } from '../select/select';
import type { Candidate, Chunk, DocumentMeta } from '../types';
import type { EntailmentModel } from '../verify/nli';
import { throwIfAborted, type AbortSignalLike } from '../util/abort';
import { clock } from '../util/stage';

/** One retrieved passage, as the library's search returns it. */
export interface RetrievalHit {
  /** 1-based rank in the fused list. */
  readonly rank: number;
  readonly chunkId: string;
  readonly docId: string;
  readonly title: string;
  readonly headings: readonly string[];
  readonly text: string;
  readonly score: number;
  readonly scores: Candidate['scores'];
  readonly ranks: Candidate['ranks'];
  readonly trace: Candidate['trace'];
}

export interface RetrievalResponse {
  readonly hits: readonly RetrievalHit[];
  /** False when the search had no dense side (keywords only). */
  readonly dense: boolean;
  readonly fusion: string;
  readonly timings: Readonly<Record<string, number>>;
}

/** What the answer path needs of a library. */
export interface AnswerLibrary {
  search(query: string, opts: { k?: number; signal?: AbortSignalLike }): Promise<RetrievalResponse>;
  /** Chunks and metadata of these documents (every chunk, for expansion and the passage view). */
  selectionView(docIds: Iterable<string>): {
    chunks: ReadonlyMap<string, Chunk>;
    documents: ReadonlyMap<string, DocumentMeta>;
  };
  /** A chunk's unit vector of the current model, when it has one. */
  vectorOf(chunkId: string): Float32Array | undefined;
}

export type AnswerPhase = 'retrieve' | 'select' | 'answer' | 'validate';

export interface AnswerQuestionOptions {
  /** Candidates retrieval hands to selection. */
  readonly pool: number;
  readonly selection: Partial<SelectionOptions>;
  readonly priors?: PriorState;
  /** Epoch ms that feedback decays to. */
  readonly now?: number;
  readonly crossEncoder?: CrossEncoder | null;
  readonly nli?: EntailmentModel | null;
  /** Counts packed tokens in a generator's tokenizer (its plan); the estimate when absent. */
  readonly tokenCounter?: TokenCounter;
  /**
   * Writes the answer from the packet (a generator); null falls back to the extractive answer.
   * Absent: extractive.
   */
  readonly answerer?: (packet: EvidencePacket) => Promise<Answer | null>;
  /** The abstention model and thresholds (the fitted ones when absent; fitting scripts pass theirs). */
  readonly abstention?: Partial<AbstentionOptions>;
  /** Follow-up search budget of premise-directed inquiry; null turns inquiry off. */
  readonly inquiry: { readonly budget: number; readonly topR: number } | null;
  readonly signal?: AbortSignalLike;
  readonly onPhase?: (phase: AnswerPhase) => void;
}

export interface AnsweredQuestion {
  readonly question: string;
  readonly response: RetrievalResponse;
  readonly candidates: readonly Candidate[];
  readonly view: ReturnType<AnswerLibrary['selectionView']>;
  readonly packet: EvidencePacket;
  readonly answer: Answer;
  readonly validation: Validation;
  readonly decision: AbstentionDecision;
  /** The outcome with its reason and suggestion (decide.ts). */
  readonly verdict: Decision;
  /** Premise-directed inquiry's rounds and release decision (not triggered when `inquiry` is null). */
  readonly inquiry: InquiryTrace | null;
  /** Documents the follow-up searches added records of (a released chain may cite them). */
  readonly followUpDocIds: readonly string[];
  /** Milliseconds per stage: retrieve, select, answer, validate, inquiry, total. */
  readonly timings: Readonly<Record<'retrieve' | 'select' | 'answer' | 'validate' | 'inquiry' | 'total', number>>;
}

/** Answers `question` from `library` along the one answer path. */
export async function answerQuestion(
  library: AnswerLibrary,
  question: string,
  options: AnswerQuestionOptions,
): Promise<AnsweredQuestion> {
  const { signal, onPhase } = options;
  const t0 = clock();
  onPhase?.('retrieve');
  const response = await library.search(question, { k: options.pool, ...(signal ? { signal } : {}) });
  throwIfAborted(signal);
  const candidates: Candidate[] = response.hits.map((h) => ({
    id: h.chunkId,
    docId: h.docId,
    score: h.score,
    scores: h.scores,
    ranks: h.ranks,
    trace: h.trace,
  }));
  const t1 = clock();

  onPhase?.('select');
  const view = library.selectionView(new Set(candidates.map((c) => c.docId)));
  const packet = await selectEvidence(
    {
      question,
      candidates,
      chunks: view.chunks,
      documents: view.documents,
      vectorOf: (id) => library.vectorOf(id),
      ...(options.priors ? { priors: options.priors } : {}),
      ...(options.now !== undefined ? { now: options.now } : {}),
      ...(options.crossEncoder ? { crossEncoder: options.crossEncoder } : {}),
      ...(options.nli ? { entailment: options.nli } : {}),
      ...(options.tokenCounter ? { tokenCounter: options.tokenCounter } : {}),
      ...(signal ? { signal } : {}),
    },
    options.selection,
  );
  throwIfAborted(signal);
  const t2 = clock();

  onPhase?.('answer');
  const written = options.answerer && packet.sources.length > 0 ? await options.answerer(packet) : null;
  const answer = written ?? answerFromPacket(packet);
  throwIfAborted(signal);
  const t3 = clock();

  onPhase?.('validate');
  const validation = await validateAnswer({
    answer: answer.text,
    sources: packet.sources,
    ...(options.nli ? { entailment: options.nli } : {}),
    ...(signal ? { signal } : {}),
  });
  const decision = decideRelease(packet, answer, candidates, options.abstention);
  throwIfAborted(signal);
  const elsewhere = await mentionedElsewhere(library, decision, signal);
  const verdict = decideOutcome(answer, validation, decision, packet, elsewhere);
  const t4 = clock();

  const inquiry = options.inquiry ? await inquireAfter(library, packet, verdict, options) : null;
  throwIfAborted(signal);
  return {
    question,
    response,
    candidates,
    view,
    packet,
    answer,
    validation,
    decision,
    verdict,
    inquiry: inquiry?.trace ?? null,
    followUpDocIds: (inquiry?.followUp ?? []).map((r) => r.docId),
    timings: {
      retrieve: t1 - t0,
      select: t2 - t1,
      answer: t3 - t2,
      validate: t4 - t3,
      inquiry: inquiry?.trace.ms ?? 0,
      total: clock() - t0,
    },
  };
}

/**
 * Premise-directed inquiry (core/inquiry): when the first evidence leaves the question
 * unresolved, follow-up queries for the record that would settle it.
 */
async function inquireAfter(
  library: AnswerLibrary,
  packet: EvidencePacket,
  verdict: Decision,
  options: AnswerQuestionOptions,
): ReturnType<typeof inquire> {
  const { signal } = options;
  return inquire(
    {
      question: packet.question,
      outcome: verdict.outcome,
      uncovered: packet.rationales.filter((r) => !r.covered).map((r) => r.rationale.text),
      evidence: packet.sources.map((s) => ({ id: s.chunkId, docId: s.docId, title: s.title, text: sourceBody(s) })),
      search: searchOf(library, signal),
      vectorOf: (id) => library.vectorOf(id),
      ...(signal ? { signal } : {}),
    },
    { budget: options.inquiry?.budget ?? 0, topR: options.inquiry?.topR ?? 0 },
  );
}

/**
 * The question's names that no packed passage mentions but the library does (a keyword search
 * for each finds a passage or a title holding every one of its words): the refusal must not say
 * the documents lack them.
 */
async function mentionedElsewhere(
  library: AnswerLibrary,
  decision: Pick<AbstentionDecision, 'reason' | 'signals'>,
  signal: AbortSignalLike | undefined,
): Promise<string[]> {
  if (decision.reason !== 'missing_premise') return [];
  const found: string[] = [];
  for (const entity of decision.signals.missingEntities) {
    // A keyword search finds a passage for any one of the entity's words ("2022" of "FY2022"): it
    // is mentioned only where one passage (its title and headings included) holds every word.
    const want = termsOf(entity);
    const hits = await library.search(entity, { k: 5, ...(signal ? { signal } : {}) });
    const holds = (h: RetrievalHit): boolean => {
      const have = new Set(termsOf([h.title, ...h.headings, h.text].join('\n')));
      return want.length > 0 && want.every((t) => have.has(t));
    };
    if (hits.hits.some(holds)) found.push(entity);
  }
  return found;
}
