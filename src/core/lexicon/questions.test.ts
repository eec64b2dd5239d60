import { describe, expect, it } from 'vitest';
import { ASKED_DETERMINERS } from './clauses';
import {
  DATE_OPENING,
  DATE_PHRASE,
  DEFINITION,
  DESCRIPTION,
  DESCRIPTION_FORM,
  ENTITY_OPENING,
  FACTOID_OPENING,
  HOW_MEASURE_OPENING,
  LATE_QUESTION_WORD,
  QUESTION_OPENING,
  SEVERAL_VALUES,
} from './questions';

/** Each row: a pattern, its name, a lower-cased question, and whether the pattern matches it. */
const ROWS: readonly (readonly [RegExp, string, string, boolean])[] = [
  [DATE_OPENING, 'DATE_OPENING', 'when should you file?', true],
  [DATE_OPENING, 'DATE_OPENING', 'in which year did the plant open?', true],
  [DATE_OPENING, 'DATE_OPENING', 'who signed the lease?', false],
  [DATE_PHRASE, 'DATE_PHRASE', "what was the film's release date?", true],
  [DATE_PHRASE, 'DATE_PHRASE', 'what was the update?', false],
  [HOW_MEASURE_OPENING, 'HOW_MEASURE_OPENING', 'how long is the warranty?', true],
  [HOW_MEASURE_OPENING, 'HOW_MEASURE_OPENING', 'how does the pump work?', false],
  [ENTITY_OPENING, 'ENTITY_OPENING', 'where was the meeting held?', true],
  [ENTITY_OPENING, 'ENTITY_OPENING', 'is the form required?', false],
  [DESCRIPTION, 'DESCRIPTION', 'why did margins fall?', true],
  [DESCRIPTION, 'DESCRIPTION', 'what is the purpose of the reserve?', true],
  [DESCRIPTION, 'DESCRIPTION', 'what is the total revenue?', false],
  [DESCRIPTION, 'DESCRIPTION', 'what does the table show?', true],
  [DESCRIPTION, 'DESCRIPTION', 'what happens if the vote fails?', true],
  [DESCRIPTION, 'DESCRIPTION', "what is the company's ongoing involvement limited to?", true],
  [DESCRIPTION, 'DESCRIPTION', 'what company acquired the startup?', false],
  [DESCRIPTION, 'DESCRIPTION', 'what did the residents put on their heads?', false],
  [DESCRIPTION, 'DESCRIPTION', 'what did the acronym stand for?', true],
  [DESCRIPTION, 'DESCRIPTION', 'what is the difference in net sales between 2018 and 2019?', true],
  [DESCRIPTION_FORM, 'DESCRIPTION_FORM', 'what is the difference in net sales between 2018 and 2019?', false],
  [DESCRIPTION_FORM, 'DESCRIPTION_FORM', 'what does adjusted gross margin represent?', true],
  [DESCRIPTION_FORM, 'DESCRIPTION_FORM', 'what was the increase in free cash flow driven by?', true],
  [DESCRIPTION_FORM, 'DESCRIPTION_FORM', 'what was the increase in free cash flow in 2019?', false],
  [SEVERAL_VALUES, 'SEVERAL_VALUES', 'what are the respective values of a and b?', true],
  [SEVERAL_VALUES, 'SEVERAL_VALUES', 'what was revenue in 2019 and 2018 respectively?', true],
  [SEVERAL_VALUES, 'SEVERAL_VALUES', 'what was the value of the respect index?', false],
  [DESCRIPTION, 'DESCRIPTION', 'what did decnet originally do', true],
  [
    DESCRIPTION,
    'DESCRIPTION',
    "what was hung from london's bridge this week to act as a warning to river traffic that repair work is going on?",
    false,
  ],
  [DESCRIPTION, 'DESCRIPTION', 'what is the capital of france?', false],
  [DEFINITION, 'DEFINITION', 'what is trace-based compilation?', true],
  [DEFINITION, 'DEFINITION', "what is amazon's assistant called?", false],
  [DEFINITION, 'DEFINITION', 'what is the margin?', false],
  [FACTOID_OPENING, 'FACTOID_OPENING', 'How many staff were hired?', true],
  [FACTOID_OPENING, 'FACTOID_OPENING', "What's the deadline?", true],
  [FACTOID_OPENING, 'FACTOID_OPENING', 'Compare the two plans.', false],
  [QUESTION_OPENING, 'QUESTION_OPENING', 'Name the auditor', true],
  [QUESTION_OPENING, 'QUESTION_OPENING', 'The auditor resigned.', false],
  [LATE_QUESTION_WORD, 'LATE_QUESTION_WORD', 'The board told advertisers to do what?', true],
  [LATE_QUESTION_WORD, 'LATE_QUESTION_WORD', 'The board met in May.', false],
];

describe('question openings', () => {
  it.each(ROWS)('%#: %s on %j → %s', (re, _name, question, matches) => {
    expect(re.test(question)).toBe(matches);
  });
});

describe('asked-phrase determiners', () => {
  it.each([
    ['the', true],
    ['its', true],
    ['total', false],
    ['which', false],
  ] as const)('%j → %s', (word, held) => {
    expect(ASKED_DETERMINERS.has(word)).toBe(held);
  });
});
