/**
 * Conflicts, steps 1 and 2 (conflict.ts runs them): sentences of different documents aligned with
 * their key values masked, the word diff of each aligned pair widened to whole values (a
 * *disagreement*), and the disagreements that share a value merged into groups of sides — the
 * conflicts to resolve. The rules are in conflict.ts's file comment.
 */
import type { Candidate } from '../types';
import type { EvidenceLookup } from '../util/stage';
import { isStopword } from '../select/rationales';
import type { AnalysedText, PassageTable } from './common';
import { analyseText, keyJaccard, sentenceUnits } from './common';
import type { ConflictKind, ConflictOptions } from './conflict';
import { diffKeys } from './diff';
import type { KeyValue, ValueKind } from './values';
import { compatibleKeys, entityKey, foldText, hasNegation } from './values';

export interface SentenceA extends AnalysedText {
  /** Token index ranges of the values. */
  readonly valueTokens: readonly { readonly start: number; readonly end: number; readonly v: KeyValue }[];
}

export interface SideValue {
  readonly kind: ConflictKind;
  readonly key: string;
  readonly display: string;
  /** For multi-value spans: the folded span text (matched as a word sequence). */
  readonly phrase: string | null;
}

export interface Disagreement {
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

export function sentencesOf(text: string): SentenceA[] {
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

export function sidesCompatible(x: SideValue, y: SideValue): boolean {
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
// The passages one call reads
// ---------------------------------------------------------------------------------------------

/** The candidates, then the context passages not among them; each text analysed once, when first needed. */
export interface Passages {
  /** Candidates first, then context (each id once). */
  readonly all: readonly Candidate[];
  /** Ids of the candidates (not context). */
  readonly own: ReadonlySet<string>;
  readonly byId: ReadonlyMap<string, Candidate>;
  readonly table: PassageTable;
  text(id: string): string;
  whole(id: string): AnalysedText;
  folded(id: string): string;
  sentences(id: string): readonly SentenceA[];
}

/** Caches a function of a passage id. */
function perId<T>(f: (id: string) => T): (id: string) => T {
  const cache = new Map<string, T>();
  return (id) => {
    if (cache.has(id)) return cache.get(id) as T;
    const v = f(id);
    cache.set(id, v);
    return v;
  };
}

export function passagesOf(
  candidates: readonly Candidate[],
  context: readonly Candidate[],
  lookup: EvidenceLookup,
  table: PassageTable,
): Passages {
  const own = new Set(candidates.map((c) => c.id));
  const seen = new Set<string>();
  const rest = context.filter((c) => {
    if (own.has(c.id) || seen.has(c.id)) return false;
    seen.add(c.id);
    return true;
  });
  const all = [...candidates, ...rest];
  const text = (id: string): string => lookup.chunks.get(id)?.text ?? '';
  return {
    all,
    own,
    byId: new Map(all.map((c) => [c.id, c])),
    table,
    text,
    whole: (id) => table.analysed(id),
    folded: perId((id) => foldText(text(id))),
    sentences: perId((id) => sentencesOf(text(id))),
  };
}

// ---------------------------------------------------------------------------------------------
// Step 1: disagreements; step 2: groups of sides
// ---------------------------------------------------------------------------------------------

/** Disagreements between aligned sentences of different documents, at least one of them a candidate. */
export function findDisagreements(p: Passages, o: ConflictOptions): Disagreement[] {
  p.table.preparePairs(p.all.map((c) => c.id));
  const out: Disagreement[] = [];
  for (let i = 0; i < p.all.length; i++) {
    const ci = p.all[i] as Candidate;
    for (let j = i + 1; j < p.all.length; j++) {
      const cj = p.all[j] as Candidate;
      if (ci.docId === cj.docId) continue;
      if (!p.own.has(ci.id) && !p.own.has(cj.id)) continue;
      if (p.table.maskedJaccard(ci.id, cj.id) < 0.15) continue;
      out.push(...disagreementsOf(ci.id, cj.id, p.sentences(ci.id), p.sentences(cj.id), o));
    }
  }
  return out;
}

/** One conflict to resolve: its sides, each a list of spellings that can all be true, and the pairs that revealed it. */
export interface SideGroup {
  readonly variants: readonly (readonly SideValue[])[];
  readonly pairs: readonly (readonly [string, string])[];
}

/**
 * Disagreements that share a side value are one conflict; spellings that can both be true ("April
 * 29" and "April 29, 2015"; "Simona Halep" and "Romania's Simona Halep") are variants of one side,
 * and conflicts that share a side are one conflict. Groups with fewer than two sides are none.
 */
export function groupSides(disagreements: readonly Disagreement[]): SideGroup[] {
  const sideKey = (s: SideValue): string => `${s.kind}\u0000${s.key}`;
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    const q = parent.get(x) ?? x;
    if (q === x) return x;
    const r = find(q);
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
  const allSides = [...sidesByKey.entries()];
  for (let i = 0; i < allSides.length; i++) {
    for (let j = i + 1; j < allSides.length; j++) {
      const [ki, si] = allSides[i] as [string, SideValue];
      const [kj, sj] = allSides[j] as [string, SideValue];
      if (!sidesCompatible(si, sj)) continue;
      const ri = find(ki);
      const rj = find(kj);
      if (ri !== rj) {
        parent.set(rj, ri);
        pairsByKey.set(ri, [...(pairsByKey.get(ri) ?? []), ...(pairsByKey.get(rj) ?? [])]);
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
  return [...groups]
    .filter(([, variants]) => variants.length >= 2)
    .map(([root, variants]) => ({ variants, pairs: pairsByKey.get(root) ?? [] }));
}

/** The spelling a side is shown with: the core name of an entity, the most specific date or number. */
export function representative(vs: readonly SideValue[]): SideValue {
  return [...vs].sort((a, b) =>
    a.kind === 'entity' || a.phrase !== null ? a.key.length - b.key.length : b.key.length - a.key.length,
  )[0] as SideValue;
}
