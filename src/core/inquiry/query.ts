/**
 * Query building: a follow-up query is the premise's distinctive terms plus the entity it is
 * about, never the question's broad terms alone (Socrates-RAG: a query aimed at the unresolved
 * premise fetches the decisive record; repeating the question fetches more of the same pages).
 *
 * Two-hop substitution: a premise found in a record fetched by the previous round carries what
 * that round resolved — the identifier it read ("ZN-8753-G") and the name beside it ("Lorith
 * County") — so the next query is built from them, not from the question.
 */
import { stemsOf } from './mentions';
import type { Premise } from './types';

/** The query for `premise`; null when its terms add nothing to the question's own words. */
export function buildQuery(premise: Premise, question: string): string | null {
  const parts: string[] = [];
  const seen = new Set<string>();
  const add = (phrase: string | null): void => {
    if (!phrase) return;
    const stems = stemsOf(phrase);
    if (stems.length === 0 || stems.every((s) => seen.has(s))) return;
    for (const s of stems) seen.add(s);
    parts.push(phrase);
  };
  for (const t of premise.terms) add(t);
  const questionStems = new Set(stemsOf(question));
  if ([...seen].every((s) => questionStems.has(s))) return null;
  add(premise.entity);
  return parts.join(' ');
}
