/**
 * The loop state: the question, the evidence held (one record per document), and the rounds so
 * far. Every change returns a new state; a round's hits are admitted de-duplicated by document.
 */
import type { InquiryRecord, InquiryRound, RoundHit } from './types';

export interface InquiryState {
  readonly question: string;
  readonly evidence: readonly InquiryRecord[];
  readonly history: readonly InquiryRound[];
}

/** One record per document, first kept. */
function byDocument(records: readonly InquiryRecord[], held: ReadonlySet<string> = new Set()): InquiryRecord[] {
  const seen = new Set(held);
  const out: InquiryRecord[] = [];
  for (const r of records) {
    if (seen.has(r.docId)) continue;
    seen.add(r.docId);
    out.push(r);
  }
  return out;
}

export function startState(question: string, evidence: readonly InquiryRecord[]): InquiryState {
  return { question, evidence: byDocument(evidence), history: [] };
}

/** The hits of a round against the state: which documents are new (the rest are already held). */
export function admit(
  state: InquiryState,
  hits: readonly InquiryRecord[],
): { added: InquiryRecord[]; hits: RoundHit[] } {
  const held = new Set(state.evidence.map((r) => r.docId));
  const added = byDocument(hits, held);
  const addedIds = new Set(added.map((r) => r.id));
  return {
    added,
    hits: hits.map((h) => ({ id: h.id, docId: h.docId, title: h.title, added: addedIds.has(h.id) })),
  };
}

/** The state after a round. */
export function withRound(state: InquiryState, round: InquiryRound, added: readonly InquiryRecord[]): InquiryState {
  return { ...state, evidence: [...state.evidence, ...added], history: [...state.history, round] };
}

/** Keys of the premises already queried. */
export function askedKeys(state: InquiryState): Set<string> {
  return new Set(state.history.flatMap((r) => (r.step?.found ? [r.step.found.key] : [])));
}

/** Queries already sent (normalised), so a planner can avoid repeating itself. */
export function askedQueries(state: InquiryState): Set<string> {
  return new Set(state.history.flatMap((r) => (r.step ? [r.step.query.trim().toLowerCase()] : [])));
}
