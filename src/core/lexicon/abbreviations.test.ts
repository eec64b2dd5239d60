import { describe, expect, it } from 'vitest';
import { ABBREVIATIONS, NUMBER_ABBREVIATIONS } from './abbreviations';

/** Each row: a lower-cased token without its final dot, and whether the table holds it. */
const ROWS: readonly (readonly [ReadonlySet<string>, string, string, boolean])[] = [
  [ABBREVIATIONS, 'ABBREVIATIONS', 'e.g', true],
  [ABBREVIATIONS, 'ABBREVIATIONS', 'dr', true],
  [ABBREVIATIONS, 'ABBREVIATIONS', 'approx', true],
  [ABBREVIATIONS, 'ABBREVIATIONS', 'no', false], // "The answer is no."
  [ABBREVIATIONS, 'ABBREVIATIONS', 'end', false],
  [NUMBER_ABBREVIATIONS, 'NUMBER_ABBREVIATIONS', 'no', true],
  [NUMBER_ABBREVIATIONS, 'NUMBER_ABBREVIATIONS', 'pp', true],
  [NUMBER_ABBREVIATIONS, 'NUMBER_ABBREVIATIONS', 'e.g', false],
];

describe('abbreviations', () => {
  it.each(ROWS)('%#: %s has %j → %s', (table, _name, word, held) => {
    expect(table.has(word)).toBe(held);
  });
});
