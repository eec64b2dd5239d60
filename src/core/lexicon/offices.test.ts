import { describe, expect, it } from 'vitest';
import { ROLE_PHRASE } from './offices';
import { QUESTION_WORD } from './questions';

/** Each row: a lower-cased sentence and the role phrases found in it. */
const ROLE_ROWS: readonly (readonly [string, readonly string[]])[] = [
  ['ask the operations manager first.', ['operations manager']],
  ['your line manager and the audit committee decide.', ['line manager', 'audit committee']],
  ['each trustee signs.', ['trustee']],
  ['managers decide.', []], // no determiner
  ['the budget was approved.', []],
];

describe('role phrases', () => {
  it.each(ROLE_ROWS)('%j → %j', (text, roles) => {
    expect([...text.matchAll(ROLE_PHRASE)].map((m) => m[1])).toEqual(roles);
  });
});

/** Each row: a folded question and how many question words it holds. */
const WORD_ROWS: readonly (readonly [string, number])[] = [
  ['how many days and what is the allowance', 2],
  ['who signed the lease', 1],
  ['list the side effects', 0],
  ['somewhat whoever', 0], // whole words only
];

describe('question words', () => {
  it.each(WORD_ROWS)('%j → %i', (question, count) => {
    expect((question.match(QUESTION_WORD) ?? []).length).toBe(count);
  });
});
