import { describe, expect, it } from 'vitest';
import { findTables } from './tables';
import { item, linesOf, words } from './testing';
import type { PositionedItem } from './types';

/** A cash-flow statement: right-aligned numbers at x-ends 400, 460, 520, rows 12 pt apart. */
function statement(): PositionedItem[] {
  const size = 8;
  const right = (s: string, end: number, y: number): PositionedItem => item(s, end - s.length * size * 0.5, y, size);
  // Centred over the three columns, as statements set it.
  const out: PositionedItem[] = [{ str: 'Years ended December 31', x: 372, y: 740, size, width: 148 }];
  out.push(
    ...words('(Millions)', 30, 728, size),
    right('2018', 400, 728),
    right('2017', 460, 728),
    right('2016', 520, 728),
  );
  const rows: [string, string[]][] = [
    ['Cash Flows from Investing Activities', []],
    ['Purchases of property, plant and equipment (PP&E)', ['(1,577)', '(1,373)', '(1,420)']],
    ['Proceeds from sale of businesses, net of cash', []],
    ['sold', ['846', '1,065', '142']],
    ['Net cash used in investing activities', ['$|222', '$|(3,086)', '$|(1,403)']],
  ];
  rows.forEach(([label, cells], i) => {
    const y = 716 - 12 * i;
    out.push(...words(label, 30, y, size, 2));
    cells.forEach((c, k) => {
      const end = 400 + 60 * k;
      if (c.startsWith('$|')) out.push(item('$', end - 40, y, size), right(c.slice(2), end, y));
      else out.push(right(c, end, y));
    });
  });
  out.push(...words('The accompanying notes are an integral part of this statement.', 30, 640, size, 2));
  return out;
}

describe('tables from positions', () => {
  it('recovers header, rows and columns of a financial statement', () => {
    const lines = linesOf(statement());
    const [table, ...more] = findTables(lines);
    expect(more).toEqual([]);
    expect(table?.header).toEqual([
      '(Millions)',
      'Years ended December 31 2018',
      'Years ended December 31 2017',
      'Years ended December 31 2016',
    ]);
    expect(table?.rows).toEqual([
      ['Cash Flows from Investing Activities', '', '', ''],
      ['Purchases of property, plant and equipment (PP&E)', '(1,577)', '(1,373)', '(1,420)'],
      ['Proceeds from sale of businesses, net of cash sold', '846', '1,065', '142'],
      ['Net cash used in investing activities', '$222', '$(3,086)', '$(1,403)'],
    ]);
    expect(lines[table!.start]?.text).toBe('Years ended December 31');
    expect(lines[table!.end]?.text).toMatch(/^The accompanying notes/);
  });

  it('leaves the statement’s title above its column headings out of them', () => {
    const size = 8;
    const titled = [{ str: 'CONSOLIDATED STATEMENTS OF CASH FLOWS', x: 300, y: 752, size, width: 180 }, ...statement()];
    const lines = linesOf(titled);
    const [table] = findTables(lines);
    expect(table?.header?.[1]).toBe('Years ended December 31 2018');
    expect(lines[table!.start]?.text).toBe('Years ended December 31');
    expect(lines[table!.start - 1]?.text).toBe('CONSOLIDATED STATEMENTS OF CASH FLOWS');
  });

  it('finds no table in prose, nor in two lines of numbers', () => {
    const prose = linesOf(
      ['Revenue grew in 2018 by 12 percent.', 'Costs fell.', 'Margins rose to 31 percent in the year.'].flatMap(
        (t, i) => words(t, 30, 700 - 12 * i),
      ),
    );
    expect(findTables(prose)).toEqual([]);
    const two = linesOf([
      ...words('Revenue', 30, 700),
      item('1,234', 400, 700),
      ...words('Costs', 30, 688),
      item('567', 400, 688),
    ]);
    expect(findTables(two)).toEqual([]);
  });
});
