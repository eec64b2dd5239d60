/**
 * Columns: a page set in 2 or 3 columns has vertical gutters that almost no row crosses. They
 * are found from the x-coverage of the rows' items; a gap only counts as a gutter when the text
 * on each side of it reads as prose (mostly letters, lines that fill their column) — the white
 * space between a financial table's labels and its numbers is no gutter. Rows are then read
 * column by column, top to bottom; a row that crosses a gutter (a title, a wide table) is a
 * full-width block that stays where it is and closes the columns above it.
 */
import { itemEnd, lineOf, nonSpace, type Row, type RowItem } from './lines';
import type { LayoutLine } from './types';

export interface ColumnOptions {
  /** Coverage histogram resolution, in points. */
  readonly binWidth: number;
  /** A gutter is at least this wide, as a share of the page's usual font size (and 6 pt). */
  readonly minGutterEm: number;
  /** At most this share of the rows may cross a gutter. */
  readonly maxCrossShare: number;
  /** Each column holds at least this share of the page's characters. */
  readonly minColumnShare: number;
  /** Each column's text is at least this share letters. */
  readonly minLetterShare: number;
  /** A quarter of a column's lines fill at least this share of its width. */
  readonly minFill: number;
  /** Fewer rows than this: no columns. */
  readonly minRows: number;
}

export const COLUMN_DEFAULTS: ColumnOptions = Object.freeze({
  binWidth: 2,
  minGutterEm: 0.8,
  maxCrossShare: 0.35,
  minColumnShare: 0.05,
  minLetterShare: 0.5,
  minFill: 0.7,
  minRows: 12,
});

/** A vertical band [start, end] that separates two columns. */
export interface Gutter {
  readonly start: number;
  readonly end: number;
}

/** The q-quantile (0…1) of `xs`, 0 when empty. */
function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))] as number;
}

/**
 * The widest stretch of bins [from, to) within [k, j) whose coverage is within one of the
 * least: a gutter's true middle, not the ragged ends of the lines beside it.
 */
function leastCovered(cover: Uint32Array, k: number, j: number): { from: number; to: number } {
  let least = Infinity;
  for (let i = k; i < j; i++) least = Math.min(least, cover[i] as number);
  let best = { from: k, to: k };
  let i = k;
  while (i < j) {
    if ((cover[i] as number) > least + 1) {
      i++;
      continue;
    }
    let e = i;
    while (e < j && (cover[e] as number) <= least + 1) e++;
    if (e - i > best.to - best.from) best = { from: i, to: e };
    i = e;
  }
  return best;
}

/** Free runs of the coverage histogram strictly inside the text's x-extent. */
function freeRuns(rows: readonly Row[], options: ColumnOptions): Gutter[] {
  let left = Infinity;
  let right = -Infinity;
  for (const r of rows)
    for (const it of r.items) {
      left = Math.min(left, it.x);
      right = Math.max(right, itemEnd(it));
    }
  if (!(right > left)) return [];
  const bins = Math.ceil((right - left) / options.binWidth);
  const cover = new Uint32Array(bins);
  const stamp = new Int32Array(bins).fill(-1);
  rows.forEach((r, ri) => {
    for (const it of r.items) {
      const a = Math.max(0, Math.floor((it.x - left) / options.binWidth));
      const b = Math.min(bins - 1, Math.floor((itemEnd(it) - left) / options.binWidth));
      for (let k = a; k <= b; k++) {
        if (stamp[k] === ri) continue;
        stamp[k] = ri;
        cover[k] = (cover[k] as number) + 1;
      }
    }
  });
  const size = quantile(
    rows.map((r) => r.size),
    0.5,
  );
  const maxCross = Math.floor(rows.length * options.maxCrossShare);
  const minWidth = Math.max(6, size * options.minGutterEm);
  const runs: Gutter[] = [];
  let k = 0;
  while (k < bins) {
    if ((cover[k] as number) > maxCross) {
      k++;
      continue;
    }
    let j = k;
    while (j < bins && (cover[j] as number) <= maxCross) j++;
    if (k > 0 && j < bins) {
      const core = leastCovered(cover, k, j);
      const start = left + core.from * options.binWidth;
      const end = left + core.to * options.binWidth;
      if (end - start >= minWidth) runs.push({ start, end });
    }
    k = j;
  }
  return runs;
}

/** The character-weighted median item size. */
function bodySize(rows: readonly Row[]): number {
  const sized: [number, number][] = [];
  let total = 0;
  for (const r of rows)
    for (const it of r.items) {
      const n = nonSpace(it.str);
      sized.push([it.size, n]);
      total += n;
    }
  sized.sort((a, b) => a[0] - b[0]);
  let seen = 0;
  for (const [size, n] of sized) if ((seen += n) * 2 >= total) return size;
  return 0;
}

const mid = (g: Gutter): number => (g.start + g.end) / 2;

/** Items of a row that lie in column `c` of the columns cut by `gutters`. */
function inColumn(items: readonly RowItem[], gutters: readonly Gutter[], c: number): RowItem[] {
  const lo = c === 0 ? -Infinity : mid(gutters[c - 1] as Gutter);
  const hi = c === gutters.length ? Infinity : mid(gutters[c] as Gutter);
  return items.filter((it) => it.x >= lo && it.x < hi);
}

function crosses(row: Row, gutters: readonly Gutter[]): boolean {
  return row.items.some((it) => gutters.some((g) => it.x < mid(g) && itemEnd(it) > mid(g)));
}

/** True when every column between `gutters` reads as prose (see the file comment). */
function proseColumns(rows: readonly Row[], gutters: readonly Gutter[], options: ColumnOptions): boolean {
  // Figure labels and other small print say nothing about the columns.
  const body = bodySize(rows);
  const kept = rows
    .filter((r) => !crosses(r, gutters))
    .map((r) => ({ ...r, items: r.items.filter((it) => it.size >= body * 0.7) }));
  let total = 0;
  for (const r of kept) for (const it of r.items) total += nonSpace(it.str);
  for (let c = 0; c <= gutters.length; c++) {
    let chars = 0;
    let letters = 0;
    const widths: number[] = [];
    let lo = Infinity;
    let hi = -Infinity;
    for (const r of kept) {
      const items = inColumn(r.items, gutters, c);
      if (items.length === 0) continue;
      const a = Math.min(...items.map((it) => it.x));
      const b = Math.max(...items.map(itemEnd));
      widths.push(b - a);
      lo = Math.min(lo, a);
      hi = Math.max(hi, b);
      for (const it of items) {
        chars += nonSpace(it.str);
        letters += (it.str.match(/\p{L}/gu) ?? []).length;
      }
    }
    if (widths.length < 3 || chars < total * options.minColumnShare) return false;
    if (letters < chars * options.minLetterShare) return false;
    if (quantile(widths, 0.75) < (hi - lo) * options.minFill) return false;
  }
  return true;
}

/** The page's column gutters, left to right; empty for a one-column page. */
export function findGutters(rows: readonly Row[], options: ColumnOptions = COLUMN_DEFAULTS): Gutter[] {
  if (rows.length < options.minRows) return [];
  let gutters = freeRuns(rows, options);
  if (gutters.length > 2) gutters = [...gutters].sort((a, b) => b.end - b.start - (a.end - a.start)).slice(0, 2);
  gutters = [...gutters].sort((a, b) => a.start - b.start);
  if (gutters.length > 0 && proseColumns(rows, gutters, options)) return gutters;
  // One gutter of a pair may be a table's gap: try each alone, widest first.
  const alone = [...gutters].sort((a, b) => b.end - b.start - (a.end - a.start));
  for (const g of gutters.length > 1 ? alone : []) if (proseColumns(rows, [g], options)) return [g];
  return [];
}

/** Lines in reading order: column by column between full-width rows. */
export function readColumns(rows: readonly Row[], gutters: readonly Gutter[]): LayoutLine[] {
  if (gutters.length === 0) return rows.map((r) => lineOf(r.items, -1));
  const out: LayoutLine[] = [];
  let band: LayoutLine[][] = gutters.map(() => []).concat([[]]);
  const flush = (): void => {
    for (const col of band) out.push(...col);
    band = band.map(() => []);
  };
  for (const row of rows) {
    if (crosses(row, gutters)) {
      flush();
      out.push(lineOf(row.items, -1));
      continue;
    }
    band.forEach((col, c) => {
      const items = inColumn(row.items, gutters, c);
      if (items.length > 0) col.push(lineOf(items, c));
    });
  }
  flush();
  return out;
}
