import { describe, expect, it } from 'vitest';
import { MONTH_PATTERN } from './periods';
import { UNIT_WORDS } from './numbers';
import { LUCENE_ENGLISH_STOPWORDS, QUESTION_STOPWORDS } from './stopwords';

/** Each row: a word and whether it is a stop word. */
const ROWS: readonly (readonly [string, boolean])[] = [
  ['the', true],
  ['of', true],
  ['will', true],
  ['revenue', false],
  ['who', false], // Lucene keeps question words
  ['not', true],
];

describe('stop words', () => {
  it.each(ROWS)('%j → %s', (word, stop) => {
    expect(LUCENE_ENGLISH_STOPWORDS.has(word)).toBe(stop);
  });
  it('is Lucene’s set of 33', () => {
    expect(LUCENE_ENGLISH_STOPWORDS.size).toBe(33);
  });
});

/** Each row: a table, its name, a lower-cased word, and whether the table holds it. */
const TABLE_ROWS: readonly (readonly [ReadonlySet<string>, string, string, boolean])[] = [
  [QUESTION_STOPWORDS, 'QUESTION_STOPWORDS', 'which', true],
  [QUESTION_STOPWORDS, 'QUESTION_STOPWORDS', 'compare', true],
  [QUESTION_STOPWORDS, 'QUESTION_STOPWORDS', 'insulin', false],
  [UNIT_WORDS, 'UNIT_WORDS', 'mg', true],
  [UNIT_WORDS, 'UNIT_WORDS', 'days', true],
  [UNIT_WORDS, 'UNIT_WORDS', 'patients', false],
];

describe('question stop words and unit words', () => {
  it.each(TABLE_ROWS)('%#: %s has %j → %s', (table, _name, word, held) => {
    expect(table.has(word)).toBe(held);
  });
});

describe('month names', () => {
  const month = new RegExp(`^(?:${MONTH_PATTERN})$`, 'iu');
  it.each([
    ['September', true],
    ['sept', true],
    ['Sep', true],
    ['Mon', false],
    ['spring', false],
  ] as const)('%j → %s', (word, held) => {
    expect(month.test(word)).toBe(held);
  });
});
