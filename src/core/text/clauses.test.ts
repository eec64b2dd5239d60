import { describe, expect, it } from 'vitest';
import { askedPhrase, asks, mainClause } from './clauses';
import { asksForComputation } from '../answer/computation';
import { answerTypeOf } from '../verify/values';

/** Each row: a question, its main clause, and the answer type read from it. */
const ROWS: readonly [string, string, string][] = [
  [
    'If the regular due date for filing Form 1040NR falls on a Saturday, Sunday, or legal holiday, when should you file?',
    'when should you file?',
    'date',
  ],
  ['When did the company file its report?', 'When did the company file its report?', 'date'],
  [
    'For fiscal 2019, what was the total revenue of the segment?',
    'what was the total revenue of the segment?',
    'number',
  ],
  ['Under the lease, who pays for repairs?', 'who pays for repairs?', 'entity'],
  ['Assuming the tenant leaves early, is the deposit returned?', 'is the deposit returned?', 'yesno'],
  ['Does the nonresident alien pay the income tax?', 'Does the nonresident alien pay the income tax?', 'yesno'],
  [
    'What is the company paid on a cost-plus type contract?',
    'What is the company paid on a cost-plus type contract?',
    'entity',
  ],
  ['What is the incubation period of the virus?', 'What is the incubation period of the virus?', 'number'],
  ['Which receptor does the virus bind?', 'Which receptor does the virus bind?', 'entity'],
  ['In the trial, how many patients recovered?', 'how many patients recovered?', 'number'],
  // An interrogative after a preposition asks with that interrogative.
  [
    'By what date is a return for the 2007 calendar year due for an employee who received wages?',
    'what date is a return for the 2007 calendar year due for an employee who received wages?',
    'date',
  ],
  ['To whom is the annual report sent?', 'whom is the annual report sent?', 'entity'],
  [
    'In which period was net sales greater than 1,000 million?',
    'which period was net sales greater than 1,000 million?',
    'date',
  ],
  ['For how long is the deposit held?', 'how long is the deposit held?', 'number'],
  ['By law, the deposit is returned within 30 days.', 'By law, the deposit is returned within 30 days.', 'any'],
];

describe('mainClause and the answer type read from it', () => {
  it.each(ROWS)('%s', (question, clause, type) => {
    expect(mainClause(question)).toBe(clause);
    expect(answerTypeOf(question)).toBe(type);
  });
});

describe('askedPhrase', () => {
  it.each([
    ['what was the total revenue of the segment', 'total revenue', 'revenue'],
    ['what is the incubation period of the virus', 'incubation period', 'period'],
    ['which receptor does the virus bind', 'receptor', 'receptor'],
    ['what percentage of patients recovered', 'percentage', 'percentage'],
  ])('%s', (clause, phrase, head) => {
    expect(askedPhrase(clause)).toEqual({ phrase, head });
  });

  it('has none for a clause that does not open with an interrogative', () => {
    expect(askedPhrase('the revenue was high')).toBeNull();
  });
});

/** Each row: a text, whether it asks (a question or a request) rather than states a claim to check. */
const ASKS: readonly [string, boolean][] = [
  ['What was the change in revenue between 2018 and 2019?', true],
  ['what was the change in revenue between 2018 and 2019', true],
  ['Calculate the gross margin for fiscal 2019', true],
  ['List the side effects reported in the trial', true],
  ['If the due date falls on a Sunday, when should you file', true],
  ['Does the company pay a dividend', true],
  ['PGE 2 promotes intestinal tumor growth by altering the expression of tumor suppressing genes.', false],
  ['The one-child policy has been successful in lowering population growth.', false],
  [
    'Proteins synthesized at the growth cone are ubiquitinated at a higher rate than proteins from the cell body.',
    false,
  ],
];

describe('asks: a question or a request, not a claim', () => {
  it.each(ASKS)('%s → %s', (text, asking) => {
    expect(asks(text)).toBe(asking);
  });

  it('reads a computation only where one is asked: a claim with figure words is no calculation', () => {
    for (const [text, asking] of ASKS.filter(([t]) => /growth|change|rate/u.test(t))) {
      expect(asksForComputation(text)).toBe(asking);
    }
  });
});
