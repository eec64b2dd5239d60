import { describe, expect, it } from 'vitest';
import { extractValues } from '../verify/values';
import { askedLabelNoun, labelledParts, labelReason } from './labels';
import { deadlinesIn } from './deadlines';

/** Each row: a sentence, a value's raw text in it, and whether it is a label (and why). */
const ROWS: readonly [string, string, string | null][] = [
  ['Use Form 1040NR if you were a nonresident alien.', '1040', 'identifier'],
  ['File under section 1201(c)(2) of the Act.', '1201', 'enumerator'],
  ['File under section 1201(c)(2) of the Act.', '2', 'enumerator'],
  ['Revenue rose to $1,496.5 million (see Note 12).', '12', 'label noun'],
  ['The results are shown in Figure 3 on page 4, line 7.', '3', 'label noun'],
  ['The results are shown in Figure 3 on page 4, line 7.', '4', 'label noun'],
  ['The results are shown in Figure 3 on page 4, line 7.', '7', 'label noun'],
  ['The incubation period has a median of 5.2 days.1 It varies.', '1', 'footnote marker'],
  ['Speedups of 2x-20x are typical.', '2', 'identifier'],
  ['Revenue rose 12% to $1,496.5 million.', '12%', null],
  ['Revenue rose 12% to $1,496.5 million.', '$1,496.5 million', null],
  ['The incubation period is 2 days to 14 days.', '2 days', null],
  ['About 7 patients recovered within a week.', '7', null],
  ['Ask for item no. 4 at the desk.', '4', 'label noun'],
  ['An outbreak occurred on the Diamond Princess [1] . The index case is unknown.', '1', 'reference marker'],
  ['Civets were proposed as intermediate hosts [6, 12] .', '12', 'reference marker'],
  ['Data were reported from European military camps (23), but not elsewhere.', '23', 'reference marker'],
  ['Of the patients, 31 (23%) recovered.', '31', null],
  ['The cohort (31 patients) recovered.', '31', null],
  ['| Net loss | (23) | (45) |', '23', null],
  ['Net loss was (23) million in 2019.', '23', null],
];

describe('labelReason', () => {
  it.each(ROWS)('%s — %s', (sentence, raw, reason) => {
    const value = extractValues(sentence).find((v) => v.raw === raw);
    expect(value, `no value "${raw}" in "${sentence}"`).toBeDefined();
    expect(labelReason(sentence, value!, true)).toBe(reason);
  });

  it('a year names a period only for a question asking a figure', () => {
    const s = 'Sales were 40 units in 2019.';
    const year = extractValues(s).find((v) => v.raw === '2019')!;
    if (year.kind === 'number') {
      expect(labelReason(s, year, true)).toBe('period year');
      expect(labelReason(s, year, false)).toBeNull();
    } else {
      expect(year.kind).toBe('date');
    }
  });

  it('a name that is a label noun before a number is a label', () => {
    const s = 'Use Form 1040NR to file.';
    const name = extractValues(s).find((v) => v.kind === 'entity')!;
    expect(labelReason(s, name)).toBe('label noun');
    const other = 'Ask Maria Lopez at the desk.';
    const person = extractValues(other).find((v) => v.kind === 'entity')!;
    expect(labelReason(other, person)).toBeNull();
  });
});

describe('deadlinesIn', () => {
  it.each([
    ['If the due date falls on a Saturday, file by the next business day.', 'the next business day'],
    [
      'File by the 15th day of the 6th month after your tax year ends.',
      'the 15th day of the 6th month after your tax year ends',
    ],
    ['The report is due within 30 days after the end of each month.', 'within 30 days after the end of each month'],
    ['The report is due on April 15.', null],
  ])('%s', (text, phrase) => {
    expect(deadlinesIn(text)[0]?.raw ?? null).toBe(phrase);
  });
});

/** Each row: a sentence, the asked label noun, and the labelled parts of that kind it names. */
const PARTS: readonly [string, string, string[]][] = [
  ['If you cannot file your return by the due date, you should file Form 4868.', 'form', ['Form 4868']],
  ['Attach Schedule OI and Forms W-2 to Form 1040NR-EZ.', 'form', ['Forms W-2', 'Form 1040NR-EZ']],
  ['Attach Schedule OI and Forms W-2 to Form 1040NR-EZ.', 'schedule', ['Schedule OI']],
  ['Penalties are set out in section 1201(c)(2) of the Act.', 'section', ['section 1201(c)(2)']],
  ['The form is simple and the schedule is short.', 'form', []],
  ['Fill in the Form carefully.', 'form', []],
];

describe('labelledParts: where a question asks for a part, its label answers', () => {
  it.each(PARTS)('%s (%s)', (text, noun, parts) => {
    expect(labelledParts(text, noun).map((v) => v.raw)).toEqual(parts);
  });

  it.each([
    ['form', 'form'],
    ['forms', 'form'],
    ['section', 'section'],
    ['revenue', null],
    [undefined, null],
  ] as const)('asked head %s → %s', (head, noun) => {
    expect(askedLabelNoun(head)).toBe(noun);
  });
});
