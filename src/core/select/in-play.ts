/**
 * Documents in play: the pool's documents that meet the question about as well as the best one
 * does. Only they can confirm or contest an answer. A library is rarely about one subject: a
 * question about Form 1040NR also retrieves the travel policy and the handbook for "date", "file"
 * and "holiday", and counting those would ask an answer from the tax instructions to be confirmed
 * by a travel policy ("no other passage confirms it", of a fact only one document in the library
 * could state). The answer stage weighs votes, document margins and corroboration across the
 * documents in play; with one in play it reads the answer as from one document.
 *
 * A document is in play when its best passage holds at least `share` of the share of the
 * question's terms that the best passage holds (its text, heading trail and document title, as
 * `rationales.ts:candidateTerms` reads them: a filing names its company in the title, not in every
 * chunk). Plain term coverage, not the retriever's term weights: in a library of news reports on
 * one event every report holds the event's name, whose weight is then near nought, and they all
 * remain in play.
 */
import type { Candidate } from '../types';
import { termsOf } from './rationales';

/** Share of the best passage's question-term coverage a document's best passage reaches to be in play. */
export const IN_PLAY_SHARE = 0.5;

/**
 * The documents in play among `candidates`, best-covering first, from each candidate's match terms
 * (`terms`, by candidate id; a candidate without them holds none). Every document when the
 * question has no terms of its own.
 */
export function documentsInPlay(
  question: string,
  candidates: readonly Candidate[],
  terms: ReadonlyMap<string, ReadonlySet<string>>,
  share = IN_PLAY_SHARE,
): string[] {
  const wanted = [...new Set(termsOf(question))];
  const best = new Map<string, number>();
  for (const c of candidates) {
    const held = terms.get(c.id);
    const hits = held ? wanted.filter((t) => held.has(t)).length : 0;
    const coverage = wanted.length === 0 ? 1 : hits / wanted.length;
    best.set(c.docId, Math.max(best.get(c.docId) ?? 0, coverage));
  }
  const top = Math.max(0, ...best.values());
  return [...best.entries()]
    .filter(([, coverage]) => coverage >= share * top)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([docId]) => docId);
}
