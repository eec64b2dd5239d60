/**
 * Computed answers with the work shown (issue 27): the operation and operands a question asks for,
 * each operand looked up as a table cell of the packed evidence by its row label and its column's
 * period, the result computed and written out with the formula, every operand quoted with its row,
 * column, page and citation.
 *
 * What is asked (`planOf`), in order:
 *   1. a definition the question gives itself ("X is defined as: A / B") → that formula over the
 *      phrases A, B;
 *   2. a measure of the catalog (`lexicon/measures.ts`) → its formula over its line items;
 *   3. a pair ("the ratio of A to B", "A as a percentage of B", "the difference between A and B",
 *      "the sum of A and B") in one period;
 *   4. one line item over periods: a change (later − earlier), a percentage change (over the
 *      earlier), an average or a sum over the periods named ("from 2017 to 2019" is every year
 *      between; "the 2019 average" of a balance is the mean of its opening and closing values, the
 *      accounting convention for an average balance), or a count of the periods whose figure
 *      passes a bound.
 * Operands (`lookUp`): the rows the phrase names (operands.ts), the columns of the period, narrowed
 * by the phrase's other words; two different figures left → ambiguous, none → missing. Never
 * guessed: an ambiguous or missing operand makes the answer `partial` (the inputs found are quoted,
 * the others named) and the release decision refuses it (abstain.ts, reason `computation`).
 * Scales must agree (a ratio of thousands to millions is refused).
 */
import type { PackedSource } from '../select/pack';
import type { Answer } from './extractive';
import { sourceBody } from './extractive';
import { splitSentences } from '../text/sentences';
import { answerTypeOf } from '../verify/values';
import {
  ABOVE,
  ASKS_REASON,
  AVERAGE,
  BELOW,
  CHANGE,
  COUNT_ITEMS,
  COUNT_PERIODS,
  COUNT_ROWS,
  GENERIC_WORDS,
  DEFINITION,
  PAIR_CONNECTORS,
  PAIR_LEAD,
  PERCENT_CHANGE,
  PERCENT_UNIT,
  RATIO,
  ROUNDING,
  SHARE,
  SUM,
  TOTAL_LABEL,
} from '../lexicon/arithmetic';
import { LINE_ITEMS, measureNamed, type LineItem, type MeasureDefinition } from '../lexicon/measures';
import {
  apply,
  constant,
  evaluate,
  operand,
  operandsOf,
  parseFormula,
  writeFormula,
  writeNumber,
  type Formula,
} from './formula';
import {
  columnsFor,
  figureOf,
  gridOf,
  rowsNamed,
  sentenceFigures,
  wordsOf,
  yearsOf,
  type Grid,
  type GridRow,
  type Scale,
} from './operands';

export const OPERATIONS = [
  'change',
  'percent-change',
  'average',
  'sum',
  'difference',
  'ratio',
  'share',
  'definition',
  'measure',
  'count',
] as const;
export type Operation = (typeof OPERATIONS)[number];

/** One operand as the answer quotes it. */
export interface ComputedOperand {
  readonly name: string;
  readonly value: number;
  /** The cell as printed. */
  readonly printed: string;
  readonly row: string;
  /** The column's whole header ("Domestic September 30, 2019"). */
  readonly column: string;
  /** The header cell that names its period, as printed ("2019", "2019 €m"): what the answer quotes. */
  readonly period: string;
  readonly page: number | null;
  readonly citationId: string;
}

export interface Computed {
  /** 'complete': every operand found, result computed; 'partial': some missing or ambiguous. */
  readonly status: 'complete' | 'partial';
  readonly operation: Operation;
  /** The formula with the operands' names. */
  readonly formula: string;
  /** The formula with the operands' values (complete only). */
  readonly written: string | null;
  readonly operands: readonly ComputedOperand[];
  /** Operands not found, each with why ("not found", "two candidate cells: …"). */
  readonly missing: readonly string[];
  readonly result: number | null;
  /** The result as shown: rounded, with its unit ("−22.22%", "4,227.5 (in millions)"). */
  readonly display: string | null;
  readonly unit: string | null;
  /** One line per lookup: what was looked for and what was found. */
  readonly trace: readonly string[];
  /** Sources cited beyond the operands' (a count of rows cites its table). */
  readonly citationIds?: readonly string[];
  /** Phrases of the question found as line items under another label ("COGS" → "Cost of sales"). */
  readonly named?: readonly string[];
}

/**
 * True when a name the question mentions (a rationale's text, "FY2019 COGS", "PP") is a phrase a
 * complete computation found as a line item: the documents print it under its label, so it is no
 * missing premise. Its words, periods aside, must all be words of one such phrase.
 */
export function resolvesName(computed: Computed, name: string): boolean {
  if (computed.status !== 'complete') return false;
  const words = tokensOf(name.replace(/(?<![\p{L}\p{N}])(?:fy\s?)?(?:19|20)\d{2}(?!\p{N})/giu, ' '));
  return words.length > 0 && (computed.named ?? []).some((phrase) => words.every((w) => tokensOf(phrase).includes(w)));
}

const tokensOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** One cell to look up: a phrase naming its row (or catalog labels), a period. */
interface Lookup {
  readonly phrase: string;
  readonly year: string | null;
  /** The other operand's phrase: its row words serve when this phrase names a column only ("the domestic and international rates"). */
  readonly context?: string;
  /** Catalog row labels (exact, case-insensitive), when the operand is a catalog line item. */
  readonly labels?: readonly string[];
  /** With `labels`: the phrase's words the line item's name left over, which the source must state. */
  readonly rest?: string;
}

type ResultKind = 'percent' | 'ratio' | 'amount' | 'days' | 'count';

interface Plan {
  readonly operation: Operation;
  readonly formula: Formula;
  readonly lookups: ReadonlyMap<string, Lookup>;
  readonly kind: ResultKind;
  /** For a count: the bound and its direction. */
  readonly bound?: { readonly value: number; readonly above: boolean; readonly percent: boolean };
}

// ---------------------------------------------------------------------------------------------
// What is asked

/** Years in order of mention; a range "from 2017 to 2019" / "2017-2019" lists every year between. */
export function periodsOf(question: string, range: boolean): string[] {
  const years = [...new Set(yearsOf(question))];
  const span =
    /\b(?:from|between)\s+(?:fy\s*|fiscal\s+(?:year\s+)?)?((?:19|20)\d{2})\s+(?:to|and|through)\s+(?:fy\s*|fiscal\s+(?:year\s+)?)?((?:19|20)\d{2})\b|\b(?:fy\s?)?((?:19|20)\d{2})\s*[-–]\s*(?:fy\s?)?((?:19|20)\d{2})\b/iu.exec(
      question,
    );
  if (!range || !span) return years;
  const a = Number(span[1] ?? span[3]);
  const b = Number(span[2] ?? span[4]);
  const out: string[] = [];
  for (let y = Math.min(a, b); y <= Math.max(a, b) && out.length < 12; y++) out.push(String(y));
  return out;
}

const PERIOD_WORDS =
  /\b(?:fy\s*)?(?:19|20)\d{2}\b|\b(?:fiscal(?:\s+years?)?|years?|periods?|fy|q[1-4]|from|to|between|in|during|for|and|both|as\s+(?:at|of)|the|what|was|were|is|are|how|much|did|by|of|on|at|end|over|across|respectively)\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*\s+\d{1,2},?/giu;

/**
 * The subject of a question: its words without the periods' and without the wording of the
 * operation asked (`cue`, its first match only: "Total" or "Average price" may name the row).
 */
function subjectOf(question: string, cue: RegExp | null = null): string {
  const s = cue ? question.replace(new RegExp(cue.source, 'giu'), ' ') : question;
  // The unit the result is asked in ("…, in percent?") names no line item.
  return s
    .replace(new RegExp(PERCENT_UNIT.source, 'giu'), ' ')
    .replace(PERIOD_WORDS, ' ')
    .replace(/[?]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[,;:\s]+|[,;:\s]+$/gu, '');
}

/** The two operand phrases of a pair ("ratio of A to B") and the words that asked for it, or null. */
function pairOf(question: string): { a: string; b: string; cue: string } | null {
  const lead = PAIR_LEAD.exec(question);
  const clause = lead ? question.slice(lead.index + lead[0].length) : question;
  for (const connector of PAIR_CONNECTORS) {
    const m = connector.exec(clause);
    if (!m) continue;
    const a = clause.slice(0, m.index);
    const b = clause.slice(m.index + m[0].length);
    const left = subjectOf(a);
    const right = subjectOf(b);
    // "between 2018 and 2019" pairs periods, not operands.
    if (wordsOf(left).length === 0 || wordsOf(right).length === 0) return null;
    return { a: left, b: right, cue: lead ? lead[0] : m[0] };
  }
  return null;
}

/**
 * An operand phrase of a definition with its own periods: "average PP&E between FY2017 and
 * FY2018" → the mean of both years' cells, "change in inventory between FY2019 and FY2020" → the
 * later less the earlier, "FY2018 revenue" → that year's cell; otherwise the question's period.
 */
function definedOperand(phrase: string, year: string | null, lookups: Map<string, Lookup>): Formula {
  const own = [...new Set(yearsOf(phrase))].sort();
  const average = AVERAGE.test(phrase);
  const change = !average && CHANGE.test(phrase);
  // The phrase as written, less its periods and its average or change: "cash from operations" must
  // stay whole for the line items (`lineItemIn`).
  const words = phrase
    .replace(average ? AVERAGE : change ? CHANGE : /$^/u, ' ')
    .replace(
      /\b(?:between|from|to|and|in|of)\b(?=[\s,]*(?:fy\s?)?(?:19|20)?\d{2}\b)|(?<![\p{L}\p{N}])(?:fy\s?|f)?(?:19|20)\d{2}(?!\p{N})/giu,
      ' ',
    )
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(?:(?:in|of|the)\s+)+|(?:\s+(?:in|of|for))+$/giu, '');
  const at = (y: string | null): Formula => {
    const key = `${words}${y ? ` (${y})` : ''}`;
    lookups.set(key, { phrase: words, year: y });
    return operand(key);
  };
  if ((average || change) && own.length >= 2) {
    if (change) return apply('-', at(own[own.length - 1] as string), at(own[0] as string));
    return apply(
      '/',
      own.map(at).reduce((x, y) => apply('+', x, y)),
      constant(own.length),
    );
  }
  return at(own[own.length - 1] ?? year);
}

function definitionPlan(question: string, years: readonly string[]): Plan | null {
  const m = DEFINITION.exec(question);
  if (!m) return null;
  const text =
    question.slice(m.index + m[0].length).split(/[?;\n]|\.(?:\s|$)|\b(?:where|and\s+use|using|round)\b/iu)[0] ?? '';
  const written = parseFormula(text);
  if (!written) return null;
  const year = years[years.length - 1] ?? null;
  const lookups = new Map<string, Lookup>();
  const expand = (f: Formula): Formula =>
    f.kind === 'operand'
      ? definedOperand(f.name, year, lookups)
      : f.kind === 'apply'
        ? apply(f.op, expand(f.left), expand(f.right))
        : f;
  const formula = expand(written);
  return { operation: 'definition', formula, lookups, kind: PERCENT_UNIT.test(question) ? 'percent' : 'ratio' };
}

function measurePlan(measure: MeasureDefinition, years: readonly string[]): Plan | null {
  const formula = parseFormula(measure.formula);
  if (!formula) return null;
  const year = years[years.length - 1] ?? null;
  const lookups = new Map(
    operandsOf(formula).map((name) => [name, { phrase: name, year, labels: measure.items[name] ?? [name] }]),
  );
  const kind: ResultKind =
    measure.unit === 'percent'
      ? 'percent'
      : measure.unit === 'days'
        ? 'days'
        : measure.unit === 'amount'
          ? 'amount'
          : 'ratio';
  return { operation: 'measure', formula, lookups, kind };
}

function pairPlan(question: string, years: readonly string[]): Plan | null {
  if (years.length > 1) return null;
  const pair = pairOf(question);
  if (!pair) return null;
  const year = years[0] ?? null;
  const { a, b, cue } = pair;
  const lookups = new Map([
    ['A', { phrase: a, year, context: b }],
    ['B', { phrase: b, year, context: a }],
  ]);
  const A = operand('A');
  const B = operand('B');
  const share = {
    operation: 'share',
    formula: apply('*', apply('/', A, B), constant(100)),
    lookups,
    kind: 'percent',
  } as const;
  const ratio = { operation: 'ratio', formula: apply('/', A, B), lookups, kind: 'ratio' } as const;
  const sum = { operation: 'sum', formula: apply('+', A, B), lookups, kind: 'amount' } as const;
  const difference = { operation: 'difference', formula: apply('-', A, B), lookups, kind: 'amount' } as const;
  // The words that joined the pair decide first ("the difference between total A and B" is no sum).
  for (const text of [cue, question]) {
    if (RATIO.test(text)) return ratio;
    if (SHARE.test(text)) return share;
    if (CHANGE.test(text)) return difference;
    if (SUM.test(text)) return sum;
  }
  return null;
}

/** The cue of a one-item operation, most specific first. */
const SERIES_CUES: readonly RegExp[] = [PERCENT_CHANGE, AVERAGE, CHANGE, SUM];

function seriesPlan(question: string): Plan | null {
  const cue = SERIES_CUES.find((re) => re.test(question)) ?? null;
  const subject = subjectOf(question, cue);
  if (!/\p{L}/u.test(subject)) return null;
  const average = cue === AVERAGE;
  const years = periodsOf(question, average || SUM.test(question));
  const sorted = [...years].sort();
  const at = (y: string): Formula => operand(y);
  const lookupsOf = (ys: readonly string[]) => new Map(ys.map((y) => [y, { phrase: subject, year: y }]));
  if (COUNT_PERIODS.test(question)) {
    const bound = boundOf(question);
    return bound ? { operation: 'count', formula: constant(0), lookups: new Map(), kind: 'count', bound } : null;
  }
  if (average) {
    // "the 2019 average" of a balance: its opening (2018) and closing (2019) values.
    const ys = sorted.length === 1 ? [String(Number(sorted[0]) - 1), sorted[0] as string] : sorted;
    if (ys.length < 2) return null;
    const total = ys.map(at).reduce((x, y) => apply('+', x, y));
    return {
      operation: 'average',
      formula: apply('/', total, constant(ys.length)),
      lookups: lookupsOf(ys),
      kind: 'amount',
    };
  }
  if (sorted.length < 2) return null;
  const old = at(sorted[0] as string);
  const recent = at(sorted[sorted.length - 1] as string);
  const two = lookupsOf([sorted[0] as string, sorted[sorted.length - 1] as string]);
  if (cue === PERCENT_CHANGE || (cue === CHANGE && PERCENT_UNIT.test(question)))
    return {
      operation: 'percent-change',
      formula: apply('*', apply('/', apply('-', recent, old), old), constant(100)),
      lookups: two,
      kind: 'percent',
    };
  if (cue === CHANGE) return { operation: 'change', formula: apply('-', recent, old), lookups: two, kind: 'amount' };
  if (cue === SUM) {
    const total = sorted.map(at).reduce((x, y) => apply('+', x, y));
    return { operation: 'sum', formula: total, lookups: lookupsOf(sorted), kind: 'amount' };
  }
  return null;
}

/** The bound of a count ("exceed $200,000 thousand" → 200000 above). */
function boundOf(question: string): { value: number; above: boolean; percent: boolean } | null {
  const above = ABOVE.test(question);
  if (!above && !BELOW.test(question)) return null;
  const m = /(?:exceed\w*|above|than|over|under|below)\s+(?:US)?\$?\s*(\d[\d,]*(?:\.\d+)?)\s*(%|percent)?/iu.exec(
    question,
  );
  if (!m) return null;
  return { value: Number((m[1] as string).replace(/,/g, '')), above, percent: m[2] !== undefined };
}

/**
 * The clause that asks: the first sentence that ends in a question mark (a request may wrap it in
 * a role and instructions: "You are an analyst … Here's the question: what is …?").
 */
function askingClause(question: string): string {
  const sentences = question.split(/(?<=[?.!])\s+(?=\S)/u);
  const asking = sentences.find((x) => x.trimEnd().endsWith('?')) ?? question;
  return asking.replace(/^.*?:\s*(?=\p{L})/u, '');
}

/** What the question asks to compute, or null when it asks for none this stage can do. */
export function planOf(question: string): Plan | null {
  const defined = definitionPlan(question, [...new Set(yearsOf(question))]);
  if (defined) return defined;
  const clause = askingClause(question);
  const years = [...new Set(yearsOf(clause))];
  // A count of periods is one line item over periods, whatever connectors its clause holds.
  const asked = COUNT_PERIODS.test(clause) ? seriesPlan(clause) : (pairPlan(clause, years) ?? seriesPlan(clause));
  // A measure over periods ("the 2019 average free cash flow") is a row of its own.
  const measure = measureNamed(question);
  if (measure && (!asked || asked.operation === 'ratio' || asked.operation === 'share'))
    return measurePlan(measure, years);
  // "the FY2018 – FY2020 3 year average of capex as a % of revenue": the measure in each year, averaged.
  if (measure && asked?.operation === 'average' && measure.unit !== 'amount')
    return averagedMeasurePlan(
      measure,
      [...asked.lookups.values()].map((l) => l.year as string),
    );
  return asked;
}

/** A catalog measure computed in each of `years` and averaged (each year's items are its own cells). */
function averagedMeasurePlan(measure: MeasureDefinition, years: readonly string[]): Plan | null {
  const one = parseFormula(measure.formula);
  if (!one || years.length < 2) return null;
  const lookups = new Map<string, Lookup>();
  const inYear = (f: Formula, y: string): Formula => {
    if (f.kind === 'constant') return f;
    if (f.kind === 'apply') return apply(f.op, inYear(f.left, y), inYear(f.right, y));
    lookups.set(`${f.name} ${y}`, { phrase: f.name, year: y, labels: measure.items[f.name] ?? [f.name] });
    return operand(`${f.name} ${y}`);
  };
  const total = years.map((y) => inYear(one, y)).reduce((a, b) => apply('+', a, b));
  const kind: ResultKind = measure.unit === 'percent' ? 'percent' : measure.unit === 'days' ? 'days' : 'ratio';
  return { operation: 'average', formula: apply('/', total, constant(years.length)), lookups, kind };
}

// ---------------------------------------------------------------------------------------------
// Operands

/** A found cell, or why none was taken. */
type Found =
  | {
      readonly named?: string;
      readonly cell: ComputedOperand;
      readonly scale: Scale | null;
      readonly percent: boolean;
      readonly decimals: number;
    }
  | { readonly why: string };

/** A label compared with a catalog label: notes in parentheses, footnote digits and dot leaders left out. */
const norm = (label: string): string =>
  label
    .toLowerCase()
    .replace(/\([^()]*\)/gu, ' ')
    .replace(/[^\p{L}]+/gu, ' ')
    .trim();

/** Rows for a lookup: catalog labels exactly, else the rows the phrase names with the best score. */
function candidateRows(grids: readonly Grid[], lookup: Lookup) {
  if (lookup.labels) {
    for (const label of lookup.labels) {
      const hits = grids.flatMap((grid) =>
        grid.rows.filter((row) => norm(row.label) === norm(label)).map((row) => ({ grid, row, score: 1 })),
      );
      if (hits.length > 0) return hits;
    }
    return [];
  }
  let named = rowsNamed(grids, lookup.phrase);
  if (named.length === 0 && lookup.context) named = rowsNamed(grids, `${lookup.phrase} ${lookup.context}`);
  const best = named[0]?.score ?? 0;
  const top = named.filter((m) => m.score === best);
  // A section the phrase names prefers its rows only over rows of other sections, never over a row
  // whose table prints no section (it may be the one meant): those stay candidates.
  const label = Math.min(...top.map((m) => wordsOf(m.row.label).length));
  return [
    ...top,
    ...named.filter((m) => m.score < best && m.row.section === '' && wordsOf(m.row.label).length === label),
  ];
}

/** Columns of a row for the lookup's period, narrowed to those whose header holds most of the phrase's other words. */
function columnsOfRow(grid: Grid, cells: readonly string[], lookup: Lookup, label: string): number[] {
  const withFigure = columnsFor(grid, lookup.year).filter((j) => figureOf(cells[j] ?? '') !== null);
  if (withFigure.length <= 1) return withFigure;
  const own = new Set(wordsOf(label));
  const rest = wordsOf(lookup.phrase).filter((w) => !own.has(w));
  const score = (j: number): number => {
    const header = new Set(wordsOf(grid.columns[j] ?? ''));
    return rest.filter((w) => header.has(w)).length;
  };
  const top = Math.max(...withFigure.map(score));
  return withFigure.filter((j) => score(j) === top);
}

/** The one cell a lookup names, or why there is none (missing, or two different figures). */
/**
 * The one cell a lookup names: by the rows the phrase names, else (when those leave it missing or
 * loose) by the line item the phrase names (`lexicon/measures.ts`: "total revenue" → "Total net
 * revenue"), the phrase's other words still required of the source.
 */
function lookUp(grids: readonly Grid[], texts: ReadonlyMap<string, string>, name: string, lookup: Lookup): Found {
  const first = lookUpCells(grids, texts, name, lookup);
  if (!('why' in first) || lookup.labels || /candidate cells/u.test(first.why)) return first;
  const item = lineItemIn(lookup.phrase);
  if (!item) return first;
  const second = lookUpCells(grids, texts, name, { ...lookup, labels: item.item.labels, rest: item.rest });
  return 'why' in second ? first : { ...second, named: lookup.phrase };
}

/** The line item a phrase names (its longest alias inside the phrase) and the phrase's other words. */
function lineItemIn(phrase: string): { item: LineItem; rest: string } | null {
  let best: { item: LineItem; rest: string; length: number } | null = null;
  for (const item of LINE_ITEMS) {
    const source = item.aliases.source.replace(/^\^/u, '').replace(/\$$/u, '');
    const m = new RegExp(`\\b(?:${source})(?![\\p{L}\\p{N}])`, 'iu').exec(phrase);
    if (m && (!best || m[0].length > best.length))
      best = { item, rest: `${phrase.slice(0, m.index)} ${phrase.slice(m.index + m[0].length)}`, length: m[0].length };
  }
  return best ? { item: best.item, rest: best.rest } : null;
}

function lookUpCells(grids: readonly Grid[], texts: ReadonlyMap<string, string>, name: string, lookup: Lookup): Found {
  const found: Extract<Found, { cell: ComputedOperand }>[] = [];
  for (const { grid, row } of candidateRows(grids, lookup)) {
    for (const j of columnsOfRow(grid, row.cells, lookup, row.label)) {
      const printed = row.cells[j] as string;
      const figure = figureOf(printed) as NonNullable<ReturnType<typeof figureOf>>;
      const column = grid.columns[j] ?? '';
      const period = grid.periods[j] || column;
      found.push({
        cell: {
          name,
          value: figure.value,
          printed,
          row: row.label,
          column,
          period,
          page: grid.page,
          citationId: grid.citationId,
        },
        scale: grid.scale,
        percent: figure.percent,
        decimals: figure.decimals,
      });
    }
  }
  const values = new Set(found.map((f) => f.cell.value));
  if (found.length === 0) return { why: `${describe(name, lookup)}: no cell found` };
  const loose = found.find((f) => !covers(f.cell, texts, lookup));
  if (loose) return { why: `${describe(name, lookup)}: the closest row, “${loose.cell.row}”, names only part of it` };
  if (values.size > 1)
    return {
      why: `${describe(name, lookup)}: ${found.length} candidate cells (${found
        .slice(0, 3)
        .map((f) => `${f.cell.row}, ${f.cell.column}: ${f.cell.printed} [${f.cell.citationId}]`)
        .join('; ')})`,
    };
  return found[0] as Found;
}

/**
 * The cell's source states every word of the phrase (the row label, its section, the column, the
 * title or another row): "net income" does not answer "basic net income per share" from a table
 * that never says "basic". Words that name no line item (`GENERIC_WORDS`) are not required.
 */
function covers(cell: ComputedOperand, sources: ReadonlyMap<string, string>, lookup: Lookup): boolean {
  // A parenthetical is an aside ("Block (formerly known as Square)") and a possessive names the
  // owner ("Adobe's operating income"), not the line item: their words are not required.
  const required = (lookup.labels ? (lookup.rest ?? '') : lookup.phrase)
    .replace(/\([^()]*\)/gu, ' ')
    .replace(/[\p{L}\p{N}&.-]+['’]s\b/gu, ' ');
  const around = new Set(wordsOf(sources.get(cell.citationId) ?? ''));
  return wordsOf(required).every((w) => around.has(w) || GENERIC_WORDS.has(w));
}

const describe = (name: string, lookup: Lookup): string =>
  lookup.labels
    ? `${name}${lookup.year ? ` (${lookup.year})` : ''}`
    : `“${lookup.phrase}”${lookup.year ? ` (${lookup.year})` : ''}`;

// ---------------------------------------------------------------------------------------------
// The result

const VERB: Readonly<Record<Operation, string>> = {
  change: 'Change',
  'percent-change': 'Percentage change',
  average: 'Average',
  sum: 'Sum',
  difference: 'Difference',
  ratio: 'Ratio',
  share: 'Share',
  definition: 'As defined',
  measure: 'Measure',
  count: 'Count',
};

/** The scale a question asks its amount in ("in USD millions"), or null. */
function askedScale(question: string): Scale | null {
  const m = /\bin\s+(?:USD\s+|US\$\s*|\$\s*)?(thousands|millions|billions)\b/iu.exec(question);
  return m ? ((m[1] as string).toLowerCase() as Scale) : null;
}

const DIGITS: Readonly<Record<string, number>> = { zero: 0, one: 1, two: 2, three: 3, four: 4 };

/** Decimals the question asks its result rounded to ("round your answer to two decimal places"), or null. */
function roundingOf(question: string): number | null {
  const m = ROUNDING.exec(question);
  if (!m) return null;
  const d = m[1] as string;
  return DIGITS[d.toLowerCase()] ?? Number(d);
}

const FACTOR: Readonly<Record<Scale, number>> = { thousands: 1e3, millions: 1e6, billions: 1e9 };

function fixed(value: number, min: number, max: number): string {
  const text = Math.abs(value).toLocaleString('en-US', { minimumFractionDigits: min, maximumFractionDigits: max });
  return value < 0 ? `−${text}` : text;
}

/** The result as shown, with its unit; null when the operands' units disagree. */
function display(
  question: string,
  plan: Plan,
  value: number,
  found: readonly Extract<Found, { cell: ComputedOperand }>[],
): { text: string; unit: string | null; value: number } | null {
  const scales = new Set(found.map((f) => f.scale));
  const percents = new Set(found.map((f) => f.percent));
  if (scales.size > 1 || percents.size > 1) return null;
  const scale = found[0]?.scale ?? null;
  const percent = found[0]?.percent ?? false;
  const decimals = Math.min(2, Math.max(0, ...found.map((f) => f.decimals)));
  const asked = roundingOf(question);
  if (asked !== null) {
    const suffix = plan.kind === 'percent' ? '%' : plan.kind === 'days' ? ' days' : '';
    if (plan.kind !== 'amount' || (!percent && !askedScale(question)))
      return {
        text: `${fixed(value, asked, asked)}${suffix}${plan.kind === 'amount' && scale ? ` (in ${scale})` : ''}`,
        unit: suffix.trim() || scale,
        value,
      };
  }
  if (plan.kind === 'percent') return { text: `${fixed(value, 2, 2)}%`, unit: '%', value };
  if (plan.kind === 'ratio')
    return { text: fixed(value, Math.abs(value) < 0.1 ? 4 : 2, Math.abs(value) < 0.1 ? 4 : 2), unit: null, value };
  if (plan.kind === 'days') return { text: `${fixed(value, 1, 1)} days`, unit: 'days', value };
  if (percent) {
    const pp = plan.operation === 'change' || plan.operation === 'difference';
    return {
      text: pp ? `${fixed(value, decimals, 2)} percentage points` : `${fixed(value, decimals, 2)}%`,
      unit: pp ? 'percentage points' : '%',
      value,
    };
  }
  const inScale = askedScale(question);
  if (inScale && scale && inScale !== scale) {
    const v = (value * FACTOR[scale]) / FACTOR[inScale];
    return { text: `${fixed(v, 0, 2)} (in ${inScale})`, unit: inScale, value: v };
  }
  return { text: `${fixed(value, decimals, 2)}${scale ? ` (in ${scale})` : ''}`, unit: scale, value };
}

/** A count of the periods of one row whose figure passes the question's bound. */
function countOf(question: string, plan: Plan, grids: readonly Grid[]): Computed | null {
  const bound = plan.bound;
  if (!bound) return null;
  const lookup: Lookup = { phrase: subjectOfCount(question), year: null };
  const rows = candidateRows(grids, lookup);
  if (rows.length !== 1) return null;
  const { grid, row } = rows[0] as (typeof rows)[number];
  const operands: ComputedOperand[] = [];
  const seen = new Set<string>();
  for (let j = 1; j < grid.columns.length; j++) {
    const years = yearsOf(grid.columns[j] ?? '');
    const figure = figureOf(row.cells[j] ?? '');
    if (years.length !== 1 || !figure || seen.has(years[0] as string)) continue;
    seen.add(years[0] as string);
    const column = grid.columns[j] ?? '';
    const period = grid.periods[j] || column;
    operands.push({
      name: years[0] as string,
      value: figure.value,
      printed: row.cells[j] as string,
      row: row.label,
      column,
      period,
      page: grid.page,
      citationId: grid.citationId,
    });
  }
  if (operands.length < 2) return null;
  // A bound in percent counts percentages, an amount counts amounts: never 315,535 against 20 %.
  const percents = operands.map((o) => figureOf(o.printed)?.percent === true);
  if (percents.some((p) => p !== bound.percent)) return null;
  const passing = operands.filter((o) => (bound.above ? o.value > bound.value : o.value < bound.value));
  const formula = `periods of ${row.label} ${bound.above ? '>' : '<'} ${bound.value.toLocaleString('en-US')}`;
  const failing = operands.filter((o) => !passing.includes(o));
  const list = (os: readonly ComputedOperand[]): string => os.map((o) => `${o.period} (${o.printed})`).join(', ');
  // Figures the passages print only: the bound is the question's, the count is the short answer.
  const written = `${row.label}: ${bound.above ? 'above' : 'below'} the bound in ${list(passing) || 'no period'}${failing.length > 0 ? `; not in ${list(failing)}` : ''}`;
  return {
    status: 'complete',
    operation: 'count',
    formula,
    written,
    operands,
    missing: [],
    result: passing.length,
    display: String(passing.length),
    unit: null,
    trace: [`count: row “${row.label}” [${grid.citationId}], ${operands.length} periods, ${passing.length} pass`],
  };
}

const subjectOfCount = (question: string): string =>
  subjectOf(
    question
      .replace(/\b(?:how\s+many|exceed\w*|above|below|more|less|greater|higher|lower|than|over|under)\b/giu, ' ')
      .replace(/\$?\d[\d,]*(?:\.\d+)?\s*(?:thousand|million|billion)?/giu, ' '),
  );

/**
 * The operands of one line item over periods (a change, a growth rate, an average, a sum), read from
 * the one sentence that names the item with all its words and states a figure for each period
 * (operands.ts `sentenceFigures`): "The effective tax rate was 21.6 percent and 24.6 percent for
 * fiscal 2019 and 2018, respectively." Null when no sentence or two sentences that disagree do.
 */
function statedOver(
  plan: Plan,
  sources: readonly PackedSource[],
): Map<string, Extract<Found, { cell: ComputedOperand }>> | null {
  const lookups = [...plan.lookups.values()];
  const phrase = lookups[0]?.phrase ?? '';
  const years = lookups.map((l) => l.year);
  if (years.some((y) => y === null) || lookups.some((l) => l.phrase !== phrase || l.labels)) return null;
  const required = wordsOf(phrase.replace(/\([^()]*\)/gu, ' ').replace(/[\p{L}\p{N}&.-]+['’]s\b/gu, ' ')).filter(
    (w) => !GENERIC_WORDS.has(w),
  );
  if (required.length === 0) return null;
  const readings: Map<string, Extract<Found, { cell: ComputedOperand }>>[] = [];
  for (const source of sources) {
    const body = sourceBody(source);
    for (const span of splitSentences(body)) {
      const sentence = body.slice(span.start, span.end).trim();
      if (sentence.startsWith('|')) continue;
      const words = new Set(wordsOf(sentence));
      if (!required.every((w) => words.has(w))) continue;
      const figures = sentenceFigures(sentence, years as string[]);
      if (!figures) continue;
      const quoted = sentence.length > 90 ? `${sentence.slice(0, 87)}…` : sentence;
      readings.push(
        new Map(
          figures.map((f) => [
            f.year,
            {
              cell: {
                name: f.year,
                value: f.value,
                printed: f.printed,
                row: quoted,
                column: f.year,
                period: f.year,
                page: source.page ?? null,
                citationId: source.citationId,
              },
              scale: null,
              percent: f.percent,
              decimals: f.decimals,
            },
          ]),
        ),
      );
    }
  }
  const key = (m: Map<string, Extract<Found, { cell: ComputedOperand }>>): string =>
    [...m.values()]
      .map((f) => `${f.cell.name}=${f.cell.value}`)
      .sort()
      .join(';');
  return readings.length > 0 && new Set(readings.map(key)).size === 1
    ? (readings[0] as (typeof readings)[number])
    : null;
}

/**
 * A count of the items a table lists under a section the question names ("how many components are
 * there under deferred tax assets?"): the rows of that section, totals left out, the items listed.
 * Null when no section or two sections with different counts answer.
 */
function countRows(question: string, grids: readonly Grid[]): Computed | null {
  const phrase = COUNT_ROWS.exec(question)?.[1];
  if (!phrase) return null;
  const words = new Set(wordsOf(phrase));
  const counts = new Map<string, { grid: Grid; rows: Grid['rows'] }>();
  for (const grid of grids) {
    const sections = new Set(grid.rows.map((r) => r.section).filter((x) => x !== ''));
    for (const section of sections) {
      const own = wordsOf(section);
      if (own.length === 0 || !own.every((w) => words.has(w)) || own.length * 2 < words.size) continue;
      const rows = grid.rows.filter((r) => r.section === section && !TOTAL_LABEL.test(r.label) && r.label !== '');
      const j = grid.columns.findIndex((_, k) => k > 0 && rows.every((r) => figureOf(r.cells[k] ?? '') !== null));
      if (rows.length === 0 || j < 0 || !sumsToTotal(grid, rows, j)) continue;
      counts.set(`${grid.citationId}|${section}`, { grid, rows });
    }
  }
  const sizes = new Set([...counts.values()].map((c) => c.rows.length));
  if (counts.size === 0 || sizes.size !== 1) return null;
  const { grid, rows } = [...counts.values()][0] as { grid: Grid; rows: Grid['rows'] };
  if (rows.length === 0) return null;
  const section = rows[0]?.section ?? '';
  return {
    status: 'complete',
    operation: 'count',
    formula: `rows under ${section}`,
    written: `${section}: ${rows.map((r) => r.label).join('; ')}`,
    operands: [],
    missing: [],
    result: rows.length,
    display: String(rows.length),
    unit: null,
    trace: [`count: ${rows.length} rows under “${section}” [${grid.citationId}]`],
    citationIds: [grid.citationId],
  };
}

/**
 * The counted rows are the whole list: a total row printed after them equals their sum in column
 * `j` (to the precision printed). A chunk may hold only part of a long table; without its total
 * the count would be of the rows that happen to be packed.
 */
function sumsToTotal(grid: Grid, rows: readonly GridRow[], j: number): boolean {
  const last = grid.rows.indexOf(rows[rows.length - 1] as GridRow);
  const total = grid.rows.slice(last + 1).find((r) => TOTAL_LABEL.test(r.label));
  const t = total ? figureOf(total.cells[j] ?? '') : null;
  if (!t) return false;
  const figures = rows.map((r) => figureOf(r.cells[j] ?? ''));
  if (figures.some((f) => f === null)) return false;
  const sum = figures.reduce((a, f) => a + (f as NonNullable<typeof f>).value, 0);
  const decimals = Math.max(t.decimals, ...figures.map((f) => (f as NonNullable<typeof f>).decimals));
  return Math.abs(sum - t.value) <= 0.5 * 10 ** -decimals * rows.length + 1e-9;
}

/** The one column of a grid a count reads: the question's year, narrowed by its other words; -1 when not one. */
function countColumn(grid: Grid, year: string | null, words: ReadonlySet<string>): number {
  const columns = columnsFor(grid, year).filter((j) => grid.rows.some((r) => figureOf(r.cells[j] ?? '') !== null));
  const score = (j: number): number => wordsOf(grid.columns[j] ?? '').filter((w) => words.has(w)).length;
  const top = Math.max(0, ...columns.map(score));
  const best = columns.filter((j) => score(j) === top);
  // A column the question's words name better, outside the year's (a spanning year header set over
  // the wrong column), leaves the column in doubt.
  const any = columnsFor(grid, null).filter((j) => !columns.includes(j));
  if (any.some((j) => score(j) > top)) return -1;
  return best.length === 1 ? (best[0] as number) : -1;
}

/**
 * A count of the rows of a table whose figure in the period asked passes the question's bound
 * ("how many segments in 2019 were above $50 million?"): totals left out, the rows listed. Null
 * when no table, or two tables with different counts, answer; or the bound's unit differs.
 */
function countRowsPast(question: string, grids: readonly Grid[]): Computed | null {
  const bound = boundOf(question);
  if (!bound) return null;
  const years = [...new Set(yearsOf(question))];
  if (years.length > 1) return null;
  const words = new Set(wordsOf(question));
  const answers: { grid: Grid; j: number; rows: GridRow[] }[] = [];
  for (const grid of grids) {
    const j = countColumn(grid, years[0] ?? null, words);
    if (j < 0) continue;
    const named = grid.rows.filter((r) => r.section !== '' && wordsOf(r.section).every((w) => words.has(w)));
    const rows = (named.length > 0 ? named : grid.rows).filter(
      (r) => !TOTAL_LABEL.test(r.label) && r.label !== '' && figureOf(r.cells[j] ?? '') !== null,
    );
    if (rows.length < 2 || rows.some((r) => figureOf(r.cells[j] ?? '')?.percent !== bound.percent)) continue;
    if (!sumsToTotal(grid, rows, j)) continue;
    answers.push({ grid, j, rows });
  }
  const value = (r: GridRow, j: number): number => figureOf(r.cells[j] ?? '')?.value ?? Number.NaN;
  const passes = (v: number): boolean => (bound.above ? v > bound.value : v < bound.value);
  const counts = new Set(answers.map((a) => a.rows.filter((r) => passes(value(r, a.j))).length));
  if (answers.length === 0 || counts.size !== 1) return null;
  const { grid, j, rows } = answers[0] as (typeof answers)[number];
  const passing = rows.filter((r) => passes(value(r, j)));
  const list = (rs: readonly GridRow[]): string => rs.map((r) => `${r.label} (${r.cells[j] as string})`).join(', ');
  const column = grid.periods[j] || grid.columns[j] || '';
  return {
    status: 'complete',
    operation: 'count',
    formula: `rows with ${column} ${bound.above ? '>' : '<'} ${bound.value.toLocaleString('en-US')}`,
    written: `${column}: ${bound.above ? 'above' : 'below'} the bound in ${list(passing) || 'no row'}${passing.length < rows.length ? `; not in ${list(rows.filter((r) => !passing.includes(r)))}` : ''}`,
    operands: [],
    missing: [],
    result: passing.length,
    display: String(passing.length),
    unit: null,
    trace: [`count: ${rows.length} rows of [${grid.citationId}] in “${column}”, ${passing.length} pass`],
    citationIds: [grid.citationId],
  };
}

/**
 * The computation a question asks for over the packed sources' tables, or null when it asks for
 * none this stage can do or no operand was found at all (the question is then refused as before).
 */
export function computeOver(question: string, sources: readonly PackedSource[]): Computed | null {
  const grids = sources.map(gridOf).filter((g): g is Grid => g !== null && g.rows.length > 0);
  if (COUNT_ROWS.test(question)) return grids.length > 0 ? countRows(question, grids) : null;
  if (COUNT_ITEMS.test(question) && !COUNT_PERIODS.test(question))
    return grids.length > 0 ? countRowsPast(question, grids) : null;
  const plan = planOf(question);
  if (!plan) return null;
  if (plan.operation === 'count') return countOf(question, plan, grids);
  const texts = new Map(sources.map((x) => [x.citationId, x.text]));
  const trace: string[] = [];
  const found = new Map<string, Extract<Found, { cell: ComputedOperand }>>();
  const missing: string[] = [];
  for (const [name, lookup] of plan.lookups) {
    const f = lookUp(grids, texts, name, lookup);
    if ('why' in f) {
      missing.push(f.why);
      trace.push(`${name}: ${f.why}`);
    } else {
      found.set(name, f);
      trace.push(`${name}: ${f.cell.row}, ${f.cell.column} = ${f.cell.printed} [${f.cell.citationId}]`);
    }
  }
  // No cell for one line item over periods: a sentence that states its figure for each period.
  if (found.size === 0 && missing.every((m) => m.endsWith('no cell found'))) {
    const stated = statedOver(plan, sources);
    if (stated) for (const [name, f] of stated) found.set(name, f);
    if (stated) missing.length = 0;
  }
  // Nothing found at all: not a question about these tables (refused as before). An ambiguous
  // operand is reported: its candidate cells are the inputs a person needs.
  if (found.size === 0 && missing.every((m) => m.endsWith('no cell found'))) return null;
  const cells = [...found.values()];
  // Two lookups landing on one cell: the question names one figure ("the net decrease in cash and
  // cash equivalents", a column "2019 vs. 2018"), a lookup for the table-cell reader, not a computation.
  const distinct = new Set(cells.map((f) => `${f.cell.citationId}|${f.cell.row}|${f.cell.column}`));
  if (distinct.size < cells.length) return null;
  const leaf = (name: string): string => {
    const f = found.get(name);
    return f ? `${f.cell.row} (${f.cell.period})` : `[${name}]`;
  };
  const formula = `${VERB[plan.operation]} = ${writeFormula(plan.formula, leaf)}`;
  const operands = cells.map((f) => f.cell);
  const partial = (why: string[]): Computed => ({
    status: 'partial',
    operation: plan.operation,
    formula,
    written: null,
    operands,
    missing: why,
    result: null,
    display: null,
    unit: null,
    trace,
  });
  if (missing.length > 0) return partial(missing);
  const values = new Map(cells.map((f) => [f.cell.name, f.cell.value]));
  const result = evaluate(plan.formula, values);
  if (result === null) return partial(['the result is undefined (a divisor is 0)']);
  const shown = display(question, plan, result, cells);
  if (!shown) return partial(['the operands are in different units or scales']);
  const written = writeFormula(plan.formula, (name) => {
    const f = found.get(name) as Extract<Found, { cell: ComputedOperand }>;
    return writeNumber(f.cell.value, f.decimals);
  });
  return {
    status: 'complete',
    operation: plan.operation,
    formula,
    written,
    operands,
    missing: [],
    result: shown.value,
    display: shown.text,
    unit: shown.unit,
    trace,
    named: [...new Set(cells.flatMap((f) => (f.named ? [f.named] : [])))],
  };
}

// ---------------------------------------------------------------------------------------------
// The answer

/**
 * A question whose answer is a figure: not a yes/no question ("Did revenue increase?" judges a
 * trend), not one for a date or a choice ("which year had the larger change?").
 */
export function asksForFigure(question: string): boolean {
  const type = answerTypeOf(question);
  if (type === 'yesno' || type === 'date' || ASKS_REASON.test(question)) return false;
  return !/^\s*(?:in\s+|for\s+|from\s+)?(?:who|whom|whose|which|where|when|why)\b/iu.test(question);
}

const cite = (ids: readonly string[]): string => `[${[...new Set(ids)].join(', ')}]`;

/** One line per operand: "Other, 2019: 44.1 [S1]." */
const operandLines = (operands: readonly ComputedOperand[]): string[] =>
  operands.map((o) => `${o.row}${o.period ? `, ${o.period}` : ''}: ${o.printed} [${o.citationId}].`);

/**
 * The computed answer as an `Answer`: the computation written out (formula with names, with values,
 * result) citing every operand's source, then one cited line per operand. A partial computation
 * quotes the operands found and names the others; its short answer is null (nothing to release).
 */
export function computedAnswer(question: string, sources: readonly PackedSource[]): Answer | null {
  if (!asksForFigure(question)) return null;
  const c = computeOver(question, sources);
  if (!c) return null;
  const ids = [...c.operands.map((o) => o.citationId), ...(c.citationIds ?? [])];
  const lines = operandLines(c.operands);
  const complete = c.status === 'complete' && c.display !== null;
  const lead = complete
    ? c.operation === 'count'
      ? `${c.written} ${cite(ids)}`
      : `${c.formula} = ${c.written} = ${c.display} ${cite(ids)}`
    : `${c.formula}: not computed — ${c.missing.join('; ')}.`;
  const sentences = [lead, ...lines].map((text, i) => ({
    text: text.replace(/\s*\[S\d+(?:,\s*S\d+)*\]\.?$/u, ''),
    citationId: (i === 0 ? ids[0] : c.operands[i - 1]?.citationId) ?? '',
    score: 1,
    rationaleIds: [],
  }));
  return {
    kind: 'answer',
    text: [lead, ...lines].join('\n'),
    sentences,
    short: complete ? { text: c.display as string, kind: 'number', citationId: ids[0] as string } : null,
    conflict: null,
    answerer: 'extractive',
    votes: complete
      ? { sources: new Set(ids).size, share: 1, citationIds: [...new Set(ids)], settled: false, coverage: 1 }
      : null,
    computed: c,
  };
}
