/**
 * What a Markdown table block means for chunking: which of its rows are the column header and
 * which short lines above it are its title. The chunker repeats both, as a chunk's `context`, in
 * every chunk of the table that does not hold them itself, so a row such as "| Accounts payable |
 * 303 | 255 |" travels with "(In millions)" and "| | 2018 | 2017 |".
 *
 * - Header: the rows before a GFM delimiter row ("| --- | ---: |") near the top of the table.
 *   Without a delimiter row (the DOCX and HTML parsers write none), the first row is the header
 *   when it has no cell that is a number used as a value: years and dates are column labels
 *   ("| | 2018 | 2017 | 2016 |" is a header, "| Revenue | 1,200 | 980 |" is not). Rows right below
 *   the header that name periods (a year, no value: "| | 2018 | | 2017 |") belong to it too.
 * - Title: up to `maxTitleBlocks` short paragraphs directly above the table in the same section
 *   ("Years ended December 31", "(In millions, except per share data)"). The section heading is
 *   already the chunk's heading trail, so it is not repeated here.
 */

import { isDelimiterRow } from '../text/markdown-table';
import { isSpace, type Span } from '../text/sentences';
import type { Block } from './markdown';
import { PERIOD_CELL_WORD } from '../lexicon/periods';

export interface TableOptions {
  /** Short paragraphs directly above a table read as its title, at most. Default 2. */
  readonly maxTitleBlocks: number;
  /** A title paragraph has at most this many characters (trimmed). Default 240. */
  readonly maxTitleChars: number;
  /** A title paragraph has at most this many lines. Default 3. */
  readonly maxTitleLines: number;
  /** A delimiter row is looked for among this many first rows. Default 5. */
  readonly headerSearchRows: number;
}

export const DEFAULT_TABLE_OPTIONS: Readonly<TableOptions> = Object.freeze({
  maxTitleBlocks: 2,
  maxTitleChars: 240,
  maxTitleLines: 3,
  headerSearchRows: 5,
});

export interface TableLayout {
  /** Leading rows that form the header (the header rows and their delimiter row); 0 without a header. */
  readonly headerRows: number;
  /** The header rows (not the delimiter row), each trimmed, joined by "\n"; '' without a header. */
  readonly header: string;
  /** Source range of the title paragraphs, or null without a title. */
  readonly titleSpan: Span | null;
  /** The title's lines, trimmed, joined by " — "; '' without a title. */
  readonly title: string;
}

/**
 * The header and title of the table `blocks[index]`, whose rows (trimmed lines, in order) are
 * `rows`. The blocks are those of one section, so a title never comes from another section.
 */
export function tableLayout(
  text: string,
  blocks: readonly Block[],
  index: number,
  rows: readonly Span[],
  options: Readonly<TableOptions> = DEFAULT_TABLE_OPTIONS,
): TableLayout {
  const headerRows = headerRowCount(text, rows, options.headerSearchRows);
  const headerLines = rows.slice(0, headerRows).filter((r) => !isDelimiterRow(text.slice(r.start, r.end)));
  const titleBlocks = titleBlocksOf(text, blocks, index, options);
  const first = titleBlocks[0];
  const last = titleBlocks.at(-1);
  return {
    headerRows,
    header: headerLines.map((r) => text.slice(r.start, r.end)).join('\n'),
    titleSpan: first && last ? { start: first.start, end: last.end } : null,
    title: titleBlocks.flatMap((b) => linesOf(text.slice(b.start, b.end))).join(' — '),
  };
}

/**
 * The title lines of a chunk's context (its lines that are not table rows): what names the table
 * ("Consolidated Balance Sheets — (In thousands)"), without the column header's period labels.
 */
export function contextTitleLines(context: string | undefined): string[] {
  if (context === undefined) return [];
  return context.split('\n').filter((line) => line.trim() !== '' && !line.trimStart().startsWith('|'));
}

/**
 * The names a chunk lies under, for matching a question that names a section
 * (core/retrieval/sections.ts): its heading trail, its table's title lines, and the column
 * header's cells that name the table rather than a column ("CONSOLIDATED STATEMENTS OF INCOME"
 * set as a header row by the layout) — words only, no period or unit.
 */
export function sectionNames(chunk: {
  readonly headings: readonly string[];
  readonly context?: string | undefined;
}): string[] {
  // A title's lines are joined by " — " in the context ("3M Company — Consolidated Balance Sheet — At December 31").
  const out = [...chunk.headings, ...contextTitleLines(chunk.context).flatMap((l) => l.split(' — '))];
  if (chunk.context === undefined) return out;
  for (const line of chunk.context.split('\n')) {
    if (!line.trimStart().startsWith('|') || isDelimiterRow(line)) continue;
    for (const cell of tableCells(line)) if (namesTable(cell)) out.push(cell);
  }
  return out;
}

function namesTable(cell: string): boolean {
  const words = cell.trim().split(/\s+/);
  return words.length >= 2 && !/\d/.test(cell) && !cell.trim().startsWith('(') && !PERIOD_CELL_WORD.test(cell);
}

function headerRowCount(text: string, rows: readonly Span[], searchRows: number): number {
  const line = (i: number): string => text.slice((rows[i] as Span).start, (rows[i] as Span).end);
  let count = 0;
  for (let i = 0; i < Math.min(rows.length, searchRows); i++) {
    if (isDelimiterRow(line(i))) {
      count = i > 0 ? i + 1 : 0;
      break;
    }
  }
  if (count === 0 && rows.length >= 2 && isHeaderRow(tableCells(line(0)))) count = 1;
  // Period rows right below ("| | 2018 | | 2017 |" under "| | December 31, | | December 31, |")
  // label the columns too, wherever a parser put the delimiter.
  while (count > 0 && count < Math.min(rows.length - 1, searchRows) && isPeriodRow(tableCells(line(count)))) count++;
  return count;
}

/** A header row that names periods: a year among its cells, and no value. */
function isPeriodRow(cells: readonly string[]): boolean {
  return isHeaderRow(cells) && cells.some((c) => /\b(19|20)\d\d\b/.test(c));
}

/** The cells of a table row, trimmed; "\|" does not split a cell. */
export function tableCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === '\\' && line[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (c === '|') {
      cells.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  cells.push(cell.trim());
  // The outer pipes leave an empty first and last cell.
  if (cells.length > 1 && cells[0] === '' && line.trimStart().startsWith('|')) cells.shift();
  if (cells.length > 1 && cells.at(-1) === '' && line.trimEnd().endsWith('|')) cells.pop();
  return cells;
}

/** A header row: some text, and no cell that is a number used as a value (years are labels). */
export function isHeaderRow(cells: readonly string[]): boolean {
  return cells.some((c) => c !== '') && !cells.some(isValueCell);
}

/** "1,200", "(300)", "$4.5", "12%", "−7": a number; "2018" alone is a year, not a value. */
export function isValueCell(cell: string): boolean {
  if (/^(19|20)\d\d$/.test(cell)) return false;
  const core = cell.replace(/[\s$€£¥%()+,]/g, '').replace(/^[-−–]/, '');
  return /^(\d+(\.\d+)?|\.\d+)$/.test(core);
}

function titleBlocksOf(text: string, blocks: readonly Block[], index: number, o: Readonly<TableOptions>): Block[] {
  const out: Block[] = [];
  for (let i = index - 1; i >= 0 && out.length < o.maxTitleBlocks; i--) {
    const b = blocks[i] as Block;
    if (b.kind !== 'paragraph' || !isTitleLike(text.slice(b.start, b.end), o)) break;
    out.unshift(b);
  }
  return out;
}

function isTitleLike(block: string, o: Readonly<TableOptions>): boolean {
  const lines = linesOf(block);
  const chars = lines.reduce((n, l) => n + l.length, 0);
  // A thematic break ("---", "***") is a paragraph block too, and no title.
  const rule = lines.length === 1 && /^([-*_])(\s*\1){2,}$/.test(lines[0] as string);
  // A sentence ("See accompanying notes to the consolidated financial statements.") closes what
  // is above; it does not name the table below.
  const last = lines[lines.length - 1] ?? '';
  const sentence = /[.!?]$/.test(last) && last.split(/\s+/).length >= 5;
  return lines.length > 0 && lines.length <= o.maxTitleLines && chars <= o.maxTitleChars && !rule && !sentence;
}

function linesOf(block: string): string[] {
  return block
    .split('\n')
    .map((l) => trimSpace(l))
    .filter((l) => l !== '');
}

function trimSpace(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isSpace(s.charCodeAt(a))) a++;
  while (b > a && isSpace(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b);
}
