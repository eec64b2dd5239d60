/**
 * The controller: runs a planner under the budget (B follow-up queries, top r records each),
 * admits what comes back de-duplicated by document (with `readPastHeld`, reading past the hits of
 * documents already held until r are new), checks the release guard after every round
 * and records every step. It stops when the guard releases, the planner has nothing left to ask
 * or fails (the error is recorded), or the budget is spent.
 */
import { assertKnownOptions, EvidentError } from '../errors';
import { checkInt, clock } from '../util/stage';
import type { InquiryPlanner } from './planners';
import { releaseGuard } from './release';
import { admit, startState, withRound, type InquiryState } from './state';
import { DEFAULT_INQUIRY_OPTIONS } from './types';
import type { InquiryOptions, InquiryRecord, InquiryRound, InquirySearch, ReleaseDecision } from './types';

export interface InquiryRunInput {
  readonly question: string;
  /** The evidence of the first retrieval. */
  readonly evidence: readonly InquiryRecord[];
  readonly search: InquirySearch;
  readonly planner: InquiryPlanner;
  readonly vectorOf?: (id: string) => Float32Array | undefined;
}

export interface InquiryRun {
  readonly state: InquiryState;
  readonly rounds: readonly InquiryRound[];
  /** Records the follow-up queries added, in the order they came. */
  readonly added: readonly InquiryRecord[];
  readonly release: ReleaseDecision;
  readonly options: InquiryOptions;
}

export function inquiryOptions(options: Partial<InquiryOptions> = {}): InquiryOptions {
  assertKnownOptions(options, DEFAULT_INQUIRY_OPTIONS, 'inquiry');
  const o = { ...DEFAULT_INQUIRY_OPTIONS, ...options };
  checkInt('inquiry', 'budget', o.budget, 0, 16);
  checkInt('inquiry', 'topR', o.topR, 1, 100);
  if (typeof o.readPastHeld !== 'boolean')
    throw new EvidentError(
      'invalid_option',
      `inquiry: option "readPastHeld" must be true or false, got ${String(o.readPastHeld)}.`,
    );
  return o;
}

/** The hits up to the `r`-th one whose document is not yet held (the ones before it are recorded too). */
function newHits(state: InquiryState, hits: readonly InquiryRecord[], r: number): InquiryRecord[] {
  const held = new Set(state.evidence.map((e) => e.docId));
  const out: InquiryRecord[] = [];
  let fresh = 0;
  for (const h of hits) {
    if (fresh === r) break;
    out.push(h);
    if (!held.has(h.docId)) {
      held.add(h.docId);
      fresh++;
    }
  }
  return out;
}

export async function runInquiry(input: InquiryRunInput, options: Partial<InquiryOptions> = {}): Promise<InquiryRun> {
  const o = inquiryOptions(options);
  const now = clock;
  const guard = (s: InquiryState): ReleaseDecision =>
    releaseGuard({
      question: s.question,
      evidence: s.evidence,
      ...(input.vectorOf ? { vectorOf: input.vectorOf } : {}),
    });
  let state = startState(input.question, input.evidence);
  const first = state.evidence.length;
  let release = guard(state);
  for (let round = 1; round <= o.budget && !release.released; round++) {
    const t0 = now();
    const base = { round, planner: input.planner.name, hits: [] };
    let step;
    try {
      step = await input.planner.next(state);
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      state = withRound(state, { ...base, step: null, error, stopped: 'the planner failed', ms: now() - t0 }, []);
      break;
    }
    if (step.stop) {
      state = withRound(state, { ...base, step, error: null, stopped: 'nothing left to ask', ms: now() - t0 }, []);
      break;
    }
    const admitted = o.readPastHeld
      ? admit(state, newHits(state, await input.search(step.query, o.topR + state.evidence.length), o.topR))
      : admit(state, (await input.search(step.query, o.topR)).slice(0, o.topR));
    const next = withRound(
      state,
      { ...base, step, hits: admitted.hits, error: null, stopped: null, ms: 0 },
      admitted.added,
    );
    release = guard(next);
    const stopped = release.released ? 'released' : round === o.budget ? 'budget spent' : null;
    const done: InquiryRound = { ...base, step, hits: admitted.hits, error: null, stopped, ms: now() - t0 };
    state = { ...next, history: [...state.history, done] };
  }
  return { state, rounds: state.history, added: state.evidence.slice(first), release, options: o };
}
