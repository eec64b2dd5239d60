/**
 * The verify stage (METEORA, TrustRAG, ReliabilityRAG): between diversification and packing it
 * runs four checks over the selected candidates, in this order, each adding a 'verify' trace entry
 * (`detail.check` names the check):
 *
 *   1. injection (injection.ts): text addressed to the model is redacted; passages with nothing
 *      else left are dropped;
 *   2. lineage (lineage.ts): near-identical passages from different documents form one source;
 *      agreeing replicas are dropped; then coordination (coordination.ts): documents that agree on
 *      a value and share nothing else — passages written to order — are dropped;
 *   3. conflict (conflict.ts): disagreements on a key span are found and resolved by independent
 *      credible support, status and recency, or left unresolved with both sides kept;
 *   4. nli (nli.ts): with an entailment model, a maximum independent set of the contradiction graph.
 *
 * `context` is what earlier stages saw but did not select (the rest of the pool): it is searched
 * for the other side of a disagreement and for corroboration, and a passage from it is reinstated
 * when a conflict side would otherwise go uncited. Context candidates get trace entries only when
 * reinstated.
 */
import type { Candidate } from '../types';
import { PassageTable } from './common';
import { assertKnownOptions } from '../errors';
import type { AbortSignalLike, EvidenceLookup } from '../util/stage';
import { clock, throwIfAborted } from '../util/stage';
import type { Conflict, ConflictOptions } from './conflict';
import { detectConflicts } from './conflict';
import type { InjectionKind, InjectionOptions } from './injection';
import { screenInjection, withRedactions } from './injection';
import type { CoordinationOptions, ValueGroup } from './coordination';
import { coordinatedIds, detectCoordination } from './coordination';
import type { LineageCluster, LineageOptions } from './lineage';
import { detectLineage } from './lineage';
import type { ContradictionEdge, EntailmentModel, NliOptions } from './nli';
import { resolveContradictions } from './nli';

export const VERIFY_FLAG_KINDS = ['coordinated_replicas', 'coordinated_claim', 'edited_copy'] as const;
export type VerifyFlagKind = InjectionKind | (typeof VERIFY_FLAG_KINDS)[number];

/** Something the verifier wants the user to see about a passage. */
export interface VerifyFlag {
  readonly kind: VerifyFlagKind;
  readonly candidateId: string;
  readonly docId: string;
  /** Offsets into the chunk's original text, for span flags. */
  readonly start?: number;
  readonly end?: number;
  readonly excerpt: string;
  readonly decoded?: string;
}

export interface VerifyOptions {
  readonly injection: Partial<InjectionOptions>;
  readonly lineage: Partial<LineageOptions>;
  readonly coordination: Partial<CoordinationOptions>;
  readonly conflict: Partial<Omit<ConflictOptions, 'maxKeep'>>;
  readonly nli: Partial<NliOptions>;
}

export const DEFAULT_VERIFY_OPTIONS: VerifyOptions = Object.freeze({
  injection: Object.freeze({}),
  lineage: Object.freeze({}),
  coordination: Object.freeze({}),
  conflict: Object.freeze({}),
  nli: Object.freeze({}),
});

export interface VerifyInput {
  readonly question: string;
  /** The selected candidates, best first. */
  readonly candidates: readonly Candidate[];
  readonly lookup: EvidenceLookup;
  /** Candidates seen but not selected (see file comment). */
  readonly context?: readonly Candidate[];
  readonly entailment?: EntailmentModel;
  readonly asksEarlier?: boolean;
  /** Most candidates to pass on (reinstated conflict sides replace the weakest others). */
  readonly maxKeep?: number;
  readonly signal?: AbortSignalLike;
}

export interface VerifyResult {
  /** Every input candidate (and every reinstated one) with its verify entries: kept first, in order, then dropped. */
  readonly candidates: readonly Candidate[];
  readonly kept: readonly Candidate[];
  readonly dropped: readonly Candidate[];
  readonly flags: readonly VerifyFlag[];
  readonly conflicts: readonly Conflict[];
  /** Lineage clusters among the kept candidates: sources that are independent of each other. */
  readonly independentSources: number;
  readonly clusters: readonly LineageCluster[];
  /** Value groups the coordination check judged (coordinated or not). */
  readonly groups: readonly ValueGroup[];
  /** Context candidates brought back: stand-ins for a coordinated claim's passages, then conflict sides. */
  readonly reinstated: readonly string[];
  /** The lookup with flagged chunks redacted: pack from this one. */
  readonly lookup: EvidenceLookup;
  readonly nli: { readonly model: string | null; readonly edges: readonly ContradictionEdge[] };
  readonly ms: number;
}

/** Runs the checks; never mutates its input. */
export async function verifyEvidence(input: VerifyInput, options: Partial<VerifyOptions> = {}): Promise<VerifyResult> {
  assertKnownOptions(options, DEFAULT_VERIFY_OPTIONS, 'verify');
  const o: VerifyOptions = { ...DEFAULT_VERIFY_OPTIONS, ...options };
  const t0 = clock();
  throwIfAborted(input.signal);
  const ownIds = new Set(input.candidates.map((c) => c.id));
  const context = (input.context ?? []).filter((c) => !ownIds.has(c.id));

  // 1. Injection, on candidates and context (a reinstated passage must be screened too).
  const inj = screenInjection(input.candidates, { lookup: input.lookup }, o.injection);
  const injContext = screenInjection(context, { lookup: input.lookup }, o.injection);
  const redactions = new Map([...inj.redactions, ...injContext.redactions]);
  const lookup = withRedactions(input.lookup, redactions);
  const contextPlain = new Map(context.map((c) => [c.id, c]));
  const usableContext = injContext.kept.map((c) => contextPlain.get(c.id) as Candidate);

  // Each passage is analysed once for lineage and conflicts (both compare every pair).
  const texts = new PassageTable(lookup);

  // 2. Lineage over everything seen; replicas among the candidates dropped.
  const lin = detectLineage(inj.kept, { lookup, context: usableContext, texts }, o.lineage);

  // 2b. Coordinated claims, over everything seen; their candidates dropped, their context set aside.
  const inputById = new Map<string, Candidate>();
  for (const c of input.candidates) if (!inputById.has(c.id)) inputById.set(c.id, c);
  const replicas = lin.dropped.map((c) => inputById.get(c.id) as Candidate);
  const coord = detectCoordination(
    lin.kept,
    {
      question: input.question,
      lookup,
      context: [...usableContext, ...replicas],
      standInIds: new Set(usableContext.map((c) => c.id)),
      texts,
    },
    o.coordination,
  );
  const suspect = coordinatedIds(coord.groups);
  // A context passage brought back (a stand-in, a conflict side) carries its injection entry too.
  const screenedById = new Map(injContext.kept.map((c) => [c.id, c]));
  const withScreening = (c: Candidate): Candidate => {
    const screened = screenedById.get(c.id);
    const entry = c.trace[c.trace.length - 1];
    return screened && entry ? { ...c, trace: [...screened.trace, entry] } : c;
  };
  // Independent passages stating a kept value stand in for those dropped.
  const standIns = coord.standIns.map(withScreening);
  const standInIds = new Set(standIns.map((c) => c.id));

  // 3. Conflicts. Replicas the lineage check dropped still count as (non-independent) statements.
  const conflictContext = [...usableContext, ...replicas].filter((c) => !suspect.has(c.id) && !standInIds.has(c.id));
  const con = detectConflicts(
    [...coord.kept, ...standIns],
    {
      question: input.question,
      lookup,
      context: conflictContext,
      clusterOf: lin.clusterOf,
      texts,
      ...(input.asksEarlier !== undefined ? { asksEarlier: input.asksEarlier } : {}),
    },
    { ...o.conflict, ...(input.maxKeep !== undefined ? { maxKeep: input.maxKeep } : {}) },
  );
  const conKept = con.kept.map((c) => (con.reinstated.includes(c.id) ? withScreening(c) : c));
  throwIfAborted(input.signal);

  // 4. NLI, protecting both sides of unresolved conflicts.
  const protectedIds = new Set(
    con.conflicts.filter((c) => c.status === 'unresolved').flatMap((c) => c.sides.flatMap((s) => s.candidateIds)),
  );
  const nli = await resolveContradictions(
    conKept,
    {
      question: input.question,
      lookup,
      protectedIds,
      ...(input.entailment ? { model: input.entailment } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
    },
    o.nli,
  );

  const flags: VerifyFlag[] = [
    ...inj.flags,
    ...injContext.flags.filter((f) => con.reinstated.includes(f.candidateId) || standInIds.has(f.candidateId)),
  ];
  const keptIds = new Set(nli.kept.map((c) => c.id));
  for (const cl of lin.clusters) {
    if (!cl.coordinated) continue;
    for (const id of cl.candidateIds) {
      if (!keptIds.has(id)) continue;
      const c = nli.kept.find((x) => x.id === id) as Candidate;
      flags.push({
        kind: 'coordinated_replicas',
        candidateId: id,
        docId: c.docId,
        excerpt: `${cl.docIds.length} low-credibility documents carry this text (lineage ${cl.id}); they count as one source`,
      });
    }
  }
  for (const c of coord.dropped) {
    const e = c.trace[c.trace.length - 1];
    flags.push({ kind: 'coordinated_claim', candidateId: c.id, docId: c.docId, excerpt: e?.reason ?? '' });
  }
  for (const c of con.dropped) {
    const e = c.trace[c.trace.length - 1];
    if (e?.reason?.includes('an edited copy of')) {
      flags.push({ kind: 'edited_copy', candidateId: c.id, docId: c.docId, excerpt: e.reason });
    }
  }

  const dropped = [...inj.dropped, ...lin.dropped, ...coord.dropped, ...con.dropped, ...nli.dropped];
  const kept = nli.kept;
  const independentSources = new Set(kept.map((c) => lin.clusterOf.get(c.id) ?? c.id)).size;
  return {
    candidates: [...kept, ...dropped],
    kept,
    dropped,
    flags,
    conflicts: con.conflicts,
    independentSources,
    clusters: lin.clusters,
    groups: coord.groups,
    reinstated: [...standInIds, ...con.reinstated],
    lookup,
    nli: { model: nli.model, edges: nli.edges },
    ms: clock() - t0,
  };
}
