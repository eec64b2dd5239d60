/**
 * The Embedded profile's answerer: no generator, so the answer is made of sentences from the
 * packed evidence, each with its citation, plus the short answer span where the question asks for
 * one (who → a name, when → a date, how many/much → a number).
 *
 * Sentence score = share of question terms the sentence contains
 *                + ½ × mean rationale match (METEORA: evidence must cover the question's aspects)
 *   (a term found only in the heading trail of the sentence's section counts
 *   `HEADING_CONTEXT_WEIGHT`; heading lines are context, never answer sentences)
 *                + `typeBonus` when it holds a value of the asked-for kind that the question does not
 *                + `positionWeight` / (1 + its index in the passage) (leads state the point)
 *                + a small bonus for the passage's rank.
 * The short answer is voted: every value of the asked-for kind that the question does not already
 * state (a name made mostly of the question's own words restates its topic) votes with its
 * sentence's score, one vote per passage, times
 *   - its role: 1 for the value in the slot of the question's predicate (the nearest name before an
 *     active "won"/"acquired", the nearest after a passive "acquired by"), else 1 for a sentence's
 *     first value and 0.6 for the others;
 *   - 0.3 when the passage is dated only to years the question does not ask about;
 *   - 1.5 for a full date or a name of two or more words; 2 for the value a resolved conflict on
 *     the question settled on (verify).
 * Compatible values form one group ("2020" supports both "May 2020" and "June 2020", which stay
 * apart); the winner is shown at its most specific ("May 29, 2020", not "2020"; "Garry Marshall",
 * not "Garry") and the best sentence stating that form leads. Further sentences are added greedily
 * while they cover a rationale the chosen ones do not (match gain ≥ `minGain`), up to
 * `maxSentences`.
 *
 * An unresolved conflict on the question (verify stage) changes the answer: it states each side
 * with its citations and asserts neither. With no sentence that matches the question at all the
 * answer is `insufficient`.
 */
import { assertKnownOptions } from '../errors';
import type { EvidencePacket, RationaleReport } from '../select/packet';
import type { PackedSource } from '../select/pack';
import type { Rationale } from '../select/rationales';
import { isStopword, termOf, termsOf } from '../select/rationales';
import { checkInt, checkRange, tokenize } from '../util/stage';
import { sentenceUnits } from '../verify/common';
import { OPPOSITE_ROLE_WEIGHT, questionSide, sidesOf, tokenSpan } from './roles';
import type { Conflict } from '../verify/conflict';
import { REDACTION_MARK } from '../verify/injection';
import type { AnswerType, KeyValue, ValueKind } from '../verify/values';
import { asksForComputation, asksForDerivedFigure } from './computation';
import { askedLabelNoun, labelledParts, labelReason } from './labels';
import { ALTERNATIVE } from '../lexicon/negation';
import { askedPhrase, mainClause } from '../text/clauses';
import { deadlinesIn } from './deadlines';
import { fitFamily, fitsAskedNoun, unitFamilyOf } from './question';
import { qualifiedFigure } from './figures';
import { countedTerms, countFit } from './counted';
import { tableCellAnswer, type TableCell } from './table-cell';
import { computedAnswer, type Computed } from './compute';
import {
  answerTypeOf,
  compatibleKeys,
  dateParts,
  extractValues,
  foldText,
  hasNegation,
  kindAnswers,
} from '../verify/values';
import { ROLE_PHRASE } from '../lexicon/offices';
import { QUESTION_WORD } from '../lexicon/questions';

export interface AnswerSentence {
  readonly text: string;
  readonly citationId: string;
  readonly score: number;
  /** Rationales this sentence covers. */
  readonly rationaleIds: readonly string[];
}

export interface ShortAnswer {
  readonly text: string;
  /** The value's kind; 'polarity' for the yes or no of a yes/no question. */
  readonly kind: ValueKind | 'polarity';
  readonly citationId: string;
}

export const ANSWER_KINDS = ['answer', 'conflict', 'insufficient'] as const;
export type AnswerKind = (typeof ANSWER_KINDS)[number];

export interface Answer {
  readonly kind: AnswerKind;
  /** What the user reads, with [S#] citations. */
  readonly text: string;
  readonly sentences: readonly AnswerSentence[];
  readonly short: ShortAnswer | null;
  /** The unresolved conflict the answer states, when kind is 'conflict'. */
  readonly conflict: Conflict | null;
  /** 'extractive', or the generator's id. */
  readonly answerer: string;
  /** The table cell the answer was read from (row label, column header, value), when it was. */
  readonly table?: TableCell;
  /** The computation the answer shows (compute.ts): formula, operands with their cells, result. */
  readonly computed?: Computed;
  /**
   * How the lead sentence meets the question: the share of the question's terms it holds, and its
   * score's margin over the best sentence not chosen (release-decision features).
   */
  readonly lead?: { readonly coverage: number; readonly margin: number };
  /**
   * For a typed question: how many packed passages state the chosen value, its share of all votes,
   * the citation ids of those passages, and whether it is the value a resolved conflict on the
   * question settled on.
   */
  readonly votes: {
    readonly sources: number;
    readonly share: number;
    readonly citationIds?: readonly string[];
    readonly settled?: boolean;
    /** Best share of the question's rationales one sentence stating the value covers. */
    readonly coverage?: number;
  } | null;
}

export interface ExtractiveOptions {
  /** Most sentences in an answer. RAG guide / issue: about three. */
  readonly maxSentences: number;
  /** A sentence needs at least this score to answer (below: insufficient). Evident default: about one question term in three. */
  readonly minScore: number;
  /** A further sentence must raise rationale coverage by at least this much (a whole 2-term aspect is 1). Evident default. */
  readonly minGain: number;
  /** Bonus for holding a value of the asked-for kind. Evident default. */
  readonly typeBonus: number;
  /** Bonus for leading a passage, divided by 1 + the sentence index. Evident default. */
  readonly positionWeight: number;
  /**
   * Show the voted short answer even when its sentence holds rival values of the asked kind (one
   * span per passage, as the peer defenses' language model gives one: `cli/rgb-defenses.ts`).
   * Evident default: false (the sentence answers, no one value does).
   */
  readonly contestedShort: boolean;
}

export const DEFAULT_EXTRACTIVE_OPTIONS: ExtractiveOptions = Object.freeze({
  maxSentences: 3,
  minScore: 0.3,
  minGain: 0.5,
  typeBonus: 0.3,
  positionWeight: 0.1,
  contestedShort: false,
});

export interface ExtractiveInput {
  readonly question: string;
  readonly sources: readonly PackedSource[];
  /** Rationales (or the packet's rationale reports); decomposed from the question when absent. */
  readonly rationales?: readonly (Rationale | RationaleReport)[];
  readonly conflicts?: readonly Conflict[];
  /**
   * Documents the question was asked of (distinct documents among the retrieval candidates);
   * those of the packed sources when absent.
   */
  readonly documents?: number;
}

/** The chunk text of a packed source (its header line removed). */
export function sourceBody(source: Pick<PackedSource, 'text'>): string {
  const nl = source.text.indexOf('\n');
  return nl >= 0 ? source.text.slice(nl + 1) : '';
}

/**
 * The chunk context a packed source's header line carries after its page ("… (p. 57) — (In
 * thousands) | | December 31, 2018 | …": a table's title and column header), or ''. Only after a
 * page marker, or a column header ending the line: a title may hold " — " itself.
 */
export function sourceContext(source: Pick<PackedSource, 'text'>): string {
  const nl = source.text.indexOf('\n');
  const head = nl >= 0 ? source.text.slice(0, nl) : source.text;
  // Without pages (HTML, text), a context that ends the line as a table's column header ("… — |
  // | 2019 | 2018 |"): a title does not end in a pipe.
  const m = head.match(/\(p\. \d+\) — (.+)$/u) ?? head.match(/ — ([^—]*\|)\s*$/u);
  return m ? (m[1] as string) : '';
}

/** What a claim may rest on: the source's context (a table's title and column header), then its body. */
export function sourceEvidence(source: Pick<PackedSource, 'text'>): string {
  const ctx = sourceContext(source);
  return ctx ? `${ctx}\n${sourceBody(source)}` : sourceBody(source);
}

interface Scored {
  readonly text: string;
  readonly source: PackedSource;
  readonly rank: number;
  readonly index: number;
  readonly terms: ReadonlySet<string>;
  readonly values: readonly KeyValue[];
  readonly match: readonly number[];
  readonly score: number;
  /** The passage dates itself only to years the question does not ask about (another edition, season, event). */
  readonly otherYear: boolean;
  /** Share of the question's terms the sentence holds (its heading trail at half weight). */
  readonly qHit: number;
}

/** The years of the dates among some values. */
function yearsIn(values: readonly KeyValue[]): Set<string> {
  const out = new Set<string>();
  for (const v of values) {
    if (v.kind !== 'date') continue;
    const y = dateParts(v.key).y;
    if (y !== null) out.add(y);
  }
  return out;
}

/** A rationale counts as covered by a sentence at this match (the AnswerSentence.rationaleIds cut). */
const COVERED_MATCH = 0.6;

function rationaleList(input: ExtractiveInput): Rationale[] {
  const rs = input.rationales ?? [];
  return rs.map((r) => ('rationale' in r ? r.rationale : r));
}

function isQuestionValue(v: KeyValue, qValues: readonly KeyValue[], qFolded: string): boolean {
  // The question's own value, or a vaguer form of it; a more specific date that includes it
  // ("January 5, 2020" for "… Golden Globe Awards 2020 …") is an answer, not a restatement.
  if (
    qValues.some(
      (q) =>
        q.kind === v.kind &&
        compatibleKeys(v.kind, q.key, v.key) &&
        (v.kind !== 'date' || specificity('date', v.key) <= specificity('date', q.key)),
    )
  )
    return true;
  if (v.kind === 'entity') {
    const words = v.key.split(' ');
    const qw = new Set(qFolded.split(' '));
    // "US Open" against "U.S. Open" in the question: compare without spaces too; "United States" against "US": initials.
    if (words.every((w) => qw.has(w)) || qFolded.replace(/ /gu, '').includes(v.key.replace(/ /gu, ''))) return true;
    // A name mostly made of the question's own words restates the topic ("FIFA World Cup" for
    // "Who won the World Cup Final?", "Women's Tennis Association" for "women's … tennis").
    const qStems = new Set(termsOf(qFolded));
    const stems = termsOf(v.key);
    if (stems.length > 0 && stems.filter((t) => qStems.has(t)).length * 2 >= stems.length) return true;
    const initials = words
      .filter((w) => !/^(of|the|and|for|de)$/u.test(w))
      .map((w) => w[0])
      .join('');
    return words.length >= 2 && qw.has(initials);
  }
  return false;
}

/** Whether a question of this type has a short answer span: not a yes/no question, not a request for a description. */
export const asksForSpan = (type: AnswerType): boolean => type !== 'yesno' && type !== 'description';

// A date opening a snippet and followed by "...", "—", "·" or "|" is its publication date, not content.
const DATELINE = /^\s*[-–—.…·|]/u;

/** Role phrases of a sentence as entity values ("the operations manager" → key "operations manager"). */
export function rolesIn(text: string): KeyValue[] {
  const out: KeyValue[] = [];
  for (const m of text.matchAll(ROLE_PHRASE)) {
    const phrase = m[1] as string;
    const start = m.index + m[0].length - phrase.length;
    out.push({ kind: 'entity', raw: phrase, start, end: start + phrase.length, key: foldText(phrase).trim() });
  }
  return out;
}

/** A question asking who: "who", "whom", "whose". */
const WHO = /^\s*who(?:m|se)?\b/u;

/**
 * Values of the asked-for kind in a sentence that the question does not already contain. A "who"
 * question answered by no name in the sentence takes its role phrases instead (never the
 * question's own role: "the director" does not answer "who is the director of …").
 */
function answerValues(s: Scored, type: AnswerType, qValues: readonly KeyValue[], qFolded: string): KeyValue[] {
  if (!asksForSpan(type)) return [];
  // "Which form should you file …?": the labels of that kind of part answer it, and nothing else.
  const labelNoun = type === 'entity' ? askedLabelNoun(askedPhrase(mainClause(qFolded))?.head) : null;
  if (labelNoun) {
    const qWords = new Set(qFolded.split(' '));
    return labelledParts(s.text, labelNoun).filter((v) => !qWords.has(v.key.split(' ').pop() as string));
  }
  const want = (k: ValueKind): boolean => (type === 'any' ? k === 'entity' : kindAnswers(k, type));
  // A "when" may be answered by a rule: "the next business day", "within 30 days after …".
  const values = type === 'date' ? [...s.values, ...deadlinesIn(s.text)] : s.values;
  const out = fitFamily(
    values.filter(
      (v) =>
        want(v.kind) &&
        !isQuestionValue(v, qValues, qFolded) &&
        labelReason(s.text, v, type === 'number') === null &&
        !(v.kind === 'date' && s.index === 0 && v.start <= 1 && DATELINE.test(s.text.slice(v.end))),
    ),
    unitFamilyOf(qFolded),
  );
  if (type !== 'entity' || !WHO.test(qFolded) || out.some((v) => v.kind === 'entity')) return out;
  const taken = (r: KeyValue): boolean => s.values.some((v) => v.start < r.end && v.end > r.start);
  const roles = rolesIn(s.text).filter((r) => !taken(r) && !isQuestionValue(r, qValues, qFolded));
  return [...out, ...roles].sort((a, b) => a.start - b.start);
}

function scoreSentences(input: ExtractiveInput, o: ExtractiveOptions): { all: Scored[]; rationales: Rationale[] } {
  const qTerms = [...new Set(termsOf(input.question))];
  const rationales = rationaleList(input);
  const type = answerTypeOf(input.question);
  const qValues = extractValues(input.question);
  const qFolded = foldText(input.question);
  const n = input.sources.length;
  const qYears = yearsIn(qValues);
  const units = sentenceUnitsOf(input.sources);
  // Asked of one document, its own sentences are the only term statistics ("virus" in every
  // sentence of a virology paper); across documents retrieval has already weighed the terms
  // against the whole library, and a packet is too small a sample to weigh them again.
  const oneDocument = documentCount(input) === 1;
  const weight = oneDocument ? termWeights(qTerms, units) : () => 1;
  const all: Scored[] = [];
  for (const u of units) {
    const { source, rank, text, terms, index, headingTerms } = u;
    const share = (wanted: readonly string[], w: (t: string) => number): number => {
      const total = wanted.reduce((a, t) => a + w(t), 0);
      if (total === 0) return 0;
      const hit = wanted.reduce(
        (a, t) => a + w(t) * (terms.has(t) ? 1 : headingTerms.has(t) ? HEADING_CONTEXT_WEIGHT : 0),
        0,
      );
      return hit / total;
    };
    const qHit = share(qTerms, weight);
    const match = rationales.map((r) => share(r.terms, () => 1));
    const mean = match.length > 0 ? match.reduce((a, b) => a + b, 0) / match.length : 0;
    const values = extractValues(text);
    const partial: Scored = { text, source, rank, index, terms, values, match, score: 0, otherYear: u.otherYear, qHit };
    const typed = type !== 'any' && asksForSpan(type) && answerValues(partial, type, qValues, qFolded).length > 0;
    const score =
      qHit + 0.5 * mean + (typed ? o.typeBonus : 0) + o.positionWeight / (1 + index) + (0.05 * (n - rank)) / n;
    all.push({ ...partial, score: qHit > 0 || mean > 0 ? score : 0 });
  }
  return { all, rationales };

  function sentenceUnitsOf(sources: readonly PackedSource[]): Unit[] {
    const out: Unit[] = [];
    sources.forEach((source, rank) => {
      const body = sourceBody(source);
      const years = yearsIn(extractValues(body));
      const otherYear = qYears.size > 0 && years.size > 0 && ![...years].some((y) => qYears.has(y));
      // The section's heading trail is context for every sentence under it ("2. Daily allowances"
      // says what "Meals … are covered up to EUR 60 per day" is about), never an answer itself.
      const trail = source.headings ?? [];
      const headingTerms = new Set(termsOf(trail.join('\n')));
      const headingLines = new Set(trail.map(headingKey));
      let index = 0;
      for (const sp of sentenceUnits(body)) {
        const raw = body.slice(sp.start, sp.end);
        if (isHeadingUnit(raw, headingLines)) continue;
        const text = raw.split(REDACTION_MARK).join(' ').replace(/\s+/gu, ' ').trim();
        // Too short to answer anything, or itself a question ("When is the release date?").
        if (tokenize(text).length < 3 || /\?["'”’)]*$/u.test(text)) continue;
        out.push({ source, rank, text, terms: new Set(termsOf(text)), index, headingTerms, otherYear });
        index++;
      }
    });
    return out;
  }
}

/** Documents the question is asked of: the retrieval candidates' (`documents`), else the packed sources'. */
const documentCount = (input: ExtractiveInput): number =>
  input.documents ?? new Set(input.sources.map((x) => x.docId)).size;

/** A candidate answer sentence before scoring. */
interface Unit {
  readonly source: PackedSource;
  readonly rank: number;
  readonly text: string;
  readonly terms: ReadonlySet<string>;
  readonly index: number;
  readonly headingTerms: ReadonlySet<string>;
  readonly otherYear: boolean;
}

/**
 * Weights of the question's terms by how rarely the packet's sentences hold them (inverse
 * sentence frequency, BM25's idf form kept positive): a sentence holding the question's rare terms
 * meets it more than one holding its common ones ("virus" in every sentence of a virology paper).
 */
function termWeights(qTerms: readonly string[], units: readonly Unit[]): (t: string) => number {
  const count = units.length;
  const w = new Map<string, number>();
  for (const t of qTerms) {
    const df = units.reduce((a, u) => a + (u.terms.has(t) ? 1 : 0), 0);
    w.set(t, Math.log(1 + (count - df + 0.5) / (df + 0.5)));
  }
  return (t) => w.get(t) ?? 0;
}

/** How much a question term found only in the section's headings counts, against one in the sentence. */
export const HEADING_CONTEXT_WEIGHT = 0.5;

/** Most words a title line has ("NFL Commissioners and Presidents."); a longer unit is prose. */
const TITLE_LINE_WORDS = 12;

/**
 * A unit that reads as a title: a short line with no figure whose every content word is
 * capitalised ("NFL Commissioners and Presidents.", "Results and Discussion"). It names what a
 * passage is about and so meets the question's terms; it may still state something (a news
 * headline: "Bad Bunny Slams Fans …"), so it stays quotable, but it never outranks a voted value.
 */
export function isTitleLine(raw: string): boolean {
  if (/\p{N}/u.test(raw)) return false;
  const words = raw.match(/\p{L}[\p{L}'’-]*/gu) ?? [];
  if (words.length > TITLE_LINE_WORDS) return false;
  const content = words.filter((w) => !isStopword(w));
  return content.length >= 2 && content.every((w) => /^\p{Lu}/u.test(w));
}

/** A heading compared loosely: folded, Markdown's "#" marks and surrounding space dropped. */
const headingKey = (h: string): string => foldText(h.replace(/^\s*#{1,6}\s+/u, '').replace(/\s+#+\s*$/u, '')).trim();

/** A unit that is a heading line: a Markdown ATX heading, or one of the chunk's headings verbatim. */
function isHeadingUnit(raw: string, headingLines: ReadonlySet<string>): boolean {
  const line = raw.trim();
  if (line.includes('\n')) return false;
  return /^#{1,6}\s/u.test(line) || headingLines.has(headingKey(line));
}

function shortAnswerOf(chosen: readonly Scored[], question: string, documents: number): ShortAnswer | null {
  const type = answerTypeOf(question);
  if (!asksForSpan(type)) return null;
  const qValues = extractValues(question);
  const qFolded = foldText(question);
  const qTerms = new Set(termsOf(question));
  for (const s of chosen) {
    const vals = answerValues(s, type, qValues, qFolded);
    if (vals.length === 0) continue;
    // Inside one document a sentence with several values of the asked kind answers as a whole
    // (`uncontested`), and so does one with a name the asked noun does not fit (`fitsAskedNoun`).
    if (documents < 2 && (vals.length > 1 || !fitsAsked(s, vals[0] as KeyValue, question))) return null;
    // Closest to the question's words in the sentence; names of two or more words first for "who".
    const toks = tokenize(s.text);
    const anchors = toks.filter((t) => qTerms.has(termsOf(t.raw)[0] ?? '')).map((t) => t.start);
    const dist = (v: KeyValue): number =>
      anchors.length === 0 ? v.start : Math.min(...anchors.map((a) => Math.abs(a - v.start)));
    const prefer = (v: KeyValue): number =>
      (type === 'any' && v.kind !== 'entity' ? 1000 : 0) +
      (type === 'entity' && v.key.split(' ').length < 2 ? 200 : 0) +
      dist(v);
    const best = [...vals].sort((a, b) => prefer(a) - prefer(b))[0] as KeyValue;
    const text = documents < 2 ? qualifiedFigure(s.text, best) : best.raw;
    return { text: text.replace(/['’]s$/u, ''), kind: best.kind, citationId: s.source.citationId };
  }
  return null;
}

const MONEY_QUESTION =
  /\b(?:how\s+much|revenue|price|cost|costs|paid|pay|worth|sold\s+for|bought\s+for|acquired?\s+.*\bfor|salary|budget|income|profit|valuation)\b/iu;

interface Vote {
  readonly keys: ReadonlySet<string>;
  /** Key of the spelling shown. */
  readonly displayKey: string;
  readonly display: string;
  readonly kind: ValueKind;
  readonly weight: number;
  readonly sources: number;
  readonly share: number;
  readonly citationIds: readonly string[];
  readonly settled: boolean;
  readonly coverage: number;
}

/** Specificity of a key of a kind: a full date over a month over a year; a name of more words over fewer. */
function specificity(kind: ValueKind, key: string): number {
  if (kind === 'date') {
    const p = dateParts(key);
    return (p.y !== null ? 1 : 0) + (p.m !== null ? 2 : 0) + (p.d !== null ? 2 : 0);
  }
  return kind === 'entity' ? key.split(' ').length : key.length;
}

/**
 * How strongly an occurrence of a value in a sentence puts it forward as the answer. A value in
 * the answer slot of the question's predicate fills the question's gap: right before it ("Simona
 * Halep won", "Facebook acquired") or after "by" right after it ("acquired by Facebook", "directed
 * by James Cameron"). Without such a value, the first candidate of a sentence is usually its
 * subject ("Bianca Andreescu won … defeating Serena Williams"); later ones are objects or asides.
 */
const LATER_VALUE_WEIGHT = 0.6;
/** Most tokens from a value to the predicate for the value to fill its slot. */
const SLOT_WINDOW = 3;
// Porter stems that miss irregular past forms ("won" → "won", "wins" → "win").
const IRREGULAR: Readonly<Record<string, string>> = Object.freeze({
  won: 'win',
  bought: 'buy',
  sold: 'sell',
  held: 'hold',
  took: 'take',
  taken: 'take',
  led: 'lead',
  began: 'begin',
  begun: 'begin',
  founded: 'found',
  beat: 'beat',
  beaten: 'beat',
});
const predicateStem = (word: string): string => IRREGULAR[word.toLowerCase()] ?? termOf(word);

/** Stems of the question's words outside its own values: its predicate ("acquired", "won", "released"). */
function predicateTerms(question: string, qValues: readonly KeyValue[]): Set<string> {
  const out = new Set<string>();
  for (const t of tokenize(question)) {
    if (isStopword(t.lower) || /^\p{N}/u.test(t.raw)) continue;
    if (qValues.some((v) => t.start < v.end && t.end > v.start)) continue;
    out.add(predicateStem(t.raw));
  }
  return out;
}

/** Role weight of each value of a sentence (see LATER_VALUE_WEIGHT). */
function rolesOf(s: Scored, vals: readonly KeyValue[], predicates: ReadonlySet<string>): number[] {
  const slot = slotsOf(s, vals, predicates);
  if (slot.some(Boolean)) return slot.map((x) => (x ? 1 : LATER_VALUE_WEIGHT));
  return vals.map((_, i) => (i === 0 ? 1 : LATER_VALUE_WEIGHT));
}

/** Which values of a sentence fill the slot of the question's predicate (none when no predicate has one). */
function slotsOf(s: Scored, vals: readonly KeyValue[], predicates: ReadonlySet<string>): boolean[] {
  if (vals.length === 0) return [];
  const toks = tokenize(s.text);
  const preds = toks.map((t, i) => (predicates.has(predicateStem(t.raw)) ? i : -1)).filter((i) => i >= 0);
  // A predicate followed by "by" is passive ("was acquired by Facebook"): its slot is after "by".
  // After "to" it is an infinitive ("France beat Croatia to win"): the word before is no subject.
  const passive = (p: number): boolean => toks[p + 1]?.lower === 'by';
  const infinitive = (p: number): boolean => toks[p - 1]?.lower === 'to';
  const spans = vals.map((v) => tokenSpan(toks, v));
  const slot = vals.map(() => false);
  for (const p of preds) {
    // The nearest value before an active predicate, or the nearest after a passive one's "by".
    let pick = -1;
    spans.forEach(([a, b], k) => {
      if (a < 0) return;
      const fits = passive(p) ? a > p && a - p <= SLOT_WINDOW : !infinitive(p) && p > b && p - b <= SLOT_WINDOW;
      if (!fits) return;
      const dist = passive(p) ? a - p : p - b;
      const best =
        pick < 0
          ? Infinity
          : passive(p)
            ? (spans[pick] as [number, number])[0] - p
            : p - (spans[pick] as [number, number])[1];
      if (dist < best) pick = k;
    });
    if (pick >= 0) slot[pick] = true;
  }
  return slot;
}

/** Groups compatible answer values across sentences and returns the best-supported group. */
function voteAnswer(
  ranked: readonly Scored[],
  question: string,
  o: ExtractiveOptions,
  settled: readonly { readonly kind: ValueKind; readonly key: string; readonly display: string }[],
): Vote | null {
  const type = answerTypeOf(question);
  if (!asksForSpan(type)) return null;
  const qValues = extractValues(question);
  const qFolded = foldText(question);
  const predicates = predicateTerms(question, qValues);
  // "Who was the runner-up?": a value on the other side of the contest is no answer (roles.ts).
  const asked = questionSide(question);
  // "How many blocks …": a number of centimetres or weeks in the same sentence is no count of blocks.
  const counted = countedTerms(question);
  interface Group {
    kind: ValueKind;
    keys: Set<string>;
    /** Most specific key of the group. */
    specific: string;
    /** Best vote per document: repetition inside one document is one source. */
    perSource: Map<string, number>;
    /** Citation ids of the passages stating the value. */
    citations: Set<string>;
    /** Spelling → how many sentences use it, and its raw form. */
    spellings: Map<string, { n: number; raw: string }>;
    /** Best share of the question's rationales covered by one sentence stating the value. */
    coverage: number;
  }
  const groups: Group[] = [];
  for (const s of ranked) {
    if (s.score < o.minScore) continue;
    const vals = answerValues(s, type, qValues, qFolded);
    const slots = rolesOf(s, vals, predicates);
    const sides = asked ? sidesOf(s.text, vals) : [];
    const roles = slots.map((w, k) =>
      sides[k] === asked ? 1 : sides[k] !== null && sides[k] !== undefined ? OPPOSITE_ROLE_WEIGHT : w,
    );
    vals.forEach((v, pos) => {
      // A value joins every group it is compatible with as a whole ("2020" supports both "May
      // 2020" and "June 2020"; those two stay apart); else it starts a group.
      let homes = groups.filter((x) => x.kind === v.kind && [...x.keys].every((k) => compatibleKeys(v.kind, k, v.key)));
      if (homes.length === 0) {
        const g: Group = {
          kind: v.kind,
          keys: new Set(),
          specific: v.key,
          perSource: new Map(),
          citations: new Set(),
          spellings: new Map(),
          coverage: 0,
        };
        groups.push(g);
        homes = [g];
      }
      const w = s.score * (roles[pos] as number) * (s.otherYear ? OTHER_YEAR_WEIGHT : 1) * countFit(s.text, v, counted);
      const cov = s.match.length === 0 ? 1 : s.match.filter((m) => m >= COVERED_MATCH).length / s.match.length;
      for (const g of homes) {
        g.keys.add(v.key);
        if (specificity(v.kind, v.key) > specificity(g.kind, g.specific)) g.specific = v.key;
        const sp = g.spellings.get(v.key);
        g.spellings.set(v.key, { n: (sp?.n ?? 0) + 1, raw: sp?.raw ?? v.raw.replace(/['’]s$/u, '') });
        const doc = s.source.docId;
        g.perSource.set(doc, Math.max(g.perSource.get(doc) ?? 0, w));
        g.citations.add(s.source.citationId);
        g.coverage = Math.max(g.coverage, cov);
      }
    });
  }
  if (groups.length === 0) return null;
  const money = MONEY_QUESTION.test(question);
  const weight = (g: Group): number => {
    const sum = [...g.perSource.values()].reduce((a, b) => a + b, 0);
    // "How much …", "revenue", "price": an amount of money, not a count.
    if (g.kind === 'number' && money && !/(usd|eur|gbp|jpy)$/u.test(g.specific)) return sum * 0.25;
    // Names of people are usually two or more words; a full date beats a month or a year.
    const specific =
      (g.kind === 'entity' && g.specific.split(' ').length >= 2) ||
      (g.kind === 'date' && /^\d{4}-\d{2}-\d{2}$/u.test(g.specific));
    return sum * (specific ? 1.5 : 1) * (won(g) ? SETTLED_WEIGHT : 1);
  };
  // The value the verify stage settled a disagreement on (a resolved conflict on the question).
  const won = (g: Group): boolean =>
    settled.some((x) => x.kind === g.kind && [...g.keys].some((k) => compatibleKeys(g.kind, k, x.key)));
  const best = [...groups].sort((a, b) => weight(b) - weight(a))[0] as Group;
  const total = groups.reduce((a, g) => a + weight(g), 0);
  // Shown as a date or number at its most specific ("May 29, 2020", not "2020").
  // A name in full ("Garry Marshall", not the fragment "Garry"): spellings of two or more words
  // first, then the most used, then the core ("Simona Halep" over "Simona Halep of Romania").
  const multi = (k: string): number => (k.split(' ').length >= 2 ? 1 : 0);
  let displayKey =
    best.kind === 'entity'
      ? [...best.spellings.entries()].sort(
          (a, b) => multi(b[0]) - multi(a[0]) || b[1].n - a[1].n || a[0].length - b[0].length,
        )[0]![0]
      : best.specific;
  let display = best.spellings.get(displayKey)!.raw;
  // The value a resolved conflict settled on is shown as the verifier found it ("Sundar Pichai"
  // rather than the "Pichai" of a later mention), when that is the more specific form.
  const verified = settled.find((x) => x.kind === best.kind && compatibleKeys(best.kind, x.key, displayKey));
  if (verified && specificity(best.kind, verified.key) > specificity(best.kind, displayKey)) {
    displayKey = verified.key;
    display = verified.display;
  }
  return {
    keys: best.keys,
    displayKey,
    display,
    kind: best.kind,
    weight: weight(best),
    sources: best.perSource.size,
    share: total > 0 ? weight(best) / total : 0,
    citationIds: [...best.citations],
    settled: won(best),
    coverage: best.coverage,
  };
}

/** Weight of a passage dated only to other years than the question's ("Djokovic will clinch the 2020 No. 1" for 2019). */
const OTHER_YEAR_WEIGHT = 0.3;

/** Weight multiplier of the answer value a resolved conflict on the question settled on. */
const SETTLED_WEIGHT = 2;

/** The conflict the answer has to state: unresolved, on the question, and touching what the chosen sentences say. */
function conflictToState(conflicts: readonly Conflict[], chosen: readonly Scored[]): Conflict | null {
  const cited = new Set(chosen.map((s) => s.source.citationId));
  const folded = chosen.map((s) => foldText(s.text)).join(' | ');
  for (const c of conflicts) {
    if (c.status !== 'unresolved' || !c.onQuestion) continue;
    const sidesCited = c.sides.filter((s) => s.citationIds.length > 0);
    if (sidesCited.length < 2) continue;
    const touches =
      c.sides.some((s) => s.citationIds.some((id) => cited.has(id))) ||
      c.sides.some((s) => folded.includes(foldText(s.display)));
    if (touches) return c;
  }
  return null;
}

const cite = (ids: readonly string[]): string => ids.map((id) => `[${id}]`).join('');

/** Answers from the packed evidence without a generator. */
export function answerExtractive(input: ExtractiveInput, options: Partial<ExtractiveOptions> = {}): Answer {
  assertKnownOptions(options, DEFAULT_EXTRACTIVE_OPTIONS, 'extractive');
  const o: ExtractiveOptions = { ...DEFAULT_EXTRACTIVE_OPTIONS, ...options };
  checkInt('extractive', 'maxSentences', o.maxSentences, 1, 50);
  checkRange('extractive', 'minScore', o.minScore, 0, 10);
  checkRange('extractive', 'minGain', o.minGain, 0, 100);
  checkRange('extractive', 'typeBonus', o.typeBonus, 0, 10);
  checkRange('extractive', 'positionWeight', o.positionWeight, 0, 10);

  const { all, rationales } = scoreSentences(input, o);
  const ranked = [...all].sort((a, b) => b.score - a.score || a.rank - b.rank || a.index - b.index);
  const first = ranked[0];
  if (!first || first.score < o.minScore) {
    return {
      kind: 'insufficient',
      text: 'The selected documents do not answer this question.',
      sentences: [],
      short: null,
      conflict: null,
      answerer: 'extractive',
      votes: null,
    };
  }
  // Answer redundancy: values of the asked-for kind, voted for by the passages that state them
  // (one vote per passage, its best sentence's score). The best sentence holding the winner leads.
  const settled = (input.conflicts ?? [])
    .filter((c) => c.status === 'resolved' && c.onQuestion && c.winner !== null && c.kind !== 'polarity')
    .map((c) => ({
      kind: c.kind as ValueKind,
      key: c.winner as string,
      display: c.sides.find((x) => x.key === c.winner)?.display ?? (c.winner as string),
    }));
  const documents = documentCount(input);
  const vote = leadingVote(voteAnswer(ranked, input.question, o, settled), first, documents);
  const lead = vote
    ? (ranked.find((x) => x.score >= o.minScore && x.values.some((v) => v.key === vote.displayKey)) ??
      ranked.find((x) => x.values.some((v) => vote.keys.has(v.key))) ??
      first)
    : first;
  const chosen: Scored[] = [lead];
  const best = lead.match.slice();
  const supports = supportRule(vote, input.question);
  while (chosen.length < o.maxSentences) {
    let pick: Scored | null = null;
    let pickGain = 0;
    for (const s of ranked) {
      if (chosen.includes(s) || s.score < o.minScore || !supports(s)) continue;
      const gain = s.match.reduce((g, m, i) => g + Math.max(0, m - (best[i] as number)), 0);
      if (gain > pickGain + 1e-9) {
        pick = s;
        pickGain = gain;
      }
    }
    if (!pick || pickGain < o.minGain) break;
    // The answer is read first: further sentences only while it stays short.
    if (wordCount(chosen) + wordCount([pick]) > ANSWER_WORDS) break;
    chosen.push(pick);
    pick.match.forEach((m, i) => {
      best[i] = Math.max(best[i] as number, m);
    });
  }
  const toSentence = (s: Scored): AnswerSentence => ({
    text: s.text,
    citationId: s.source.citationId,
    score: s.score,
    rationaleIds: rationales.filter((_, i) => (s.match[i] as number) >= 0.6).map((r) => r.id),
  });

  const conflict = conflictToState(input.conflicts ?? [], chosen);
  if (conflict) {
    // One sentence per side: the best-scoring sentence of a passage on that side.
    const sideSentences: Scored[] = [];
    for (const side of conflict.sides) {
      const s = ranked.find((x) => side.citationIds.includes(x.source.citationId));
      if (s && !sideSentences.includes(s)) sideSentences.push(s);
    }
    const sidesText = conflict.sides
      .filter((s) => s.citationIds.length > 0)
      .map((s) => `"${s.display}" according to ${cite(s.citationIds)}`)
      .join('; ');
    const text =
      `The sources disagree: ${sidesText}. They are comparable sources, so neither is asserted here.\n\n` +
      sideSentences.map((s) => `${s.text} [${s.source.citationId}]`).join('\n');
    return {
      kind: 'conflict',
      text,
      sentences: sideSentences.map(toSentence),
      short: null,
      conflict,
      answerer: 'extractive',
      votes: null,
    };
  }

  const short =
    polarityOf(lead, input.question) ??
    (vote && (o.contestedShort || uncontested(lead, vote, input.question, documents))
      ? { text: shownVote(vote, lead, documents), kind: vote.kind, citationId: lead.source.citationId }
      : vote
        ? null
        : shortAnswerOf(chosen.slice(0, 1), input.question, documents));
  const body = chosen.map((s) => `${s.text} [${s.source.citationId}]`).join(' ');
  const runnerUp = ranked.find((x) => !chosen.includes(x))?.score ?? 0;
  return {
    kind: 'answer',
    lead: { coverage: lead.qHit, margin: lead.score - runnerUp },
    text: short ? `${short.text} [${short.citationId}]\n\n${body}` : body,
    sentences: chosen.map(toSentence),
    short,
    conflict: null,
    answerer: 'extractive',
    votes: vote
      ? {
          sources: vote.sources,
          share: vote.share,
          citationIds: vote.citationIds,
          settled: vote.settled,
          coverage: vote.coverage,
        }
      : null,
  };
}

/**
 * The voted value that may lead the answer. Across documents, a value several passages state
 * outvotes one sentence's wording (answer redundancy). Inside one document repetition is no
 * corroboration: a value leads only when the sentence that meets the question best states it;
 * otherwise that sentence answers, and no value is picked out of a sentence that meets the
 * question less ("What organ produces hepcidin?" is answered by "It is produced by the liver …",
 * not by "Fe" from a sentence the vote preferred). A title line is no such sentence: it meets the
 * question's words and states nothing ("NFL Commissioners and Presidents.").
 */
function leadingVote(vote: Vote | null, first: Scored, documents: number): Vote | null {
  if (vote === null || documents >= 2 || isTitleLine(first.text)) return vote;
  return first.values.some((v) => vote.keys.has(v.key)) ? vote : null;
}

/**
 * Share of a yes/no question's terms its lead sentence must hold itself for the sentence to settle
 * it: all of them ("covers dental care for employees" does not settle "… for contractors").
 */
const POLARITY_COVERAGE = 1;

/**
 * The yes or no of a yes/no question, from its lead sentence: only when the sentence holds every
 * one of the question's terms (it states the same thing), "No" when one of the two is negated and the
 * other not ("Does Form 4868 extend the time to pay?" — "Form 4868 does not extend the time to
 * pay"), else "Yes". Null otherwise: the sentence answers, no yes or no is asserted.
 */
function polarityOf(lead: Scored, question: string): ShortAnswer | null {
  if (answerTypeOf(question) !== 'yesno' || lead.qHit < POLARITY_COVERAGE - 1e-9) return null;
  // "Should signatures or MACs be preferred?" asks which, not whether.
  if (ALTERNATIVE.test(mainClause(question))) return null;
  const no = hasNegation(lead.text) !== hasNegation(question);
  return { text: no ? 'No' : 'Yes', kind: 'polarity', citationId: lead.source.citationId };
}

/** Most words an answer's sentences hold together (the lead sentence is kept whatever its length). */
const ANSWER_WORDS = 60;

const wordCount = (xs: readonly Scored[]): number => xs.reduce((n, x) => n + x.text.split(/\s+/u).length, 0);

/**
 * A short answer is shown only when nothing contests it: several documents state it or the
 * evidence spans several documents (the vote weighed the rivals), or its sentence holds no other
 * value of the asked kind. Inside one document there is no second voice, and the sentence's own
 * wording does not settle which of its values answers: "a 5-time pro bowler … the active career
 * sack leader with 136, … Kony Ealy, who had 5 sacks" holds three figures, "Six-time Grammy winner
 * and Academy Award nominee Lady Gaga …, while Academy Award winner Marlee Matlin …" three awards
 * and names. Picking the one nearest the question's words was wrong as often as right (xquad-dev
 * English: 55 of 159 short answers wrong where their sentence is right); the sentence answers.
 */
function uncontested(lead: Scored, vote: Vote, question: string, documents: number): boolean {
  if (vote.sources >= 2 || documents >= 2) return true;
  const vals = answerValues(lead, answerTypeOf(question), extractValues(question), foldText(question));
  const isVoted = (v: KeyValue): boolean => [...vote.keys].some((k) => compatibleKeys(v.kind, k, v.key));
  const stated = lead.values.filter((v) => v.kind === vote.kind && isVoted(v));
  if (stated.length > 0 && !stated.some((v) => fitsAsked(lead, v, question))) return false;
  return vals.every((v) => v.kind !== vote.kind || isVoted(v));
}

/**
 * Inside one document a value answers only when the sentence ties it to what is asked: a name to the
 * noun a "what"/"which" question asks for (`fitsAskedNoun`), a number to what a "how many" question
 * counts ("a single open reading frame" is the count, not the "11" of "11-kb"; `countFit`).
 */
function fitsAsked(s: Scored, v: KeyValue, question: string): boolean {
  return fitsAskedNoun(s.text, v, question) && countFit(s.text, v, countedTerms(question)) === 1;
}

/** The voted figure or date as the lead sentence states it: inside one document with its qualifier ("a median of 13 days", "the end of 2019"). */
function shownVote(vote: Vote, lead: Scored, documents: number): string {
  if (documents >= 2 || vote.kind === 'entity') return vote.display;
  const stated = lead.values.find((v) => v.key === vote.displayKey && v.raw === vote.display);
  return stated ? qualifiedFigure(lead.text, stated) : vote.display;
}

/**
 * Which sentences may be quoted beside a voted answer. For a question that asks one thing, only
 * sentences of the passages that state the answer: another passage's sentence covers the
 * question with another claim and would be quoted as support for this one ("Adele appeared as
 * Swift's guiding light" under "Beyoncé", "… interrupted by a swarm of butterflies" under
 * "Israel"). A question that asks two things ("how many days …, and what is the allowance?")
 * takes its other part from other passages, values of the same kind included.
 */
function supportRule(vote: Vote | null, question: string): (s: Scored) => boolean {
  if (vote === null || (foldText(question).match(QUESTION_WORD) ?? []).length > 1) return () => true;
  return (s) => vote.citationIds.includes(s.source.citationId);
}

/** "12" of "Refer to Note 12": a number that labels a part of the document is no answer. */
function isReferenceNumber(sentence: string, value: string): boolean {
  if (!/^\d{1,3}[A-Z]?$/.test(value.trim())) return false;
  const escaped = value.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    String.raw`\b(?:notes?|items?|parts?|sections?|schedules?|exhibits?|pages?|rules?|articles?|annex|appendix|chapters?|clauses?)\s+${escaped}\b`,
    'i',
  ).test(sentence);
}

/** The table-cell answer as an `Answer` (the cell leads, quoted with its row, header and unit). */
function cellAnswer(cell: TableCell): Answer {
  const values = cell.cells ? cell.cells.map((c) => `${c.value} (${c.column})`).join('; ') : cell.value;
  const short: ShortAnswer = {
    text: cell.unit ? `${values} (in ${cell.unit})` : values,
    kind: 'number',
    citationId: cell.citationId,
  };
  return {
    kind: 'answer',
    text: `${short.text} [${cell.citationId}]\n\n${cell.sentence} [${cell.citationId}]`,
    sentences: [{ text: cell.sentence, citationId: cell.citationId, score: cell.matched, rationaleIds: [] }],
    short,
    conflict: null,
    answerer: 'extractive',
    votes: { sources: 1, share: 1, citationIds: [cell.citationId], settled: false, coverage: 1 },
    table: cell,
  };
}

/**
 * `answerExtractive` over a selection packet. A figure the question asks for by its row and
 * period is read from a table cell first (`table-cell.ts`), unless the evidence conflicts. Over
 * long documents a short answer is a figure or a date, never a name-like span: there, a short
 * capitalised span is most often a row label or a heading ("Net of Recoveries", "Equity Markets").
 */
export function answerFromPacket(packet: EvidencePacket, options: Partial<ExtractiveOptions> = {}): Answer {
  const answer = answerExtractive(
    {
      question: packet.question,
      sources: packet.sources,
      rationales: packet.rationales,
      conflicts: packet.conflicts,
      documents: new Set(packet.candidates.map((c) => c.docId)).size,
    },
    options,
  );
  if (answer.kind === 'conflict') return answer;
  // A computation the question asks for, over the packed tables, with the work shown (compute.ts).
  const computed = computedAnswer(packet.question, packet.sources);
  if (computed) return computed;
  const type = answerTypeOf(packet.question);
  // A figure by row and period answers a question for a number or an amount ("what is the year
  // end amount of accounts payable"), never one for a name or a kind ("which type of debt …").
  if (
    (type === 'number' || type === 'any') &&
    !asksForDerivedFigure(packet.question) &&
    !asksForComputation(packet.question)
  ) {
    const cell = tableCellAnswer(packet.question, packet.sources);
    if (cell) return cellAnswer(cell);
  }
  // Over long documents a short answer is a figure from a cell chosen by row and period (above)
  // or a value in a sentence; never a name-like span, and never a value the generic reader took
  // from a table row, where it cannot tell which column the question asks for.
  const fromRow =
    answer.short !== null &&
    answer.sentences.some(
      (x) =>
        x.citationId === answer.short?.citationId &&
        (x.text.trimStart().startsWith('|') || isReferenceNumber(x.text, answer.short?.text ?? '')),
    );
  // In any document, a value the generic reader took from a table row is a header or a label
  // ("Year Ended", "Percent", a column's year), not the cell the question asks for.
  if (
    answer.kind === 'answer' &&
    (fromRow ||
      (packet.longDocument?.long === true &&
        answer.short?.kind === 'entity' &&
        // A part's label the question asks for ("Which form …?" — "Form 4868") is no heading.
        askedLabelNoun(askedPhrase(mainClause(foldText(packet.question)))?.head) === null))
  ) {
    const body = answer.sentences.map((x) => `${x.text} [${x.citationId}]`).join(' ');
    return { ...answer, text: body, short: null, votes: null };
  }
  return answer;
}
