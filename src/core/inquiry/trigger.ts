/**
 * When the loop runs: the first retrieval ended in a conflict or an abstention, a rationale of the
 * question stayed uncovered, or the evidence refers to a record it does not contain (an open
 * identifier, reference or binding-kind premise). Otherwise it does not run, and costs only this
 * check (the premise finder over the packed passages).
 */
import { findPremises } from './premises';
import type { InquiryRecord, PremiseKind } from './types';

/** The first answer's outcome, as the ask pipeline names it. */
export type FirstOutcome = 'supported' | 'partial' | 'abstain' | 'conflict';

export interface TriggerInput {
  readonly question: string;
  readonly outcome: FirstOutcome;
  /** Texts of the question's rationales the evidence did not cover. */
  readonly uncovered?: readonly string[];
  readonly evidence: readonly InquiryRecord[];
}

export interface TriggerDecision {
  readonly triggered: boolean;
  /** Every reason that holds, in plain language (empty when not triggered). */
  readonly reasons: readonly string[];
}

/** Premise kinds that mean "the evidence points at a record it does not hold". */
const REFERRING: ReadonlySet<PremiseKind> = new Set<PremiseKind>(['identifier', 'reference', 'binding']);

export function shouldInquire(input: TriggerInput): TriggerDecision {
  const reasons: string[] = [];
  if (input.outcome === 'conflict') reasons.push('the sources disagree');
  if (input.outcome === 'abstain') reasons.push('the first answer abstained');
  const uncovered = input.uncovered ?? [];
  if (uncovered.length > 0) reasons.push(`the evidence does not cover ${uncovered.map((u) => `“${u}”`).join(', ')}`);
  // Only the referring kinds: the names a passage introduces (the costliest to read) never trigger.
  const open = findPremises({ question: input.question, evidence: input.evidence, kinds: REFERRING });
  if (open.length > 0) reasons.push(`the evidence refers to a record it does not contain: ${open[0]?.text}`);
  return { triggered: reasons.length > 0, reasons };
}
