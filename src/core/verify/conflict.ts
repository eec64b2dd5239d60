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
import type { Candidate, DocumentMeta } from '../types';
import { assertKnownOptions } from '../errors';
import type { EvidenceLookup, Token } from '../select/common';
import { byScoreDesc, checkRange, metaOf, withEntry } from '../select/common';
import { isStopword, termsOf } from '../select/rationales';
import type { AnalysedText } from './common';
import { PassageTable, VERIFY_STAGE, analyseText, keyJaccard, lambdaOf, sentenceUnits } from './common';
import { diffKeys } from './diff';
import type { AnswerType, KeyValue, ValueKind } from './values';
import { answerTypeOf, compatibleKeys, dateParts, entityKey, foldText, hasNegation, kindAnswers } from './values';

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
// Disagreements
// ---------------------------------------------------------------------------------------------

interface SentenceA extends AnalysedText {
  /** Token index ranges of the values. */
  readonly valueTokens: readonly { readonly start: number; readonly end: number; readonly v: KeyValue }[];
}

interface SideValue {
  readonly kind: ConflictKind;
  readonly key: string;
  readonly display: string;
  /** For multi-value spans: the folded span text (matched as a word sequence). */
  readonly phrase: string | null;
}

interface Disagreement {
  readonly a: string;
  readonly b: string;
  readonly sideA: SideValue;
  readonly sideB: SideValue;
}

function analyseSentence(text: string): SentenceA {
  const base = analyseText(text);
  const valueTokens = base.values.map((v) => {
    let start = -1;
    let end = -1;
    base.tokens.forEach((t, i) => {
      if (t.start < v.end && t.end > v.start) {
        if (start < 0) start = i;
        end = i + 1;
      }
    });
    return { start, end, v };
  });
  return { ...base, valueTokens: valueTokens.filter((x) => x.start >= 0) };
}

function sentencesOf(text: string): SentenceA[] {
  return sentenceUnits(text).map((s) => analyseSentence(text.slice(s.start, s.end)));
}

/**
 * Widens [s, e) to every date or number it overlaps (or, when empty, that strictly contains it):
 * "21, 2017" becomes "July 21, 2017". Names are not widened: the diff already isolates the
 * replaced words ("Disney" in "The Walt Disney Co."), and the rest of the name is shared context.
 */
function widen(s: SentenceA, start: number, end: number): [number, number] {
  let a = start;
  let b = end;
  for (const vt of s.valueTokens) {
    if (vt.v.kind === 'entity') continue;
    const hit = a < b ? vt.start < b && vt.end > a : vt.start < a && vt.end > a;
    if (hit) {
      a = Math.min(a, vt.start);
      b = Math.max(b, vt.end);
    }
  }
  return [a, b];
}

function sideOf(s: SentenceA, start: number, end: number): SideValue | null {
  const vals = s.valueTokens
    .filter((vt) => (vt.v.kind === 'entity' ? vt.start < end && vt.end > start : vt.start >= start && vt.end <= end))
    .map((vt) => vt.v);
  const first = s.tokens[start];
  const last = s.tokens[end - 1];
  if (!first || !last) return null;
  const display = s.text.slice(first.start, last.end).replace(/['’]s$/u, '');
  if (vals.length === 0) {
    // A capitalised word the value rules skipped (e.g. at a sentence start: "· Apple is now …") is
    // still a name when the aligned sentence has another one in its place.
    const words = s.tokens.slice(start, end);
    if (words.length > 0 && words.every((t) => /^\p{Lu}/u.test(t.raw)) && !words.every((t) => isStopword(t.lower))) {
      const key = entityKey(display);
      return { kind: 'entity', key, display, phrase: key.includes(' ') ? key : null };
    }
    return null;
  }
  if (vals.length === 1 && vals[0]!.kind !== 'entity') {
    const v = vals[0] as KeyValue;
    return { kind: v.kind, key: v.key, display: v.raw.replace(/['’]s$/u, ''), phrase: null };
  }
  if (vals.every((v) => v.kind === 'entity')) {
    const key = entityKey(display);
    if (key.length === 0) return null;
    return { kind: 'entity', key, display, phrase: key.includes(' ') ? key : null };
  }
  const kind: ValueKind = vals.some((v) => v.kind === 'entity') ? 'entity' : (vals[0] as KeyValue).kind;
  const phrase = entityKey(display);
  return { kind, key: phrase, display, phrase };
}

/** The one date or number inside [start, end) of a sentence, when there is exactly one. */
function soleFigure(s: SentenceA, start: number, end: number): KeyValue | null {
  const figs = s.valueTokens.filter((vt) => vt.v.kind !== 'entity' && vt.start >= start && vt.end <= end);
  return figs.length === 1 ? (figs[0] as (typeof figs)[number]).v : null;
}

function sidesCompatible(x: SideValue, y: SideValue): boolean {
  if (x.kind !== y.kind) return false;
  if (x.phrase === null && y.phrase === null) return compatibleKeys(x.kind as ValueKind, x.key, y.key);
  // Spans of several values: compatible when one's words are all in the other ("Tampa, Florida" ⊂ "Tampa Bay, Florida").
  const wx = x.key.split(' ');
  const wy = new Set(y.key.split(' '));
  const wx2 = new Set(wx);
  return wx.every((w) => wy.has(w)) || [...wy].every((w) => wx2.has(w));
}

function disagreementsOf(
  idA: string,
  idB: string,
  sa: readonly SentenceA[],
  sb: readonly SentenceA[],
  o: ConflictOptions,
): Disagreement[] {
  const out: Disagreement[] = [];
  for (const x of sa) {
    for (const y of sb) {
      if (x.masked.length < o.minAlignedTokens || y.masked.length < o.minAlignedTokens) continue;
      if (keyJaccard(x.masked, y.masked) < 0.4) continue;
      const m = diffKeys(x.masked, y.masked);
      if (m.ratio < o.alignRatio || m.common < o.minAlignedTokens) continue;
      const d = diffKeys(x.keys, y.keys);
      // Widen each hunk to whole values, then merge hunks that now overlap.
      const regions: { a: [number, number]; b: [number, number] }[] = [];
      for (const h of d.hunks) {
        let a = widen(x, h.aStart, h.aEnd);
        let b = widen(y, h.bStart, h.bEnd);
        const prev = regions[regions.length - 1];
        if (prev && (a[0] <= prev.a[1] || b[0] <= prev.b[1])) {
          a = [Math.min(prev.a[0], a[0]), Math.max(prev.a[1], a[1])];
          b = [Math.min(prev.b[0], b[0]), Math.max(prev.b[1], b[1])];
          regions[regions.length - 1] = { a: widen(x, a[0], a[1]), b: widen(y, b[0], b[1]) };
        } else regions.push({ a, b });
      }
      for (const r of regions) {
        const lenA = r.a[1] - r.a[0];
        const lenB = r.b[1] - r.b[0];
        if (lenA > o.maxSpanTokens && lenB > o.maxSpanTokens) continue;
        let sideA = sideOf(x, r.a[0], r.a[1]);
        let sideB = sideOf(y, r.b[0], r.b[1]);
        // A region that merged a changed date or number with words added on one side ("September
        // 14, 2018." against "December 1, 2017 in Japan, North America, …") disagrees on the value.
        if (sideA && sideB && (sideA.phrase !== null || sideB.phrase !== null)) {
          const va = soleFigure(x, r.a[0], r.a[1]);
          const vb = soleFigure(y, r.b[0], r.b[1]);
          if (va && vb && va.kind === vb.kind) {
            sideA = { kind: va.kind, key: va.key, display: va.raw, phrase: null };
            sideB = { kind: vb.kind, key: vb.key, display: vb.raw, phrase: null };
          }
        }
        if (sideA && sideB) {
          if (!sidesCompatible(sideA, sideB)) out.push({ a: idA, b: idB, sideA, sideB });
          continue;
        }
        // Negation added or removed in otherwise aligned sentences ("is paid" / "is not paid").
        if (!sideA && !sideB && m.ratio >= 0.8) {
          const ta = x.tokens
            .slice(r.a[0], r.a[1])
            .map((t) => t.raw)
            .join(' ');
          const tb = y.tokens
            .slice(r.b[0], r.b[1])
            .map((t) => t.raw)
            .join(' ');
          const na = hasNegation(ta);
          const nb = hasNegation(tb);
          if (na !== nb) {
            const yes = (neg: boolean, s: SentenceA): SideValue => ({
              kind: 'polarity',
              key: neg ? 'negated' : 'affirmed',
              display: s.text.trim(),
              phrase: null,
            });
            out.push({ a: idA, b: idB, sideA: yes(na, x), sideB: yes(nb, y) });
          }
        }
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Support
// ---------------------------------------------------------------------------------------------

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
function yearsOf(text: AnalysedText): Set<string> {
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
// The stage
// ---------------------------------------------------------------------------------------------

/** Finds and resolves conflicts among candidates (and their context). */
export function detectConflicts(
  candidates: readonly Candidate[],
  input: ConflictInput,
  options: Partial<ConflictOptions> = {},
): ConflictResult {
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

  const { lookup } = input;
  const asksEarlier = input.asksEarlier ?? false;
  const answerType: AnswerType = answerTypeOf(input.question);
  const foldedQuestion = ` ${foldText(input.question)} `;
  const statesQuestionValue = (s: SideValue): boolean =>
    s.kind !== 'polarity' && foldText(s.display).length > 0 && foldedQuestion.includes(` ${foldText(s.display)} `);
  const own = new Set(candidates.map((c) => c.id));
  const context = (input.context ?? []).filter((c) => !own.has(c.id));
  const firstOfId = new Set<string>();
  const all = [
    ...candidates,
    ...context.filter((c) => {
      if (firstOfId.has(c.id)) return false;
      firstOfId.add(c.id);
      return true;
    }),
  ];
  const byId = new Map(all.map((c) => [c.id, c]));
  const textOf = (id: string): string => lookup.chunks.get(id)?.text ?? '';
  // Each passage is analysed (and folded) once, when first needed.
  const texts = input.texts ?? new PassageTable(lookup);
  const whole = { get: (id: string): AnalysedText => texts.analysed(id) };
  const foldedCache = new Map<string, string>();
  const folded = {
    get: (id: string): string => {
      let f = foldedCache.get(id);
      if (f === undefined) {
        f = foldText(textOf(id));
        foldedCache.set(id, f);
      }
      return f;
    },
  };
  const sentenceCache = new Map<string, SentenceA[]>();
  const sentences = (id: string): SentenceA[] => {
    let s = sentenceCache.get(id);
    if (!s) {
      s = sentencesOf(textOf(id));
      sentenceCache.set(id, s);
    }
    return s;
  };

  // 1. Disagreements between aligned sentences of different documents; at least one side kept.
  texts.preparePairs(all.map((c) => c.id));
  const disagreements: Disagreement[] = [];
  for (let i = 0; i < all.length; i++) {
    const ci = all[i] as Candidate;
    for (let j = i + 1; j < all.length; j++) {
      const cj = all[j] as Candidate;
      if (ci.docId === cj.docId) continue;
      if (!own.has(ci.id) && !own.has(cj.id)) continue;
      if (texts.maskedJaccard(ci.id, cj.id) < 0.15) continue;
      disagreements.push(...disagreementsOf(ci.id, cj.id, sentences(ci.id), sentences(cj.id), o));
    }
  }

  // 2. Merge disagreements that share a side value into conflicts.
  const sideKey = (s: SideValue): string => `${s.kind}\u0000${s.key}`;
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    const p = parent.get(x) ?? x;
    if (p === x) return x;
    const r = find(p);
    parent.set(x, r);
    return r;
  };
  const sidesByKey = new Map<string, SideValue>();
  const pairsByKey = new Map<string, [string, string][]>();
  for (const d of disagreements) {
    const ka = sideKey(d.sideA);
    const kb = sideKey(d.sideB);
    if (!sidesByKey.has(ka)) sidesByKey.set(ka, d.sideA);
    if (!sidesByKey.has(kb)) sidesByKey.set(kb, d.sideB);
    const ra = find(ka);
    const rb = find(kb);
    if (ra !== rb) parent.set(rb, ra);
  }
  for (const d of disagreements) {
    const r = find(sideKey(d.sideA));
    const list = pairsByKey.get(r) ?? [];
    if (!list.some(([x, y]) => (x === d.a && y === d.b) || (x === d.b && y === d.a))) list.push([d.a, d.b]);
    pairsByKey.set(r, list);
  }
  // Spellings that can both be true ("April 29" and "April 29, 2015"; "Simona Halep" and "Romania's
  // Simona Halep") are variants of one side, and conflicts that share a side are one conflict.
  const allSides = [...sidesByKey.entries()];
  for (let i = 0; i < allSides.length; i++) {
    for (let j = i + 1; j < allSides.length; j++) {
      const [ki, si] = allSides[i] as [string, SideValue];
      const [kj, sj] = allSides[j] as [string, SideValue];
      if (sidesCompatible(si, sj)) {
        const ri = find(ki);
        const rj = find(kj);
        if (ri !== rj) {
          parent.set(rj, ri);
          pairsByKey.set(ri, [...(pairsByKey.get(ri) ?? []), ...(pairsByKey.get(rj) ?? [])]);
        }
      }
    }
  }
  const groups = new Map<string, SideValue[][]>();
  for (const [k, side] of allSides) {
    const root = find(k);
    const variants = groups.get(root) ?? [];
    const home = variants.find((vs) => vs.some((v) => sidesCompatible(v, side)));
    if (home) home.push(side);
    else variants.push([side]);
    groups.set(root, variants);
  }
  for (const [root, variants] of groups) if (variants.length < 2) groups.delete(root);
  /** The spelling a side is shown with: the core name of an entity, the most specific date or number. */
  const representative = (vs: readonly SideValue[]): SideValue =>
    [...vs].sort((a, b) =>
      a.kind === 'entity' || a.phrase !== null ? a.key.length - b.key.length : b.key.length - a.key.length,
    )[0] as SideValue;

  // 3. Support and resolution per conflict.
  // A passage whose dates name only years the question does not ask about is about another event
  // ("Super Bowl LVII … Glendale" for a question about 2021): it corroborates nothing.
  const questionYears = yearsOf(analyseText(input.question));
  const questionTerms = new Set(termsOf(input.question));
  const aboutOtherYear = (id: string): boolean => {
    if (questionYears.size === 0) return false;
    const ys = yearsOf(whole.get(id));
    return ys.size > 0 && ![...ys].some((y) => questionYears.has(y));
  };
  const clusterOf = (id: string): string => input.clusterOf?.get(id) ?? `#${id}`;
  const lambda = (id: string): number => {
    const c = byId.get(id) as Candidate;
    const meta = metaOf(lookup, c.docId);
    const w = meta.status === 'superseded' && !asksEarlier ? o.supersededWeight : 1;
    return lambdaOf(c, lookup) * w;
  };
  const conflicts: Conflict[] = [];
  const losers = new Map<string, { conflict: string; reason: string }>();
  // Conflict id → sides that need passages brought back: `add` more of them (resolved: one for each
  // losing passage dropped, so the corrected versions take the edited ones' places), or `atLeast`
  // one kept (unresolved: every side must be citable).
  const needSides = new Map<string, { side: string; add: number; atLeast: number }[]>();
  const sideSupporters = new Map<string, Map<string, string[]>>();
  let n = 0;
  for (const [root, variantLists] of groups) {
    const pairs = pairsByKey.get(root) ?? [];
    const sides = variantLists.map(representative);
    const kind = (sides[0] as SideValue).kind;
    const datePart =
      kind === 'date' ? distinguishingDatePart(sides.filter((s) => s.phrase === null).map((s) => s.key)) : null;
    // Who states which side (any spelling). Polarity sides are stated by the pair members themselves.
    // Any other passage states a side only when it is about the question: it holds a question term
    // besides its values ("must be returned within two days" in an equipment policy does not side
    // with "two days per week" of remote work).
    const members = new Set(pairs.flat());
    const topical = new Map<string, boolean>();
    const aboutQuestion = (id: string): boolean => {
      if (members.has(id)) return true;
      let t = topical.get(id);
      if (t === undefined) topical.set(id, (t = onTopic(whole.get(id), questionTerms, sides)));
      return t;
    };
    const statesOf = new Map<string, Set<number>>();
    variantLists.forEach((variants, k) => {
      const s = sides[k] as SideValue;
      for (const c of all) {
        const stated =
          s.kind === 'polarity'
            ? pairs.some(([a, b]) => (a === c.id || b === c.id) && hasNegation(textOf(c.id)) === (s.key === 'negated'))
            : variants.some((v) => states(whole.get(c.id), folded.get(c.id), v)) && aboutQuestion(c.id);
        if (stated) statesOf.set(c.id, (statesOf.get(c.id) ?? new Set()).add(k));
      }
    });
    const full = sides.map((): string[] => []);
    for (const [id, ks] of statesOf) if (ks.size === 1) full[[...ks][0] as number]!.push(id);
    const partial = sides.map((): string[] => []);
    for (const c of all) {
      if (statesOf.has(c.id) || aboutOtherYear(c.id)) continue;
      const ks = corroboratedSides(sentences(c.id), sides, datePart);
      if (ks.length === 1) partial[ks[0] as number]!.push(c.id);
    }
    if (!full.some((ids) => ids.some((id) => own.has(id)))) continue; // about context only

    // Internal consistency of versions of one text. An edit that replaces a value often misses its
    // other mentions ("Simona Halep beat Karolina Pliskova … Barty won 6-3"; "Splatoon 2 is a 2017
    // game … released on July 1, 2007"): a version that states side k but still agrees with side j
    // elsewhere in its text carries a trace of j. `traceOf(id, j)` names the trace.
    const traceOf = (id: string, j: number): string | null => {
      const side = sides[j] as SideValue;
      const others = sides.filter((x) => x !== side);
      if (side.kind === 'date' && side.phrase === null && datePart) {
        const want = dateParts(side.key)[datePart];
        const hit = whole
          .get(id)
          .values.find((v) => v.kind === 'date' && want !== null && dateParts(v.key)[datePart] === want);
        return hit ? `"${hit.raw}"` : null;
      }
      if (side.kind === 'entity' || side.phrase !== null) {
        const text = whole.get(id);
        for (const w of distinctiveWords(side, others)) {
          const m = nameMention(text, w, side);
          if (m !== null) return `"${m}"`;
        }
        return null;
      }
      return null;
    };
    /** The one version (side index) free of traces of the others while some other version carries its trace; else null. */
    const consistentVersion = (m: ReadonlyMap<number, readonly string[]>): number | null => {
      const ks = [...m.keys()];
      const traced = (k: number, j: number): boolean => (m.get(k) ?? []).some((id) => traceOf(id, j) !== null);
      const clean = ks.filter((k) => ks.every((j) => j === k || !traced(k, j)));
      if (clean.length !== 1) return null;
      const k = clean[0] as number;
      return ks.some((j) => j !== k && traced(j, k)) ? k : null;
    };

    // Cluster-level support.
    const support = sides.map(() => 0);
    const sources = sides.map(() => 0);
    const byWhat = sides.map(() => new Map<ConflictResolution, number>());
    const clusterSides = new Map<string, Map<number, string[]>>();
    full.forEach((ids, k) => {
      for (const id of ids) {
        const cl = clusterOf(id);
        const m = clusterSides.get(cl) ?? new Map<number, string[]>();
        m.set(k, [...(m.get(k) ?? []), id]);
        clusterSides.set(cl, m);
      }
    });
    const edited = new Map<string, string>(); // loser id → why
    for (const [, m] of clusterSides) {
      const best = (ids: readonly string[]): string =>
        [...ids].sort((x, y) => lambda(y) - lambda(x) || byScoreDesc(byId.get(x)!, byId.get(y)!))[0] as string;
      if (m.size === 1) {
        const [k, ids] = [...m.entries()][0] as [number, string[]];
        support[k]! += lambda(best(ids));
        sources[k]! += 1;
        byWhat[k]!.set('independent_sources', (byWhat[k]!.get('independent_sources') ?? 0) + lambda(best(ids)));
        continue;
      }
      // Versions of one text: the more trustworthy version speaks for the cluster, or nobody does.
      const versions = [...m.entries()].map(([k, ids]) => {
        const id = best(ids);
        return { k, id, v: { side: String(k), lambda: lambda(id), meta: metaOf(lookup, byId.get(id)!.docId) } };
      });
      versions.sort((x, y) => y.v.lambda - x.v.lambda);
      let champion = versions[0]!;
      let by: ConflictResolution | null = null;
      for (const other of versions.slice(1)) {
        const pref = preferVersion(champion.v, other.v, o, asksEarlier);
        if (!pref) {
          by = null; // comparable versions: nobody speaks for this cluster
          break;
        }
        if (pref.winner === other.v) champion = other;
        by = pref.by;
      }
      if (by === null) {
        // Comparable versions: the internally consistent one speaks when the others carry its traces.
        const consistent = consistentVersion(m);
        const found = consistent === null ? undefined : versions.find((x) => x.k === consistent);
        if (found) {
          champion = found;
          by = 'consistency';
        }
      }
      if (by === null) continue;
      support[champion.k]! += champion.v.lambda;
      sources[champion.k]! += 1;
      byWhat[champion.k]!.set(by, (byWhat[champion.k]!.get(by) ?? 0) + champion.v.lambda);
      for (const [k, ids] of m) {
        if (k === champion.k) continue;
        for (const id of ids) {
          edited.set(
            id,
            `an edited copy of ${champion.id} (${
              by === 'credibility'
                ? 'more credible source'
                : by === 'status'
                  ? 'current version'
                  : by === 'consistency'
                    ? `its text still mentions ${traceOf(id, champion.k) ?? 'the other value'} elsewhere`
                    : 'newer version'
            })`,
          );
        }
      }
    }
    // Partial corroboration, one vote per cluster, only from clusters that state no side.
    partial.forEach((ids, k) => {
      const seen = new Map<string, number>();
      for (const id of ids) {
        const cl = clusterOf(id);
        if (clusterSides.has(cl)) continue;
        seen.set(cl, Math.max(seen.get(cl) ?? 0, lambda(id)));
      }
      for (const w of seen.values()) {
        support[k]! += o.partialWeight * w;
        byWhat[k]!.set('independent_sources', (byWhat[k]!.get('independent_sources') ?? 0) + o.partialWeight * w);
      }
    });

    const order = sides.map((_, k) => k).sort((x, y) => support[y]! - support[x]! || full[y]!.length - full[x]!.length);
    const top = order[0] as number;
    const second = order[1];
    const s1 = support[top] as number;
    const s2 = second === undefined ? 0 : (support[second] as number);
    const resolved = s1 >= o.minSupport && s1 >= o.dominance * s2 && s1 > s2;
    const id = `C${++n}`;
    const onQuestion =
      kind === 'polarity'
        ? answerType === 'yesno' || answerType === 'any' || answerType === 'description'
        : kindAnswers(kind, answerType);
    const displayOf = (k: number): string => {
      const s = sides[k] as SideValue;
      return s.kind === 'polarity' ? (s.key === 'negated' ? 'negated' : 'affirmed') : s.display;
    };
    let resolvedBy: ConflictResolution | null = null;
    let reason: string;
    if (resolved) {
      const what = byWhat[top] as Map<ConflictResolution, number>;
      resolvedBy = ([...what.entries()].sort((x, y) => y[1] - x[1])[0]?.[0] ??
        'independent_sources') as ConflictResolution;
      reason = `"${displayOf(top)}" (support ${s1.toFixed(2)}, ${sources[top]} independent source(s)) over ${order
        .slice(1)
        .map((k) => `"${displayOf(k)}" (${(support[k] as number).toFixed(2)})`)
        .join(', ')}; resolved by ${resolvedBy.replace('_', ' ')}`;
      for (const k of order.slice(1)) {
        // The question's own premise ("the northern Himalayas" in a question about how many days)
        // is given, not disputed: a passage restating it does not lose for it.
        if (statesQuestionValue(sides[k] as SideValue)) continue;
        for (const cid of full[k] as string[]) {
          losers.set(cid, {
            conflict: id,
            reason: `states "${displayOf(k)}" where the evidence supports "${displayOf(top)}" (conflict ${id}${
              edited.has(cid) ? `; ${edited.get(cid)}` : `; ${resolvedBy.replace('_', ' ')}`
            })`,
          });
        }
      }
      const droppedHere = candidates.filter((c) => losers.get(c.id)?.conflict === id).length;
      needSides.set(id, [{ side: String(top), add: droppedHere, atLeast: 1 }]);
    } else {
      reason = `unresolved: ${order
        .map((k) => `"${displayOf(k)}" (support ${(support[k] as number).toFixed(2)}, ${full[k]!.length} passage(s))`)
        .join(' vs ')}; comparable sources, neither is asserted`;
      if (onQuestion) {
        needSides.set(
          id,
          order
            .filter((k) => full[k]!.length > 0)
            .slice(0, 2)
            .map((k) => ({ side: String(k), add: 0, atLeast: 1 })),
        );
      }
    }
    sideSupporters.set(id, new Map(sides.map((_, k) => [String(k), full[k] as string[]])));
    conflicts.push({
      id,
      kind,
      onQuestion,
      sides: order.map((k) => ({
        key: (sides[k] as SideValue).key,
        display: displayOf(k),
        candidateIds: full[k] as string[],
        corroboratingIds: partial[k] as string[],
        support: support[k] as number,
        sources: sources[k] as number,
        citationIds: [],
      })),
      status: resolved ? 'resolved' : 'unresolved',
      winner: resolved ? (sides[top] as SideValue).key : null,
      resolvedBy,
      reason,
      pairs,
    });
  }

  // 4. Keep, drop, reinstate.
  const keptIds = new Set(candidates.filter((c) => !losers.has(c.id)).map((c) => c.id));
  const reinstated: string[] = [];
  const reinstatedFor = new Map<string, string>();
  for (const [cid, needs] of needSides) {
    const supporters = sideSupporters.get(cid) as Map<string, string[]>;
    for (const need of needs) {
      const ids = (supporters.get(need.side) ?? []).filter((id) => !losers.has(id));
      const keptNow = ids.filter((id) => keptIds.has(id)).length;
      const want = Math.max(need.add, need.atLeast - keptNow);
      const spare = ids
        .filter((id) => !keptIds.has(id))
        .map((id) => byId.get(id)!)
        .sort(byScoreDesc);
      for (const c of spare.slice(0, Math.max(0, want))) {
        keptIds.add(c.id);
        reinstated.push(c.id);
        reinstatedFor.set(c.id, cid);
      }
    }
  }
  // Respect the cap: reinstated sides replace the weakest candidates that are in no conflict.
  const inConflict = new Set(conflicts.flatMap((c) => c.sides.flatMap((s) => s.candidateIds)));
  const capDropped = new Set<string>();
  if (keptIds.size > o.maxKeep) {
    const spare = candidates
      .filter((c) => keptIds.has(c.id) && !inConflict.has(c.id))
      .sort((a, b) => byScoreDesc(b, a));
    for (const c of spare) {
      if (keptIds.size <= o.maxKeep) break;
      keptIds.delete(c.id);
      capDropped.add(c.id);
    }
  }
  // The cap is hard. Still over it: trim conflict members, weakest first — first those whose side
  // keeps another member, then (only when the cap is smaller than the number of sides) any.
  if (keptIds.size > o.maxKeep) {
    const sideKey = new Map<string, string>();
    for (const c of conflicts)
      for (const s of c.sides)
        for (const id of s.candidateIds) if (!sideKey.has(id)) sideKey.set(id, `${c.id}\u0000${s.display}`);
    const keptPerSide = new Map<string, number>();
    for (const id of keptIds) {
      const key = sideKey.get(id);
      if (key !== undefined) keptPerSide.set(key, (keptPerSide.get(key) ?? 0) + 1);
    }
    const weakestFirst = candidates.filter((c) => keptIds.has(c.id)).sort((a, b) => byScoreDesc(b, a));
    for (const lastOfSideToo of [false, true]) {
      for (const c of weakestFirst) {
        if (keptIds.size <= o.maxKeep) break;
        if (!keptIds.has(c.id)) continue;
        const key = sideKey.get(c.id);
        const left = key === undefined ? 0 : (keptPerSide.get(key) ?? 0);
        if (!lastOfSideToo && left <= 1) continue;
        keptIds.delete(c.id);
        capDropped.add(c.id);
        if (key !== undefined) keptPerSide.set(key, left - 1);
      }
    }
  }

  const sideOfCandidate = new Map<string, { conflict: string; side: string }>();
  for (const c of conflicts) {
    for (const s of c.sides)
      for (const id of s.candidateIds)
        if (!sideOfCandidate.has(id)) sideOfCandidate.set(id, { conflict: c.id, side: s.display });
  }
  const kept: Candidate[] = [];
  const dropped: Candidate[] = [];
  const entryFor = (c: Candidate): Candidate => {
    const at = sideOfCandidate.get(c.id);
    const conflict = at ? conflicts.find((x) => x.id === at.conflict) : undefined;
    const detail = {
      check: 'conflict',
      conflict: at?.conflict ?? null,
      side: at?.side ?? null,
      status: conflict?.status ?? null,
    };
    const loser = losers.get(c.id);
    if (loser) return withEntry(c, { stage: VERIFY_STAGE, score: c.score, kept: false, reason: loser.reason, detail });
    if (capDropped.has(c.id)) {
      return withEntry(c, {
        stage: VERIFY_STAGE,
        score: c.score,
        kept: false,
        reason: 'made room for a side of a conflict (weakest candidate in no conflict)',
        detail,
      });
    }
    const re = reinstatedFor.get(c.id);
    if (re) {
      return withEntry(c, {
        stage: VERIFY_STAGE,
        score: c.score,
        kept: true,
        reason:
          conflict?.status === 'resolved'
            ? `reinstated: states "${at?.side ?? '?'}", the side that wins conflict ${re}, in place of a dropped passage`
            : `reinstated: states "${at?.side ?? '?'}", a side of conflict ${re} that no kept passage stated`,
        detail: { ...detail, reinstated: true },
      });
    }
    const reason =
      conflict && at
        ? conflict.status === 'resolved'
          ? `supports "${at.side}", which wins conflict ${conflict.id}`
          : `states "${at.side}", one side of unresolved conflict ${conflict.id}`
        : undefined;
    return withEntry(c, { stage: VERIFY_STAGE, score: c.score, kept: true, ...(reason ? { reason } : {}), detail });
  };
  for (const c of candidates) {
    const e = entryFor(c);
    if (keptIds.has(c.id)) kept.push(e);
    else dropped.push(e);
  }
  for (const id of reinstated) kept.push(entryFor(byId.get(id) as Candidate));
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
