/**
 * Types of the inquiry stage (Socrates-RAG's active evidence loop): when the first retrieval
 * leaves the question unresolved, name one unresolved premise per round, query for it, and
 * release an answer only when the evidence forms a chain. Pure data; the stage never mutates it.
 */

/** One retrieved record as the inquiry reads it (a chunk, or a whole document in evaluation). */
export interface InquiryRecord {
  readonly id: string;
  readonly docId: string;
  readonly title: string;
  readonly text: string;
}

/** The closed set of premise kinds the model-free finder names (`bridge`: `bridge.ts`). */
export const PREMISE_KINDS = ['identifier', 'binding', 'reference', 'entity', 'bridge'] as const;
export type PremiseKind = (typeof PREMISE_KINDS)[number];

/** One unresolved premise: what is missing, why it decides the answer, and how to look for it. */
export interface Premise {
  readonly kind: PremiseKind;
  /** Stable key: a premise already queried is never queried again. */
  readonly key: string;
  /** The premise as the evidence words it ("storage rule SR-5056-G", "the signed title record"). */
  readonly text: string;
  /** Why it is decisive (shown in the trail). */
  readonly why: string;
  /** The premise's distinctive terms (identifier, kind words, issuer). */
  readonly terms: readonly string[];
  /** The entity the query anchors on (a question name, or a name next to the identifier). */
  readonly entity: string | null;
  /** What a record that settles it would contain. */
  readonly discriminator: string;
  /** Ids of the records that raised it. */
  readonly fromIds: readonly string[];
  /** Higher first. */
  readonly priority: number;
}

/** Who planned a round. */
export type PlannerName = 'premise' | 'generator' | 'repeat' | 'expansion';

/** One step a planner proposes (the structured-JSON contract of a loaded generator has the same fields). */
export interface InquiryStep {
  readonly premise: string;
  readonly why: string;
  readonly query: string;
  readonly discriminator: string;
  /** True when the planner judges nothing is left to look for. */
  readonly stop: boolean;
  /** The model-free premise behind the step, when there is one. */
  readonly found?: Premise;
}

/** A hit of one round: what came back and whether it was new evidence. */
export interface RoundHit {
  readonly id: string;
  readonly docId: string;
  readonly title: string;
  /** False when the document was already held (de-duplicated by document). */
  readonly added: boolean;
}

/** One round of the loop, as the trail shows it. */
export interface InquiryRound {
  readonly round: number;
  readonly planner: PlannerName;
  readonly step: InquiryStep | null;
  readonly hits: readonly RoundHit[];
  /** A planner failure (a malformed generator reply): recorded, never repaired. */
  readonly error: string | null;
  /** Why the loop ended after this round, when it did. */
  readonly stopped: string | null;
  readonly ms: number;
}

/** The release guard's decision. */
export interface ReleaseDecision {
  readonly released: boolean;
  /** Record ids of the chain: the binding record, then the records its identifiers lead to. */
  readonly chain: readonly string[];
  /** The released answer (sentences of the chain), '' when not released. */
  readonly answer: string;
  /** The released answer's sentences with the record each is quoted from (empty when not released). */
  readonly sentences: readonly { readonly recordId: string; readonly text: string }[];
  /** Plain-language reason (which premise stayed unresolved, when not released). */
  readonly reason: string;
  /** The premise that stayed unresolved, when not released for that reason. */
  readonly unresolved: string | null;
}

/** The search the loop may call: the app's retriever, top `k` records for a query. */
export type InquirySearch = (query: string, k: number) => Promise<readonly InquiryRecord[]>;

/** Budget of the loop (Socrates-RAG's setting: B = 2 follow-up queries, top r = 3 each). */
export interface InquiryOptions {
  /** Follow-up queries at most (B). */
  readonly budget: number;
  /** Records read per follow-up query (r). */
  readonly topR: number;
  /**
   * Read past hits whose document is already held until a round has r new records (false: the
   * paper's top r, held documents recorded and not added). On: every round spends its r on new
   * evidence, so a run holds first + B × r records — the matched budget of a retrieval comparison.
   */
  readonly readPastHeld: boolean;
}

export const DEFAULT_INQUIRY_OPTIONS: InquiryOptions = Object.freeze({ budget: 2, topR: 3, readPastHeld: false });
