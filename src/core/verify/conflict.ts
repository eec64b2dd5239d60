/**
 * Verify, check 3 — conflicts: candidates that address the same point but disagree on its key span
 * (a number, a date, a named entity, or a negation).
 *
 * Detection is by alignment and diff. Two sentences from different documents are *aligned* when
 * their words with key values masked agree on ≥ `alignRatio` of their tokens (2·LCS/(|a|+|b|)).
 * The word diff of an aligned pair isolates where they differ; each differing region is widened to
 * the whole key values it touches ("21, 2017" → "July 21, 2017") and, when both sides hold values
 * that cannot both be true, it is a disagreement. This is the RGB counterfactual pattern (a passage
 * and its edited copy diff into exactly the edited span) and also catches two independent sources
 * that state the same fact with a different figure in the same words. Disagreements that share a
 * value are merged into one conflict with two or more sides.
 *
 * Resolution — each side's *independent support*:
 *   - every lineage cluster (lineage.ts) is one source; its weight is the λ of its best member
 *     stating the side (× `supersededWeight` for a superseded document unless the question asks
 *     about earlier versions);
 *   - a cluster whose members state different sides (a text and its edited copy) counts for the
 *     side of its more trustworthy version — current over superseded/draft, then λ higher by
 *     ≥ `lambdaGap`, then the newer effective date, then *internal consistency*: an edit that
 *     replaces a value often misses its other mentions, so a version that states side B but still
 *     names side A elsewhere in its text ("Simona Halep beat Pliskova … Barty won 6-3"; "a 2017
 *     game … released on July 1, 2007") carries a trace of A; when exactly one version is free of
 *     traces and another carries its trace, the clean one speaks for the cluster. Otherwise the
 *     versions are comparable and the cluster counts for no side;
 *   - a passage that states no side but agrees with one on the distinguishing part (the year or
 *     month of a date, a distinctive capitalised word of a name, a rounded figure within 2 %)
 *     corroborates it with `partialWeight` × λ. Agreement is read sentence by sentence (a sentence
 *     naming both sides votes for neither), and a passage dated only to years the question does not
 *     ask about is about another event and corroborates nothing. A name mention must be capitalised
 *     and carry no number the side lacks ("Toy Story 3" is not "Toy Story 2").
 *   A passage outside the aligned pairs states a side only when it is about the question (a
 *   question term besides the disputed values): a policy on returning phones "within two days" is
 *   no vote for "two days per week" of remote work. (Partial corroboration keeps its own, looser
 *   reading above.)
 *   Counting copies cannot separate an original from its edit: every original passage has its own
 *   edited twin, so both sides have the same number of passages and of lineage clusters. Only
 *   passages with no twin (corroboration) and the edit's own leftovers (consistency) can.
 *   A side wins when its support is ≥ `minSupport` and ≥ `dominance` × the runner-up's. Otherwise
 *   the conflict is unresolved: both sides are kept (a side only earlier stages had dropped is
 *   reinstated) so the answer can state both with their citations and assert neither.
 * Passages that state only a losing side are dropped with the reason.
 */
import type { Candidate } from '../types';
import { assertKnownOptions } from '../errors';
import type { EvidenceLookup } from '../util/stage';
import { byScoreDesc, checkRange, metaOf, withEntry } from '../util/stage';
import { termsOf } from '../select/rationales';
import { PassageTable, VERIFY_STAGE, analyseText } from './common';
import type { Passages, SideGroup, SideValue } from './conflict-align';
import { findDisagreements, groupSides, passagesOf, representative } from './conflict-align';
import type { SideSupport, Statements, SupportEnv } from './conflict-support';
import { datePartOf, sideSupport, traceFinder, whoStates, yearsOf } from './conflict-support';
import type { AnswerType, ValueKind } from './values';
import { answerTypeOf, foldText, kindAnswers } from './values';
import { versionFamilies } from './versions';

export type ConflictKind = ValueKind | 'polarity';

export interface ConflictSide {
  /** Canonical value (date key, number key, folded entity text, or 'negated' / 'affirmed'). */
  readonly key: string;
  /** The value as one supporting passage writes it. */
  readonly display: string;
  /** Candidates that state this value (and no other side's). */
  readonly candidateIds: readonly string[];
  /** Candidates that state no side but agree with this one on its distinguishing part. */
  readonly corroboratingIds: readonly string[];
  /** Weighted independent support (see file comment). */
  readonly support: number;
  /** Independent sources (lineage clusters) stating it. */
  readonly sources: number;
  /** Citation ids of the packed candidates stating it; filled after packing (`citeConflicts`). */
  readonly citationIds: readonly string[];
}

export const CONFLICT_RESOLUTIONS = [
  'credibility',
  'status',
  'recency',
  'consistency',
  'independent_sources',
  'nli',
] as const;
export type ConflictResolution = (typeof CONFLICT_RESOLUTIONS)[number];

export interface Conflict {
  /** C1, C2, … */
  readonly id: string;
  readonly kind: ConflictKind;
  /** True when the disputed value is the kind of thing the question asks for (a date for "when", …). */
  readonly onQuestion: boolean;
  /** Sides, best supported first. */
  readonly sides: readonly ConflictSide[];
  readonly status: 'resolved' | 'unresolved';
  /** Key of the winning side, or null. */
  readonly winner: string | null;
  readonly resolvedBy: ConflictResolution | null;
  /** One line a user can read. */
  readonly reason: string;
  /** Candidate pairs whose aligned sentences revealed the disagreement. */
  readonly pairs: readonly (readonly [string, string])[];
}

export interface ConflictOptions {
  /** Masked-token LCS ratio at or above which two sentences say the same thing (apart from values). Evident default. */
  readonly alignRatio: number;
  /** Aligned sentences must share at least this many masked tokens (short fragments align by chance). Evident default. */
  readonly minAlignedTokens: number;
  /** A differing region longer than this many tokens on both sides is a rewrite, not a key-span edit. Evident default. */
  readonly maxSpanTokens: number;
  /** λ difference at which one version of a text is more trustworthy than another (0.90 vs 0.30 yes; 0.90 vs 0.85 no). Evident default. */
  readonly lambdaGap: number;
  /** Weight of a partial corroboration (year of a date, a distinctive word of a name) relative to stating the value. Evident default. */
  readonly partialWeight: number;
  /** Weight multiplier of a superseded document's statement (unless the question asks about earlier versions). Evident default. */
  readonly supersededWeight: number;
  /** A side wins only with at least this support (about one low-credibility source). Evident default. */
  readonly minSupport: number;
  /** …and at least this multiple of the runner-up's support. Evident default: a clear two-to-one. */
  readonly dominance: number;
  /** Most candidates to keep (reinstated sides replace the weakest others). Infinity: no cap. */
  readonly maxKeep: number;
}

export const DEFAULT_CONFLICT_OPTIONS: ConflictOptions = Object.freeze({
  alignRatio: 0.7,
  minAlignedTokens: 4,
  maxSpanTokens: 8,
  lambdaGap: 0.2,
  partialWeight: 0.5,
  supersededWeight: 0.5,
  minSupport: 0.3,
  dominance: 2,
  maxKeep: Infinity,
});

export interface ConflictInput {
  readonly question: string;
  readonly lookup: EvidenceLookup;
  /** Candidates earlier stages dropped: searched for the other side of a conflict and for corroboration; reinstated when a side needs them. */
  readonly context?: readonly Candidate[];
  /** Candidate id → lineage cluster id (lineage.ts); each candidate is its own source when absent. */
  readonly clusterOf?: ReadonlyMap<string, string>;
  /** Whether the question asks about earlier versions (superseded statements then count fully and older versions win). */
  readonly asksEarlier?: boolean;
  /** The verify call's passage table (over the same `lookup`), shared with the lineage check. */
  readonly texts?: PassageTable;
}

export interface ConflictResult {
  /** Candidates to pack, input order, reinstated ones appended. */
  readonly kept: readonly Candidate[];
  readonly dropped: readonly Candidate[];
  readonly conflicts: readonly Conflict[];
  /** Ids of context candidates brought back so a conflict side can be cited. */
  readonly reinstated: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// The stage
// ---------------------------------------------------------------------------------------------

function conflictOptions(options: Partial<ConflictOptions>): ConflictOptions {
  assertKnownOptions(options, DEFAULT_CONFLICT_OPTIONS, 'conflict');
  const o: ConflictOptions = { ...DEFAULT_CONFLICT_OPTIONS, ...options };
  checkRange('conflict', 'alignRatio', o.alignRatio, 0, 1);
  checkRange('conflict', 'minAlignedTokens', o.minAlignedTokens, 1, 1000);
  checkRange('conflict', 'maxSpanTokens', o.maxSpanTokens, 1, 1000);
  checkRange('conflict', 'lambdaGap', o.lambdaGap, 0, 1);
  checkRange('conflict', 'partialWeight', o.partialWeight, 0, 1);
  checkRange('conflict', 'supersededWeight', o.supersededWeight, 0, 1);
  checkRange('conflict', 'minSupport', o.minSupport, 0, 100);
  checkRange('conflict', 'dominance', o.dominance, 1, 1000);
  if (!(o.maxKeep >= 1)) checkRange('conflict', 'maxKeep', o.maxKeep, 1, Infinity);
  return o;
}

/**
 * The independent source of each passage: its lineage cluster (each passage its own without
 * one), joined with the clusters of its document's other versions (`versions.ts`), so that of a
 * current document and its superseded version only the current one speaks.
 */
function sourcesOf(p: Passages, input: ConflictInput): (id: string) => string {
  const lineage = (id: string): string => input.clusterOf?.get(id) ?? `#${id}`;
  const docIds = [...new Set(p.all.map((c) => c.docId))];
  const families = versionFamilies(docIds.map((d) => metaOf(input.lookup, d)));
  if (families.size === 0) return lineage;
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    const q = parent.get(x) ?? x;
    if (q === x) return x;
    const r = find(q);
    parent.set(x, r);
    return r;
  };
  for (const c of p.all) {
    const head = families.get(c.docId);
    if (head === undefined) continue;
    const a = find(lineage(c.id));
    const b = find(`versions of ${head}`);
    if (a !== b) parent.set(a, b);
  }
  return (id) => find(lineage(id));
}

/** How the question bears on a conflict: the kind of answer it asks for, and the values it states itself. */
interface QuestionReading {
  readonly answerType: AnswerType;
  /** The question's own premise ("the northern Himalayas" in a question about how many days) is given, not disputed. */
  statesValue(side: SideValue): boolean;
}

function readQuestion(question: string): QuestionReading {
  const folded = ` ${foldText(question)} `;
  return {
    answerType: answerTypeOf(question),
    statesValue: (s) =>
      s.kind !== 'polarity' && foldText(s.display).length > 0 && folded.includes(` ${foldText(s.display)} `),
  };
}

/** What one conflict asks of the keep/drop step: the passages it drops, and the sides that need passages brought back. */
interface Resolution {
  readonly conflict: Conflict;
  /** Passage id → why it loses. */
  readonly losers: ReadonlyMap<string, string>;
  /** Sides that need passages: `add` more of them (resolved: one for each losing candidate dropped, so the corrected versions take the edited ones' places), or `atLeast` one kept (unresolved: every side must be citable). */
  readonly needs: readonly { readonly side: string; readonly add: number; readonly atLeast: number }[];
  /** Side index → the passages stating it. */
  readonly supporters: ReadonlyMap<string, readonly string[]>;
}

/** Step 3 for one group of sides: who states what, each side's support, and the verdict; null when only context passages state a side. */
function resolveGroup(
  group: SideGroup,
  id: string,
  env: SupportEnv,
  q: QuestionReading,
  candidates: readonly Candidate[],
): Resolution | null {
  const sides = group.variants.map(representative);
  const datePart = datePartOf(sides);
  const statements = whoStates(group.variants, sides, group.pairs, datePart, env);
  if (!statements.full.some((ids) => ids.some((x) => env.p.own.has(x)))) return null; // about context only
  const support = sideSupport(sides, statements, traceFinder(sides, datePart, env.p), env);
  return verdict(id, group, sides, statements, support, env.o, q, candidates);
}

/** A side wins when its support is ≥ `minSupport` and ≥ `dominance` × the runner-up's; else the conflict is unresolved. */
function verdict(
  id: string,
  group: SideGroup,
  sides: readonly SideValue[],
  st: Statements,
  s: SideSupport,
  o: ConflictOptions,
  q: QuestionReading,
  candidates: readonly Candidate[],
): Resolution {
  const kind = (sides[0] as SideValue).kind;
  const order = sides
    .map((_, k) => k)
    .sort((x, y) => s.support[y]! - s.support[x]! || st.full[y]!.length - st.full[x]!.length);
  const top = order[0] as number;
  const second = order[1];
  const s1 = s.support[top] as number;
  const s2 = second === undefined ? 0 : (s.support[second] as number);
  const resolved = s1 >= o.minSupport && s1 >= o.dominance * s2 && s1 > s2;
  const onQuestion =
    kind === 'polarity'
      ? q.answerType === 'yesno' || q.answerType === 'any' || q.answerType === 'description'
      : kindAnswers(kind, q.answerType);
  const displayOf = (k: number): string => {
    const side = sides[k] as SideValue;
    return side.kind === 'polarity' ? (side.key === 'negated' ? 'negated' : 'affirmed') : side.display;
  };
  const supportLine = (k: number): string => `"${displayOf(k)}" (${(s.support[k] as number).toFixed(2)})`;
  const losers = new Map<string, string>();
  let needs: Resolution['needs'] = [];
  let resolvedBy: ConflictResolution | null = null;
  let reason: string;
  if (resolved) {
    resolvedBy = ([...s.byWhat[top]!.entries()].sort((x, y) => y[1] - x[1])[0]?.[0] ??
      'independent_sources') as ConflictResolution;
    const by = resolvedBy.replace('_', ' ');
    reason = `"${displayOf(top)}" (support ${s1.toFixed(2)}, ${s.sources[top]} independent source(s)) over ${order
      .slice(1)
      .map(supportLine)
      .join(', ')}; resolved by ${by}`;
    for (const k of order.slice(1)) {
      if (q.statesValue(sides[k] as SideValue)) continue;
      for (const cid of st.full[k]!) {
        const why = s.edited.get(cid) ?? by;
        losers.set(
          cid,
          `states "${displayOf(k)}" where the evidence supports "${displayOf(top)}" (conflict ${id}; ${why})`,
        );
      }
    }
    needs = [{ side: String(top), add: candidates.filter((c) => losers.has(c.id)).length, atLeast: 1 }];
  } else {
    reason = `unresolved: ${order
      .map(
        (k) => `"${displayOf(k)}" (support ${(s.support[k] as number).toFixed(2)}, ${st.full[k]!.length} passage(s))`,
      )
      .join(' vs ')}; comparable sources, neither is asserted`;
    if (onQuestion) {
      needs = order
        .filter((k) => st.full[k]!.length > 0)
        .slice(0, 2)
        .map((k) => ({ side: String(k), add: 0, atLeast: 1 }));
    }
  }
  const conflict: Conflict = {
    id,
    kind,
    onQuestion,
    sides: order.map((k) => ({
      key: (sides[k] as SideValue).key,
      display: displayOf(k),
      candidateIds: st.full[k] as string[],
      corroboratingIds: st.partial[k] as string[],
      support: s.support[k] as number,
      sources: s.sources[k] as number,
      citationIds: [],
    })),
    status: resolved ? 'resolved' : 'unresolved',
    winner: resolved ? (sides[top] as SideValue).key : null,
    resolvedBy,
    reason,
    pairs: group.pairs,
  };
  return { conflict, losers, needs, supporters: new Map(sides.map((_, k) => [String(k), st.full[k] as string[]])) };
}

/** Step 4: the candidates kept (losers out), and the passages of needed sides brought back, best first. */
function keepAndReinstate(
  candidates: readonly Candidate[],
  resolutions: readonly Resolution[],
  losers: ReadonlyMap<string, { readonly conflict: string; readonly reason: string }>,
  byId: ReadonlyMap<string, Candidate>,
): { keptIds: Set<string>; reinstated: string[]; reinstatedFor: Map<string, string> } {
  const keptIds = new Set(candidates.filter((c) => !losers.has(c.id)).map((c) => c.id));
  const reinstated: string[] = [];
  const reinstatedFor = new Map<string, string>();
  for (const r of resolutions) {
    for (const need of r.needs) {
      const ids = (r.supporters.get(need.side) ?? []).filter((id) => !losers.has(id));
      const keptNow = ids.filter((id) => keptIds.has(id)).length;
      const want = Math.max(need.add, need.atLeast - keptNow);
      const spare = ids
        .filter((id) => !keptIds.has(id))
        .map((id) => byId.get(id)!)
        .sort(byScoreDesc);
      for (const c of spare.slice(0, Math.max(0, want))) {
        keptIds.add(c.id);
        reinstated.push(c.id);
        reinstatedFor.set(c.id, r.conflict.id);
      }
    }
  }
  return { keptIds, reinstated, reinstatedFor };
}

/**
 * Step 5, the cap (removes from `keptIds`, returns what it removed): reinstated sides replace the
 * weakest candidates in no conflict. The cap is hard: still over it, conflict members go, weakest
 * first — first those whose side keeps another member, then (only when the cap is smaller than the
 * number of sides) any.
 */
function applyCap(
  candidates: readonly Candidate[],
  conflicts: readonly Conflict[],
  keptIds: Set<string>,
  maxKeep: number,
): Set<string> {
  const capDropped = new Set<string>();
  if (keptIds.size <= maxKeep) return capDropped;
  const inConflict = new Set(conflicts.flatMap((c) => c.sides.flatMap((s) => s.candidateIds)));
  const weakestFirst = candidates.filter((c) => keptIds.has(c.id)).sort((a, b) => byScoreDesc(b, a));
  for (const c of weakestFirst) {
    if (keptIds.size <= maxKeep) break;
    if (inConflict.has(c.id)) continue;
    keptIds.delete(c.id);
    capDropped.add(c.id);
  }
  if (keptIds.size <= maxKeep) return capDropped;
  const sideKey = new Map<string, string>();
  for (const c of conflicts)
    for (const s of c.sides)
      for (const id of s.candidateIds) if (!sideKey.has(id)) sideKey.set(id, `${c.id}\u0000${s.display}`);
  const keptPerSide = new Map<string, number>();
  for (const id of keptIds) {
    const key = sideKey.get(id);
    if (key !== undefined) keptPerSide.set(key, (keptPerSide.get(key) ?? 0) + 1);
  }
  const stillKept = candidates.filter((c) => keptIds.has(c.id)).sort((a, b) => byScoreDesc(b, a));
  for (const lastOfSideToo of [false, true]) {
    for (const c of stillKept) {
      if (keptIds.size <= maxKeep) break;
      if (!keptIds.has(c.id)) continue;
      const key = sideKey.get(c.id);
      const left = key === undefined ? 0 : (keptPerSide.get(key) ?? 0);
      if (!lastOfSideToo && left <= 1) continue;
      keptIds.delete(c.id);
      capDropped.add(c.id);
      if (key !== undefined) keptPerSide.set(key, left - 1);
    }
  }
  return capDropped;
}

/** Step 6: each candidate's conflict entry — why it lost, made room, was reinstated, or which side it supports. */
function conflictEntry(
  c: Candidate,
  conflicts: readonly Conflict[],
  losers: ReadonlyMap<string, { readonly conflict: string; readonly reason: string }>,
  capDropped: ReadonlySet<string>,
  reinstatedFor: ReadonlyMap<string, string>,
): Candidate {
  let at: { conflict: Conflict; side: string } | undefined;
  for (const x of conflicts) {
    const side = x.sides.find((s) => s.candidateIds.includes(c.id));
    if (side) {
      at = { conflict: x, side: side.display };
      break;
    }
  }
  const conflict = at?.conflict;
  const detail = {
    check: 'conflict',
    conflict: conflict?.id ?? null,
    side: at?.side ?? null,
    status: conflict?.status ?? null,
  };
  const entry = (kept: boolean, reason: string | undefined, extra: Record<string, unknown> = {}): Candidate =>
    withEntry(c, {
      stage: VERIFY_STAGE,
      score: c.score,
      kept,
      ...(reason ? { reason } : {}),
      detail: { ...detail, ...extra },
    });
  const loser = losers.get(c.id);
  if (loser) return entry(false, loser.reason);
  if (capDropped.has(c.id))
    return entry(false, 'made room for a side of a conflict (weakest candidate in no conflict)');
  const re = reinstatedFor.get(c.id);
  if (re) {
    const reason =
      conflict?.status === 'resolved'
        ? `reinstated: states "${at?.side ?? '?'}", the side that wins conflict ${re}, in place of a dropped passage`
        : `reinstated: states "${at?.side ?? '?'}", a side of conflict ${re} that no kept passage stated`;
    return entry(true, reason, { reinstated: true });
  }
  if (!conflict || !at) return entry(true, undefined);
  return entry(
    true,
    conflict.status === 'resolved'
      ? `supports "${at.side}", which wins conflict ${conflict.id}`
      : `states "${at.side}", one side of unresolved conflict ${conflict.id}`,
  );
}

/** Finds and resolves conflicts among candidates (and their context). */
export function detectConflicts(
  candidates: readonly Candidate[],
  input: ConflictInput,
  options: Partial<ConflictOptions> = {},
): ConflictResult {
  const o = conflictOptions(options);
  const p = passagesOf(candidates, input.context ?? [], input.lookup, input.texts ?? new PassageTable(input.lookup));
  // 1–2. Disagreements between aligned sentences of different documents, merged into groups of sides.
  const groups = groupSides(findDisagreements(p, o));
  // 3. Support and resolution per group.
  const env: SupportEnv = {
    p,
    lookup: input.lookup,
    o,
    asksEarlier: input.asksEarlier ?? false,
    questionTerms: new Set(termsOf(input.question)),
    questionYears: yearsOf(analyseText(input.question)),
    clusterOf: sourcesOf(p, input),
  };
  const q = readQuestion(input.question);
  const resolutions: Resolution[] = [];
  for (const g of groups) {
    const r = resolveGroup(g, `C${resolutions.length + 1}`, env, q, candidates);
    if (r) resolutions.push(r);
  }
  const conflicts = resolutions.map((r) => r.conflict);
  const losers = new Map<string, { conflict: string; reason: string }>();
  for (const r of resolutions) for (const [id, reason] of r.losers) losers.set(id, { conflict: r.conflict.id, reason });
  // 4–6. Keep, drop, reinstate, within the cap; each candidate's entry.
  const { keptIds, reinstated, reinstatedFor } = keepAndReinstate(candidates, resolutions, losers, p.byId);
  const capDropped = applyCap(candidates, conflicts, keptIds, o.maxKeep);
  const entry = (c: Candidate): Candidate => conflictEntry(c, conflicts, losers, capDropped, reinstatedFor);
  const kept: Candidate[] = [];
  const dropped: Candidate[] = [];
  for (const c of candidates) (keptIds.has(c.id) ? kept : dropped).push(entry(c));
  for (const id of reinstated) kept.push(entry(p.byId.get(id) as Candidate));
  return { kept, dropped, conflicts, reinstated };
}

/** Conflicts with the citation ids of the packed candidates on each side. */
export function citeConflicts(
  conflicts: readonly Conflict[],
  sources: readonly { readonly candidateId: string; readonly citationId: string }[],
): Conflict[] {
  const cite = new Map(sources.map((s) => [s.candidateId, s.citationId]));
  return conflicts.map((c) => ({
    ...c,
    sides: c.sides.map((s) => ({
      ...s,
      citationIds: s.candidateIds.map((id) => cite.get(id)).filter((x): x is string => x !== undefined),
    })),
  }));
}
