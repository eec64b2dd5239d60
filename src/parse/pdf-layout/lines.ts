/**
 * Items → rows → lines. A row is the items on one baseline (within a share of the font size);
 * raised, smaller items just above a row (footnote markers, superscripts) join it. A line is a
 * row's items in x order, joined with a space only where the gap between them says so, and cut
 * into segments at wide gaps (table cells, separate columns).
 */
import type { LayoutLine, PositionedItem, Segment } from './types';

export interface LineOptions {
  /** Items whose baselines differ by less than this share of the larger size share a row. */
  readonly baselineShare: number;
  /** A gap over this share of the font size is a space between words. */
  readonly spaceShare: number;
  /** A gap over this share of the font size starts a new segment. */
  readonly segmentShare: number;
  /** Smaller than this share of its neighbour's size: a small capital, superscript or marker. */
  readonly smallShare: number;
  /** A superscript row sits at most this share of the base row's size above it. */
  readonly raiseShare: number;
}

export const LINE_DEFAULTS: LineOptions = Object.freeze({
  baselineShare: 0.3,
  spaceShare: 0.15,
  segmentShare: 1.0,
  smallShare: 0.88,
  raiseShare: 0.6,
});

/** An item placed in a row; `raised` when it sits above the row's baseline in a smaller size. */
export interface RowItem extends PositionedItem {
  readonly raised: boolean;
}

export interface Row {
  readonly y: number;
  readonly size: number;
  readonly items: readonly RowItem[];
}

const BOLD = /bold|black|heavy|semibold|demi/i;

export function nonSpace(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x20 && c !== 0xa0 && c !== 0x3000) n++;
  }
  return n;
}

export function itemEnd(item: PositionedItem): number {
  return item.x + Math.max(0, item.width);
}

/** The size carrying most characters of `items`. */
function mainSize(items: readonly PositionedItem[]): number {
  const weight = new Map<number, number>();
  let best = 0;
  let most = -1;
  for (const it of items) {
    const n = (weight.get(it.size) ?? 0) + nonSpace(it.str);
    weight.set(it.size, n);
    if (n > most) [most, best] = [n, it.size];
  }
  return best;
}

function rowOf(items: readonly PositionedItem[]): Row {
  const size = mainSize(items);
  const base = items.filter((it) => it.size >= size * 0.999);
  const y = base.reduce((s, it) => s + it.y, 0) / Math.max(1, base.length);
  const placed = items.map((it) => ({
    ...it,
    raised: it.size < size * LINE_DEFAULTS.smallShare && it.y - y > size * 0.15,
  }));
  return { y, size, items: placed };
}

/**
 * Rows of one page, top to bottom. Whitespace-only items carry no position worth reading (pdf.js
 * gives some of them absurd widths), so they are dropped: spaces come back from the gaps.
 */
export function groupRows(items: readonly PositionedItem[], options: LineOptions = LINE_DEFAULTS): Row[] {
  const ink = items
    .filter((it) => it.str.trim() !== '' && Number.isFinite(it.x) && Number.isFinite(it.y) && it.size > 0)
    .sort((a, b) => b.y - a.y || a.x - b.x);
  const groups: PositionedItem[][] = [];
  let anchor = Number.NaN;
  let anchorSize = 0;
  for (const it of ink) {
    const current = groups[groups.length - 1];
    if (current !== undefined && Math.abs(anchor - it.y) <= options.baselineShare * Math.max(anchorSize, it.size)) {
      current.push(it);
      if (it.size > anchorSize) [anchor, anchorSize] = [it.y, it.size];
    } else {
      groups.push([it]);
      [anchor, anchorSize] = [it.y, it.size];
    }
  }
  return mergeRaised(groups.map(rowOf), options);
}

/** A row of small text just above a row of larger text, within its x-range, joins it (superscripts). */
function mergeRaised(rows: readonly Row[], options: LineOptions): Row[] {
  const out: Row[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as Row;
    const below = rows[i + 1];
    if (below !== undefined && isRaisedOver(row, below, options)) {
      const items = [...below.items, ...row.items.map((it) => ({ ...it, raised: true }))];
      out.push({ ...below, items });
      i++;
    } else out.push(row);
  }
  return out;
}

function isRaisedOver(row: Row, below: Row, options: LineOptions): boolean {
  const rise = row.y - below.y;
  if (rise <= 0 || rise > below.size * options.raiseShare || row.size >= below.size * options.smallShare) return false;
  const left = Math.min(...below.items.map((it) => it.x)) - below.size;
  const right = Math.max(...below.items.map(itemEnd)) + below.size;
  // Markers are short; a line of small text above is a caption or a note, not a superscript.
  return row.items.every((it) => it.x >= left && itemEnd(it) <= right && nonSpace(it.str) <= 4);
}

/** "MGM R" + smaller "ESORTS": a capital followed by small capitals is one word. */
function smallCapsJoin(prev: RowItem, next: RowItem, gap: number): boolean {
  return (
    /(?:^|\s)\p{Lu}$/u.test(prev.str) &&
    /^\p{Lu}/u.test(next.str) &&
    next.size < prev.size * LINE_DEFAULTS.smallShare &&
    !next.raised &&
    gap < prev.size * 0.5
  );
}

/** What goes between two neighbouring items of a line: nothing or a space. */
export function joiner(prev: RowItem, next: RowItem, options: LineOptions = LINE_DEFAULTS): '' | ' ' {
  if (/\s$/.test(prev.str) || /^\s/.test(next.str)) return ' ';
  // A footnote marker is kept apart from the word it follows.
  if (prev.raised !== next.raised) return ' ';
  const gap = next.x - itemEnd(prev);
  if (smallCapsJoin(prev, next, gap)) return '';
  return gap > options.spaceShare * Math.min(prev.size, next.size) ? ' ' : '';
}

/** One line from items of one row (any order). `column` says where it was read. */
export function lineOf(items: readonly RowItem[], column: number, options: LineOptions = LINE_DEFAULTS): LayoutLine {
  const sorted = [...items].sort((a, b) => a.x - b.x);
  const size = mainSize(sorted);
  const segments: Segment[] = [];
  let text = '';
  let seg = '';
  let segX = Number.NaN;
  let segEnd = Number.NaN;
  let prev: RowItem | undefined;
  let chars = 0;
  let boldChars = 0;
  for (const it of sorted) {
    const n = nonSpace(it.str);
    chars += n;
    if (it.fontName !== undefined && BOLD.test(it.fontName)) boldChars += n;
    const piece = it.str.replace(/\s+/g, ' ');
    if (prev !== undefined && it.x - segEnd > options.segmentShare * Math.max(size, 1)) {
      segments.push({ text: seg.trim(), x: segX, xEnd: segEnd });
      seg = '';
    }
    if (seg === '') {
      segX = it.x;
      segEnd = itemEnd(it);
      if (prev !== undefined) text += ' ';
    } else {
      const j = joiner(prev as RowItem, it, options);
      seg += j;
      text += j;
    }
    seg += piece;
    text += piece;
    segEnd = Math.max(segEnd, itemEnd(it));
    prev = it;
  }
  if (seg !== '') segments.push({ text: seg.trim(), x: segX, xEnd: segEnd });
  const y = sorted.filter((it) => !it.raised).reduce((m, it) => Math.min(m, it.y), Infinity);
  return {
    text: text.replace(/\s+/g, ' ').trim(),
    x: sorted[0]?.x ?? 0,
    xEnd: Math.max(...sorted.map(itemEnd)),
    y: Number.isFinite(y) ? y : (sorted[0]?.y ?? 0),
    size,
    chars,
    bold: chars > 0 && boldChars * 2 > chars,
    segments,
    column,
  };
}
