/**
 * Grading of the answers benchmark (`answers.ts`, issue 26 item 5). Pure, and written apart from
 * the answerer on purpose: the benchmark judges the app's answers, so nothing here comes from
 * src/core/answer or src/core/verify.
 *
 * What is graded is what the user reads first: the short answer when there is one, else the
 * answer text, citation marks removed (`readFirst`). A released answer (supported or partial) is:
 *
 * - unanswerable (gold `null`): wrong, whatever it says;
 * - (a) numeric — the gold is a number (currency, sign, thousands separators and a scale word
 *   allowed), or the type is `arithmetic` / `count`: right when the text states the gold number
 *   within 0.5 % after scale (`statesNumber`);
 * - (b) `multi-span` (and our `list`): right when the text states every gold span;
 * - (c) free text of more than 12 words whose evidence is given by page (FinanceBench's
 *   explanations): `evidenced` when it cites a gold page (reported apart, neither right nor
 *   wrong), otherwise wrong;
 * - a bare `yes` / `no` gold: right when the text's first word is that word (a quoted sentence
 *   that happens to hold "no" is not a no);
 * - (d) otherwise: token F1 with a gold answer ≥ 0.5, or the text holds ≥ 80 % of the gold's
 *   words and is at most max(6 × the gold's length, 60) words; and (our addition) for a gold
 *   of at most 4 words, the text states every figure the gold states, so "90 days" is not
 *   right for "120 days" nor "Form 1040NR" for "Form 4868" (two-word golds sharing a word
 *   reach F1 = 0.5).
 *
 * Decisions the issue left open, kept here so a reader of a number can check them:
 *
 * - Scale. "12.5%" and "0.125" are the same number (percent is a scale of 0.01), and so are
 *   "$1,496.5" with the dataset's scale `million` and "1496.5 million" or "1.4965 billion". A
 *   figure the answer prints without a scale word is compared both as printed and after the
 *   gold's scale (a table prints "1,496.5" under "(in millions)"). A figure with a scale word is
 *   compared after its scale, so "1,496.5 thousand" is not $1,496.5 million; when the gold names
 *   no scale at all (FinanceBench's "$1577.00" asked "in USD millions"), its printed figure may
 *   also match, so "$1,577 million" states it.
 * - Sign. Magnitudes are compared: a change of -12.6 is stated as "a decrease of 12.6" or
 *   "(12.6)" as often as "-12.6".
 * - Units named by the question. When neither the gold nor the dataset gives a scale, a unit
 *   the question names ("in USD millions") is the gold's scale; a table's unit note after a
 *   figure ("$302,578 (in thousands)") is the figure's.
 * - Years. A gold that is a bare year (an integer 1900–2100 printed without separator, currency,
 *   decimals or scale) must be stated exactly: 0.5 % of 2019 would let 2010 through.
 * - Words. Texts are compared as tokens (NFKC, lower case, punctuation a separator, thousands
 *   separators dropped, articles removed as in SQuAD), so a span is stated only on word
 *   boundaries: "12" is not in "112", "2019" not in "20190". Number words zero–twenty count as
 *   numbers ("four" states a count of 4).
 *
 * Evidence hit (`evidenceHit`): with paged evidence, a packed passage lies on a gold page;
 * otherwise every requirement is held by some packed passage (≥ 80 % of its words, or the number
 * for a numeric span). The requirements are the gold spans (any alternative of `answers`), the
 * spans of a multi-span gold, the operands of an `arithmetic` derivation, the items of a `count`
 * derivation, and for a yes/no gold the evidence texts.
 */

export const GRADES = ['right', 'wrong', 'evidenced', 'refused'] as const;
export type Grade = (typeof GRADES)[number];

export const GRADE_RULES = [
  'refused',
  'unanswerable',
  'numeric',
  'multi-span',
  'paged-free-text',
  'yes-no',
  'f1',
] as const;
export type GradeRule = (typeof GRADE_RULES)[number];

/** The gold side of one question, as the grader needs it. */
export interface GoldAnswer {
  /** The gold answer; null when the document does not answer the question. */
  readonly answer: string | null;
  /** Accepted alternatives, or the spans of a multi-span gold (default: `[answer]`). */
  readonly answers?: readonly string[];
  readonly type?: string;
  /** TAT-QA's scale of the gold figure: '', thousand, million, billion or percent. */
  readonly scale?: string;
  /** The question: FinanceBench names the unit there ("in USD millions") and not in the gold. */
  readonly question?: string;
  /** TAT-QA's derivation: operands of an arithmetic answer, or `##`-separated counted items. */
  readonly derivation?: string;
  /** Evidence texts (a sentence, a span, a paragraph). */
  readonly evidenceTexts?: readonly string[];
  /** Gold pages, when the evidence is given by page (empty otherwise). */
  readonly goldPages?: readonly number[];
}

/** The released answer: what the user reads first, and whether it cites a gold page. */
export interface ReleasedAnswer {
  readonly read: string;
  readonly citesGoldPage: boolean;
}

export interface Graded {
  readonly grade: Grade;
  readonly rule: GradeRule;
}

/** Tolerance of rule (a): the 0.5 %. */
export const NUMBER_TOLERANCE = 0.005;
/** Rule (c): a free-text gold longer than this many words, with paged evidence. */
export const LONG_GOLD_WORDS = 12;
/** Rule (d): token F1 at least this. */
export const F1_RIGHT = 0.5;
/** Rule (d): or at least this share of the gold's words… */
export const HOLDS_RIGHT = 0.8;
/** …in an answer of at most max(LENGTH_FACTOR × gold words, LENGTH_FLOOR) words. */
export const LENGTH_FACTOR = 6;
export const LENGTH_FLOOR = 60;
/**
 * Rule (d), our addition: a gold of at most this many words must have its figures stated. One
 * shared word is half of a two-word gold (F1 = 0.5); a longer gold is graded by its words alone,
 * as the issue specifies ("Nterminus of HBV" for "Nterminus of HBV preS1 (amino acids 1-47)").
 */
export const SHORT_GOLD_WORDS = 4;
/** Evidence hit: a passage holds at least this share of a span's words. */
export const EVIDENCE_HOLDS = 0.8;

// ---------------------------------------------------------------------------------------------
// What the user reads

/** The short answer when there is one, else the answer text; citation marks ([S1], [S1, S2]) removed. */
export function readFirst(answer: { readonly text: string; readonly short: { readonly text: string } | null }): string {
  const shown = answer.short && answer.short.text.trim() !== '' ? answer.short.text : answer.text;
  return shown
    .replace(/\s*\[S\d+(?:\s*[,;]\s*S?\d+)*\]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

// ---------------------------------------------------------------------------------------------
// Words

const ARTICLES = new Set(['a', 'an', 'the']);

/** Tokens for comparison: NFKC, lower case, thousands separators dropped, punctuation a separator, no articles. */
export function tokens(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/(?<=\d),(?=\d{3}(?!\d))/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '' && !ARTICLES.has(t));
}

/** Words as a reader counts them (anything between spaces holding a letter or digit). */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

function counts(ts: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of ts) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

function overlap(a: readonly string[], b: readonly string[]): number {
  const ca = counts(a);
  let n = 0;
  for (const [t, k] of counts(b)) n += Math.min(k, ca.get(t) ?? 0);
  return n;
}

/** SQuAD token F1 of a prediction against one gold (0 when either is empty). */
export function tokenF1(prediction: string, gold: string): number {
  const p = tokens(prediction);
  const g = tokens(gold);
  if (p.length === 0 || g.length === 0) return 0;
  const common = overlap(p, g);
  if (common === 0) return 0;
  const precision = common / p.length;
  const recall = common / g.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Share of the gold's tokens (with repeats) that the text holds; 0 for an empty gold. */
export function holdsShare(text: string, gold: string): number {
  const g = tokens(gold);
  return g.length === 0 ? 0 : overlap(tokens(text), g) / g.length;
}

/** True when the span's tokens occur contiguously in the text's (a word-boundary match). */
export function containsSpan(text: string, span: string): boolean {
  const s = tokens(span);
  if (s.length === 0) return false;
  const t = tokens(text);
  outer: for (let i = 0; i + s.length <= t.length; i++) {
    for (let j = 0; j < s.length; j++) if (t[i + j] !== s[j]) continue outer;
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Numbers

const SCALE_WORDS: ReadonlyArray<readonly [RegExp, number]> = [
  [/^(?:%|per\s?cent|percent)$/i, 0.01],
  [/^thousands?$/i, 1e3],
  [/^(?:millions?|mn)$/i, 1e6],
  [/^(?:billions?|bn)$/i, 1e9],
  [/^trillions?$/i, 1e12],
];

/**
 * The multiplier of a scale word or a table's unit note ("million" → 1e6, "(in thousands)" →
 * 1e3, "percent" → 0.01), or null ('' and unknown words).
 */
export function scaleOf(word: string): number | null {
  const w = word
    .trim()
    .replace(/^\(\s*in\s+|\s*\)$/gi, '')
    .trim();
  for (const [re, k] of SCALE_WORDS) if (re.test(w)) return k;
  return null;
}

/** The unit a question asks in ("… (in USD millions) …" → "millions"), or '' when it names none. */
export function questionScale(question: string): string {
  return /\bin\s+(?:USD\s+|US\$\s*)?(thousands|millions|billions)\b/i.exec(question)?.[1] ?? '';
}

const NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
] as const;

/** A number as printed: its magnitude, and the multiplier of the scale word after it (null when none). */
export interface StatedNumber {
  readonly value: number;
  readonly scale: number | null;
}

const SCALE_PATTERN = String.raw`%|per\s?cent\b|percent\b|thousand\b|million\b|billion\b|trillion\b|bn\b|mn\b|\(\s*in\s+(?:thousands|millions|billions)\s*\)`;
const NUMBER_PATTERN = new RegExp(
  // Not inside a word or another number ("COVID-19" is read as 19, "v2" and "1.2.3" are not numbers).
  String.raw`(?<![\p{L}\p{N}]|\d[.,])(?:(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?|\.(\d+)|(${NUMBER_WORDS.join('|')})\b)` +
    String.raw`(?!\p{N}|[.,]\d)(?:\s?(${SCALE_PATTERN}))?`,
  'giu',
);

/** Every number a text states, with its scale word ("$1,496.5 million" → 1496.5 × 1e6; "five percent" → 5 × 0.01). */
export function numbersStated(text: string): StatedNumber[] {
  const out: StatedNumber[] = [];
  const t = text.normalize('NFKC');
  for (const m of t.matchAll(NUMBER_PATTERN)) {
    const [whole, int, frac, bareFrac, word, scaleWord] = m;
    // "10x", "250ms", "15th": a figure glued to a word is not a stated number.
    if (scaleWord === undefined && /^\p{L}/u.test(t.slice((m.index ?? 0) + whole.length))) continue;
    const value =
      word !== undefined
        ? NUMBER_WORDS.indexOf(word.toLowerCase() as (typeof NUMBER_WORDS)[number])
        : bareFrac !== undefined
          ? Number(`0.${bareFrac}`)
          : Number(`${(int as string).replace(/,/g, '')}${frac ?? ''}`);
    if (!Number.isFinite(value)) continue;
    out.push({ value, scale: scaleWord !== undefined ? scaleOf(scaleWord) : null });
  }
  return out;
}

/** A gold figure: magnitude, scale (null when none is given) and whether it must match exactly (a year). */
export interface GoldNumber {
  readonly value: number;
  readonly scale: number | null;
  readonly exact: boolean;
}

const GOLD_NUMBER =
  /^[-−–+]?\s*\(?\s*(?:US\$|USD|\$|€|£)?\s*[-−–]?\s*(\d{1,3}(?:,\d{3})+|\d+)?(\.\d+)?\s*\)?\s*(%|per\s?cent|percent|thousand|million|billion|trillion|bn|mn)?\s*\.?$/i;

/**
 * The gold as a number when the whole gold is one figure ("$1,496.5", "-12.6", "24.5%",
 * "$1.5 billion", "2019", "five"), else null. `scale` is the dataset's scale field, used when the gold
 * prints no scale word.
 */
export function goldNumber(gold: string, scale = ''): GoldNumber | null {
  const g = gold.normalize('NFKC').trim();
  const word = NUMBER_WORDS.indexOf(g.toLowerCase().replace(/\.$/, '') as (typeof NUMBER_WORDS)[number]);
  if (word >= 0) return { value: word, scale: scaleOf(scale), exact: false };
  const m = GOLD_NUMBER.exec(g);
  if (!m || (m[1] === undefined && m[2] === undefined)) return null;
  const [, int, frac, scaleWord] = m;
  const value = Number(`${(int ?? '0').replace(/,/g, '')}${frac ?? ''}`);
  if (!Number.isFinite(value)) return null;
  const k = scaleWord !== undefined ? scaleOf(scaleWord) : scaleOf(scale);
  const bare = /^\d+$/.test(g);
  return { value, scale: k, exact: bare && value >= 1900 && value <= 2100 };
}

function near(x: number, target: number): boolean {
  if (target === 0) return x === 0;
  return Math.abs(x - target) <= NUMBER_TOLERANCE * Math.abs(target);
}

/** True when the text states the gold number within 0.5 % after scale (see the file comment). */
export function statesNumber(text: string, gold: GoldNumber): boolean {
  const scaled = gold.value * (gold.scale ?? 1);
  return numbersStated(text).some((n) => {
    if (gold.exact) return n.scale === null && n.value === gold.value;
    if (n.scale === null) return near(n.value, gold.value) || near(n.value, scaled);
    return near(n.value * n.scale, scaled) || (gold.scale === null && near(n.value, gold.value));
  });
}

// ---------------------------------------------------------------------------------------------
// Grading one answer

const MULTI_SPAN_TYPES = new Set(['multi-span', 'list']);
const NUMERIC_TYPES = new Set(['arithmetic', 'count']);

function alternatives(gold: GoldAnswer): string[] {
  const all = gold.answers && gold.answers.length > 0 ? gold.answers : gold.answer !== null ? [gold.answer] : [];
  return all.map((a) => a.trim()).filter((a) => a !== '');
}

/** A span is stated: as a number when it is one, else as a contiguous run of its words. */
function statesSpan(text: string, span: string, scale: string): boolean {
  const n = goldNumber(span, scale);
  return n !== null ? statesNumber(text, n) : containsSpan(text, span);
}

/** Grades one question: `released` is null when the app refused (abstain or conflict). */
export function gradeAnswer(gold: GoldAnswer, released: ReleasedAnswer | null): Graded {
  if (released === null) return { grade: 'refused', rule: 'refused' };
  if (gold.answer === null) return { grade: 'wrong', rule: 'unanswerable' };
  const read = released.read;
  const type = gold.type ?? '';
  const scale = gold.scale || questionScale(gold.question ?? '');
  const right = (ok: boolean, rule: GradeRule): Graded => ({ grade: ok ? 'right' : 'wrong', rule });

  const number = goldNumber(gold.answer, scale);
  if (number !== null || NUMERIC_TYPES.has(type)) {
    if (number !== null) return right(statesNumber(read, number), 'numeric');
    // An arithmetic or count gold that is no single figure: any of its figures, stated.
    const figures = numbersStated(gold.answer).map((n) => ({ value: n.value, scale: n.scale, exact: false }));
    return right(
      figures.some((f) => statesNumber(read, f)),
      'numeric',
    );
  }
  if (MULTI_SPAN_TYPES.has(type)) {
    const spans = alternatives(gold);
    return right(spans.length > 0 && spans.every((s) => statesSpan(read, s, scale)), 'multi-span');
  }
  if (wordCount(gold.answer) > LONG_GOLD_WORDS && (gold.goldPages?.length ?? 0) > 0) {
    return { grade: released.citesGoldPage ? 'evidenced' : 'wrong', rule: 'paged-free-text' };
  }
  const yesNo = tokens(gold.answer);
  if (yesNo.length === 1 && (yesNo[0] === 'yes' || yesNo[0] === 'no')) {
    return right(tokens(read)[0] === yesNo[0], 'yes-no');
  }
  const readWords = wordCount(read);
  const ok = alternatives(gold).some(
    (g) =>
      (tokenF1(read, g) >= F1_RIGHT ||
        (holdsShare(read, g) >= HOLDS_RIGHT && readWords <= Math.max(LENGTH_FACTOR * wordCount(g), LENGTH_FLOOR))) &&
      (wordCount(g) > SHORT_GOLD_WORDS || statesFiguresOf(read, g, scale)),
  );
  return right(ok, 'f1');
}

/**
 * Every figure the gold states is stated by the text (as a number, after scale). Words alone
 * would let "90 days" through for "120 days", or "Form 1040NR" for "Form 4868": two-word golds
 * that share one word reach F1 = 0.5.
 */
export function statesFiguresOf(text: string, gold: string, scale = ''): boolean {
  const fallback = scaleOf(scale);
  return numbersStated(gold).every((n) =>
    statesNumber(text, {
      value: n.value,
      scale: n.scale ?? fallback,
      exact: n.scale === null && Number.isInteger(n.value) && n.value >= 1900 && n.value <= 2100,
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Evidence

/** A packed passage: its text, and the pages it lies on (empty for an unpaged document). */
export interface PackedPassage {
  readonly text: string;
  readonly pages: readonly number[];
}

/**
 * What the packet must hold for an evidence hit without pages: a list of requirements, each met
 * by any one of its alternatives (see the file comment). Empty for an unanswerable question.
 */
export function evidenceRequirements(gold: GoldAnswer): string[][] {
  if (gold.answer === null) return [];
  const type = gold.type ?? '';
  const derivation = gold.derivation?.trim() ?? '';
  if (type === 'arithmetic' && derivation !== '') {
    const operands = [...derivation.matchAll(/\$?\d[\d,]*(?:\.\d+)?%?/g)].map((m) => m[0]);
    if (operands.length > 0) return [...new Set(operands)].map((o) => [o]);
  }
  if (type === 'count' && derivation !== '') {
    const items = derivation
      .split('##')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (items.length > 0) return items.map((i) => [i]);
  }
  if (MULTI_SPAN_TYPES.has(type)) return alternatives(gold).map((s) => [s]);
  const yesNo = tokens(gold.answer);
  if (yesNo.length === 1 && (yesNo[0] === 'yes' || yesNo[0] === 'no')) {
    const texts = (gold.evidenceTexts ?? []).filter((t) => t.trim() !== '');
    return texts.length > 0 ? [texts] : [];
  }
  const alts = alternatives(gold);
  return alts.length > 0 ? [alts] : [];
}

/** A passage holds a span: states it as a number when it is one, else holds ≥ 80 % of its words. */
export function passageHolds(passage: string, span: string, scale = ''): boolean {
  const n = goldNumber(span, scale);
  if (n !== null) return statesNumber(passage, n);
  return holdsShare(passage, span) >= EVIDENCE_HOLDS;
}

/** Evidence hit: a packed passage on a gold page, or every requirement held by some packed passage. */
export function evidenceHit(gold: GoldAnswer, packet: readonly PackedPassage[]): boolean {
  const pages = gold.goldPages ?? [];
  if (pages.length > 0) return packet.some((p) => p.pages.some((x) => pages.includes(x)));
  const needs = evidenceRequirements(gold);
  if (needs.length === 0) return false;
  return needs.every((alts) => alts.some((a) => packet.some((p) => passageHolds(p.text, a, gold.scale ?? ''))));
}
