/**
 * The evidence packet: what selection hands to the answer stage, the evidence-trail UI and the
 * benchmark. Everything needed to explain the selection is here — the packed sources with their
 * citation ids, rationale coverage, every candidate with its full trace, the cutoff curve, the
 * token budget and the per-stage timings.
 */
import type { LongDocumentProfile } from './long-document';
import type { FactoidFloor } from './factoid-floor';
import type { Candidate, TraceEntry } from '../types';
import type { SelectionStage } from './common';
import type { CutoffRule } from './cutoff';
import type { PackedSource } from './pack';
import type { Rationale } from './rationales';
import type { Conflict } from '../verify/conflict';
import type { VerifyFlag } from '../verify/verify';

/** Coverage of one rationale by the packed evidence. */
export interface RationaleReport {
  readonly rationale: Rationale;
  /** True when at least one packed source covers it. */
  readonly covered: boolean;
  /** Citation ids (S1, …) of the packed sources that cover it. */
  readonly supportingIds: readonly string[];
  /** Best covering candidates of the whole pool (METEORA pairing), kept or not: shows evidence that exists but was dropped. */
  readonly candidateIds: readonly string[];
}

/** Stages that report a timing: the trace stages plus rationale extraction. */
export type TimedStage = Exclude<SelectionStage, 'outcome'> | 'rationales' | 'verify';

export interface EvidencePacket {
  readonly question: string;
  /** Packed evidence in citation order (S1, S2, …). */
  readonly sources: readonly PackedSource[];
  readonly rationales: readonly RationaleReport[];
  /**
   * Every candidate selection saw — the pool, those past it, and chunks added by expansion — each
   * ending with an 'outcome' trace entry (kept, or dropped by which stage and why). Packed ones
   * come first in citation order, then the rest in pool order.
   */
  readonly candidates: readonly Candidate[];
  readonly cutoff: {
    readonly curve: readonly number[];
    readonly position: number;
    readonly elbow: number;
    readonly rule: CutoffRule;
  };
  /** Evidence token budget and the tokens the packed sources use. */
  readonly budget: { readonly limit: number; readonly used: number };
  /** Milliseconds per stage. */
  readonly timings: Readonly<Partial<Record<TimedStage, number>>>;
  /** Cross-encoder id, or null when scores passed through. */
  readonly reranker: string | null;
  readonly mmr: { readonly applied: boolean; readonly singleFact: boolean };
  /** Whether the pool was read as long documents (more evidence kept); null when the stage is off. */
  readonly longDocument: LongDocumentProfile | null;
  /** Whether several documents answer a one-value question (the cutoff then keeps at least five); null when off. */
  readonly factoidFloor: FactoidFloor | null;
  /** Whether the question was read as asking about earlier versions. */
  readonly asksEarlier: boolean;
  /** Conflicts the verify stage found, with the citation ids of the packed passages on each side ([] when verify is off). */
  readonly conflicts: readonly Conflict[];
  /** Verifier flags on packed passages (redacted injections, coordinated replicas). */
  readonly flags: readonly VerifyFlag[];
  /** Independent sources (lineage clusters) among the packed passages; null when verify is off. */
  readonly independentSources: number | null;
}

/** The final 'outcome' entry of a candidate's trace, if selection has finished with it. */
export function outcomeOf(c: Candidate): TraceEntry | undefined {
  const last = c.trace[c.trace.length - 1];
  return last?.stage === 'outcome' ? last : undefined;
}

/** Distinct document ids of the packed sources, in citation order: the selected set for document-level evaluation. */
export function selectedDocIds(packet: Pick<EvidencePacket, 'sources'>): string[] {
  return [...new Set(packet.sources.map((s) => s.docId))];
}
