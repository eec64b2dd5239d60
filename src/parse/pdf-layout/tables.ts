/**
 * Tables from positions. In a financial statement every value row is a label at the left and
 * numbers right-aligned into columns; consecutive value rows (with the label-only rows between
 * them: "Current assets") form a table. Columns are the clusters of the numbers' right edges;
 * "$" cells join their number; a label that wraps onto a second line is one row label; the
 * lines just above whose text lies over the columns (periods: "2018 2017 2016", "December 31,",
 * "Years ended December 31") become one header row per column, written before a delimiter row.
 */
import type { LayoutLine, Segment } from './types';

export interface TableOptions {
  /** A table has at least this many value rows. */
  readonly minValueRows: number;
  /** Right edges within this share of the font size (and 4 pt) are one column. */
  readonly alignShare: number;
  /** A vertical gap over this many usual line gaps ends a table. */
  readonly maxGapLines: number;
  /** Header lines looked at above a table. */
  readonly maxHeaderLines: number;
}

export const TABLE_DEFAULTS: TableOptions = Object.freeze({
  minValueRows: 3,
  alignShare: 0.8,
  maxGapLines: 2.6,
  maxHeaderLines: 4,
});

export interface TableBlock {
  /** Lines [start, end) of the page's line list that the table replaces (header lines included). */
  readonly start: number;
  readonly end: number;
  /** The header row, when header lines were found: label header, then one text per column. */
  readonly header?: readonly string[];
  /** Body rows: label, then one cell per column ("" where a row has none). */
  readonly rows: readonly (readonly string[])[];
}

/** "1,234", "(1,577)", "$5,363", "12.5%", "—", "(0.4)%", "$ (22)". */
const NUMBER = /^(?:\$\s?)?\(?-?\$?\s?\d[\d,]*(?:\.\d+)?\)?%?$|^[-–—]+$|^n\/?[am]$/i;

const YEAR = /^(?:19|20)\d{2}$/;

interface Cell {
  readonly text: string;
  readonly x: number;
  readonly xEnd: number;
}

/** A line's label and trailing number cells. */
function splitRow(line: LayoutLine): { label: string; cells: Cell[] } {
  const merged: Segment[] = [];
  for (const s of line.segments) {
    const prev = merged[merged.length - 1];
    if (prev !== undefined && /^\$$/.test(prev.text))
      merged[merged.length - 1] = { text: `$${s.text}`, x: prev.x, xEnd: s.xEnd };
    else merged.push(s);
  }
  let k = merged.length;
  while (k > 0 && NUMBER.test((merged[k - 1] as Segment).text.replace(/\s+/g, ''))) k--;
  const cells = merged.slice(k).map((s) => ({ text: s.text.replace(/\$\s+/, '$'), x: s.x, xEnd: s.xEnd }));
  const label = merged
    .slice(0, k)
    .map((s) => s.text)
    .join(' ');
  // "2018 2017 2016" over the columns is their header, not a row of values.
  if (cells.length > 0 && cells.every((c) => YEAR.test(c.text))) return { label: line.text, cells: [] };
  return { label, cells };
}

function usualGap(lines: readonly LayoutLine[]): number {
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const d = (lines[i - 1] as LayoutLine).y - (lines[i] as LayoutLine).y;
    if (d > 0) gaps.push(d);
  }
  gaps.sort((a, b) => a - b);
  return gaps[gaps.length >> 1] ?? 12;
}

/** Right-edge clusters of the cells: each column's [left, right]. */
function columnsOf(cells: readonly Cell[], tol: number): { left: number; right: number }[] {
  const sorted = [...cells].sort((a, b) => a.xEnd - b.xEnd);
  const cols: { left: number; right: number; last: number }[] = [];
  for (const c of sorted) {
    const col = cols[cols.length - 1];
    if (col !== undefined && c.xEnd - col.last <= tol) {
      col.left = Math.min(col.left, c.x);
      col.right = Math.max(col.right, c.xEnd);
      col.last = c.xEnd;
    } else cols.push({ left: c.x, right: c.xEnd, last: c.xEnd });
  }
  return cols;
}

function columnFor(cell: Cell, cols: readonly { left: number; right: number }[]): number {
  let best = 0;
  let dist = Infinity;
  cols.forEach((c, i) => {
    const d = Math.abs(c.right - cell.xEnd);
    if (d < dist) [best, dist] = [i, d];
  });
  return best;
}

const PERIOD =
  /\b(?:19|20)\d{2}\b|\b(?:years?|months?|quarters?|weeks?)\s+ended\b|\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\b|\bas of\b|\bfiscal\b|\b(?:in )?(?:millions|thousands|billions)\b|\bchange\b|%/i;

/** A line that reads as column headings over `cols`: all its text over them, or a period named there. */
function isHeaderLine(line: LayoutLine, cols: readonly { left: number; right: number }[]): boolean {
  const left = (cols[0] as { left: number }).left;
  const over = line.segments.filter((s) => s.xEnd > left - line.size);
  if (over.length === 0) return false;
  return over.length === line.segments.length || over.some((s) => PERIOD.test(s.text));
}

/**
 * A title over a table, not a column heading: one stretch of words, no figure or period, in
 * capitals ("CONSOLIDATED STATEMENTS OF INCOME") or long for a column heading.
 */
function isTitleLine(line: LayoutLine): boolean {
  const text = line.text.trim();
  if (line.segments.length !== 1 || /\d/.test(text) || PERIOD.test(text)) return false;
  const words = text.split(/\s+/).length;
  const caps = /\p{Lu}/u.test(text) && !/\p{Ll}/u.test(text);
  return (caps && words >= 2) || text.length >= 25;
}

/**
 * Header rows above `start`: header lines, possibly over a few label-only lines ("ASSETS",
 * "Current assets") that then lead the body. Null when there is no header line.
 */
function headerAbove(
  lines: readonly LayoutLine[],
  start: number,
  cols: readonly { left: number; right: number }[],
  gap: number,
  options: TableOptions,
): { from: number; header: string[]; lead: string[] } | null {
  const left = (cols[0] as { left: number }).left;
  const header = cols.map(() => [] as string[]);
  const label: string[] = [];
  const lead: string[] = [];
  let from = start;
  let found = false;
  for (let i = start - 1; i >= Math.max(0, start - options.maxHeaderLines - 3); i--) {
    const line = lines[i] as LayoutLine;
    const below = lines[i + 1] as LayoutLine;
    if (line.y - below.y > gap * options.maxGapLines || line.y < below.y) break;
    // The statement's title above its column headings stays out of them: it names the table.
    if (found && isTitleLine(line)) break;
    if (!isHeaderLine(line, cols)) {
      if (found || lead.length >= 3 || line.segments.length > 1 || line.text.length > 60) break;
      lead.unshift(line.text);
      continue;
    }
    found = true;
    for (const s of line.segments) {
      const hit = cols.map((c, k) => (s.x < c.right && s.xEnd > c.left - line.size ? k : -1)).filter((k) => k >= 0);
      if (hit.length === 0 || s.xEnd <= left - line.size) label.unshift(s.text);
      else for (const k of hit) (header[k] as string[]).unshift(s.text);
    }
    from = i;
  }
  if (!found) return null;
  return { from, header: [label.join(' '), ...header.map((h) => h.join(' '))], lead };
}

/** Tables among a page's lines, in order, not overlapping. */
export function findTables(lines: readonly LayoutLine[], options: TableOptions = TABLE_DEFAULTS): TableBlock[] {
  const gap = usualGap(lines);
  const parts = lines.map(splitRow);
  const out: TableBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    if ((parts[i]?.cells.length ?? 0) === 0 || ((parts[i]?.label ?? '') === '' && (parts[i]?.cells.length ?? 0) < 2)) {
      i++;
      continue;
    }
    let j = i + 1;
    let lastValue = i;
    while (j < lines.length) {
      const prev = lines[j - 1] as LayoutLine;
      const line = lines[j] as LayoutLine;
      if (prev.y - line.y > gap * options.maxGapLines || line.y > prev.y || line.column !== prev.column) break;
      const p = parts[j] as { label: string; cells: Cell[] };
      if (p.cells.length > 0) lastValue = j;
      else if (p.label.length > 90 || line.segments.length > 1) break;
      j++;
    }
    const end = lastValue + 1;
    const values = parts.slice(i, end).filter((p) => (p?.cells.length ?? 0) > 0).length;
    if (values < options.minValueRows) {
      i++;
      continue;
    }
    const block = buildTable(lines, parts as { label: string; cells: Cell[] }[], i, end, gap, options);
    const from = Math.max(block.start, out[out.length - 1]?.end ?? 0);
    out.push({ ...block, start: from });
    i = end;
  }
  return out;
}

function buildTable(
  lines: readonly LayoutLine[],
  parts: readonly { label: string; cells: Cell[] }[],
  start: number,
  end: number,
  gap: number,
  options: TableOptions,
): TableBlock {
  const size = (lines[start] as LayoutLine).size;
  const cells = parts.slice(start, end).flatMap((p) => p.cells);
  const cols = columnsOf(cells, Math.max(4, size * options.alignShare));
  const rows: string[][] = [];
  let pending = '';
  for (let i = start; i < end; i++) {
    const p = parts[i] as { label: string; cells: Cell[] };
    // A label wrapped onto the next line: that line starts in lower case, or holds only numbers.
    const wraps = pending !== '' && (/^\p{Ll}/u.test(p.label) || (p.label === '' && p.cells.length > 0));
    const label = wraps ? `${pending} ${p.label}`.trim() : p.label;
    if (pending !== '' && !wraps) rows.push([pending, ...cols.map(() => '')]);
    pending = '';
    if (p.cells.length === 0) {
      pending = label;
      continue;
    }
    const row = [label, ...cols.map(() => '')];
    for (const c of p.cells) {
      const k = columnFor(c, cols) + 1;
      row[k] = row[k] === '' ? c.text : `${row[k] as string} ${c.text}`;
    }
    rows.push(row);
  }
  if (pending !== '') rows.push([pending, ...cols.map(() => '')]);
  const head = headerAbove(lines, start, cols, gap, options);
  if (head === null) return { start, end, rows };
  const lead = head.lead.map((t) => [t, ...cols.map(() => '')]);
  return { start: head.from, end, header: head.header, rows: [...lead, ...rows] };
}
