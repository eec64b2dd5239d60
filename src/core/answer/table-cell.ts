/**
 * A figure answered from a table cell, chosen by its row label and its column header.
 *
 * Financial statements and schedules answer "what is the FY2018 amount of accounts payable" in a
 * cell: the row whose label the question names ("Accounts payable"), the column whose header is
 * the period it asks for ("December 31, 2018"). Packed table chunks are Markdown rows (`| label |
 * v1 | v2 |`) and carry their table's title and column header in the source's header line
 * (`pack-text.ts`: "… — Consolidated Balance Sheets (In thousands) | | December 31, 2018 | …").
 *
 * A row is a candidate when every content term of its label is a term of the question, and at
 * least `minLabelTerms` of them (or all, for a shorter label) are: a label the question only
 * touches ("Total", "Other") is no match. The column is the one whose header holds a year the
 * question names; when the question names years and no header holds one, the row is skipped —
 * the period is never guessed. Without a year in the question the first value column is taken
 * (statements lead with the latest period). Rows are ranked by matched label terms, then by the
 * source's citation order. The answer quotes the value with its row label and header, and the
 * table's unit when its title states one, so a person can check it on the page.
 *
 * A question that names several periods for one row ("… in 2019 and 2018 respectively") is
 * answered by the row's cell under each, in the order the question names them, when the header
 * has a column for every one, and by no cell when one has none or when the question asks for the
 * respective values of one row that a single cell would answer only in part. A cell whose figure
 * carries a unit of another family than the one asked ("$117.2" for "how many years …") is none.
 */
import { assertKnownOptions } from '../errors';
import type { PackedSource } from '../select/pack';
import { termsOf } from '../select/rationales';
import { checkInt } from '../util/stage';
import { SEVERAL_VALUES } from '../lexicon/questions';
import { familyOf, unitFamilyOf } from './question';
import type { UnitFamily } from '../lexicon/answer-kinds';
import { extractValues } from '../verify/values';

export interface TableCellOptions {
  /** Label terms the question must contain (all of a shorter label). Default 2. */
  readonly minLabelTerms: number;
}

export const DEFAULT_TABLE_CELL_OPTIONS: TableCellOptions = Object.freeze({ minLabelTerms: 2 });

export interface TableCell {
  readonly citationId: string;
  /** The row label as printed. */
  readonly row: string;
  /** The column header as printed ('' when the table has none). */
  readonly column: string;
  /** The cell as printed ("$302,578", "(1,577)"). */
  readonly value: string;
  /** "thousands", "millions", "billions" when the table's title states its unit. */
  readonly unit: string | null;
  /** Content terms of the label found in the question. */
  readonly matched: number;
  /** The answer sentence: value, row, column and unit. */
  readonly sentence: string;
  /**
   * Every cell read when the question names several periods, in the question's order (the first
   * is `column` / `value`); absent for one cell.
   */
  readonly cells?: readonly { readonly column: string; readonly value: string }[];
}

const cellsOf = (line: string): string[] | null => {
  const t = line.trim();
  if (!t.startsWith('|') || !t.endsWith('|') || t.length < 3) return null;
  return t
    .slice(1, -1)
    .split('|')
    .map((c) => c.trim());
};

const isDelimiter = (cells: readonly string[]): boolean =>
  cells.length > 0 && cells.every((c) => /^:?-{3,}:?$/.test(c));

/** A cell holding a figure: digits with separators, a sign, brackets or a currency mark; not a year alone. */
const isValue = (cell: string): boolean =>
  /\d/.test(cell) && /^[($€£¥-]*\s*[$€£¥]?\s*\(?-?[\d,.]+\)?\s*%?\)?$/u.test(cell) && !/^(?:19|20)\d{2}$/.test(cell);

const YEAR = /\b(?:19|20)\d{2}\b/g;

/** Each year the question names, with where it names it: "FY2018", "fiscal 2018", "2018", "FY18". */
function yearMentions(question: string): { readonly year: string; readonly at: number }[] {
  const out: { year: string; at: number }[] = [];
  for (const m of question.matchAll(/\b(?:fy|fiscal\s+(?:year\s+)?)?((?:19|20)\d{2})\b/giu)) {
    out.push({ year: m[1] as string, at: m.index ?? 0 });
  }
  for (const m of question.matchAll(/\bfy\s?'?(\d{2})\b/giu))
    out.push({ year: `20${m[1] as string}`, at: m.index ?? 0 });
  return out;
}

/** Years the question names: "FY2018", "fiscal 2018", "2018" (two-digit "FY18" too). */
export function questionYears(question: string): Set<string> {
  return new Set(yearMentions(question).map((m) => m.year));
}

const UNIT = /\((?:[^()]*\b)?(?:in|dollars in|amounts in|\$ in)\s+(thousands|millions|billions)\b[^()]*\)/iu;

interface Table {
  readonly header: readonly string[] | null;
  readonly rows: readonly (readonly string[])[];
  readonly unit: string | null;
}

/** The rows of a packed source and the header its context or its own text gives them. */
function tableOf(source: PackedSource): Table | null {
  const nl = source.text.indexOf('\n');
  const headerLine = nl >= 0 ? source.text.slice(0, nl) : source.text;
  const body = nl >= 0 ? source.text.slice(nl + 1) : '';
  const lines = body.split('\n');
  const rows: string[][] = [];
  let header: string[] | null = null;
  for (let i = 0; i < lines.length; i++) {
    const cells = cellsOf(lines[i] as string);
    if (!cells) continue;
    if (isDelimiter(cells)) {
      // The row(s) above the delimiter are the column header.
      if (rows.length > 0) header = rows.pop() as string[];
      continue;
    }
    rows.push(cells);
  }
  if (rows.length === 0) return null;
  // No delimiter row: the column heading is the table's own row of periods ("| | 2019 | 2018 |"),
  // the last row that names a year and holds no figure.
  header ??= [...rows].reverse().find((r) => !r.some(isValue) && r.some((c) => /\b(?:19|20)\d{2}\b/u.test(c))) ?? null;
  if (!header) {
    // The context's column header: the last "| … |" run of the header line.
    const m = headerLine.match(/\|(?:[^|]*\|)+\s*$/u);
    const cells = m ? cellsOf(m[0]) : null;
    if (cells && cells.some((c) => YEAR.test(c) || /\p{L}/u.test(c))) header = cells;
    YEAR.lastIndex = 0;
  }
  const unit = (headerLine.match(UNIT) ?? body.match(UNIT))?.[1]?.toLowerCase() ?? null;
  return { header, rows, unit };
}

/**
 * Years the question names, in its order ("in 2019 and 2018 respectively" → 2019, 2018); a range
 * names every year in it ("fiscal years 2019 to 2017" → 2019, 2018, 2017).
 */
function orderedYears(question: string): string[] {
  const seen = yearMentions(question);
  for (const m of question.matchAll(/\b((?:19|20)\d{2})\s*(?:to|through|-|–)\s*((?:19|20)\d{2})\b/giu)) {
    const [from, to] = [Number(m[1]), Number(m[2])];
    const step = from <= to ? 1 : -1;
    for (let y = from, k = 0; k <= Math.abs(to - from) && k < 10; y += step, k++) {
      seen.push({ year: String(y), at: (m.index ?? 0) + k / 100 });
    }
  }
  return [...new Set(seen.sort((a, b) => a.at - b.at).map((x) => x.year))];
}

/** The row's cell under each asked year, in the question's order; null unless every year has one. */
function cellsByYear(
  row: readonly string[],
  header: readonly string[] | null,
  years: readonly string[],
): { column: string; value: string }[] | null {
  if (years.length < 2 || !header) return null;
  const out: { column: string; value: string }[] = [];
  for (const year of years) {
    const col = columnOf(row, header, new Set([year]));
    if (col < 0) return null;
    out.push({ column: header[col + header.length - row.length] ?? '', value: row[col] as string });
  }
  return out;
}

/** The column of `row` to read: the header with an asked year, or the first value column. */
function columnOf(row: readonly string[], header: readonly string[] | null, years: ReadonlySet<string>): number {
  const valueColumns = row.map((c, i) => (i > 0 && isValue(c) ? i : -1)).filter((i) => i > 0);
  if (valueColumns.length === 0) return -1;
  if (years.size === 0) return valueColumns[0] as number;
  if (!header) return -1;
  // Headers and rows may differ by a leading label column: align from the right.
  const offset = header.length - row.length;
  for (const i of valueColumns) {
    const h = header[i + offset] ?? '';
    for (const y of h.match(YEAR) ?? []) if (years.has(y)) return i;
  }
  return -1;
}

/** Whether a cell's figure is bare or carries a unit of `family`. */
function inFamily(cell: string, family: UnitFamily): boolean {
  const value = extractValues(cell).find((v) => v.kind === 'number');
  const own = value ? familyOf(value) : null;
  return own === null || own === family;
}

/** The best table cell for the question among the packed sources, or null. */
export function tableCellAnswer(
  question: string,
  sources: readonly PackedSource[],
  options: Partial<TableCellOptions> = {},
): TableCell | null {
  assertKnownOptions(options, DEFAULT_TABLE_CELL_OPTIONS, 'tableCell');
  const o: TableCellOptions = { ...DEFAULT_TABLE_CELL_OPTIONS, ...options };
  checkInt('tableCell', 'minLabelTerms', o.minLabelTerms, 1, 20);
  const qTerms = new Set(termsOf(question));
  const years = questionYears(question);
  const asked = orderedYears(question);
  // Several periods asked, or several values asked of one row ("the respective values of … less
  // than one year and 1–3 years"): one cell would answer in part.
  const several = asked.length >= 2 || SEVERAL_VALUES.test(question);
  const ask = unitFamilyOf(question);
  let best: TableCell | null = null;
  for (const source of sources) {
    const table = tableOf(source);
    if (!table) continue;
    for (const row of table.rows) {
      const label = (row[0] ?? '').replace(/[:\s]+$/u, '');
      const terms = termsOf(label).filter((t) => !/^\d/.test(t));
      if (terms.length === 0 || !terms.every((t) => qTerms.has(t))) continue;
      if (terms.length < o.minLabelTerms) continue;
      const col = columnOf(row, table.header, years);
      if (col < 0) continue;
      // A cell in another unit family than the one asked ("$117.2" for "how many years …", a
      // money cell for "what proportion …") is not the answer, however well its label matches.
      if (ask && !inFamily(row[col] as string, ask.family)) continue;
      if (best && best.matched >= terms.length) continue;
      const offset = table.header ? table.header.length - row.length : 0;
      const column = table.header?.[col + offset] ?? '';
      const value = row[col] as string;
      const unit = table.unit;
      const inUnit = unit ? ` (in ${unit})` : '';
      const cells = cellsByYear(row, table.header, asked);
      if (several && !cells) continue;
      const read = cells ?? [{ column, value }];
      const first = read[0] as { column: string; value: string };
      const sentence = cells
        ? `${label}: ${cells.map((c) => `${c.column} ${c.value}`).join('; ')}${inUnit}.`
        : `${label}${column ? `, ${column}` : ''}: ${value}${inUnit}.`;
      const cell = { row: label, column: first.column, value: first.value, unit, matched: terms.length, sentence };
      best = { citationId: source.citationId, ...cell, ...(cells ? { cells } : {}) };
    }
  }
  return best;
}
