/**
 * The release decision: the one place an ask's outcome is chosen, with a reason a person can act
 * on. In order: an unresolved conflict on the question → 'conflict' (the answer states both
 * sides); no answer sentence, or an abstention of the fitted model (abstain.ts, with its rules) →
 * 'abstain'; an answer its cited passages do not support (validate.ts) → 'abstain'; some claims
 * unsupported → 'partial'; else 'supported'. A refusal's wording is checked against what the
 * library holds: it never says the documents lack a name a passage of theirs mentions
 * (`elsewhere`, found by a search of the whole library), never "no other passage confirms it"
 * in a one-document library (abstain.ts), and gives no example from another domain.
 */
import { abstentionSignals, decideAbstention, type AbstentionDecision, type AbstentionOptions } from './abstain';
import type { Answer } from './extractive';
import type { Candidate } from '../types';
import type { Validation } from './validate';
import type { EvidencePacket } from '../select/packet';

export const OUTCOMES = ['supported', 'partial', 'abstain', 'conflict'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface Decision {
  readonly outcome: Outcome;
  readonly reason: string | null;
  readonly suggestion: string | null;
}

/** Plain-language reasons for each abstention reason code (abstain.ts). */
const REASONS: Readonly<Record<string, string>> = Object.freeze({
  conflict: 'The sources disagree, and none of them is clearly more authoritative or more recent.',
  insufficient: 'No passage in your documents answers this question.',
  missing_premise: 'Your documents do not mention what the question is about.',
  uncovered: 'The best answer sentence covers only part of the question.',
  low_scores: 'The passages found match the question only weakly.',
  uncorroborated:
    'One passage states an answer, but no other passage kept as evidence confirms it, and on its own it is not strong enough to release.',
  untyped:
    'The passages found cover the question, but no short answer of the kind it asks for (a name, a date or a number) could be picked out of them.',
  indirect:
    'The passages found are about the question’s subject, but none of them answers it directly (no sentence or table cell states the answer).',
  computation:
    'The answer is a calculation (a ratio, a change, an average or a trend) over figures in your documents, and not every figure it needs was found unambiguously in one table or sentence; a trend asked yes or no is not judged.',
});

/** What the user can do about each, without repeating the reason (else the decision's own suggestion, abstain.ts). */
const SUGGESTIONS: Readonly<Record<string, string>> = Object.freeze({
  conflict: 'Check which document is current or authoritative (Library → Details), or add one that settles it.',
  insufficient: 'Try a narrower question, or add the document that covers it.',
  missing_premise: 'Check the spelling, or add the document that covers it.',
  uncovered: 'Ask about one aspect at a time.',
  low_scores: "Try a narrower question in the documents' own words, or add the document that covers it.",
  indirect:
    'Open the closest passages below, or ask for one figure by its row label and period as the table prints them.',
  computation:
    'Check the closest passages below for the figures: ask for the calculation naming each period and measure as the table prints them, ask for each figure on its own, or load a generator in Settings → Model profile.',
});

/**
 * Whether the answer may be released, before validation: the extractive answer by the fitted
 * abstention model and its rules (abstain.ts); a generator's answer — which states its own
 * refusal — by the rules alone: a conflict, no answer, or a name the question mentions that no
 * packed passage does.
 */
export function decideRelease(
  packet: EvidencePacket,
  answer: Answer,
  candidates: readonly Candidate[],
  abstention: Partial<AbstentionOptions> = {},
): AbstentionDecision {
  const signals = abstentionSignals({ packet, answer, candidates });
  if (answer.answerer === 'extractive') return decideAbstention(signals, abstention);
  const decide = (abstain: boolean, reason: AbstentionDecision['reason']): AbstentionDecision => ({
    abstain,
    reason,
    pCorrect: null,
    signals,
    suggestion: null,
  });
  if (answer.kind === 'conflict') return decide(true, 'conflict');
  if (answer.kind === 'insufficient') return decide(true, 'insufficient');
  if (signals.missingEntities.length > 0) return decide(true, 'missing_premise');
  return decide(false, 'none');
}

/**
 * One outcome from the answer, its validation and the abstention decision, in this order:
 * an unresolved conflict → 'conflict' (the answer states both sides); no answer sentence, an
 * abstention or an unsupported answer → 'abstain'; some claims unsupported → 'partial';
 * else 'supported'.
 */
export function decideOutcome(
  answer: Pick<Answer, 'kind'>,
  validation: Pick<Validation, 'outcome' | 'reason' | 'suggestion'>,
  decision: Pick<AbstentionDecision, 'abstain' | 'reason' | 'suggestion' | 'signals'>,
  packet: Pick<EvidencePacket, 'rationales'>,
  elsewhere: readonly string[] = [],
): Decision {
  if (answer.kind === 'conflict') {
    return { outcome: 'conflict', reason: REASONS.conflict ?? null, suggestion: SUGGESTIONS.conflict ?? null };
  }
  if (answer.kind === 'insufficient' || decision.abstain) {
    const code = answer.kind === 'insufficient' ? 'insufficient' : decision.reason;
    let reason = REASONS[code] ?? 'The evidence is not strong enough to answer.';
    const missing = decision.signals.missingEntities;
    if (code === 'missing_premise' && missing.length > 0) {
      const quoted = (xs: readonly string[]): string => xs.map((e) => `“${e}”`).join(', ');
      const absent = missing.filter((e) => !elsewhere.includes(e));
      // Never tell a user that their documents do not mention what they do mention.
      if (absent.length === 0) {
        return {
          outcome: 'abstain',
          reason: `The passages that best match the question do not mention ${quoted(missing)}, though your documents do elsewhere.`,
          suggestion: `Ask about ${quoted(missing)} more directly, in the documents' own words.`,
        };
      }
      reason = `Your documents do not mention ${quoted(absent)}.`;
    } else if (code === 'uncovered') {
      const missing = packet.rationales.filter((r) => !r.covered).map((r) => `“${r.rationale.text}”`);
      if (missing.length > 0) reason = `The evidence does not cover ${missing.join(', ')}.`;
    }
    return {
      outcome: 'abstain',
      reason,
      suggestion: SUGGESTIONS[code] ?? decision.suggestion ?? SUGGESTIONS.insufficient ?? null,
    };
  }
  if (validation.outcome === 'unsupported') {
    return {
      outcome: 'abstain',
      reason: validation.reason ?? 'The cited passages do not support the answer.',
      suggestion: validation.suggestion,
    };
  }
  if (validation.outcome === 'partial') {
    return {
      outcome: 'partial',
      reason: validation.reason ?? 'Some statements are not supported by the passages they cite.',
      suggestion: validation.suggestion,
    };
  }
  return { outcome: 'supported', reason: null, suggestion: null };
}
