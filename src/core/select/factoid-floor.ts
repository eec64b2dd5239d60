/**
 * Factoid floor: how many passages the cutoff keeps at least for a question that asks for one
 * value (a name, a date, a number) when several documents answer it.
 *
 * Such a question is settled by comparing what documents state: corroboration by independent
 * sources, conflicts between values, claims written to order (verify/). A score curve over
 * passages that restate the question often drops right after the first one, so the elbow keeps
 * one passage and nothing is compared: the answer rests on one document, or is refused as
 * uncorroborated while other documents state the same value. When at least `minDocuments`
 * documents among the first `window` candidates state a value of the asked kind in a sentence
 * that restates the question (`claimedValues`, the claim reader of verify/coordination.ts), the
 * cutoff keeps at least `minKeep`. A fact that one document of a library states, with nothing
 * else about it, keeps the elbow's cut: there is nothing to compare it with.
 *
 * Set on RGB ids 0–49 and realtimeqa-dev ids 0–49 (BENCHMARKS.md): five is what the RGB harness kept
 * before the floor (`cutoff.minKeep 5`), and no other value was tried.
 */
import type { Candidate } from '../types';
import { assertKnownOptions } from '../errors';
import { claimedValues, questionFrame } from '../verify/coordination';
import { answerTypeOf, type AnswerType } from '../verify/values';
import type { EvidenceLookup } from './common';
import { checkInt, textOf } from './common';
import { LATE_QUESTION_WORD, QUESTION_OPENING } from '../lexicon/questions';

export interface FactoidFloorOptions {
  /** Passages kept at least when the floor applies. Default 5. */
  readonly minKeep: number;
  /** Candidates (best first) read for answering documents. Default 20. */
  readonly window: number;
  /** Documents among them that must state a value of the asked kind. Default 2. */
  readonly minDocuments: number;
}

export const DEFAULT_FACTOID_FLOOR_OPTIONS: FactoidFloorOptions = Object.freeze({
  minKeep: 5,
  window: 20,
  minDocuments: 2,
});

export interface FactoidFloor {
  /** The floor, or null when it does not apply. */
  readonly minKeep: number | null;
  /** Documents among the window that state a value of the asked kind in a claim sentence. */
  readonly documents: number;
  /** Why, in words (the evidence trail shows it). */
  readonly reason: string;
}

/** Question types whose answer is one value that documents can state differently. */
const VALUE_TYPES: ReadonlySet<AnswerType> = new Set<AnswerType>(['entity', 'date', 'number']);

/**
 * Whether `question` asks for one value: a typed question (a name, a date, a number), or one whose
 * question word stands later ("… told advertisers to do what?", "… this week. Where did this
 * occur?"). Not a statement (a claim to check), a yes/no question or a request for an explanation.
 */
export function asksForValue(question: string): boolean {
  const q = question.trim();
  if (!/\?$/u.test(q) && !QUESTION_OPENING.test(q)) return false;
  const type = answerTypeOf(q);
  if (VALUE_TYPES.has(type)) return true;
  return type === 'any' && LATE_QUESTION_WORD.test(q);
}

/** The floor for `question` over `ranked` candidates (best first). */
export function factoidFloor(
  question: string,
  ranked: readonly Candidate[],
  lookup: EvidenceLookup,
  options: Partial<FactoidFloorOptions> = {},
): FactoidFloor {
  assertKnownOptions(options, DEFAULT_FACTOID_FLOOR_OPTIONS, 'factoidFloor');
  const o: FactoidFloorOptions = { ...DEFAULT_FACTOID_FLOOR_OPTIONS, ...options };
  checkInt('factoidFloor', 'minKeep', o.minKeep, 1, 1000);
  checkInt('factoidFloor', 'window', o.window, 1, 10_000);
  checkInt('factoidFloor', 'minDocuments', o.minDocuments, 1, 1000);
  if (!asksForValue(question)) {
    return { minKeep: null, documents: 0, reason: 'the question asks for no single name, date or number' };
  }
  const frame = questionFrame(question);
  const answering = new Set<string>();
  for (const c of ranked.slice(0, o.window)) {
    if (answering.has(c.docId)) continue;
    if (claimedValues(textOf(lookup, c.id), frame).claimed.length > 0) answering.add(c.docId);
  }
  const documents = answering.size;
  const read = `among the first ${Math.min(o.window, ranked.length)} passages`;
  if (documents < o.minDocuments) {
    return {
      minKeep: null,
      documents,
      reason: `${documents === 0 ? 'no document' : 'one document'} ${read} states an answer: nothing to compare`,
    };
  }
  return {
    minKeep: o.minKeep,
    documents,
    reason: `${documents} documents ${read} state an answer: at least ${o.minKeep} passages are kept so their statements are compared`,
  };
}
