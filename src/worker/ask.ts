/**
 * Asking a question, in the worker:
 *
 *   hybrid retrieval (the engine's BM25 + dense, fused; a pool of `ASK_POOL`; the dense side is
 *     the active embedder's: USE lite, or a profile's)
 *   → selectEvidence (verify on; the library's document metadata; the user's priors and settings;
 *     the cross-encoder and NLI model when a profile loaded them; with a generator, the budget is
 *     counted with its tokenizer and fitted to its window: `ask-generate.ts`)
 *   → answer: the generator's (streamed as it is written), else extractive; a failed generation
 *     falls back to the extractive answer and says why
 *   → validation (the NLI model when loaded) → abstention decision
 *
 * and returns everything the UI shows as plain data: the answer with its citations, the outcome
 * (supported / partial / abstain / conflict) with a reason and a suggestion, the packed sources,
 * and the whole evidence trail — every candidate with its score breakdown and trace, the cutoff
 * curve, rationales and their coverage, conflicts, verifier flags and the token budget.
 *
 * Runtime-neutral: `ask` takes its collaborators (an engine, settings, models), so the same code
 * runs in the worker and in Node tests against a real `Engine`.
 */
import { sourceBody, type Answer } from '../core/answer/extractive';
import type { Validation } from '../core/answer/validate';
import { decideOutcome } from '../core/answer/decide';
import { EvidentError } from '../core/errors';
import type { InquiryTrace } from '../core/inquiry';
import { answerQuestion, type AnsweredQuestion } from '../core/pipeline/answer-question';
import { inquiryAnswer } from './inquiry-answer';
import { outcomeOf, type EvidencePacket } from '../core/select/packet';
import type { CrossEncoder } from '../core/select/rerank';
import { estimateTokens, type TokenCounter } from '../core/select/pack';
import type { SelectionOptions } from '../core/select/select';
import type { PriorState } from '../core/select/priors';
import type { Candidate, Chunk, DocumentMeta } from '../core/types';
import type { EntailmentModel } from '../core/verify/nli';
import type { SearchResponse } from './api';
import {
  fallbackReason,
  generateAnswer,
  isAborted,
  planGeneration,
  type AskGenerator,
  type GenerationPlan,
} from './ask-generate';
import type {
  AskAnswer,
  AskCandidate,
  AskConflict,
  AskModelDevice,
  AskProgress,
  AskResult,
  AskSource,
  AppSettingValues,
} from './ask-api';

/**
 * Candidates retrieval hands to selection. Selection pools max(50, 3 × maxEvidence) of them
 * (source-aware reranking's "3k pool", floor 50) and reports the rest as past the pool; the
 * engine's per-retriever lists are 100 long, so 100 fused candidates is what it can give.
 */
export const ASK_POOL = 100;

/** Longest question accepted (characters): a question, not a document. */
export const MAX_QUESTION_CHARS = 2000;

/** Characters of a dropped candidate's text sent for the trail (the passage view reads the rest). */
const EXCERPT_CHARS = 280;

/** What `ask` needs from the engine. */
export interface AskEngine {
  search(query: string, opts: { k?: number; signal?: AbortSignal }): Promise<SearchResponse>;
  /** Chunks and metadata of these documents (every chunk, for expansion and the passage view). */
  selectionView(docIds: Iterable<string>): {
    chunks: ReadonlyMap<string, Chunk>;
    documents: ReadonlyMap<string, DocumentMeta>;
  };
  /** A chunk's unit vector of the current model, when it has one. */
  vectorOf(chunkId: string): Float32Array | undefined;
  /** The embedder of the dense side (its id names it in the trail). */
  readonly embedder: { readonly id: string } | null;
  /** True while the library is re-embedded for a new embedder (search is by keywords only). */
  readonly denseOnHold?: boolean;
}

export interface AskModels {
  readonly crossEncoder: CrossEncoder | null;
  readonly nli: EntailmentModel | null;
  /** Writes the answer from the packed evidence; the extractive answerer when absent. */
  readonly generator?: AskGenerator | null;
  /** Where each loaded model runs (the trail lists those that took part). */
  readonly devices?: readonly AskModelDevice[];
}

export interface AskDeps {
  readonly engine: AskEngine;
  readonly settings: { values(): Promise<AppSettingValues>; priors(): Promise<PriorState> };
  /** Models of the loaded profile; model-free methods when absent. */
  readonly models?: () => AskModels;
  /** Epoch ms that feedback decays to. Default `Date.now`. */
  readonly now?: () => number;
  /** Selection options over those the settings give (stage by stage: `mmr` replaces `mmr`). */
  readonly selection?: Partial<SelectionOptions>;
}

export interface AskCallbacks {
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: AskProgress) => void;
}

/**
 * Selection options from the user's settings: budget, MMR λ, cutoff bounds. `budget` overrides
 * the setting (a generator's window may hold less) and `count` is the tokenizer it is counted in.
 */
export function selectionOptions(
  values: AppSettingValues,
  question: string,
  budget: number = values.budget,
  count: TokenCounter = estimateTokens,
): Partial<SelectionOptions> {
  const { min, max } = values.cutoffBounds;
  return {
    // The cutoff's upper bound is the most evidence selection may keep (it also caps MMR).
    maxEvidence: max,
    cutoff: { minKeep: min, maxKeep: max },
    mmr: { lambda: values.mmrLambda },
    // The budget is the evidence budget itself: prompt, answer reserve and margin are already
    // taken off (`planGeneration`) or absent (extractive), so pack's limit is exactly `budget`.
    pack: {
      contextLimit: budget + count(question),
      systemPromptTokens: 0,
      answerReserve: 0,
      marginRatio: 0,
    },
    verify: {},
  };
}

/** Answers `question` from the library, with the whole evidence trail. */
export async function ask(deps: AskDeps, question: string, cb: AskCallbacks = {}): Promise<AskResult> {
  if (typeof question !== 'string' || question.trim() === '') {
    throw new EvidentError('invalid_input', 'Type a question first.');
  }
  if (question.length > MAX_QUESTION_CHARS) {
    throw new EvidentError(
      'invalid_input',
      `The question is ${question.length} characters long; ask in at most ${MAX_QUESTION_CHARS}.`,
    );
  }
  const q = question.trim();
  const { signal, onProgress } = cb;
  onProgress?.({ phase: 'retrieve' });
  const [values, priors] = await Promise.all([deps.settings.values(), deps.settings.priors()]);
  const models = deps.models?.() ?? { crossEncoder: null, nli: null };
  const generator = models.generator ?? null;
  let plan: GenerationPlan | null = null;
  let generatorFallback: string | null = null;
  if (generator) {
    const planned = planGeneration(generator, q, values.budget);
    if ('skip' in planned) generatorFallback = planned.skip;
    else plan = planned;
  }
  const answerer = async (packet: EvidencePacket): Promise<Answer | null> => {
    if (!generator || !plan) return null;
    try {
      return await generateAnswer(generator, packet, plan, {
        ...(signal ? { signal } : {}),
        onText: (partial) => onProgress?.({ phase: 'answer', answerer: generator.id, partial }),
      });
    } catch (err) {
      if (isAborted(err)) throw err;
      generatorFallback = fallbackReason(err, generator.id);
      return null;
    }
  };
  const run = await answerQuestion(deps.engine, q, {
    pool: ASK_POOL,
    selection: { ...selectionOptions(values, q, plan?.evidenceTokens, plan?.tokenCounter), ...deps.selection },
    priors,
    now: deps.now?.() ?? Date.now(),
    crossEncoder: models.crossEncoder,
    nli: models.nli,
    ...(plan ? { tokenCounter: plan.tokenCounter } : {}),
    answerer,
    inquiry: { budget: values.inquiry.budget, topR: values.inquiry.topR },
    ...(signal ? { signal } : {}),
    onPhase: (phase) => {
      if (phase === 'retrieve') return;
      onProgress?.({ phase, ...(phase === 'answer' && generator && plan ? { answerer: generator.id } : {}) });
    },
  });
  if (generator && plan && run.packet.sources.length === 0) {
    generatorFallback = `No passage fits ${generator.id}'s evidence budget (${plan.evidenceTokens} tokens), so it was not asked.`;
  }
  const result = askResultOf(run, deps.engine, { models, plan, generatorFallback });
  onProgress?.({ phase: 'done' });
  return result;
}

/** The worker's result of one run of the answer path: the answer, its sources and the whole trail. */
function askResultOf(
  run: AnsweredQuestion,
  engine: AskEngine,
  ctx: { models: AskModels; plan: GenerationPlan | null; generatorFallback: string | null },
): AskResult {
  const { packet, answer, validation, decision, verdict, response, candidates, view } = run;
  const { models, plan } = ctx;
  const generator = models.generator ?? null;
  const inquiry = run.inquiry as InquiryTrace;
  const firstSources = packet.sources.map(toAskSource);
  const settled = inquiryAnswer(
    verdict.outcome,
    inquiry,
    firstSources,
    // The chain's records are among those the follow-up queries added or the packet held.
    engine.selectionView(new Set([...run.followUpDocIds, ...firstSources.map((s) => s.docId)])),
  );
  const firstAnswer = toAskAnswer(answer, validation);
  const retrievalRank = new Map(response.hits.map((h) => [h.chunkId, h.rank]));
  return {
    question: run.question,
    ...(settled ? { outcome: 'supported' as const, reason: settled.reason, suggestion: null } : verdict),
    answer: settled ? settled.answer : firstAnswer,
    sources: settled ? settled.sources : firstSources,
    firstPass: settled ? { outcome: verdict.outcome, reason: verdict.reason, answer: firstAnswer } : null,
    rationales: packet.rationales.map((r) => ({
      id: r.rationale.id,
      text: r.rationale.text,
      kind: r.rationale.kind,
      covered: r.covered,
      supportingIds: r.supportingIds,
      candidateIds: r.candidateIds,
    })),
    conflicts: packet.conflicts.map(toAskConflict),
    flags: packet.flags.map((f) => ({
      kind: f.kind,
      candidateId: f.candidateId,
      citationId: packet.sources.find((s) => s.candidateId === f.candidateId)?.citationId ?? null,
      docId: f.docId,
      excerpt: f.excerpt,
    })),
    candidates: packet.candidates.map((c) => toAskCandidate(c, packet, view, retrievalRank)),
    cutoff: { ...packet.cutoff, curve: [...packet.cutoff.curve], floor: floorReason(packet) },
    budget: packet.budget,
    abstention: {
      abstain: decision.abstain,
      reason: decision.reason,
      pCorrect: decision.pCorrect,
      signals: { ...decision.signals },
    },
    validation: { outcome: validation.outcome, unknownCitations: validation.unknownCitations },
    retrieval: {
      pool: candidates.length,
      dense: response.dense,
      fusion: response.fusion,
      keywordsOnly: response.dense ? null : keywordsOnlyReason(engine),
    },
    models: {
      embedder: response.dense ? (engine.embedder?.id ?? null) : null,
      reranker: packet.reranker,
      nli: models.nli?.id ?? null,
      answerer: answer.answerer,
      budgetTokens: plan ? plan.generatorId : 'estimate',
      generatorFallback: ctx.generatorFallback,
      devices: (models.devices ?? []).filter((d) =>
        d.role === 'embedder'
          ? response.dense
          : d.role === 'cross-encoder'
            ? packet.reranker !== null
            : d.role === 'nli'
              ? models.nli != null
              : generator !== null,
      ),
    },
    mmr: packet.mmr,
    asksEarlier: packet.asksEarlier,
    independentSources: packet.independentSources,
    timings: {
      retrieveMs: run.timings.retrieve,
      // Retrieval per stage (lexicalMs, embedMs, denseMs, fuseMs), then selection per stage.
      ...response.timings,
      ...Object.fromEntries(Object.entries(packet.timings).map(([k, v]) => [`${k}Ms`, v ?? 0])),
      selectMs: run.timings.select,
      answerMs: run.timings.answer,
      validateMs: run.timings.validate,
      inquiryMs: run.timings.inquiry,
      totalMs: run.timings.total,
    },
    inquiry,
  };
}

function toAskConflict(c: EvidencePacket['conflicts'][number]): AskConflict {
  return {
    id: c.id,
    kind: c.kind,
    onQuestion: c.onQuestion,
    status: c.status,
    winner: c.winner,
    resolvedBy: c.resolvedBy,
    reason: c.reason,
    sides: c.sides.map((s) => ({
      key: s.key,
      display: s.display,
      support: s.support,
      candidateIds: s.candidateIds,
      citationIds: s.citationIds,
    })),
  };
}

/** Why retrieval had no dense side. */
function keywordsOnlyReason(engine: AskEngine): string {
  if (!engine.embedder) return 'the embedding model is not loaded';
  if (engine.denseOnHold) return `the library is being re-embedded with ${engine.embedder.id}`;
  return 'no passage has a vector yet';
}

/** Why the cut keeps more than its elbow, when a floor applied: the higher floor's reason (the one that binds). */
export function floorReason(packet: Pick<EvidencePacket, 'factoidFloor' | 'longDocument'>): string | null {
  const f = packet.factoidFloor?.minKeep != null ? packet.factoidFloor : null;
  const l = packet.longDocument?.minKeep != null ? packet.longDocument : null;
  if (l && (!f || (l.minKeep as number) >= (f.minKeep as number))) return `Long documents: ${l.reason}.`;
  return f ? `Kept at least ${f.minKeep}: ${f.reason}.` : null;
}

function toAskAnswer(answer: Answer, validation: Validation): AskAnswer {
  return {
    kind: answer.kind,
    text: answer.text,
    sentences: validation.claims.map((c) => ({
      text: c.text.replace(/\s*\[S\d+(?:\s*(?:[,;]|–|-)\s*S\d+)*\]/gu, '').trim(),
      citationIds: c.citations,
      supported: c.supported,
      problem: c.problem,
    })),
    short: answer.short
      ? { text: answer.short.text, kind: answer.short.kind, citationId: answer.short.citationId }
      : null,
    answerer: answer.answerer,
    ...(answer.computed ? { computed: answer.computed } : {}),
  };
}

function toAskSource(s: EvidencePacket['sources'][number]): AskSource {
  return {
    citationId: s.citationId,
    docId: s.docId,
    chunkId: s.chunkId,
    title: s.title,
    headings: s.headings,
    page: s.page ?? null,
    start: s.start,
    end: s.end,
    text: sourceBody(s),
    tokens: s.tokens,
    score: s.score,
    sourceType: s.sourceType,
    status: s.status,
    effectiveDate: s.effectiveDate ?? null,
    rationaleIds: s.rationaleIds,
  };
}

function toAskCandidate(
  c: Candidate,
  packet: EvidencePacket,
  view: ReturnType<AskEngine['selectionView']>,
  retrievalRank: ReadonlyMap<string, number>,
): AskCandidate {
  const chunk = view.chunks.get(c.id);
  const meta = view.documents.get(c.docId);
  const outcome = outcomeOf(c);
  const kept = outcome?.kept === true;
  const citationId = kept ? String(outcome?.detail?.citationId ?? '') || null : null;
  const droppedBy = outcome?.detail?.droppedBy;
  const flags = new Set<string>();
  for (const f of packet.flags) if (f.candidateId === c.id) flags.add(f.kind.replace(/_/g, ' '));
  for (const e of c.trace) {
    if (e.stage !== 'verify' || !e.reason || /^no entailment model/.test(e.reason)) continue;
    // The entry that dropped the candidate is its outcome's reason already: not a flag beside it.
    if (!e.kept && !kept && (outcome?.reason ?? '').endsWith(e.reason)) continue;
    const check = typeof e.detail?.check === 'string' ? e.detail.check : 'verify';
    flags.add(`${check}: ${e.reason}`);
  }
  const text = chunk?.text ?? '';
  return {
    id: c.id,
    docId: c.docId,
    title: meta?.title ?? c.docId,
    headings: chunk?.headings ?? [],
    page: chunk?.page ?? null,
    excerpt: text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS).trimEnd()}…` : text,
    sourceType: meta?.sourceType ?? 'unknown',
    status: meta?.status ?? 'current',
    retrievalRank: retrievalRank.get(c.id) ?? null,
    scores: c.scores,
    ranks: c.ranks,
    kept,
    citationId,
    stage: kept ? 'outcome' : typeof droppedBy === 'string' ? droppedBy : 'outcome',
    reason: outcome?.reason ?? '',
    flags: [...flags],
    trace: c.trace,
  };
}

/** The release decision (core/answer/decide.ts), under the name the worker's tests use. */
export const outcomeOfAsk = decideOutcome;
