/**
 * Evidence selection: runs the stages in order over hybrid-retrieval candidates.
 *
 *   pool → rerank → priors → cutoff → expand → dedup → MMR → verify → pack
 *
 * Verify (src/core/verify: injection, lineage, conflicts, NLI) always runs with its defaults: the
 * app must never pack evidence it has not checked. Pass `verify: { … }` to change its options;
 * `verify: null` skips it, for stage ablations only.
 *
 * Rationales (question decomposition, or supplied by a generator) are paired with the candidates
 * for the coverage bonus in packing and the coverage report. Every candidate ends with an
 * 'outcome' trace entry saying whether it was packed, or which stage dropped it and why.
 *
 * Minimal use (document-level evaluation, no vectors, no cross-encoder):
 *   selectEvidence({ question, candidates, chunks, documents })
 * Vectors (`vectorOf`) switch on embedding duplicates, cosine MMR and optional λ smoothing; a
 * `crossEncoder` switches on reranking.
 */
import type { Candidate, Chunk, DocumentMeta, TraceEntry } from '../types';
import { EvidentError, assertKnownOptions } from '../errors';
import type { AbortSignalLike, EvidenceLookup, SelectionStage } from './common';
import { throwIfAborted } from '../util/abort';
import { SELECTION_WORK, byScoreDesc, checkInt, clock, withEntry } from './common';
import type { CutoffOptions } from './cutoff';
import { cutoffCandidates, DEFAULT_CUTOFF_OPTIONS } from './cutoff';
import type { DedupOptions } from './dedup';
import { DEFAULT_DEDUP_OPTIONS, dedupCandidates } from './dedup';
import type { ExpandOptions } from './expand';
import { expandCandidates } from './expand';
import type { FactoidFloorOptions } from './factoid-floor';
import { factoidFloor } from './factoid-floor';
import type { LongDocumentOptions } from './long-document';
import { longDocumentProfile, type LongDocumentProfile } from './long-document';
import type { MmrOptions } from './mmr';
import { DEFAULT_MMR_OPTIONS, diversify } from './mmr';
import type { PackOptions, TokenCounter } from './pack';
import { packEvidence } from './pack';
import type { EvidencePacket, RationaleReport, TimedStage } from './packet';
import { outcomeOf } from './packet';
import type { PoolOptions } from './pool';
import { poolCandidates } from './pool';
import type { PriorState, PriorsOptions } from './priors';
import { applyPriors } from './priors';
import type { SubjectOptions } from './subject';
import { filterBySubject } from './subject';
import type { DecomposeOptions, PairingOptions, Rationale, RationaleSource } from './rationales';
import { decomposeQuestion, pairRationales } from './rationales';
import type { CrossEncoder, RerankOptions } from './rerank';
import { rerankCandidates } from './rerank';
import type { EntailmentModel } from '../verify/nli';
import type { VerifyOptions, VerifyResult } from '../verify/verify';
import { verifyEvidence } from '../verify/verify';
import { citeConflicts } from '../verify/conflict';

export interface SelectionInput {
  readonly question: string;
  /** Hybrid-retrieval candidates; `score` is the fused score. */
  readonly candidates: readonly Candidate[];
  readonly chunks: ReadonlyMap<string, Chunk>;
  readonly documents: ReadonlyMap<string, DocumentMeta>;
  /** Unit-normalised chunk embeddings, when available. */
  readonly vectorOf?: (id: string) => Float32Array | undefined;
  readonly crossEncoder?: CrossEncoder;
  /** NLI model for the verify stage's contradiction check (only used when `verify` is on). */
  readonly entailment?: EntailmentModel;
  /** Rationales already made (e.g. by a generator earlier in the pipeline); take precedence over `rationaleSource`. */
  readonly rationales?: readonly Rationale[];
  /** Where rationales come from when not given; the built-in decomposition when absent. */
  readonly rationaleSource?: RationaleSource;
  /** The user's λ table and feedback; the default table when absent. */
  readonly priors?: PriorState;
  /** Epoch ms feedback decays to (pass Date.now() in the app; fixed in tests and benchmarks). */
  readonly now?: number;
  /** The generator's tokenizer; ⌈chars/3.5⌉ when absent. */
  readonly tokenCounter?: TokenCounter;
  readonly signal?: AbortSignalLike;
}

export interface SelectionOptions {
  /** Most evidence items: sets the pool (3×), the cutoff's maxKeep and MMR's maxSelect unless those are given. Cascade 5–12 (RAG guide). */
  readonly maxEvidence: number;
  readonly pool: Partial<Omit<PoolOptions, 'maxEvidence'>>;
  readonly rerank: Partial<RerankOptions>;
  readonly priors: Partial<PriorsOptions>;
  /** Filings about a company the question does not name leave when it names another (`subject.ts`); null: off, for ablations only. */
  readonly subject: Partial<SubjectOptions> | null;
  readonly rationales: Partial<DecomposeOptions>;
  readonly pairing: Partial<PairingOptions>;
  readonly cutoff: Partial<CutoffOptions>;
  readonly expand: Partial<ExpandOptions>;
  readonly dedup: Partial<DedupOptions>;
  readonly mmr: Partial<MmrOptions>;
  /**
   * A question asking for one value that several documents answer keeps at least five passages
   * (`factoid-floor.ts`), over the user's lower bound and within the upper one; null: off.
   */
  readonly factoidFloor: Partial<FactoidFloorOptions> | null;
  /** Long-document pools keep more evidence (`long-document.ts`); null: off, for ablations only. */
  readonly longDocument: Partial<LongDocumentOptions> | null;
  readonly pack: Partial<PackOptions>;
  /** Verify stage options (on by default with its defaults); null skips the stage, for ablations only. */
  readonly verify: Partial<VerifyOptions> | null;
}

export const DEFAULT_SELECTION_OPTIONS: SelectionOptions = Object.freeze({
  maxEvidence: 12,
  pool: Object.freeze({}),
  rerank: Object.freeze({}),
  priors: Object.freeze({}),
  subject: Object.freeze({}),
  rationales: Object.freeze({}),
  pairing: Object.freeze({}),
  cutoff: Object.freeze({}),
  expand: Object.freeze({}),
  dedup: Object.freeze({}),
  mmr: Object.freeze({}),
  factoidFloor: Object.freeze({}),
  longDocument: Object.freeze({}),
  pack: Object.freeze({}),
  verify: Object.freeze({}),
});

/** Adds the stage's batch time to the first candidate's newest trace entry (TraceEntry.ms convention). */
function stamp(list: readonly Candidate[], ms: number): Candidate[] {
  if (list.length === 0) return [...list];
  const [first, ...rest] = list as [Candidate, ...Candidate[]];
  const last = first.trace[first.trace.length - 1] as TraceEntry;
  return [{ ...first, trace: [...first.trace.slice(0, -1), { ...last, ms }] }, ...rest];
}

function validateInput(input: SelectionInput): void {
  if (typeof input.question !== 'string')
    throw new EvidentError('invalid_input', 'selectEvidence: "question" must be a string.');
  if (!Array.isArray(input.candidates))
    throw new EvidentError('invalid_input', 'selectEvidence: "candidates" must be an array.');
  for (const c of input.candidates as readonly Candidate[]) {
    if (
      typeof c?.id !== 'string' ||
      typeof c.docId !== 'string' ||
      typeof c.score !== 'number' ||
      !Array.isArray(c.trace)
    ) {
      throw new EvidentError(
        'invalid_input',
        `selectEvidence: candidate ${JSON.stringify(c?.id)} lacks id, docId, score or trace.`,
      );
    }
  }
  if (!(input.chunks instanceof Map) || !(input.documents instanceof Map)) {
    throw new EvidentError('invalid_input', 'selectEvidence: "chunks" and "documents" must be Maps.');
  }
}

/** Independent sources (lineage clusters) among the packed candidates. */
function independentAmong(v: VerifyResult, sources: readonly { readonly candidateId: string }[]): number {
  const clusterOf = new Map<string, string>();
  for (const cl of v.clusters) for (const id of cl.candidateIds) clusterOf.set(id, cl.id);
  return new Set(sources.map((s) => clusterOf.get(s.candidateId) ?? s.candidateId)).size;
}

/**
 * A long-document pool keeps candidates past the elbow for its long documents only: a short
 * document that falls below the elbow (a memo beside a filing) stays dropped, as without the stage.
 */
function onlyLongPastElbow(
  kept: readonly Candidate[],
  dropped: readonly Candidate[],
  elbow: number,
  profile: LongDocumentProfile,
): { kept: Candidate[]; dropped: Candidate[] } {
  const long = new Set(profile.documents.map((d) => d.docId));
  const keep: Candidate[] = [];
  const back: Candidate[] = [];
  kept.forEach((c, i) => {
    if (i < elbow || long.has(c.docId)) {
      keep.push(c);
      return;
    }
    const last = c.trace[c.trace.length - 1] as TraceEntry;
    const entry: TraceEntry = {
      ...last,
      kept: false,
      reason: `below the elbow (rank ${i + 1} > ${elbow}); past it only long documents' chunks are kept`,
    };
    back.push({ ...c, trace: [...c.trace.slice(0, -1), entry] });
  });
  return { kept: keep, dropped: [...back, ...dropped] };
}

/** Selects, orders and packs the evidence for one question. */
export async function selectEvidence(
  input: SelectionInput,
  options: Partial<SelectionOptions> = {},
): Promise<EvidencePacket> {
  assertKnownOptions(options, DEFAULT_SELECTION_OPTIONS, 'selectEvidence');
  const o: SelectionOptions = { ...DEFAULT_SELECTION_OPTIONS, ...options };
  checkInt('selectEvidence', 'maxEvidence', o.maxEvidence, 1, 1000);
  validateInput(input);
  const { question, signal } = input;
  const lookup: EvidenceLookup = {
    chunks: input.chunks,
    documents: input.documents,
    ...(input.vectorOf ? { vectorOf: input.vectorOf } : {}),
  };
  throwIfAborted(signal, SELECTION_WORK);

  const timings: Partial<Record<TimedStage, number>> = {};
  // Latest version of every candidate, in first-seen order (Map keeps insertion order).
  const latest = new Map<string, Candidate>();
  const record = (stage: SelectionStage, t0: number, ...lists: (readonly Candidate[])[]): Candidate[][] => {
    const ms = clock() - t0;
    timings[stage as TimedStage] = ms;
    let stamped = false;
    return lists.map((list) => {
      const out = !stamped && list.length > 0 ? stamp(list, ms) : [...list];
      if (list.length > 0) stamped = true;
      for (const c of out) latest.set(c.id, c);
      return out;
    });
  };

  // Rationales.
  let t = clock();
  const rationales: readonly Rationale[] =
    input.rationales ??
    (input.rationaleSource
      ? await input.rationaleSource.rationales(question, signal)
      : decomposeQuestion(question, o.rationales));
  timings.rationales = clock() - t;
  throwIfAborted(signal, SELECTION_WORK);

  // 1. Pool.
  t = clock();
  const pooled = poolCandidates(input.candidates, { ...o.pool, maxEvidence: o.maxEvidence });
  // A repeated id cannot share the by-id map with its better copy; it is reported on its own.
  const firstSeen = new Set(pooled.pool.map((c) => c.id));
  const distinctDropped: Candidate[] = [];
  const repeats: Candidate[] = [];
  for (const c of pooled.dropped) {
    if (firstSeen.has(c.id)) repeats.push(c);
    else {
      firstSeen.add(c.id);
      distinctDropped.push(c);
    }
  }
  const [pool] = record('pool', t, pooled.pool, distinctDropped) as [Candidate[], Candidate[]];

  // 2. Rerank.
  t = clock();
  const reranked = await rerankCandidates(
    pool,
    {
      question,
      lookup,
      ...(input.crossEncoder ? { crossEncoder: input.crossEncoder } : {}),
      ...(signal ? { signal } : {}),
    },
    o.rerank,
  );
  const [afterRerank] = record('rerank', t, reranked.candidates) as [Candidate[]];
  throwIfAborted(signal, SELECTION_WORK);

  // 3. Subject: filings about a company the question does not name leave when it names another —
  // before priors, so that what stays is scored (min-max) among itself, as without those filings.
  t = clock();
  const subject = o.subject ? filterBySubject(question, afterRerank, lookup, o.subject, distinctDropped) : null;
  // Only the candidates that leave get an entry (and the stage's time): the others are as rerank left them.
  if (subject && subject.dropped.length > 0) record('subject', t, subject.dropped);
  else if (subject) timings.subject = clock() - t;
  const onSubject: readonly Candidate[] = subject ? subject.kept : afterRerank;
  // A document that leaves here is about another subject: none of its passages (in the pool or past
  // it) is the other side of a conflict either.
  const offSubject = subject?.leaving ?? new Set<string>();

  // 4. Priors.
  t = clock();
  const priors = applyPriors(
    onSubject,
    {
      question,
      lookup,
      ...(input.priors ? { priors: input.priors } : {}),
      ...(input.now !== undefined ? { now: input.now } : {}),
    },
    o.priors,
  );
  const [afterPriors] = record('priors', t, priors.candidates) as [Candidate[]];

  // 5. Cutoff.
  t = clock();
  // The cutoff keeps the best candidate of a rationale nothing above the cut covers (`coverFloor`).
  const coverPairing = pairRationales(rationales, afterPriors, lookup, o.pairing);
  // A pool of long documents keeps more than its elbow (`long-document.ts`), within the upper bound.
  const ranked = [...afterPriors].sort(byScoreDesc);
  const longDoc = o.longDocument ? longDocumentProfile(ranked, lookup, o.longDocument) : null;
  // Several documents answering a one-value question: keep enough to compare them (`factoid-floor.ts`).
  const factoid = o.factoidFloor ? factoidFloor(question, ranked, lookup, o.factoidFloor) : null;
  // Over long documents the profile's floor may exceed the upper bound set for short passages:
  // a filing's answer lies among many near-equal chunks, and the token budget still trims.
  const evidenceCap = Math.max(o.maxEvidence, longDoc?.minKeep ?? 0);
  const userMax = o.cutoff.maxKeep ?? o.maxEvidence;
  const cutOptions = { ...o.cutoff, maxKeep: Math.max(userMax, longDoc?.minKeep ?? 0) };
  const minKeep = Math.min(
    Math.max(cutOptions.minKeep ?? DEFAULT_CUTOFF_OPTIONS.minKeep, longDoc?.minKeep ?? 0, factoid?.minKeep ?? 0),
    cutOptions.maxKeep,
  );
  const cut = cutoffCandidates(afterPriors, { ...cutOptions, minKeep }, { covers: coverPairing.covers });
  const bounded = longDoc?.long ? onlyLongPastElbow(cut.kept, cut.dropped, cut.elbow, longDoc) : cut;
  const [afterCutoff, cutDropped] = record('cutoff', t, bounded.kept, bounded.dropped) as [Candidate[], Candidate[]];

  // 6. Expand.
  t = clock();
  const expanded = expandCandidates(afterCutoff, { lookup, seen: new Map(cutDropped.map((c) => [c.id, c])) }, o.expand);
  const [afterExpand] = record('expand', t, expanded.candidates) as [Candidate[]];

  // Rationale pairing over everything that could be packed: the pool plus chunks expansion added.
  const pairingT = clock();
  const added = new Set(expanded.added);
  // Without added chunks that list is `afterPriors` itself, already paired for the cutoff.
  const pairing =
    added.size === 0
      ? coverPairing
      : pairRationales(
          rationales,
          [...afterPriors.filter((c) => !added.has(c.id)), ...afterExpand.filter((c) => added.has(c.id))],
          lookup,
          o.pairing,
        );
  timings.rationales = (timings.rationales ?? 0) + (clock() - pairingT);

  // 7. Dedup.
  t = clock();
  const dedupOptions = longDoc?.perSection
    ? {
        ...o.dedup,
        maxPerSection: Math.max(o.dedup.maxPerSection ?? DEFAULT_DEDUP_OPTIONS.maxPerSection, longDoc.perSection),
      }
    : o.dedup;
  const deduped = dedupCandidates(afterExpand, { question, lookup, asksEarlier: priors.asksEarlier }, dedupOptions);
  const [afterDedup] = record('dedup', t, deduped.kept, deduped.dropped) as [Candidate[], Candidate[]];

  // 8. MMR.
  t = clock();
  const mmrOptions = {
    maxSelect: evidenceCap,
    ...o.mmr,
    ...(longDoc?.perDocument
      ? { perDocument: Math.max(o.mmr.perDocument ?? DEFAULT_MMR_OPTIONS.perDocument, longDoc.perDocument) }
      : {}),
  };
  const diverse = diversify(afterDedup, { question, lookup, rationales }, mmrOptions);
  const [afterMmr] = record('mmr', t, diverse.kept, diverse.dropped) as [Candidate[], Candidate[]];
  throwIfAborted(signal, SELECTION_WORK);

  // 9. Verify (on unless `verify: null`): injection, lineage, conflicts, NLI; may reinstate a conflict side from the pool.
  let toPack: readonly Candidate[] = afterMmr;
  let packLookup: EvidenceLookup = lookup;
  let verified: VerifyResult | null = null;
  if (o.verify) {
    t = clock();
    const selected = new Set(afterMmr.map((c) => c.id));
    verified = await verifyEvidence(
      {
        question,
        candidates: afterMmr,
        lookup,
        context: [...latest.values()].filter((c) => !selected.has(c.id) && !offSubject.has(c.docId)),
        asksEarlier: priors.asksEarlier,
        maxKeep: evidenceCap,
        ...(input.entailment ? { entailment: input.entailment } : {}),
        ...(signal ? { signal } : {}),
      },
      o.verify,
    );
    const ms = clock() - t;
    timings.verify = ms;
    const out = verified.candidates.length > 0 ? stamp(verified.candidates, ms) : [];
    for (const c of out) latest.set(c.id, c);
    toPack = out.filter((c) => verified!.kept.some((k) => k.id === c.id));
    packLookup = verified.lookup;
    throwIfAborted(signal, SELECTION_WORK);
  }

  // 10. Pack.
  t = clock();
  const packed = packEvidence(
    toPack,
    {
      question,
      lookup: packLookup,
      pairing,
      ...(input.tokenCounter ? { tokenCounter: input.tokenCounter } : {}),
    },
    o.pack,
  );
  record('pack', t, packed.kept, packed.dropped);

  // Outcome: one closing entry per candidate.
  const citation = new Map(packed.sources.map((s, i) => [s.candidateId, i]));
  const closed = [...latest.values(), ...repeats].map((c, n) => {
    const i = n < latest.size ? citation.get(c.id) : undefined;
    if (i !== undefined) {
      const s = packed.sources[i]!;
      return withEntry(c, {
        stage: 'outcome',
        score: c.score,
        kept: true,
        reason: `packed as ${s.citationId}`,
        detail: { citationId: s.citationId },
      });
    }
    const last = c.trace[c.trace.length - 1];
    const by = last && !last.kept ? last : [...c.trace].reverse().find((e) => !e.kept);
    return withEntry(c, {
      stage: 'outcome',
      score: c.score,
      kept: false,
      reason: by ? `dropped by ${by.stage}: ${by.reason ?? 'no reason recorded'}` : 'dropped: not packed',
      detail: { droppedBy: by?.stage ?? null },
    });
  });
  const isPacked = (c: Candidate): boolean => outcomeOf(c)?.kept === true;
  const candidates = [
    ...closed.filter(isPacked).sort((a, b) => (citation.get(a.id) as number) - (citation.get(b.id) as number)),
    ...closed.filter((c) => !isPacked(c)),
  ];

  const reports: RationaleReport[] = rationales.map((r) => {
    const supportingIds = packed.sources.filter((s) => s.rationaleIds.includes(r.id)).map((s) => s.citationId);
    return {
      rationale: r,
      covered: supportingIds.length > 0,
      supportingIds,
      candidateIds: pairing.best.get(r.id) ?? [],
    };
  });

  return {
    question,
    sources: packed.sources,
    rationales: reports,
    candidates,
    cutoff: { curve: cut.curve, position: cut.position, elbow: cut.elbow, rule: cut.rule },
    budget: packed.budget,
    timings,
    reranker: reranked.reranker,
    mmr: { applied: diverse.applied, singleFact: diverse.singleFact },
    longDocument: longDoc,
    factoidFloor: factoid,
    asksEarlier: priors.asksEarlier,
    conflicts: verified ? citeConflicts(verified.conflicts, packed.sources) : [],
    flags: verified ? verified.flags.filter((f) => packed.sources.some((s) => s.candidateId === f.candidateId)) : [],
    independentSources: verified ? independentAmong(verified, packed.sources) : null,
  };
}
