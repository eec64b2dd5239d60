import { describe, expect, it } from 'vitest';
import { LUCENE_ENGLISH_STOPWORDS } from './stopwords';

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
