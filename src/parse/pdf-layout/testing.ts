/** Hand-placed text for the layout tests: widths as a Helvetica-like 0.5 em per character. */
import type { LayoutLine, PositionedItem } from './types';
import { groupRows, lineOf } from './lines';

export function item(str: string, x: number, y: number, size = 10): PositionedItem {
  return { str, x, y, size, width: str.length * size * 0.5 };
}

/** Items laid out left to right from `x` with word gaps of `gap` points, on baseline `y`. */
export function words(text: string, x: number, y: number, size = 10, gap = 2.5): PositionedItem[] {
  const out: PositionedItem[] = [];
  let at = x;
  for (const w of text.split(' ')) {
    const it = item(w, at, y, size);
    out.push(it);
    at += it.width + gap;
  }
  return out;
}

/** One-column lines from items, as the layout reads them. */
export function linesOf(items: readonly PositionedItem[]): LayoutLine[] {
  return groupRows(items).map((r) => lineOf(r.items, -1));
}
