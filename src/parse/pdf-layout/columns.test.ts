import { describe, expect, it } from 'vitest';
import { findGutters, readColumns } from './columns';
import { groupRows } from './lines';
import type { PositionedItem } from './types';
import { item, words } from './testing';

const PROSE = [
  'the committee meets every month to review',
  'applications and decides on each of them',
  'within thirty days of the filing date and',
  'writes to the applicant with its reasons',
];

/** `n` lines of prose per column at the given x positions, 12 pt apart, same baselines. */
function page(xs: readonly number[], n: number, title?: string): PositionedItem[] {
  const items: PositionedItem[] = [];
  if (title !== undefined) items.push(...words(title, xs[0]!, 760, 14));
  xs.forEach((x, c) => {
    for (let i = 0; i < n; i++) items.push(...words(`c${c}l${i} ${PROSE[i % PROSE.length]!}`, x, 730 - 12 * i, 8, 2));
  });
  return items;
}

describe('columns', () => {
  it('reads a two-column page column by column, with a full-width title first', () => {
    const rows = groupRows(page([40, 320], 16, 'A title that runs across both of the columns of this page'));
    const gutters = findGutters(rows);
    expect(gutters).toHaveLength(1);
    const lines = readColumns(rows, gutters);
    expect(lines[0]?.text).toMatch(/^A title/);
    expect(lines[0]?.column).toBe(-1);
    const order = lines.slice(1).map((l) => l.text.split(' ')[0]);
    expect(order.slice(0, 16).every((w) => w!.startsWith('c0'))).toBe(true);
    expect(order.slice(16).every((w) => w!.startsWith('c1'))).toBe(true);
    expect(lines.every((l) => !/c0l\d+ .* c1l/.test(l.text))).toBe(true);
  });

  it('finds three columns', () => {
    const rows = groupRows(page([40, 250, 460], 16));
    expect(findGutters(rows)).toHaveLength(2);
    const firsts = readColumns(rows, findGutters(rows)).map((l) => l.text.slice(0, 2));
    expect(firsts.indexOf('c1')).toBe(16);
    expect(firsts.indexOf('c2')).toBe(32);
  });

  it('does not take the gap between a table’s labels and its numbers for a gutter', () => {
    const items: PositionedItem[] = [];
    for (let i = 0; i < 16; i++) {
      items.push(...words(`Line item number ${i} of the statement`, 30, 700 - 12 * i, 8, 2));
      items.push(item(`${(i + 1) * 1234}`, 450, 700 - 12 * i, 8), item(`${(i + 2) * 987}`, 540, 700 - 12 * i, 8));
    }
    expect(findGutters(groupRows(items))).toEqual([]);
  });

  it('reads a one-column page top to bottom', () => {
    const rows = groupRows(page([40], 20));
    expect(findGutters(rows)).toEqual([]);
    expect(readColumns(rows, []).map((l) => l.column)).toEqual(new Array(20).fill(-1));
  });
});
