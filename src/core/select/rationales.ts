/**
 * Rationales (METEORA): the aspects a question's evidence must cover, each paired with its best
 * candidates so selection can say which aspects the packed evidence covers and which it misses.
 *
 * With a generator model the rationales are generated (a `RationaleSource` supplies them).
 * Without one, `decomposeQuestion` takes the question apart with transparent rules:
 *   - comparison sides: "X vs Y", "compare X and/with/to Y", "difference between X and Y",
 *     "X compared to/with Y", "… more/less/-er … than …";
 *   - named entities: runs of capitalised words (with "of", "the", "for", "and", "de" inside) and
 *     acronyms or words with an inner capital (GDPR, mRNA, HbA1c);
 *   - numbers, dates and units: "5 mg", "24 hours", "12 March 2021", "2019", "1,000";
 *   - key phrases: runs of the remaining non-stopwords, split into balanced pieces of ≤ 3 words.
 *
 * Pairing is lexical on Porter stems (the `stemmer` package), so "policies" matches "policy",
 * plus an optional embedding similarity when the rationale and the chunk both have vectors.
 */
import type { Candidate } from '../types';
import { assertKnownOptions } from '../errors';
import { cachedStem } from '../text/analyze';
import type { AbortSignalLike, EvidenceLookup, Token } from './common';
import { checkInt, checkRange, cosine, headingLine, metaOf, tokenize } from './common';
import { NAME_CONNECTORS } from '../lexicon/names';
import { NOT_COMPARATIVES } from '../lexicon/comparisons';
import { QUESTION_STOPWORDS } from '../lexicon/stopwords';
import { UNIT_WORDS } from '../lexicon/numbers';
import { MONTH_PATTERN } from '../lexicon/periods';

export const RATIONALE_KINDS = ['comparison', 'entity', 'number', 'date', 'phrase', 'generated'] as const;
export type RationaleKind = (typeof RATIONALE_KINDS)[number];

/** One aspect the evidence must cover. */
export interface Rationale {
  /** Stable within one question: R1, R2, … in question order. */
  readonly id: string;
  /** The aspect as written in the question (or generated). */
  readonly text: string;
  readonly kind: RationaleKind;
  /** Normalised match terms (Porter stems; numbers without thousands separators). */
  readonly terms: readonly string[];
  /** For comparison sides: the group both sides share (e.g. "C1"), so a UI can show them as a pair. */
  readonly group?: string;
  /** Unit-normalised embedding of `text`, when the caller embedded it. */
  readonly vector?: Float32Array;
}

/** Supplies rationales for a question: a generator model, or the built-in decomposition. */
export interface RationaleSource {
  readonly id: string;
  rationales(question: string, signal?: AbortSignalLike): Promise<Rationale[]>;
}

const DATE_PATTERNS = [
  /\b\d{4}-\d{2}-\d{2}\b/g,
  new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:${MONTH_PATTERN})\\.?,?\\s+\\d{4}\\b`, 'gi'),
  new RegExp(`\\b(?:${MONTH_PATTERN})\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}\\b`, 'gi'),
  new RegExp(`\\b(?:${MONTH_PATTERN})\\.?\\s+\\d{4}\\b`, 'gi'),
  /\b(?:19|20)\d{2}\b/g,
];

// Pairing derives the terms of every candidate's text on every query (~20k words at 150
// candidates): stems come from the analyzer's memo, and a plain lower-case word (most of them)
// skips the Unicode checks below, which cost more than the memoised stem.
const PLAIN_WORD = /^[a-z]+$/;

/** Match term of one word: numbers lose thousands separators, possessives lose "'s", words are Porter-stemmed. */
export function termOf(word: string): string {
  if (PLAIN_WORD.test(word)) return cachedStem(word);
  const w = word.toLowerCase().replace(/['’]s$/u, '');
  if (/^\p{N}+(?:[.,]\p{N}+)*$/u.test(w)) return w.replace(/,(?=\p{N}{3}(?:\D|$))/gu, '');
  if (/^\p{L}+$/u.test(w)) return cachedStem(w);
  return w;
}

/** Match terms of a text: the terms of its non-stopword tokens, unique, in order. */
export function termsOf(text: string): string[] {
  const out: string[] = [];
  for (const t of tokenize(text)) {
    if (QUESTION_STOPWORDS.has(t.lower)) continue;
    const term = termOf(t.lower);
    if (!out.includes(term)) out.push(term);
  }
  return out;
}

/** True for a function or question-framing word that names no aspect. */
export function isStopword(word: string): boolean {
  return QUESTION_STOPWORDS.has(word.toLowerCase());
}

export interface DecomposeOptions {
  /** At most this many rationales (comparison sides first, then entities, numbers/dates, phrases). Evident default. */
  readonly maxRationales: number;
  /** Longest key phrase in words; longer runs are split into balanced pieces. Evident default. */
  readonly maxPhraseWords: number;
}

export const DEFAULT_DECOMPOSE_OPTIONS: DecomposeOptions = Object.freeze({ maxRationales: 8, maxPhraseWords: 3 });

interface Span {
  readonly start: number;
  readonly end: number;
  readonly kind: RationaleKind;
  readonly group?: string;
}

const ENTITY_TOKEN = (t: Token): boolean => /^\p{Lu}/u.test(t.raw) || /.\p{Lu}/u.test(t.raw);
const IS_ACRONYM_LIKE = (t: Token): boolean => /.\p{Lu}/u.test(t.raw) || /\p{N}/u.test(t.raw);
const IS_NUMBERISH = (t: Token): boolean => /^\p{N}/u.test(t.raw);

/** The text between two tokens is only spaces or hyphens (no comma, full stop, …). */
function adjacent(text: string, a: Token, b: Token): boolean {
  return /^[\s\-–]*$/u.test(text.slice(a.end, b.start));
}

function hyphenJoined(text: string, a: Token, b: Token): boolean {
  return text.slice(a.end, b.start) === '-';
}

function sentenceInitial(text: string, t: Token): boolean {
  return /(^|[.?!:;]\s*)[\s"'“‘(]*$/u.test(text.slice(0, t.start));
}

/** Leading run of content tokens of `part` (leading stopwords skipped), as a span of `text`. */
function leadingRun(tokens: readonly Token[], from: number, to: number): { start: number; end: number } | null {
  let i = 0;
  const inRange = tokens.filter((t) => t.start >= from && t.end <= to);
  while (i < inRange.length && QUESTION_STOPWORDS.has((inRange[i] as Token).lower)) i++;
  if (i >= inRange.length) return null;
  const first = inRange[i] as Token;
  let last = first;
  for (let j = i + 1; j < inRange.length; j++) {
    const t = inRange[j] as Token;
    if (QUESTION_STOPWORDS.has(t.lower)) break;
    last = t;
  }
  return { start: first.start, end: last.end };
}

/** Trailing run of content tokens before `to` (trailing stopwords skipped). */
function trailingRun(
  tokens: readonly Token[],
  from: number,
  to: number,
  text: string,
): { start: number; end: number } | null {
  const inRange = tokens.filter((t) => t.start >= from && t.end <= to);
  let i = inRange.length - 1;
  while (i >= 0 && QUESTION_STOPWORDS.has((inRange[i] as Token).lower)) i--;
  if (i < 0) return null;
  const last = inRange[i] as Token;
  let first = last;
  for (let j = i - 1; j >= 0; j--) {
    const t = inRange[j] as Token;
    if (QUESTION_STOPWORDS.has(t.lower) || !adjacent(text, t, first)) break;
    first = t;
  }
  return { start: first.start, end: last.end };
}

// Comparison forms. Each yields the character ranges where the left and right sides are searched.
const COMPARISONS: readonly { re: RegExp; left: 'before' | 'after1'; right: 'after2' }[] = [
  { re: /\bdifferences?\s+between\s+(.+?)\s+and\s+(.+)$/iu, left: 'after1', right: 'after2' },
  {
    re: /\b(?:compare|comparing|contrast)\s+(.+?)\s+(?:and|with|to|against|vs\.?|versus)\s+(.+)$/iu,
    left: 'after1',
    right: 'after2',
  },
];
const INFIX_COMPARISONS: readonly RegExp[] = [
  /\s+(?:vs\.?|versus)\s+/iu,
  /\s+(?:compares?\s+(?:to|with|against)|compared\s+(?:to|with)|relative\s+to|as\s+opposed\s+to)\s+/iu,
  /\s+(?:than)\s+/iu,
];

function comparisonSpans(text: string, tokens: readonly Token[]): Span[] {
  for (const { re } of COMPARISONS) {
    const m = re.exec(text);
    if (!m || m[1] === undefined || m[2] === undefined) continue;
    const leftStart = m.index + m[0].indexOf(m[1]);
    const leftEnd = leftStart + m[1].length;
    const rightStart = m.index + m[0].length - m[2].length;
    const left = leadingRun(tokens, leftStart, leftEnd);
    const right = leadingRun(tokens, rightStart, text.length);
    if (left && right) {
      return [
        { ...left, kind: 'comparison', group: 'C1' },
        { ...right, kind: 'comparison', group: 'C1' },
      ];
    }
  }
  for (const re of INFIX_COMPARISONS) {
    const m = re.exec(text);
    if (!m) continue;
    const cut = m.index;
    const after = m.index + m[0].length;
    let leftTo = cut;
    if (/than/iu.test(m[0])) {
      // "is X more effective than Y" / "is X safer than Y": the left side is the subject before the
      // comparative. "more than 5 days" and "rather than" are quantities and idioms, not comparisons.
      const before = tokens.filter((t) => t.end <= cut);
      const last = before[before.length - 1];
      if (!last) continue;
      const prev = before[before.length - 2];
      if (/^(more|less|fewer)$/iu.test(last.lower)) continue;
      if (prev && /^(more|less|fewer)$/iu.test(prev.lower)) leftTo = prev.start;
      else if (/^(?:\p{L}{2,}er|worse)$/iu.test(last.lower) && !NOT_COMPARATIVES.has(last.lower)) leftTo = last.start;
      else continue;
      const firstRight = tokens.find((t) => t.start >= after);
      if (!firstRight || IS_NUMBERISH(firstRight)) continue;
    }
    const left = trailingRun(tokens, 0, leftTo, text);
    const right = leadingRun(tokens, after, text.length);
    if (left && right) {
      return [
        { ...left, kind: 'comparison', group: 'C1' },
        { ...right, kind: 'comparison', group: 'C1' },
      ];
    }
  }
  return [];
}

function dateAndNumberSpans(text: string, tokens: readonly Token[]): Span[] {
  const spans: Span[] = [];
  const taken = (s: number, e: number): boolean => spans.some((x) => s < x.end && e > x.start);
  for (const re of DATE_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const s = m.index;
      const e = s + m[0].length;
      if (!taken(s, e)) spans.push({ start: s, end: e, kind: 'date' });
    }
  }
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (!IS_NUMBERISH(t) || taken(t.start, t.end)) continue;
    const before = tokens[i - 1];
    // "COVID-19", "H1N1-like": a number hyphen-joined to a word is part of a name, not a quantity.
    if (before && hyphenJoined(text, before, t) && !IS_NUMBERISH(before)) continue;
    const start = /[$€£¥]/u.test(text[t.start - 1] ?? '') ? t.start - 1 : t.start;
    let end = t.end;
    if (text[end] === '%') end += 1;
    const next = tokens[i + 1];
    // "5-year", "0-dimensional": a hyphen-joined word belongs to the quantity.
    if (next && hyphenJoined(text, t, next) && !IS_NUMBERISH(next)) end = next.end;
    else if (next && UNIT_WORDS.has(next.lower) && adjacent(text, t, next)) end = next.end;
    spans.push({ start, end, kind: 'number' });
  }
  return spans;
}

function entitySpans(text: string, tokens: readonly Token[]): Span[] {
  const spans: Span[] = [];
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i] as Token;
    if (!ENTITY_TOKEN(t) || (QUESTION_STOPWORDS.has(t.lower) && !IS_ACRONYM_LIKE(t)) || IS_NUMBERISH(t)) {
      i++;
      continue;
    }
    let j = i;
    for (;;) {
      const a = tokens[j] as Token;
      const b = tokens[j + 1];
      if (
        b &&
        ((adjacent(text, a, b) && ENTITY_TOKEN(b) && !QUESTION_STOPWORDS.has(b.lower)) || hyphenJoined(text, a, b))
      ) {
        j++;
        continue;
      }
      const c = tokens[j + 2];
      if (
        b &&
        c &&
        NAME_CONNECTORS.has(b.raw) &&
        adjacent(text, a, b) &&
        adjacent(text, b, c) &&
        ENTITY_TOKEN(c) &&
        !QUESTION_STOPWORDS.has(c.lower)
      ) {
        j += 2;
        continue;
      }
      break;
    }
    const first = t;
    const last = tokens[j] as Token;
    // One capitalised word at the start of a sentence is just capitalisation, unless it looks like an acronym.
    const single = i === j;
    if (!(single && sentenceInitial(text, first) && !IS_ACRONYM_LIKE(first))) {
      spans.push({ start: first.start, end: last.end, kind: 'entity' });
    }
    i = j + 1;
  }
  return spans;
}

function phraseSpans(tokens: readonly Token[], text: string, blocked: readonly Span[], maxWords: number): Span[] {
  const isBlocked = (t: Token): boolean => blocked.some((s) => t.start < s.end && t.end > s.start);
  const spans: Span[] = [];
  let run: Token[] = [];
  const flush = (): void => {
    if (run.length > 0) {
      const parts = Math.ceil(run.length / maxWords);
      const size = run.length / parts;
      for (let p = 0; p < parts; p++) {
        const piece = run.slice(Math.round(p * size), Math.round((p + 1) * size));
        if (piece.length > 0)
          spans.push({ start: (piece[0] as Token).start, end: (piece[piece.length - 1] as Token).end, kind: 'phrase' });
      }
    }
    run = [];
  };
  for (const t of tokens) {
    const prev = run[run.length - 1];
    if (QUESTION_STOPWORDS.has(t.lower) || isBlocked(t) || IS_NUMBERISH(t)) {
      flush();
      continue;
    }
    if (prev && !adjacent(text, prev, t)) flush();
    run.push(t);
  }
  flush();
  return spans;
}

const KIND_PRIORITY: Record<RationaleKind, number> = {
  comparison: 0,
  generated: 0,
  entity: 1,
  date: 2,
  number: 2,
  phrase: 3,
};

/**
 * Rationales of a question without a generator. Deterministic; ids R1… follow question order.
 * Rationales with the same term set are merged (the more specific kind wins).
 */
export function decomposeQuestion(question: string, options: Partial<DecomposeOptions> = {}): Rationale[] {
  assertKnownOptions(options, DEFAULT_DECOMPOSE_OPTIONS, 'rationales');
  const o = { ...DEFAULT_DECOMPOSE_OPTIONS, ...options };
  checkInt('rationales', 'maxRationales', o.maxRationales, 1, 100);
  checkInt('rationales', 'maxPhraseWords', o.maxPhraseWords, 1, 20);

  const text = question.normalize('NFKC');
  const tokens = tokenize(text);
  const sides = comparisonSpans(text, tokens);
  const numbers = dateAndNumberSpans(text, tokens).filter(
    (s) => !sides.some((c) => s.start >= c.start && s.end <= c.end),
  );
  const entities = entitySpans(text, tokens).filter(
    (s) => ![...sides, ...numbers].some((c) => s.start < c.end && s.end > c.start),
  );
  const phrases = phraseSpans(tokens, text, [...sides, ...numbers, ...entities], o.maxPhraseWords);

  const candidates = [...sides, ...entities, ...numbers, ...phrases]
    .map((s) => ({ ...s, text: text.slice(s.start, s.end).trim(), terms: termsOf(text.slice(s.start, s.end)) }))
    .filter((s) => s.terms.length > 0)
    .sort((a, b) => KIND_PRIORITY[a.kind] - KIND_PRIORITY[b.kind] || a.start - b.start);

  const chosen: typeof candidates = [];
  const seen = new Set<string>();
  for (const c of candidates) {
    const key = [...c.terms].sort().join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    chosen.push(c);
    if (chosen.length >= o.maxRationales) break;
  }
  // Keep both comparison sides or neither: one side alone is not a comparison.
  const sideCount = chosen.filter((c) => c.kind === 'comparison').length;
  const final =
    sideCount === 1
      ? chosen.map((c) => (c.kind === 'comparison' ? { ...c, kind: 'phrase' as const, group: undefined } : c))
      : chosen;

  return final
    .sort((a, b) => a.start - b.start)
    .map((c, i) => {
      const r: Rationale = { id: `R${i + 1}`, text: c.text, kind: c.kind, terms: c.terms };
      return c.group ? { ...r, group: c.group } : r;
    });
}

/**
 * A rationale from free text (e.g. one line a generator wrote), with its match terms filled in, so a
 * generator-backed `RationaleSource` only has to produce strings.
 */
export function makeRationale(
  id: string,
  text: string,
  kind: RationaleKind = 'generated',
  vector?: Float32Array,
): Rationale {
  const r: Rationale = { id, text, kind, terms: termsOf(text) };
  return vector ? { ...r, vector } : r;
}

/** The built-in, model-free rationale source. */
export const heuristicRationales: RationaleSource = Object.freeze({
  id: 'heuristic-decomposition',
  rationales: async (question: string) => decomposeQuestion(question),
});

// ---------------------------------------------------------------------------------------------
// Pairing
// ---------------------------------------------------------------------------------------------

export interface PairingOptions {
  /** A candidate covers a rationale when its match is ≥ this: all terms of 1–2-term aspects, 2 of 3, 3 of 4–5. Evident default. */
  readonly coverThreshold: number;
  /** Cosines at or below this count as no semantic match; 1 as a full match, linearly between. Evident default for sentence encoders. */
  readonly embeddingFloor: number;
  /** Best candidates kept per rationale in the pairing (METEORA pairs each rationale with its best evidence). */
  readonly perRationale: number;
}

export const DEFAULT_PAIRING_OPTIONS: PairingOptions = Object.freeze({
  coverThreshold: 0.6,
  embeddingFloor: 0.5,
  perRationale: 3,
});

export interface RationalePairing {
  readonly rationales: readonly Rationale[];
  /** Match strength in [0, 1] of every (rationale id, candidate id) with a non-zero match. */
  readonly matches: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** Per rationale: the candidates that cover it, best first, at most `perRationale`. */
  readonly best: ReadonlyMap<string, readonly string[]>;
  /** Per candidate: the rationale ids it covers. */
  readonly covers: ReadonlyMap<string, readonly string[]>;
}

/** The terms a candidate offers for matching: its chunk text plus its document title and heading trail. */
export function candidateTerms(lookup: EvidenceLookup, c: Candidate): Set<string> {
  const chunk = lookup.chunks.get(c.id);
  const meta = metaOf(lookup, c.docId);
  const text = `${meta.title}\n${headingLine(chunk?.headings ?? [])}\n${chunk?.text ?? ''}`;
  return new Set(tokenize(text).map((t) => termOf(t.lower)));
}

/** Pairs each rationale with the candidates that cover it (METEORA pairing), lexical on stems plus optional embeddings. */
export function pairRationales(
  rationales: readonly Rationale[],
  candidates: readonly Candidate[],
  lookup: EvidenceLookup,
  options: Partial<PairingOptions> = {},
): RationalePairing {
  assertKnownOptions(options, DEFAULT_PAIRING_OPTIONS, 'pairing');
  const o = { ...DEFAULT_PAIRING_OPTIONS, ...options };
  checkRange('pairing', 'coverThreshold', o.coverThreshold, 0, 1);
  checkRange('pairing', 'embeddingFloor', o.embeddingFloor, -1, 0.999);
  checkInt('pairing', 'perRationale', o.perRationale, 1, 1000);

  const termSets = new Map<string, Set<string>>();
  for (const c of candidates) if (!termSets.has(c.id)) termSets.set(c.id, candidateTerms(lookup, c));
  const order = new Map(candidates.map((c, i) => [c.id, i]));

  const matches = new Map<string, Map<string, number>>();
  const best = new Map<string, string[]>();
  const covers = new Map<string, string[]>();
  for (const r of rationales) {
    const m = new Map<string, number>();
    for (const [id, terms] of termSets) {
      let lexical = 0;
      if (r.terms.length > 0) {
        let hit = 0;
        for (const t of r.terms) if (terms.has(t)) hit++;
        lexical = hit / r.terms.length;
      }
      let semantic = 0;
      const v = r.vector && lookup.vectorOf ? lookup.vectorOf(id) : undefined;
      if (r.vector && v) semantic = Math.max(0, (cosine(r.vector, v) - o.embeddingFloor) / (1 - o.embeddingFloor));
      const score = Math.min(1, Math.max(lexical, semantic));
      if (score > 0) m.set(id, score);
    }
    matches.set(r.id, m);
    const covering = [...m.entries()]
      .filter(([, s]) => s >= o.coverThreshold)
      .sort((a, b) => b[1] - a[1] || (order.get(a[0]) as number) - (order.get(b[0]) as number))
      .map(([id]) => id);
    best.set(r.id, covering.slice(0, o.perRationale));
    for (const id of covering) covers.set(id, [...(covers.get(id) ?? []), r.id]);
  }
  return { rationales, matches, best, covers };
}
