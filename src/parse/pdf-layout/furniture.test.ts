import { describe, expect, it } from 'vitest';
import { findFurniture, isPageNumber, isTocPage } from './furniture';
import { item, linesOf, words } from './testing';
import type { LayoutLine } from './types';

const BOX = { width: 612, height: 792 };

/** A page with a running header, body lines and a page number at the bottom. */
function page(n: number, body: readonly string[]): LayoutLine[] {
  return linesOf([
    ...words(`Acme Corp Annual Report ${2000 + n}`, 40, 760),
    ...body.flatMap((t, i) => words(t, 40, 700 - 14 * i)),
    item(String(n), 300, 40),
  ]);
}

describe('page furniture', () => {
  it('takes running headers and page numbers out of the body and keeps them as page metadata', () => {
    const pages = [1, 2, 3, 4].map((n) => page(n, [`Body text of page ${n}.`, 'More body text.']));
    const f = findFurniture(
      pages,
      pages.map(() => BOX),
    );
    expect(f[0]?.body.map((l) => l.text)).toEqual(['Body text of page 1.', 'More body text.']);
    expect(f[2]?.header).toBe('Acme Corp Annual Report 2003');
    expect(f[2]?.label).toBe('3');
    expect(f.every((p) => p.toc === false)).toBe(true);
  });

  it('keeps a first line that does not repeat, and a heading that opens several pages', () => {
    const pages = [1, 2, 3].map((n) =>
      linesOf([
        ...words(n === 2 ? 'A line only this page has' : `Item ${n}. Business`, 40, 760),
        ...words('Body.', 40, 700),
      ]),
    );
    const f = findFurniture(
      pages,
      pages.map(() => BOX),
    );
    expect(f[1]?.body[0]?.text).toBe('A line only this page has');
    expect(f[0]?.body[0]?.text).toBe('Item 1. Business');
  });

  it('recognises page numbers', () => {
    for (const t of ['12', '- 4 -', 'Page 3 of 9', 'F-7', 'xii']) expect(isPageNumber(t), t).toBe(true);
    for (const t of ['2018 2017', 'Item 7', 'Total 12']) expect(isPageNumber(t), t).toBe(false);
  });

  it('recognises a contents page, not a table of figures', () => {
    const toc = linesOf([
      ...words('Table of Contents', 40, 760),
      ...[
        'Item 1. Business 4',
        'Item 1A. Risk Factors 12',
        'Item 2. Properties 25',
        'Item 7. Management’s Discussion 34',
        'Item 8. Financial Statements 55',
        'Signatures ........ 98',
      ].flatMap((t, i) => words(t, 40, 720 - 14 * i)),
    ]);
    expect(isTocPage(toc)).toBe(true);
    const table = linesOf(
      ['Revenue 1,234 1,100', 'Costs 45 67', 'Margin 10 12', 'Taxes 3 4', 'Net 7 8', 'Other 1 2'].flatMap((t, i) =>
        words(t, 40, 720 - 14 * i),
      ),
    );
    expect(isTocPage(table)).toBe(false);
  });
});
