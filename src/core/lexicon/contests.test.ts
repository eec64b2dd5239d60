import { describe, expect, it } from 'vitest';
import { DEFEAT_VERBS, LOSE_NOUNS, LOSE_VERBS, WIN_NOUNS, WIN_VERBS } from './contests';

/** Each row: a table, its name, a lower-cased word, and whether the table holds it. */
const ROWS: readonly (readonly [ReadonlySet<string>, string, string, boolean])[] = [
  [WIN_NOUNS, 'WIN_NOUNS', 'champion', true],
  [WIN_NOUNS, 'WIN_NOUNS', 'win', false], // a verb
  [LOSE_NOUNS, 'LOSE_NOUNS', 'runner-up', true],
  [LOSE_NOUNS, 'LOSE_NOUNS', 'winner', false],
  [DEFEAT_VERBS, 'DEFEAT_VERBS', 'defeated', true],
  [DEFEAT_VERBS, 'DEFEAT_VERBS', 'lost', false],
  [LOSE_VERBS, 'LOSE_VERBS', 'lost', true],
  [LOSE_VERBS, 'LOSE_VERBS', 'won', false],
  [WIN_VERBS, 'WIN_VERBS', 'clinched', true],
  [WIN_VERBS, 'WIN_VERBS', 'beat', false],
];

describe('contest words', () => {
  it.each(ROWS)('%#: %s has %j → %s', (table, _name, word, held) => {
    expect(table.has(word)).toBe(held);
  });
});
