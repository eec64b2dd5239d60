import { describe, expect, it } from 'vitest';
import { VERSION_MARKS } from './versions';

describe('VERSION_MARKS', () => {
  it.each([
    ['v', true],
    ['version', true],
    ['rev', true],
    ['revised', true],
    ['draft', true],
    ['superseded', true],
    ['march', true],
    ['sept', true],
    ['policy', false],
    ['remote', false],
    ['company', false],
    ['form', false],
    ['travel', false],
  ])('%s → %s', (word, marks) => {
    expect(VERSION_MARKS.has(word)).toBe(marks);
  });

  it('holds lower-case single words only (titleStem compares lower-cased words)', () => {
    for (const w of VERSION_MARKS) expect(w).toMatch(/^\p{Ll}+$/u);
  });
});
