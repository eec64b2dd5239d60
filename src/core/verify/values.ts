/**
 * Key values of a text — dates, numbers, named entities — with offsets and a canonical key, so two
 * passages can be compared on what they assert rather than on how they spell it ("Jul. 21, 2017"
 * and "21 July 2017" share the key 2017-07-21; "$10.4 billion" and "$10,400 million" share
 * 10400000000$). Used by conflict detection (which spans differ), support checks (does a passage
 * state this value) and the extractive answerer (the short answer of a who/when/how-many question).
 *
 * Rules, all transparent:
 * - dates: ISO dates; "21 July 2017", "July 21, 2017", "Jul. 21 2017"; "July 2017"; "July 21";
 *   a bare year 1900–2099. Keys are YYYY-MM-DD, YYYY-MM, --MM-DD or YYYY.
 * - numbers: digits with separators and decimals, an optional currency sign before, an optional
 *   scale word (thousand, million, billion, trillion, k, m, bn) and unit after (%, EUR, days, …);
 *   number words (two–nineteen, the tens, hundred) and runs of them read as one number ("forty-two",
 *   "three hundred thousand euros"). Key: the value times its scale, plus the currency or unit.
 * - entities: runs of capitalised words (with "of", "de", "&", initials "B." and inner hyphens),
 *   skipping a single capitalised function word at a sentence start ("The", "In"). Key: diacritics
 *   stripped, lower case, leading "the" and possessive "'s" removed.
 */
import { AUXILIARIES } from '../lexicon/clauses';
import { NEGATIONS } from '../lexicon/negation';
import { FIGURE_HEADS } from '../lexicon/answer-kinds';
import { askedPhrase, mainClause } from '../text/clauses';
import type { Token } from '../util/stage';
import { tokenize } from '../util/stage';
import { SCALE_WORDS } from '../lexicon/numbers';
import { NAME_LINKS, SENTENCE_START_CAPS } from '../lexicon/names';
import { WEEKDAYS } from '../lexicon/periods';
import {
  DATE_OPENING,
  DATE_PHRASE,
  DEFINITION,
  DESCRIPTION,
  ENTITY_OPENING,
  HOW_MEASURE_OPENING,
} from '../lexicon/questions';
import { MONTH_PATTERN } from '../lexicon/periods';

export const VALUE_KINDS = ['date', 'number', 'entity'] as const;
export type ValueKind = (typeof VALUE_KINDS)[number];

/** One key value found in a text. Offsets are UTF-16 code units into that text. */
export interface KeyValue {
  readonly kind: ValueKind;
  readonly raw: string;
  readonly start: number;
  readonly end: number;
  /** Canonical form: equal keys assert the same value. */
  readonly key: string;
}

const MONTHS: Readonly<Record<string, number>> = Object.freeze({
  january: 1,
  jan: 1,
  february: 2,
  feb: 2,
  march: 3,
  mar: 3,
  april: 4,
  apr: 4,
  may: 5,
  june: 6,
  jun: 6,
  july: 7,
  jul: 7,
  august: 8,
  aug: 8,
  september: 9,
  sep: 9,
  sept: 9,
  october: 10,
  oct: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
});
const ORD = '(?:st|nd|rd|th)?';

const pad = (n: number): string => String(n).padStart(2, '0');
const monthOf = (s: string): number => MONTHS[s.toLowerCase().replace(/\.$/u, '')] ?? 0;

interface DatePattern {
  readonly re: RegExp;
  /** The pattern has a month name. */
  readonly month?: true;
  readonly key: (m: RegExpMatchArray) => string | null;
}

const validDay = (d: number): boolean => d >= 1 && d <= 31;

// Ordered from the most to the least specific; a later pattern never overlaps an earlier match.
const DATE_PATTERNS: readonly DatePattern[] = [
  {
    re: /\b(\d{4})-(\d{2})-(\d{2})\b/gu,
    key: (m) => `${m[1]}-${m[2]}-${m[3]}`,
  },
  {
    month: true,
    re: new RegExp(`\\b(\\d{1,2})${ORD}\\s+(${MONTH_PATTERN})\\.?,?\\s+(\\d{4})\\b`, 'giu'),
    key: (m) => (validDay(Number(m[1])) ? `${m[3]}-${pad(monthOf(m[2]!))}-${pad(Number(m[1]))}` : null),
  },
  {
    month: true,
    re: new RegExp(`\\b(${MONTH_PATTERN})\\.?\\s+(\\d{1,2})${ORD},?\\s+(\\d{4})\\b`, 'giu'),
    key: (m) => (validDay(Number(m[2])) ? `${m[3]}-${pad(monthOf(m[1]!))}-${pad(Number(m[2]))}` : null),
  },
  {
    month: true,
    re: new RegExp(`\\b(${MONTH_PATTERN})\\.?,?\\s+(\\d{4})\\b`, 'giu'),
    key: (m) => `${m[2]}-${pad(monthOf(m[1]!))}`,
  },
  {
    month: true,
    re: new RegExp(`\\b(${MONTH_PATTERN})\\.?\\s+(\\d{1,2})${ORD}\\b(?![.,]\\d)`, 'giu'),
    key: (m) => (validDay(Number(m[2])) ? `--${pad(monthOf(m[1]!))}-${pad(Number(m[2]))}` : null),
  },
  {
    month: true,
    re: new RegExp(`\\b(\\d{1,2})${ORD}\\s+(${MONTH_PATTERN})\\b\\.?`, 'giu'),
    key: (m) => (validDay(Number(m[1])) ? `--${pad(monthOf(m[2]!))}-${pad(Number(m[1]))}` : null),
  },
  {
    // A bare year: not part of a longer number or a decimal.
    re: /(?<![\d.,$€£])\b(19\d{2}|20\d{2})\b(?![.,]?\d)/gu,
    key: (m) => m[1]!,
  },
];

// "May" and "March" are also words; as months they need a number next to them, which the patterns require.

const SCALES: Readonly<Record<string, number>> = Object.freeze({
  thousand: 1e3,
  k: 1e3,
  million: 1e6,
  m: 1e6,
  mn: 1e6,
  billion: 1e9,
  bn: 1e9,
  b: 1e9,
  trillion: 1e12,
  tn: 1e12,
});
const CURRENCY_SIGNS: Readonly<Record<string, string>> = Object.freeze({
  $: 'usd',
  '€': 'eur',
  '£': 'gbp',
  '¥': 'jpy',
});
const UNIT_WORDS: Readonly<Record<string, string>> = Object.freeze({
  eur: 'eur',
  euro: 'eur',
  euros: 'eur',
  usd: 'usd',
  dollar: 'usd',
  dollars: 'usd',
  gbp: 'gbp',
  pound: 'gbp',
  pounds: 'gbp',
  percent: '%',
  pct: '%',
  day: 'day',
  days: 'day',
  week: 'week',
  weeks: 'week',
  month: 'month',
  months: 'month',
  year: 'year',
  years: 'year',
  hour: 'hour',
  hours: 'hour',
  minute: 'minute',
  minutes: 'minute',
  mg: 'mg',
  kg: 'kg',
  km: 'km',
  ml: 'ml',
  medals: 'medal',
  people: 'people',
  employees: 'people',
});
const NUMBER_WORDS: Readonly<Record<string, number>> = Object.freeze({
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
});

/**
 * Words that continue a number word into one number ("three hundred thousand", "forty-two", "one
 * hundred and five", "two million"): "one" only inside a phrase (alone it is mostly a pronoun), the
 * scale words, and "and" between a hundred and what follows.
 */
const NUMBER_WORD_PARTS: Readonly<Record<string, number>> = Object.freeze({
  ...NUMBER_WORDS,
  one: 1,
  thousand: 1e3,
  million: 1e6,
  billion: 1e9,
  trillion: 1e12,
});

/** The value of one group of number words below a thousand ("three", "forty two", "one hundred five"), or null. */
function groupValue(words: readonly string[]): number | null {
  let i = 0;
  let value = 0;
  const at = (k: number): number | undefined => (words[k] === undefined ? undefined : NUMBER_WORD_PARTS[words[k]]);
  if (at(i) === 100) {
    value = 100;
    i++;
  } else if ((at(i) ?? 100) < 100 && at(i + 1) === 100) {
    value = (at(i) as number) * 100;
    i += 2;
  }
  const v = at(i);
  if (v !== undefined && v >= 20 && v < 100) {
    value += v;
    i++;
    const u = at(i);
    if (u !== undefined && u < 10) {
      value += u;
      i++;
    }
  } else if (v !== undefined && v < 20) {
    value += v;
    i++;
  }
  return i === words.length && i > 0 ? value : null;
}

/**
 * The value of a run of number words, read as English writes them: groups below a thousand
 * ("three hundred", "forty two"), each closed by a scale word larger than the next ("two million
 * three hundred thousand"). Null when the run is not one number ("two three", "ten twenty", a bare
 * "thousand").
 */
function numberWordsValue(words: readonly string[]): number | null {
  let total = 0;
  let group: string[] = [];
  let lastScale = Infinity;
  for (const w of words) {
    const v = NUMBER_WORD_PARTS[w];
    if (v === undefined) return null;
    if (v < 1e3) {
      group.push(w);
      continue;
    }
    const g = groupValue(group);
    if (g === null || v >= lastScale) return null;
    total += g * v;
    lastScale = v;
    group = [];
  }
  if (group.length === 0) return total > 0 ? total : null;
  const g = groupValue(group);
  return g === null ? null : total + g;
}

// A number with optional currency before and scale/unit after.
const NUMBER_RE = new RegExp(
  '(?:([$€£¥])\\s?)?(\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?)' +
    `(?:\\s?(%)|\\s?(${SCALE_WORDS.join('|')})\\b)?` +
    '(?:\\s?(%)|\\s+([a-z]+)\\b)?',
  'giu',
);
const PART_RE = `(?:${Object.keys(NUMBER_WORD_PARTS).join('|')})`;
/** A run of number words (joined by spaces, hyphens or "and"), then the word after it (its unit?). */
const NUMBER_WORD_RE = new RegExp(
  `\\b(${PART_RE}(?:(?:\\s+and\\s+|[\\s-]+)${PART_RE})*)\\b(?:\\s+([a-z]+)\\b)?`,
  'giu',
);

/** Formats a number without float noise: 10.4e9 → "10400000000". */
function numKey(x: number): string {
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(12)));
}

const isCapitalised = (t: Token): boolean => {
  // ASCII first letters decide at once (the common case); others go through the Unicode classes.
  const c = t.raw.charCodeAt(0);
  if (c >= 0x61 && c <= 0x7a) return false;
  if (c >= 0x41 && c <= 0x5a) return true;
  return /^\p{Lu}/u.test(t.raw) || /^\p{N}*\p{Lu}/u.test(t.raw);
};

/** Lower case, diacritics stripped, punctuation to spaces, whitespace collapsed. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’]s\b/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Key of an entity surface form: folded, leading "the" dropped. */
export function entityKey(text: string): string {
  return foldText(text).replace(/^the /u, '');
}

function sentenceInitial(text: string, start: number): boolean {
  return /(^|[.?!:;•·|]\s*|\n\s*|\.\.\.\s*|…\s*)["'“‘([]*$/u.test(text.slice(Math.max(0, start - 6), start));
}

/**
 * A text as case-insensitive patterns read it, for gates run without the (slow) `i` flag: lower
 * case, with the long s as "s". Under `iu` an ASCII letter of a pattern matches that letter in
 * either case, U+212A KELVIN SIGN (for k) and U+017F LONG S (for s), and nothing else;
 * `toLowerCase` turns the first three into the lowercase letter. So the letters of any match
 * appear lower-cased here, side by side, and a word boundary around them stays one (the only
 * character lower-cased into an ASCII letter from a non-word one, U+0130, becomes "i" plus a
 * combining dot, which is not a word character).
 */
export function caseFolded(text: string): string {
  return text.toLowerCase().replace(/\u017f/gu, 's');
}

// Gates, run on `caseFolded` text (see there): every date pattern has a digit; every one with a
// month name has it next to a number (before: "21 July", after: "July 21", "July 2017"); a number
// word is a whole word. Texts without them skip those patterns.
const ANY_DIGIT = /\d/u;
const MONTH_BY_NUMBER = new RegExp(`\\b(?:${MONTH_PATTERN})\\.?,?\\s+\\d|\\d${ORD}\\s+(?:${MONTH_PATTERN})\\b`, 'u');
// A run of number words states a number only with a word of NUMBER_WORDS in it, or as "one" before
// a scale ("one million"); "one" and "thousands" alone do not open the pattern.
const ANY_NUMBER_WORD = new RegExp(
  `\\b(?:${Object.keys(NUMBER_WORDS).join('|')})\\b|\\bone(?:\\s+and\\s+|[\\s-]+)(?:thousand|million|billion|trillion)\\b`,
  'u',
);

function datesIn(text: string, folded: string): KeyValue[] {
  const out: KeyValue[] = [];
  if (!ANY_DIGIT.test(text)) return out;
  const months = MONTH_BY_NUMBER.test(folded);
  for (const p of DATE_PATTERNS) {
    if (p.month && !months) continue;
    for (const m of text.matchAll(p.re)) {
      const start = m.index;
      const end = start + m[0].length;
      if (out.some((v) => start < v.end && end > v.start)) continue;
      const key = p.key(m);
      if (key === null || key.includes('-00')) continue;
      out.push({ kind: 'date', raw: m[0], start, end, key });
    }
  }
  return out;
}

/**
 * Section and list numbers at the start of a line: after Markdown's heading marks ("## 2.",
 * "### 2.1 Core hours") or followed by "." or ")" ("2. Daily allowances", "3) Submit"). They
 * number the text; they state nothing ("2" is not a value that "two days" could agree with).
 */
const MARKER_RE = /^[ \t]*(?:#{1,6}[ \t]+\d+(?:\.\d+)*[.)]?|(?:[-*+][ \t]+)?\d+(?:\.\d+)*[.)])(?=[ \t])/gmu;

/** Start offsets of the section and list numbers of a text (see `MARKER_RE`). */
function markerStarts(text: string): Set<number> {
  const out = new Set<number>();
  if (!/\d[.)]?[ \t]/u.test(text)) return out;
  for (const m of text.matchAll(MARKER_RE)) out.add(m.index + m[0].search(/\d/u));
  return out;
}

function numbersIn(text: string, folded: string, taken: readonly KeyValue[]): KeyValue[] {
  const out: KeyValue[] = [];
  const overlaps = (s: number, e: number): boolean => [...taken, ...out].some((v) => s < v.end && e > v.start);
  const markers = markerStarts(text);
  for (const m of text.matchAll(NUMBER_RE)) {
    const start = m.index;
    if (markers.has(start)) continue;
    let end = start + m[0].length;
    const [, sign, digits, pct1, scaleWord, pct2, unitWord] = m;
    if (digits === undefined) continue;
    // Part of a word or identifier ("COVID-19", "H1N1", "iPhone 11" keeps "11" but not "A1c").
    const before = text[start - 1] ?? '';
    if (!sign && /[\p{L}\d_-]/u.test(before)) continue;
    let value = Number(digits.replace(/,/gu, ''));
    if (!Number.isFinite(value)) continue;
    const scale = scaleWord ? SCALES[scaleWord.toLowerCase()] : undefined;
    // A single-letter scale is only a scale right after the digits or a currency amount ("$5m", "5 k" is not).
    if (scale !== undefined) value *= scale;
    let unit = sign ? (CURRENCY_SIGNS[sign] ?? '') : '';
    if (pct1 || pct2) unit = '%';
    const uw = unitWord?.toLowerCase();
    if (uw && UNIT_WORDS[uw] !== undefined && !unit) unit = UNIT_WORDS[uw] as string;
    else if (uw && UNIT_WORDS[uw] === undefined) {
      // The word after is not a unit: the match ends before it.
      end = start + m[0].length - m[0].match(/\s+[a-z]+$/iu)![0].length;
    }
    while (end > start && /\s/u.test(text[end - 1] ?? '')) end--;
    if (overlaps(start, end)) continue;
    out.push({ kind: 'number', raw: text.slice(start, end), start, end, key: `${numKey(value)}${unit}` });
  }
  for (const m of ANY_NUMBER_WORD.test(folded) ? text.matchAll(NUMBER_WORD_RE) : []) {
    for (const v of numberWordValues(text, m)) if (!overlaps(v.start, v.end)) out.push(v);
  }
  return out;
}

/**
 * The numbers of one run of number words (see `NUMBER_WORD_RE`): the whole run when it reads as one
 * number ("three hundred thousand euros" → 300000eur), else each word that is a number by itself
 * ("two or three" is matched as two runs already; "ten twenty" gives 10 and 20). "one" alone and a
 * bare scale word ("thousands") are no number.
 */
function numberWordValues(text: string, m: RegExpMatchArray): KeyValue[] {
  const start = m.index as number;
  const run = m[1] as string;
  const parts = [...run.matchAll(/\p{L}+/gu)].filter((p) => p[0].toLowerCase() !== 'and');
  const words = parts.map((p) => p[0].toLowerCase());
  const value = numberWordsValue(words);
  const uw = m[2]?.toLowerCase();
  const unit = uw !== undefined ? UNIT_WORDS[uw] : undefined;
  if (value !== null && (words.length > 1 || NUMBER_WORDS[words[0] as string] !== undefined)) {
    const end = start + (unit !== undefined ? m[0].length : run.length);
    return [{ kind: 'number', raw: text.slice(start, end), start, end, key: `${numKey(value)}${unit ?? ''}` }];
  }
  const out: KeyValue[] = [];
  parts.forEach((p, i) => {
    const v = NUMBER_WORDS[p[0].toLowerCase()];
    if (v === undefined) return;
    const s = start + (p.index as number);
    const last = i === parts.length - 1 && unit !== undefined;
    const end = last ? start + m[0].length : s + p[0].length;
    out.push({ kind: 'number', raw: text.slice(s, end), start: s, end, key: `${v}${last ? unit : ''}` });
  });
  return out;
}

function entitiesIn(text: string, taken: readonly KeyValue[], tokens: readonly Token[]): KeyValue[] {
  const out: KeyValue[] = [];
  const isTaken = (t: Token): boolean => taken.some((v) => t.start < v.end && t.end > v.start);
  const joinable = (a: Token, b: Token): boolean => {
    const gap = text.slice(a.end, b.start);
    // Same name: a space or a hyphen; a dot only after an initial ("Niels B. Christiansen", "U.S. Open").
    if (/^(?:\s|-)$/u.test(gap) || gap === '') return true;
    return /^\.\s?$/u.test(gap) && /^\p{Lu}$/u.test(a.raw);
  };
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i] as Token;
    if (!isCapitalised(t) || isTaken(t) || /^\p{N}+$/u.test(t.raw) || MONTHS[t.lower] !== undefined) {
      i++;
      continue;
    }
    let j = i;
    for (;;) {
      const a = tokens[j] as Token;
      const b = tokens[j + 1];
      if (!b || isTaken(b)) break;
      if (joinable(a, b) && (isCapitalised(b) || (/^\p{N}+$/u.test(b.raw) && b.raw.length <= 2))) {
        j++;
        continue;
      }
      const c = tokens[j + 2];
      if (
        c &&
        NAME_LINKS.has(b.lower) &&
        !isCapitalised(b) &&
        joinable(a, b) &&
        joinable(b, c) &&
        isCapitalised(c) &&
        !isTaken(c)
      ) {
        j += 2;
        continue;
      }
      break;
    }
    let first = i;
    // Drop leading function words and weekdays ("The Avengers" keeps "Avengers"; key drops "the" anyway).
    while (
      first <= j &&
      (SENTENCE_START_CAPS.has((tokens[first] as Token).lower) || WEEKDAYS.has((tokens[first] as Token).lower))
    ) {
      first++;
    }
    if (first <= j) {
      const a = tokens[first] as Token;
      const b = tokens[j] as Token;
      const single = first === j;
      const acronym = /.\p{Lu}/u.test(a.raw);
      if (!(single && sentenceInitial(text, a.start) && !acronym)) {
        let end = b.end;
        // Keep an initial's or acronym's final dot ("U.S.").
        if (text[end] === '.' && /^\p{Lu}$/u.test(b.raw) && /\p{Lu}\.$/u.test(text.slice(end - 1, end + 1))) end++;
        const raw = text.slice(a.start, end);
        const key = entityKey(raw);
        if (key.length > 0) out.push({ kind: 'entity', raw, start: a.start, end, key });
      }
    }
    i = j + 1;
  }
  return out;
}

/** Dates, numbers and entities of a text, in text order, never overlapping. `tokens`: the text's `tokenize`, when the caller has it. */
export function extractValues(text: string, tokens: readonly Token[] = tokenize(text)): KeyValue[] {
  const folded = caseFolded(text);
  const dates = datesIn(text, folded);
  const numbers = numbersIn(text, folded, dates);
  const entities = entitiesIn(text, [...dates, ...numbers], tokens);
  return [...dates, ...numbers, ...entities].sort((a, b) => a.start - b.start);
}

/**
 * Whether two keys of the same kind can both be true: equal, or one is a less specific form of the
 * other (a date "2017-07" and "2017-07-21"; an entity "barty" and "ashleigh barty"; a number
 * without a unit and the same number with one).
 */
export function compatibleKeys(kind: ValueKind, a: string, b: string): boolean {
  if (a === b) return true;
  // A relative deadline ("rel:the next business day") is compatible only with itself.
  if (a.startsWith('rel:') || b.startsWith('rel:')) return false;
  if (kind === 'date') {
    const pa = dateParts(a);
    const pb = dateParts(b);
    return (
      (pa.y === null || pb.y === null || pa.y === pb.y) &&
      (pa.m === null || pb.m === null || pa.m === pb.m) &&
      (pa.d === null || pb.d === null || pa.d === pb.d)
    );
  }
  if (kind === 'number') {
    const na = /^(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)(.*)$/u.exec(a);
    const nb = /^(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)(.*)$/u.exec(b);
    if (!na || !nb) return false;
    return Number(na[1]) === Number(nb[1]) && (na[2] === '' || nb[2] === '' || na[2] === nb[2]);
  }
  const wa = a.split(' ');
  const wb = b.split(' ');
  const [small, large] = wa.length <= wb.length ? [wa, wb] : [wb, wa];
  const set = new Set(large);
  return small.every((w) => set.has(w));
}

/** Year, month and day of a date key (null where the key leaves them out). */
export function dateParts(key: string): { y: string | null; m: string | null; d: string | null } {
  let m = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(key);
  if (m) return { y: m[1]!, m: m[2]!, d: m[3]! };
  m = /^(\d{4})-(\d{2})$/u.exec(key);
  if (m) return { y: m[1]!, m: m[2]!, d: null };
  m = /^--(\d{2})-(\d{2})$/u.exec(key);
  if (m) return { y: null, m: m[1]!, d: m[2]! };
  return { y: /^\d{4}$/u.test(key) ? key : null, m: null, d: null };
}

export const ANSWER_TYPES = ['entity', 'date', 'number', 'yesno', 'description', 'any'] as const;
export type AnswerType = (typeof ANSWER_TYPES)[number];

/**
 * The kind of value a question asks for, from its wording: who/whom/whose, where, which/what +
 * noun → entity; when, what year/date/day → date; how many/much, what percentage/number/amount,
 * what was the revenue/price/cost → number; an auxiliary verb first (is, does, can, …) → yes/no;
 * a request for an explanation → description: why …, how does/is/can …, explain/describe/define …,
 * what does X mean, what is a/an X, what is X (no article, no figure: "What is trace-based
 * compilation?"), what is the purpose/difference/role/advantage … of X. A description has no short
 * answer span: its answer is sentences.
 */
export function answerTypeOf(question: string): AnswerType {
  // The clause that asks decides: "If the due date falls on a Saturday, when should you file?"
  const q = mainClause(question).toLowerCase();
  if (DATE_OPENING.test(q)) return 'date';
  if (DATE_PHRASE.test(q)) return 'date';
  if (HOW_MEASURE_OPENING.test(q)) return 'number';
  // "Who approved the budget?" asks for a name, whatever money words follow.
  if (/^(?:who|whom|whose)\b/u.test(q)) return 'entity';
  // "Does the nonresident pay the income tax?" asks yes or no, whatever topic words follow.
  if (AUXILIARIES.has(q.match(/^[a-z]+/u)?.[0] ?? '')) return 'yesno';
  // A figure when the asked phrase's head names one ("what was the total revenue of …"), not
  // when a figure word sits elsewhere ("what is the company paid on a cost-plus contract?").
  const asked = askedPhrase(q);
  if (asked && asksFigure(asked.head)) return 'number';
  if (/\bhow\s+(?:many|much)\b/u.test(q)) return 'number';
  if (DESCRIPTION.test(q) || DEFINITION.test(q)) {
    return 'description';
  }
  if (ENTITY_OPENING.test(q)) return 'entity';
  if (/\b(?:who|whom|whose|which)\b/u.test(q)) return 'entity';
  return 'any';
}

/** A head noun that asks for a figure, singular or plural ("value", "values", "amounts"). */
function asksFigure(head: string): boolean {
  return FIGURE_HEADS.has(head) || (head.endsWith('s') && FIGURE_HEADS.has(head.slice(0, -1)));
}

/** Whether a value of this kind answers a question of that type. */
export function kindAnswers(kind: ValueKind, type: AnswerType): boolean {
  if (type === 'any' || type === 'description') return true;
  if (type === 'yesno') return false;
  return kind === type;
}

/** True when the text negates ("not", "no", "never", "n't", …). */
export function hasNegation(text: string): boolean {
  for (const t of tokenize(text)) {
    if (NEGATIONS.has(t.lower) || /n['’]t$/u.test(t.lower)) return true;
  }
  return false;
}
