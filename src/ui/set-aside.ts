/**
 * The coordinated claims the verifier set aside (verify/coordination.ts): documents that state one
 * value, share nothing else with each other or any other passage, and often name nothing beyond the
 * question and that value — text written to order. The answer card says what was set aside and
 * which documents, so a user sees why several agreeing documents did not decide the answer.
 *
 * Read from the candidates' traces: a set-aside passage is never packed, so the packet's flags
 * (which cover packed passages) do not name it.
 */
import type { AskResult } from '../worker/ask-api';

export interface SetAsideClaim {
  /** Why, in the verifier's words, without its "coordinated claim: " label and its measurements (the trail keeps them). */
  readonly reason: string;
  /** The documents of the claim, each once, in candidate order. */
  readonly documents: readonly { readonly docId: string; readonly title: string }[];
}

const LABEL = /^coordinated claim:\s*/u;
/** A parenthesis holding a measurement: "(grounding 0.07)", "(0.2 names, dates or figures a passage)". */
const MEASURE = /\s*\([^()]*\d[^()]*\)/gu;

/** One entry per set-aside claim (its members' drop entries share one reason). */
export function setAsideClaims(result: Pick<AskResult, 'candidates'>): SetAsideClaim[] {
  const byReason = new Map<string, Map<string, string>>();
  for (const c of result.candidates) {
    if (c.kept) continue;
    const entry = c.trace.find(
      (e) => e.detail?.check === 'coordination' && e.kept === false && LABEL.test(e.reason ?? ''),
    );
    if (!entry) continue;
    const reason = (entry.reason ?? '').replace(LABEL, '');
    let docs = byReason.get(reason);
    if (!docs) byReason.set(reason, (docs = new Map()));
    if (!docs.has(c.docId)) docs.set(c.docId, c.title);
  }
  return [...byReason].map(([reason, docs]) => ({
    reason: (reason.charAt(0).toUpperCase() + reason.slice(1)).replace(MEASURE, ''),
    documents: [...docs].map(([docId, title]) => ({ docId, title })),
  }));
}
