import { describe, expect, it } from 'vitest';
import { PERIOD_CELL_WORD } from './periods';
import { PERIOD_HEADING, SECTION_LABEL, SECTION_QUALIFIERS } from './sections';

/** Each row: a pattern, its name, a heading or cell, and whether the pattern matches it. */
const ROWS: readonly (readonly [RegExp, string, string, boolean])[] = [
  [SECTION_LABEL, 'SECTION_LABEL', 'Item 7A. Quantitative and Qualitative Disclosures', true],
  [SECTION_LABEL, 'SECTION_LABEL', 'Note 12 Income Taxes', true],
  [SECTION_LABEL, 'SECTION_LABEL', 'Part II', true],
  [SECTION_LABEL, 'SECTION_LABEL', 'Income Taxes', false],
  [PERIOD_HEADING, 'PERIOD_HEADING', 'Three Months Ended March 31', true],
  [PERIOD_HEADING, 'PERIOD_HEADING', 'As of December 31', true],
  [PERIOD_HEADING, 'PERIOD_HEADING', '2019 2018', true],
  [PERIOD_HEADING, 'PERIOD_HEADING', 'Segment Information', false],
  [PERIOD_CELL_WORD, 'PERIOD_CELL_WORD', 'Fiscal Year', true],
  [PERIOD_CELL_WORD, 'PERIOD_CELL_WORD', 'Sept', true],
  [PERIOD_CELL_WORD, 'PERIOD_CELL_WORD', 'Lease Obligations', false],
];

describe('section labels and period headings', () => {
  it.each(ROWS)('%#: %s on %j → %s', (re, _name, text, matches) => {
    expect(re.test(text)).toBe(matches);
  });
});

describe('section qualifiers', () => {
  it.each([
    ['consolidated', true],
    ['unaudited', true],
    ['continued', true],
    ['cash', false],
    ['income', false],
  ] as const)('%j → %s', (word, held) => {
    expect(SECTION_QUALIFIERS.includes(word)).toBe(held);
  });
});
