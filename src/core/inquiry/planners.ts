/**
 * Planners: who proposes the next follow-up query. The model-free premise planner is ours; the
 * repeat and expansion planners are the controls the evaluation compares it with (same loop,
 * budget, retriever and release rule). The generator planner is in `generator.ts`.
 */
import { bridgePremises } from './bridge';
import { stemsOf } from './mentions';
import { findPremises } from './premises';
import { buildQuery } from './query';
import { askedKeys, askedQueries, type InquiryState } from './state';
import type { InquiryStep, PlannerName, Premise, PremiseKind } from './types';

export interface InquiryPlanner {
  readonly name: PlannerName;
  /** The next step; a thrown error ends the loop and is recorded in the trace. */
  next(state: InquiryState): Promise<InquiryStep> | InquiryStep;
}

const STOP: InquiryStep = Object.freeze({
  premise: '',
  why: 'No open premise is left in the evidence.',
  query: '',
  discriminator: '',
  stop: true,
});

/** What the structural finder reads; names beside the entity give way to bridges (`bridge.ts`). */
const STRUCTURAL: ReadonlySet<PremiseKind> = new Set<PremiseKind>(['identifier', 'binding', 'reference']);

/**
 * Premise-directed: the most decisive open premise, queried by its own terms plus its entity;
 * structural premises (identifiers, binding kinds, references) first, then bridges.
 */
export const premisePlanner: InquiryPlanner = Object.freeze({
  name: 'premise' as const,
  next(state: InquiryState): InquiryStep {
    const asked = askedKeys(state);
    const sent = askedQueries(state);
    const structural = findPremises({ question: state.question, evidence: state.evidence, asked, kinds: STRUCTURAL });
    const bridges = bridgePremises({ question: state.question, evidence: state.evidence, asked });
    // Bridges rank by their priority among the structural premises (below all but passing references).
    const ranked: Premise[] = [...structural, ...bridges].sort((a, b) => b.priority - a.priority);
    for (const p of ranked) {
      const query = buildQuery(p, state.question);
      if (query === null || sent.has(query.toLowerCase())) continue;
      return { premise: p.text, why: p.why, query, discriminator: p.discriminator, stop: false, found: p };
    }
    return STOP;
  },
});

/** Control: the question again, every round. */
export const repeatPlanner: InquiryPlanner = Object.freeze({
  name: 'repeat' as const,
  next(state: InquiryState): InquiryStep {
    return {
      premise: '',
      why: 'The question, repeated.',
      query: state.question,
      discriminator: '',
      stop: false,
    };
  },
});

/** Terms pseudo-relevance feedback adds to the question (RM3-style, model-free): this many. */
export const EXPANSION_TERMS = 5;

/**
 * Control: the question plus the `EXPANSION_TERMS` words most common across the evidence held
 * (counted once per record, then by frequency) that the question does not contain.
 */
export const expansionPlanner: InquiryPlanner = Object.freeze({
  name: 'expansion' as const,
  next(state: InquiryState): InquiryStep {
    const inQuestion = new Set(stemsOf(state.question));
    const df = new Map<string, { n: number; tf: number; word: string }>();
    for (const r of state.evidence) {
      const seen = new Set<string>();
      for (const word of r.text.split(/[^\p{L}\p{N}-]+/u)) {
        const stem = stemsOf(word)[0];
        if (!stem || inQuestion.has(stem)) continue;
        const e = df.get(stem) ?? { n: 0, tf: 0, word: word.toLowerCase() };
        df.set(stem, { ...e, n: e.n + (seen.has(stem) ? 0 : 1), tf: e.tf + 1 });
        seen.add(stem);
      }
    }
    const terms = [...df.entries()]
      .sort((a, b) => b[1].n - a[1].n || b[1].tf - a[1].tf || (a[0] < b[0] ? -1 : 1))
      .slice(0, EXPANSION_TERMS)
      .map(([, e]) => e.word);
    return {
      premise: '',
      why: `The question expanded with feedback terms: ${terms.join(', ')}.`,
      query: [state.question, ...terms].join(' '),
      discriminator: '',
      stop: false,
    };
  },
});
