import { describe, expect, it } from 'vitest';
import { NAME_LINKS, SENTENCE_START_CAPS } from './names';
import { WEEKDAYS } from './periods';
import { SCALE_WORDS } from './numbers';

/** Each row: a table, its name, a lower-cased word, and whether the table holds it. */
const ROWS: readonly (readonly [ReadonlySet<string>, string, string, boolean])[] = [
  [NAME_LINKS, 'NAME_LINKS', 'of', true], // Bank of England
  [NAME_LINKS, 'NAME_LINKS', 'van', true], // Ludwig van Beethoven
  [NAME_LINKS, 'NAME_LINKS', '&', true], // Procter & Gamble
  [NAME_LINKS, 'NAME_LINKS', 'with', false],
  [SENTENCE_START_CAPS, 'SENTENCE_START_CAPS', 'however', true],
  [SENTENCE_START_CAPS, 'SENTENCE_START_CAPS', 'the', true],
  [SENTENCE_START_CAPS, 'SENTENCE_START_CAPS', 'london', false],
  [WEEKDAYS, 'WEEKDAYS', 'saturday', true],
  [WEEKDAYS, 'WEEKDAYS', 'tue', true],
  [WEEKDAYS, 'WEEKDAYS', 'march', false],
  [new Set(SCALE_WORDS), 'SCALE_WORDS', 'billion', true],
  [new Set(SCALE_WORDS), 'SCALE_WORDS', 'bn', true],
  [new Set(SCALE_WORDS), 'SCALE_WORDS', 'percent', false],
];

describe('names, weekdays and scale words', () => {
  it.each(ROWS)('%#: %s has %j → %s', (table, _name, word, held) => {
    expect(table.has(word)).toBe(held);
  });
});
