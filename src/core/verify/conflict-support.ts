/**
 * Conflicts, step 3 (conflict.ts runs it): who states each side, who corroborates it, and the
 * support of each side counted by independent source — one lineage cluster (or one family of
 * versions) is one source, and of versions of one text the more trustworthy speaks for it. The
 * rules are in conflict.ts's file comment.
 */
import type { Candidate, DocumentMeta } from '../types';
import type { EvidenceLookup, Token } from '../util/stage';
import { byScoreDesc, metaOf } from '../util/stage';
import { isStopword, termsOf } from '../select/rationales';
import type { AnalysedText } from './common';
import { lambdaOf } from './common';
import type { Passages, SentenceA, SideValue } from './conflict-align';
import type { ConflictOptions, ConflictResolution } from './conflict';
import type { KeyValue } from './values';
import { compatibleKeys, dateParts, foldText, hasNegation } from './values';

function containsPhrase(folded: string, phrase: string): boolean {
  return ` ${folded} `.includes(` ${phrase} `);
}

/** Whether a text states the side's value. */
function states(text: AnalysedText, folded: string, side: SideValue): boolean {
  if (side.kind === 'polarity') return false;
  if (side.phrase !== null) return containsPhrase(folded, side.phrase);
  if (side.kind === 'entity') return containsPhrase(folded, side.key);
  return text.values.some((v) => v.kind === side.kind && (v.key === side.key || sameNumber(v, side)));
}

/**
 * Whether a passage is about the question: it holds a question term outside the disputed values
 * (the sides' values are removed; other names stay, as "Apple" in "Tim Cook's Run as Apple CEO").
 * A question with no content terms puts no constraint.
 */
function onTopic(text: AnalysedText, questionTerms: ReadonlySet<string>, sides: readonly SideValue[]): boolean {
  if (questionTerms.size === 0) return true;
  let rest = text.text;
  for (const v of text.values) {
    if (sides.some((s) => s.kind === v.kind && compatibleKeys(v.kind, v.key, s.key))) rest = rest.replace(v.raw, ' ');
  }
  return termsOf(rest).some((t) => questionTerms.has(t));
}

function sameNumber(v: KeyValue, side: SideValue): boolean {
  if (side.kind !== 'number' || v.kind !== 'number') return false;
  return compatibleKeys('number', v.key, side.key);
}

/** The part of a date that tells the sides apart: the year when years differ, else the month. */
function distinguishingDatePart(keys: readonly string[]): 'y' | 'm' | null {
  const parts = keys.map(dateParts);
  const years = new Set(parts.map((p) => p.y).filter((y) => y !== null));
  if (years.size > 1) return 'y';
  const months = new Set(parts.map((p) => p.m).filter((m) => m !== null));
  if (months.size > 1) return 'm';
  return null;
}

/** Words of an entity side that no other side has: "tampa", "florida" against "glendale arizona". */
function distinctiveWords(side: SideValue, others: readonly SideValue[]): string[] {
  const otherWords = new Set(others.flatMap((s) => s.key.split(' ')));
  return side.key
    .split(' ')
    .filter((w) => w.length >= 3 && /^\p{L}+$/u.test(w) && !isStopword(w) && !otherWords.has(w));
}

/**
 * A mention of `word` as part of a name — capitalised ("Barty won", not "the story of") — whose
 * name carries no number the side lacks ("Toy Story 3" is not "Toy Story 2"); the name as
 * written, or null.
 */
function nameMention(text: AnalysedText, word: string, side: SideValue): string | null {
  const toks = text.tokens;
  const sideWords = new Set(side.key.split(' '));
  const isName = (i: number): boolean => {
    const t = toks[i];
    return t !== undefined && (/^\p{Lu}/u.test(t.raw) || /^\p{N}+$/u.test(t.raw));
  };
  const joined = (i: number): boolean => {
    const a = toks[i];
    const b = toks[i + 1];
    return a !== undefined && b !== undefined && /^[\s-]?$/u.test(text.text.slice(a.end, b.start));
  };
  for (let i = 0; i < toks.length; i++) {
    if (text.keys[i] !== word || !/^\p{Lu}/u.test((toks[i] as Token).raw)) continue;
    let a = i;
    let b = i;
    while (a > 0 && isName(a - 1) && joined(a - 1)) a--;
    while (b < toks.length - 1 && isName(b + 1) && joined(b)) b++;
    const run = toks.slice(a, b + 1);
    if (run.some((t) => /^\p{N}+$/u.test(t.raw) && !sideWords.has(t.raw))) continue;
    return text.text.slice((toks[a] as Token).start, (toks[b] as Token).end);
  }
  return null;
}

/** Whether a text agrees with the side on its distinguishing part without stating it. */
function corroborates(
  text: AnalysedText,
  folded: string,
  side: SideValue,
  others: readonly SideValue[],
  datePart: 'y' | 'm' | null,
): boolean {
  if (side.kind === 'date' && side.phrase === null && datePart) {
    const want = dateParts(side.key)[datePart];
    if (want === null) return false;
    return text.values.some((v) => v.kind === 'date' && dateParts(v.key)[datePart] === want);
  }
  if (side.kind === 'entity' || side.phrase !== null) {
    const fw = new Set(folded.split(' '));
    return distinctiveWords(side, others).some((w) => fw.has(w) && nameMention(text, w, side) !== null);
  }
  if (side.kind === 'number') {
    // A rounded statement of the figure ("$6 billion" for "$6.04 billion"): the same unit, within
    // `NUMBER_ROUNDING` of this side and not of any other.
    const near = (key: string, v: KeyValue): boolean => {
      const a = parseNumberKey(key);
      const b = parseNumberKey(v.key);
      if (!a || !b || a.unit !== b.unit || a.value === 0) return false;
      return Math.abs(a.value - b.value) / Math.abs(a.value) <= NUMBER_ROUNDING;
    };
    return text.values.some(
      (v) => v.kind === 'number' && near(side.key, v) && !others.some((x) => x.kind === 'number' && near(x.key, v)),
    );
  }
  return false;
}

/** Relative difference within which a number is a rounded statement of another (6 for 6.04; not 6 for 6.5). */
const NUMBER_ROUNDING = 0.02;

function parseNumberKey(key: string): { value: number; unit: string } | null {
  const m = /^(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)(.*)$/u.exec(key);
  return m ? { value: Number(m[1]), unit: m[2] ?? '' } : null;
}

/**
 * The sides a passage corroborates, sentence by sentence: a sentence that agrees with exactly one
 * side votes for it; the passage corroborates a side when its sentences vote for that side only
 * ("Biden Jr. was elected the 46th president. Mr. Biden defeated President Trump …" corroborates
 * Biden: the second sentence names both and votes for neither).
 */
function corroboratedSides(
  sentences: readonly SentenceA[],
  sides: readonly SideValue[],
  datePart: 'y' | 'm' | null,
): number[] {
  const voted = new Set<number>();
  for (const s of sentences) {
    const f = foldText(s.text);
    const ks = sides
      .map((side, k) =>
        corroborates(
          s,
          f,
          side,
          sides.filter((x) => x !== side),
          datePart,
        )
          ? k
          : -1,
      )
      .filter((k) => k >= 0);
    if (ks.length === 1) voted.add(ks[0] as number);
  }
  return [...voted];
}

/** Years (4-digit) a text mentions in its dates. */
export function yearsOf(text: AnalysedText): Set<string> {
  const out = new Set<string>();
  for (const v of text.values) {
    if (v.kind !== 'date') continue;
    const y = dateParts(v.key).y;
    if (y !== null) out.add(y);
  }
  return out;
}

const STATUS_RANK: Readonly<Record<string, number>> = Object.freeze({ current: 0, draft: 1, superseded: 2 });

interface Version {
  readonly side: string;
  readonly lambda: number;
  readonly meta: DocumentMeta;
}

/** Which version of a text is more trustworthy, and why; null when they are comparable. */
function preferVersion(
  a: Version,
  b: Version,
  o: ConflictOptions,
  asksEarlier: boolean,
): { winner: Version; by: ConflictResolution } | null {
  const sa = STATUS_RANK[a.meta.status] ?? 0;
  const sb = STATUS_RANK[b.meta.status] ?? 0;
  if (sa !== sb && !asksEarlier) return { winner: sa < sb ? a : b, by: 'status' };
  if (Math.abs(a.lambda - b.lambda) >= o.lambdaGap) return { winner: a.lambda > b.lambda ? a : b, by: 'credibility' };
  const da = a.meta.effectiveDate;
  const db = b.meta.effectiveDate;
  if (da && db && da !== db) {
    const newer = da > db ? a : b;
    const older = newer === a ? b : a;
    return { winner: asksEarlier ? older : newer, by: 'recency' };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Step 3: who states which side, and each side's support
// ---------------------------------------------------------------------------------------------

/** What counting support needs from the call. */
export interface SupportEnv {
  readonly p: Passages;
  readonly lookup: EvidenceLookup;
  readonly o: ConflictOptions;
  readonly asksEarlier: boolean;
  /** Content terms of the question (`termsOf`). */
  readonly questionTerms: ReadonlySet<string>;
  /** Years the question's dates name. */
  readonly questionYears: ReadonlySet<string>;
  /** The independent source a passage belongs to: its lineage cluster, joined with its versions' (`versions.ts`). */
  clusterOf(id: string): string;
}

/** The weight of a passage's statement: its λ, × `supersededWeight` for a superseded document unless the question asks about earlier versions. */
export function statementWeight(c: Candidate, env: Pick<SupportEnv, 'lookup' | 'o' | 'asksEarlier'>): number {
  const meta = metaOf(env.lookup, c.docId);
  const w = meta.status === 'superseded' && !env.asksEarlier ? env.o.supersededWeight : 1;
  return lambdaOf(c, env.lookup) * w;
}

/** Passage ids per side: `full` state it (and no other side), `partial` corroborate it without stating any. */
export interface Statements {
  readonly full: readonly (readonly string[])[];
  readonly partial: readonly (readonly string[])[];
}

/**
 * Who states which side (any spelling). Polarity sides are stated by the pair members themselves.
 * Any other passage states a side only when it is about the question: it holds a question term
 * besides its values ("must be returned within two days" in an equipment policy does not side
 * with "two days per week" of remote work). A passage dated only to years the question does not
 * ask about ("Super Bowl LVII … Glendale" for a question about 2021) corroborates nothing.
 */
export function whoStates(
  variantLists: readonly (readonly SideValue[])[],
  sides: readonly SideValue[],
  pairs: readonly (readonly [string, string])[],
  datePart: 'y' | 'm' | null,
  env: SupportEnv,
): Statements {
  const { p } = env;
  const members = new Set(pairs.flat());
  const topical = new Map<string, boolean>();
  const aboutQuestion = (id: string): boolean => {
    if (members.has(id)) return true;
    let t = topical.get(id);
    if (t === undefined) topical.set(id, (t = onTopic(p.whole(id), env.questionTerms, sides)));
    return t;
  };
  const statesOf = new Map<string, Set<number>>();
  variantLists.forEach((variants, k) => {
    const s = sides[k] as SideValue;
    for (const c of p.all) {
      const stated =
        s.kind === 'polarity'
          ? pairs.some(([a, b]) => (a === c.id || b === c.id) && hasNegation(p.text(c.id)) === (s.key === 'negated'))
          : variants.some((v) => states(p.whole(c.id), p.folded(c.id), v)) && aboutQuestion(c.id);
      if (stated) statesOf.set(c.id, (statesOf.get(c.id) ?? new Set()).add(k));
    }
  });
  const full = sides.map((): string[] => []);
  for (const [id, ks] of statesOf) if (ks.size === 1) full[[...ks][0] as number]!.push(id);
  const aboutOtherYear = (id: string): boolean => {
    if (env.questionYears.size === 0) return false;
    const ys = yearsOf(p.whole(id));
    return ys.size > 0 && ![...ys].some((y) => env.questionYears.has(y));
  };
  const partial = sides.map((): string[] => []);
  for (const c of p.all) {
    if (statesOf.has(c.id) || aboutOtherYear(c.id)) continue;
    const ks = corroboratedSides(p.sentences(c.id), sides, datePart);
    if (ks.length === 1) partial[ks[0] as number]!.push(c.id);
  }
  return { full, partial };
}

/** The part of a date that tells the sides apart, for date conflicts; else null. */
export function datePartOf(sides: readonly SideValue[]): 'y' | 'm' | null {
  return (sides[0] as SideValue).kind === 'date'
    ? distinguishingDatePart(sides.filter((s) => s.phrase === null).map((s) => s.key))
    : null;
}

/**
 * Internal consistency of versions of one text. An edit that replaces a value often misses its
 * other mentions ("Simona Halep beat Karolina Pliskova … Barty won 6-3"; "Splatoon 2 is a 2017
 * game … released on July 1, 2007"): a version that states side k but still agrees with side j
 * elsewhere in its text carries a trace of j. `traceOf(id, j)` names the trace.
 */
export function traceFinder(
  sides: readonly SideValue[],
  datePart: 'y' | 'm' | null,
  p: Passages,
): (id: string, j: number) => string | null {
  return (id, j) => {
    const side = sides[j] as SideValue;
    const others = sides.filter((x) => x !== side);
    if (side.kind === 'date' && side.phrase === null && datePart) {
      const want = dateParts(side.key)[datePart];
      const hit = p
        .whole(id)
        .values.find((v) => v.kind === 'date' && want !== null && dateParts(v.key)[datePart] === want);
      return hit ? `"${hit.raw}"` : null;
    }
    if (side.kind === 'entity' || side.phrase !== null) {
      const text = p.whole(id);
      for (const w of distinctiveWords(side, others)) {
        const m = nameMention(text, w, side);
        if (m !== null) return `"${m}"`;
      }
      return null;
    }
    return null;
  };
}

/** The one version (side index) free of traces of the others while some other version carries its trace; else null. */
function consistentVersion(
  m: ReadonlyMap<number, readonly string[]>,
  traceOf: (id: string, j: number) => string | null,
): number | null {
  const ks = [...m.keys()];
  const traced = (k: number, j: number): boolean => (m.get(k) ?? []).some((id) => traceOf(id, j) !== null);
  const clean = ks.filter((k) => ks.every((j) => j === k || !traced(k, j)));
  if (clean.length !== 1) return null;
  const k = clean[0] as number;
  return ks.some((j) => j !== k && traced(j, k)) ? k : null;
}

interface Speaker {
  readonly k: number;
  readonly id: string;
  readonly lambda: number;
  readonly by: ConflictResolution;
}

/**
 * Of the versions of one text (side → passages of one source), the one that speaks for it: the
 * more trustworthy by `preferVersion` throughout, else the internally consistent one; null when
 * they are comparable (nobody speaks for the source).
 */
function speakerOf(
  m: ReadonlyMap<number, readonly string[]>,
  env: SupportEnv,
  weight: (id: string) => number,
  traceOf: (id: string, j: number) => string | null,
): Speaker | null {
  const { p } = env;
  const best = (ids: readonly string[]): string =>
    [...ids].sort((x, y) => weight(y) - weight(x) || byScoreDesc(p.byId.get(x)!, p.byId.get(y)!))[0] as string;
  const versions = [...m.entries()].map(([k, ids]) => {
    const id = best(ids);
    return { k, id, v: { side: String(k), lambda: weight(id), meta: metaOf(env.lookup, p.byId.get(id)!.docId) } };
  });
  versions.sort((x, y) => y.v.lambda - x.v.lambda);
  let champion = versions[0]!;
  let by: ConflictResolution | null = null;
  for (const other of versions.slice(1)) {
    const pref = preferVersion(champion.v, other.v, env.o, env.asksEarlier);
    if (!pref) {
      by = null; // comparable versions: nobody speaks for this source
      break;
    }
    if (pref.winner === other.v) champion = other;
    by = pref.by;
  }
  if (by === null) {
    // Comparable versions: the internally consistent one speaks when the others carry its traces.
    const consistent = consistentVersion(m, traceOf);
    const found = consistent === null ? undefined : versions.find((x) => x.k === consistent);
    if (!found) return null;
    champion = found;
    by = 'consistency';
  }
  return { k: champion.k, id: champion.id, lambda: champion.v.lambda, by };
}

function editedReason(championId: string, by: ConflictResolution, trace: string | null): string {
  const why =
    by === 'credibility'
      ? 'more credible source'
      : by === 'status'
        ? 'current version'
        : by === 'consistency'
          ? `its text still mentions ${trace ?? 'the other value'} elsewhere`
          : 'newer version';
  return `an edited copy of ${championId} (${why})`;
}

/** Each side's weighted independent support, its sources, what the support came from, and the passages a better version overrules. */
export interface SideSupport {
  readonly support: readonly number[];
  readonly sources: readonly number[];
  readonly byWhat: readonly ReadonlyMap<ConflictResolution, number>[];
  /** Passage id → why it is an edited copy of the version that speaks for its source. */
  readonly edited: ReadonlyMap<string, string>;
}

/**
 * Support per side: every independent source stating one side adds the weight of its best
 * passage; a source whose versions state different sides counts for its speaker's side only
 * (`speakerOf`); partial corroboration adds `partialWeight` × λ, one vote per source that states
 * no side.
 */
export function sideSupport(
  sides: readonly SideValue[],
  statements: Statements,
  traceOf: (id: string, j: number) => string | null,
  env: SupportEnv,
): SideSupport {
  const weight = (id: string): number => statementWeight(env.p.byId.get(id) as Candidate, env);
  const support = sides.map(() => 0);
  const sources = sides.map(() => 0);
  const byWhat = sides.map(() => new Map<ConflictResolution, number>());
  const add = (k: number, by: ConflictResolution, w: number): void => {
    support[k]! += w;
    byWhat[k]!.set(by, (byWhat[k]!.get(by) ?? 0) + w);
  };
  const sourceSides = new Map<string, Map<number, string[]>>();
  statements.full.forEach((ids, k) => {
    for (const id of ids) {
      const cl = env.clusterOf(id);
      const m = sourceSides.get(cl) ?? new Map<number, string[]>();
      m.set(k, [...(m.get(k) ?? []), id]);
      sourceSides.set(cl, m);
    }
  });
  const edited = new Map<string, string>();
  for (const [, m] of sourceSides) {
    if (m.size === 1) {
      const [k, ids] = [...m.entries()][0] as [number, string[]];
      add(k, 'independent_sources', Math.max(...ids.map(weight)));
      sources[k]! += 1;
      continue;
    }
    const speaker = speakerOf(m, env, weight, traceOf);
    if (speaker === null) continue;
    add(speaker.k, speaker.by, speaker.lambda);
    sources[speaker.k]! += 1;
    for (const [k, ids] of m) {
      if (k === speaker.k) continue;
      for (const id of ids)
        edited.set(
          id,
          editedReason(speaker.id, speaker.by, speaker.by === 'consistency' ? traceOf(id, speaker.k) : null),
        );
    }
  }
  statements.partial.forEach((ids, k) => {
    const seen = new Map<string, number>();
    for (const id of ids) {
      const cl = env.clusterOf(id);
      if (sourceSides.has(cl)) continue;
      seen.set(cl, Math.max(seen.get(cl) ?? 0, weight(id)));
    }
    for (const w of seen.values()) add(k, 'independent_sources', env.o.partialWeight * w);
  });
  return { support, sources, byWhat, edited };
}
