/**
 * Operands of computed answers: the tables of the packed sources as grids (rows with their label
 * and section, columns with their header), the figure a cell prints, and the lookups compute.ts
 * makes — the row a phrase names, the column of a period — each returning every candidate so the
 * caller can refuse an ambiguous operand instead of guessing.
 *
 * A packed table chunk is Markdown rows; its column header is either its own first rows (those
 * before the first row that prints a figure) or the header its context carries in the source's
 * header line (`select/pack-text.ts`, rows joined by spaces). A header cell left empty under a
 * spanning header ("| | Domestic | | International | |") takes the cell to its left; years printed
 * with spaced digits ("2 0 1 8") are read as years. The table's unit comes from its title or
 * header ("(in millions)", "$ in thousands", "€m").
 */
import type { PackedSource } from '../select/pack';
import { termsOf } from '../select/rationales';
import { sourceBody } from './extractive';

export type Scale = 'thousands' | 'millions' | 'billions';

export interface GridRow {
  readonly label: string;
  /** The nearest row above that prints no figure ("Assets", "Liabilities"), or ''. */
  readonly section: string;
  readonly cells: readonly string[];
}

export interface Grid {
  readonly citationId: string;
  readonly page: number | null;
  /** Header text per column (index 0 is the label column). */
  readonly columns: readonly string[];
  /** Per column, its header cell as printed that names the period (or its last header cell): what a quote names. */
  readonly periods: readonly string[];
  readonly rows: readonly GridRow[];
  readonly scale: Scale | null;
  /** Title, headings and context: what the table is about. */
  readonly about: string;
}

/** A figure as a cell prints it: "$2,664" → 2664, "(19,911)" → −19911, "4.00%" → 4 (percent). */
export interface Figure {
  readonly value: number;
  readonly percent: boolean;
  readonly decimals: number;
}

export function figureOf(cell: string): Figure | null {
  const t = cell.normalize('NFKC').trim();
  const m =
    /^([-−–]?)\s*\(?\s*([-−–]?)\s*(?:US\$|\$|€|£|¥)?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*\)?\s*(%)?\s*\)?$/u.exec(t);
  if (!m) return null;
  const [, sign1, sign2, int, frac, pct] = m;
  const negative = sign1 !== '' || sign2 !== '' || (t.includes('(') && t.includes(')'));
  const value = Number(`${(int as string).replace(/,/g, '')}${frac ?? ''}`);
  if (!Number.isFinite(value)) return null;
  return { value: negative ? -value : value, percent: pct !== undefined, decimals: frac ? frac.length - 1 : 0 };
}

/** A year: "2019", "FY2019", "FY 2019", "FY19", "F19" (a two-digit fiscal year is 20xx). */
const YEAR =
  /(?<![\p{L}\p{N}])(?:fy\s?|f)?((?:19|20)\d{2})(?!\p{N})|(?<![\p{L}\p{N}])(?:fy\s?'?|f)(\d{2})(?![\p{L}\p{N}])/giu;
/** "2 0 1 8" → "2018"; "FY 2019" keeps its year. */
const normalizeYears = (text: string): string => text.replace(/\b([12])\s([09])\s(\d)\s(\d)\b/gu, '$1$2$3$4');

/** The years a text names, in order. */
export function yearsOf(text: string): string[] {
  return [...normalizeYears(text).matchAll(YEAR)].map((m) => m[1] ?? `20${m[2] as string}`);
}

const isYearCell = (cell: string): boolean =>
  /^(?:(?:fy|fiscal)\s*)?(?:19|20)\d{2}\s*\S{0,4}$/iu.test(normalizeYears(cell).trim());
const isFigureCell = (cell: string): boolean => figureOf(cell) !== null && !isYearCell(cell);

function cellsOf(line: string): string[] | null {
  const t = line.trim();
  if (!t.startsWith('|') || !t.endsWith('|') || t.length < 3) return null;
  return t
    .slice(1, -1)
    .split('|')
    .map((c) => c.trim());
}

const isDelimiter = (cells: readonly string[]): boolean =>
  cells.length > 0 && cells.every((c) => /^:?-{3,}:?$/u.test(c));

/** Header rows of a context's pipe run: rows of `width` cells joined by spaces ("| a | b | | c | d |"). */
function contextRows(context: string, width: number): string[][] {
  const at = context.indexOf('|');
  const cells = at >= 0 ? cellsOf(context.slice(at)) : null;
  if (!cells || width <= 0) return [];
  const k = (cells.length + 1) / (width + 1);
  if (!Number.isInteger(k) || k < 1) return cells.length === width ? [cells] : [];
  const rows: string[][] = [];
  for (let i = 0; i < k; i++) rows.push(cells.slice(i * (width + 1), i * (width + 1) + width));
  return rows;
}

/** Column headers from header rows: spanning cells fill rightwards, rows join top to bottom. */
function columnsOf(
  headerRows: readonly (readonly string[])[],
  width: number,
): { columns: string[]; periods: string[] } {
  const columns: string[] = Array.from({ length: width }, () => '');
  const periods: string[] = Array.from({ length: width }, () => '');
  for (const row of headerRows) {
    // Rows narrower than the table are aligned from the right (the label column is missing).
    const offset = width - row.length;
    let last = '';
    for (let j = 1; j < width; j++) {
      const cell = normalizeYears(row[j - offset] ?? '');
      if (cell !== '') last = cell;
      const text = cell !== '' ? cell : last;
      if (text !== '') columns[j] = columns[j] ? `${columns[j]} ${text}` : text;
      if (cell !== '' && (yearsOf(cell).length > 0 || yearsOf(periods[j] as string).length === 0)) periods[j] = cell;
    }
  }
  return { columns, periods };
}

const SCALE =
  /\b(?:in\s+|\$\s*in\s+|amounts\s+in\s+|dollars\s+in\s+)?(thousands|millions|billions)\b|(?:[$€£]|us\$|usd|eur|gbp)\s?(m|mn|bn|k|'000)\b/iu;

function scaleOf(text: string): Scale | null {
  const m = SCALE.exec(text);
  if (!m) return null;
  const word = (m[1] ?? m[2] ?? '').toLowerCase();
  if (word.startsWith('thousand') || word === 'k' || word === "'000") return 'thousands';
  if (word.startsWith('million') || word === 'm' || word === 'mn') return 'millions';
  return 'billions';
}

/** The table of one packed source, or null when it holds no row that prints a figure. */
export function gridOf(source: PackedSource): Grid | null {
  const lines = sourceBody(source).split('\n');
  const rows: string[][] = [];
  for (const line of lines) {
    const cells = cellsOf(line);
    if (cells && !isDelimiter(cells)) rows.push(cells);
  }
  const first = rows.findIndex((r) => r.slice(1).some(isFigureCell));
  if (first < 0) return null;
  const width = Math.max(...rows.map((r) => r.length));
  // The header line's last pipe run: the column header the chunk's context carries.
  const nl = source.text.indexOf('\n');
  const headLine = nl >= 0 ? source.text.slice(0, nl) : source.text;
  const context = /\|(?:[^|]*\|)+\s*$/u.exec(headLine)?.[0] ?? '';
  const own = rows.slice(0, first);
  // Rows above the first figure are its column header when they head columns; label-only rows
  // there ("Alternative investments") are sections, and the header is the context's.
  const ownHeader = own.some((r) => r.slice(1).some((c) => c !== ''));
  const header = ownHeader ? own : contextRows(context, width);
  const { columns, periods } = columnsOf(header, width);
  const out: GridRow[] = [];
  let section = '';
  for (const r of rows.slice(ownHeader ? first : 0)) {
    // Dot leaders ("Total current liabilities . . . . .") and a trailing colon are not the label.
    const label = (r[0] ?? '').replace(/(?:\s*\.){2,}\s*$|[:\s]+$/u, '');
    // Rows narrower than the table lack leading cells: align them from the right.
    const cells = r.length < width ? [label, ...Array.from({ length: width - r.length }, () => ''), ...r.slice(1)] : r;
    if (!cells.slice(1).some(isFigureCell)) {
      if (label !== '') section = label;
      continue;
    }
    out.push({ label, section, cells });
  }
  const about = [source.title, ...source.headings, headLine].join(' ');
  return {
    citationId: source.citationId,
    page: source.page ?? null,
    columns,
    periods,
    rows: out,
    scale: scaleOf(`${headLine} ${header.flat().join(' ')}`),
    about,
  };
}

/** Content terms of a text, numbers left out. */
export const wordsOf = (text: string): string[] => termsOf(text).filter((t) => !/^\d/u.test(t));

/** Lower-case letter runs of a text, stopwords kept. */
const tokensOf = (text: string): string[] => text.toLowerCase().match(/\p{L}+/gu) ?? [];

/** A row a phrase names: its label's words all in the phrase (at least one). */
export interface RowMatch {
  readonly grid: Grid;
  readonly row: GridRow;
  /** Words of the label (+ half of the section's words found in the phrase). */
  readonly score: number;
}

/** Every row whose label's words are all words of `phrase`, best first. */
export function rowsNamed(grids: readonly Grid[], phrase: string): RowMatch[] {
  const words = new Set(wordsOf(phrase));
  const tokens = new Set(tokensOf(phrase));
  const out: RowMatch[] = [];
  for (const grid of grids) {
    for (const row of grid.rows) {
      const label = wordsOf(row.label);
      // A label of stopwords only ("Other", "Total") is named by its words as printed, and weighs least.
      if (label.length === 0) {
        const own = tokensOf(row.label);
        if (own.length > 0 && own.every((t) => tokens.has(t))) out.push({ grid, row, score: 0.5 });
        continue;
      }
      if (!label.every((t) => words.has(t))) continue;
      const section = wordsOf(row.section).filter((t) => words.has(t) && !label.includes(t)).length;
      out.push({ grid, row, score: label.length + 0.5 * section });
    }
  }
  return out.sort((a, b) => b.score - a.score);
}

/** Columns of a grid whose header names `year` (and, when given, holds every word of `qualifier` found in any header). */
export function columnsFor(grid: Grid, year: string | null): number[] {
  const out: number[] = [];
  for (let j = 1; j < grid.columns.length; j++) {
    const header = grid.columns[j] ?? '';
    if (year === null ? true : yearsOf(header).includes(year)) out.push(j);
  }
  return out;
}

/** A figure a sentence states for one period. */
export interface StatedFigure {
  readonly year: string;
  readonly printed: string;
  readonly value: number;
  readonly percent: boolean;
  readonly decimals: number;
}

const STATED = /(?<![\p{L}\p{N}.,])[-−]?\$?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s?(?:%|percent\b))?/gu;

/**
 * The figures a sentence states for the given years, when it pairs them unambiguously: as many
 * figures (not years) as years, and either "respectively" (in the order the years are named) or
 * each figure followed within a few words by its own year ("21.6% in 2019 and 24.6% in 2018").
 * Null otherwise: a sentence that names more figures or other years is not read.
 */
export function sentenceFigures(sentence: string, years: readonly string[]): StatedFigure[] | null {
  const named = yearsOf(sentence);
  if (new Set(named).size !== years.length || !years.every((y) => named.includes(y))) return null;
  const figures = [...sentence.matchAll(STATED)].filter((m) => !/^(?:19|20)\d{2}$/u.test(m[0].trim()));
  if (figures.length !== years.length) return null;
  // A figure with a scale word ("$5.1 billion") is not compared with one without.
  if (
    figures.some((m) =>
      /^\s*(?:thousand|million|billion|trillion)/iu.test(sentence.slice((m.index ?? 0) + m[0].length)),
    )
  )
    return null;
  const read = (m: RegExpMatchArray, year: string): StatedFigure | null => {
    const f = figureOf(m[0].replace(/\s?percent$/u, '%'));
    return f ? { year, printed: m[0], value: f.value, percent: f.percent, decimals: f.decimals } : null;
  };
  let out: (StatedFigure | null)[];
  if (/\brespectively\b/iu.test(sentence)) {
    const order = [...new Set(named)];
    out = figures.map((m, i) => read(m, order[i] as string));
  } else {
    out = figures.map((m) => {
      const after = sentence.slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 30);
      const y = /^\s*(?:\w+\s+){0,3}?(?:fiscal\s+(?:year\s+)?|fy\s?)?((?:19|20)\d{2})\b/iu.exec(after)?.[1];
      return y ? read(m, y) : null;
    });
  }
  if (out.some((x) => x === null)) return null;
  const got = out as StatedFigure[];
  return new Set(got.map((x) => x.year)).size === years.length ? got : null;
}
