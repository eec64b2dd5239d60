/**
 * Premise-directed inquiry (Socrates-RAG), the stage after the first answer:
 *
 *   trigger (conflict / abstain / uncovered rationale / evidence referring elsewhere)
 *   → rounds: planner names one open premise → query → top r → admit by document   (≤ B rounds)
 *   → release guard (a chain of binding records; look-alike pages count as one source)
 *
 * `inquire` is what the ask pipeline calls: the ask's state in, the follow-up evidence and the
 * trace out. Everything else is exported for the evaluation and the tests.
 */
import type { Generator } from '../answer/generative';
import { clock } from '../util/stage';
import { inquiryOptions, runInquiry } from './controller';
import { generatorPlanner } from './generator';
import { premisePlanner } from './planners';
import { releaseGuard } from './release';
import { shouldInquire, type FirstOutcome } from './trigger';
import type { InquiryOptions, InquiryRecord, InquiryRound, InquirySearch, ReleaseDecision } from './types';

export * from './types';
export { runInquiry, inquiryOptions, type InquiryRun, type InquiryRunInput } from './controller';
export { premisePlanner, repeatPlanner, expansionPlanner, type InquiryPlanner } from './planners';
export { generatorPlanner, parsePlannerReply, plannerMessages } from './generator';
export { findPremises } from './premises';
export { buildQuery } from './query';
export { releaseGuard, sourcesOf } from './release';
export { shouldInquire, type FirstOutcome, type TriggerDecision } from './trigger';

export interface AskInquiryInput {
  readonly question: string;
  /** The first answer's outcome. */
  readonly outcome: FirstOutcome;
  /** Rationales the first evidence did not cover. */
  readonly uncovered?: readonly string[];
  /** The packed evidence of the first retrieval. */
  readonly evidence: readonly InquiryRecord[];
  readonly search: InquirySearch;
  /** A loaded generator plans the rounds (structured JSON); the model-free planner otherwise. */
  readonly generator?: Generator | null;
  readonly vectorOf?: (id: string) => Float32Array | undefined;
  readonly signal?: { readonly aborted: boolean };
}

/** The inquiry's trace, as the evidence trail shows it. */
export interface InquiryTrace {
  readonly triggered: boolean;
  readonly trigger: readonly string[];
  readonly planner: string;
  readonly budget: InquiryOptions;
  readonly rounds: readonly InquiryRound[];
  readonly release: ReleaseDecision;
  readonly ms: number;
}

export interface AskInquiryResult {
  /** Records the follow-up queries added (none when not triggered). */
  readonly followUp: readonly InquiryRecord[];
  readonly trace: InquiryTrace;
}

/** Runs the inquiry on an ask's state when its trigger holds. */
export async function inquire(
  input: AskInquiryInput,
  options: Partial<InquiryOptions> = {},
): Promise<AskInquiryResult> {
  const t0 = clock();
  const elapsed = (): number => clock() - t0;
  const trigger = shouldInquire(input);
  const planner = input.generator ? generatorPlanner(input.generator, input.signal) : premisePlanner;
  const off = inquiryOptions(options).budget === 0;
  if (!trigger.triggered || off) {
    const release = releaseGuard({ question: input.question, evidence: input.evidence });
    return {
      followUp: [],
      trace: {
        triggered: false,
        // A budget of 0 (Settings) turns the stage off: why it would have run is kept.
        trigger: off && trigger.triggered ? trigger.reasons : [],
        planner: planner.name,
        budget: inquiryOptions(options),
        rounds: [],
        release,
        ms: elapsed(),
      },
    };
  }
  const run = await runInquiry(
    {
      question: input.question,
      evidence: input.evidence,
      search: input.search,
      planner,
      ...(input.vectorOf ? { vectorOf: input.vectorOf } : {}),
    },
    options,
  );
  return {
    followUp: run.added,
    trace: {
      triggered: true,
      trigger: trigger.reasons,
      planner: planner.name,
      budget: run.options,
      rounds: run.rounds,
      release: run.release,
      ms: elapsed(),
    },
  };
}

/** What `searchOf` needs from the app's engine (the worker's `Engine` has this shape). */
export interface InquiryEngine<S> {
  search(
    query: string,
    opts: { k?: number; signal?: S },
  ): Promise<{ readonly hits: readonly { readonly chunkId: string; readonly docId: string }[] }>;
  selectionView(docIds: Iterable<string>): {
    readonly chunks: ReadonlyMap<string, { readonly text: string }>;
    readonly documents: ReadonlyMap<string, { readonly title: string }>;
  };
}

/** The loop's search over the app's engine: its hybrid retrieval, each hit with its chunk text. */
export function searchOf<S>(engine: InquiryEngine<S>, signal?: S): InquirySearch {
  return async (query, k) => {
    const response = await engine.search(query, { k, ...(signal !== undefined ? { signal } : {}) });
    const view = engine.selectionView(new Set(response.hits.map((h) => h.docId)));
    return response.hits.map((h) => ({
      id: h.chunkId,
      docId: h.docId,
      title: view.documents.get(h.docId)?.title ?? h.docId,
      text: view.chunks.get(h.chunkId)?.text ?? '',
    }));
  };
}
