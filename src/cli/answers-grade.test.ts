/**
 * The answers benchmark's grader on small hand-made cases: each row would go the other way if
 * the rule it names broke. No shared data.
 */
import { describe, expect, it } from 'vitest';
import {
  containsSpan,
  evidenceHit,
  evidenceRequirements,
  goldNumber,
  gradeAnswer,
  holdsShare,
  numbersStated,
  questionScale,
  readFirst,
  scaleOf,
  statesNumber,
  tokenF1,
  type GoldAnswer,
  type Grade,
  type GradeRule,
} from './answers-grade';

const released = (read: string, citesGoldPage = false) => ({ read, citesGoldPage });

describe('what the user reads first', () => {
  it.each([
    [{ text: 'The report is due June 16, 2008 [S1].', short: { text: 'June 16, 2008 [S1]' } }, 'June 16, 2008'],
    [{ text: 'Form 4868 [S2, S3] extends the time [S1][S4].', short: null }, 'Form 4868 extends the time.'],
    [{ text: 'File by the next business day [S1].', short: { text: '  ' } }, 'File by the next business day.'],
  ])('%j reads %j', (answer, read) => {
    expect(readFirst(answer)).toBe(read);
  });
});

describe('numbers', () => {
  it.each([
    [
      '$1,496.5 million in 2019',
      [
        { value: 1496.5, scale: 1e6 },
        { value: 2019, scale: null },
      ],
    ],
    [
      '(1,577) and 24.5% and .5',
      [
        { value: 1577, scale: null },
        { value: 24.5, scale: 0.01 },
        { value: 0.5, scale: null },
      ],
    ],
    [
      'five percent of four',
      [
        { value: 5, scale: 0.01 },
        { value: 4, scale: null },
      ],
    ],
    ['10x faster in 250ms on the 15th', []],
    ['version 1.2.3 of v2', []],
    [
      '$2.5bn and 3 mn',
      [
        { value: 2.5, scale: 1e9 },
        { value: 3, scale: 1e6 },
      ],
    ],
    [
      '$302,578 (in thousands); 636 (in millions)',
      [
        { value: 302578, scale: 1e3 },
        { value: 636, scale: 1e6 },
      ],
    ],
  ])('%j states %j', (text, expected) => {
    expect(numbersStated(text)).toEqual(expected);
  });

  it.each([
    ['$1,496.5', 'million', { value: 1496.5, scale: 1e6, exact: false }],
    ['-12.6', 'percent', { value: 12.6, scale: 0.01, exact: false }],
    ['$1.5 billion', '', { value: 1.5, scale: 1e9, exact: false }],
    ['(1,577)', '', { value: 1577, scale: null, exact: false }],
    ['2019', '', { value: 2019, scale: null, exact: true }],
    ['5 percent', '', { value: 5, scale: 0.01, exact: false }],
    ['-$473 million', '', { value: 473, scale: 1e6, exact: false }],
    ['five', '', { value: 5, scale: null, exact: false }],
  ])('gold %j (scale %j) is %j', (gold, scale, expected) => {
    expect(goldNumber(gold, scale)).toEqual(expected);
  });

  it.each(['Corporate. Its net revenue was -$473 million.', '60 days', 'Form 4868', 'April 15, 2008', ''])(
    'gold %j is not a single figure',
    (gold) => {
      expect(goldNumber(gold)).toBeNull();
    },
  );

  // [answer, gold, scale, states]
  it.each([
    // Scale: the answer prints the table's figure, or restates it with a scale word.
    ['Total sales were $1,496.5 in 2019', '$1,496.5', 'million', true],
    ['1496.5 million', '$1,496.5', 'million', true],
    ['about $1.4965 billion', '$1,496.5', 'million', true],
    ['1,496.5 thousand', '$1,496.5', 'million', false],
    // Percent is a scale of 0.01: "12.5%" and "0.125" are one number, both ways.
    ['12.5%', '0.125', '', true],
    ['0.125', '12.5', 'percent', true],
    ['12.5', '12.5', 'percent', true],
    ['a rise of 12.5 percent', '12.5%', '', true],
    ['12.5 million', '12.5%', '', false],
    // A gold with no scale: "$1577.00" asked in USD millions.
    ['$1,577 million', '$1577.00', '', true],
    ['66%', '0.66', '', true],
    // Within 0.5 %, sign ignored.
    ['a decrease of 12.6', '-12.6', 'million', true],
    ['(12.55)', '-12.6', '', true],
    ['12.7', '-12.6', '', false],
    ['-22.2%', '-22.22', 'percent', true],
    // Word boundaries: no figure inside another.
    ['112.5', '12.5', '', false],
    ['page 12', '1.2', '', false],
    ['FY2018 capex', '2018', '', false],
    // Years are exact.
    ['in 2019', '2019', '', true],
    ['in 2010', '2019', '', false],
    ['four items', '4', '', true],
    ['', '4', '', false],
    ['zero', '0', '', true],
    ['5 titles', 'five', '', true],
    ['four titles', 'five', '', false],
  ])('%j states %j (scale %j): %s', (text, gold, scale, expected) => {
    const n = goldNumber(gold, scale);
    expect(n).not.toBeNull();
    expect(statesNumber(text, n!)).toBe(expected);
  });
});

describe('units', () => {
  it.each([
    ['million', 1e6],
    ['millions', 1e6],
    ['(in thousands)', 1e3],
    ['( in billions )', 1e9],
    ['percent', 0.01],
    ['', null],
    ['days', null],
  ])('scale of %j is %j', (word, k) => {
    expect(scaleOf(word)).toBe(k);
  });

  it.each([
    ['What is the FY2018 capital expenditure amount (in USD millions) for 3M?', 'millions'],
    ['How much (in USD billions) did it pay?', 'billions'],
    ['What is the quick ratio?', ''],
  ])('%j asks in %j', (q, unit) => {
    expect(questionScale(q)).toBe(unit);
  });
});

describe('words', () => {
  it('token F1 is SQuAD-style (articles and punctuation ignored, with repeats)', () => {
    expect(tokenF1('The next business day.', 'next business day')).toBe(1);
    // 2 of 4 predicted, 2 of 2 gold: P = 0.5, R = 1, F1 = 2/3.
    expect(tokenF1('file by next day', 'next day')).toBeCloseTo(2 / 3, 4);
    expect(tokenF1('day day', 'day')).toBeCloseTo(2 / 3, 4);
    expect(tokenF1('', 'day')).toBe(0);
    expect(tokenF1('day', '')).toBe(0);
  });

  it('a span is contained on word boundaries only', () => {
    expect(containsSpan('Revenue of Transportation Solutions, and more', 'transportation solutions')).toBe(true);
    expect(containsSpan('fixed price type contracts', 'fixed-price type')).toBe(true);
    expect(containsSpan('in 20190', '2019')).toBe(false);
    expect(containsSpan('cost-plus-type', 'plus type')).toBe(true);
    expect(containsSpan('a costly plus', 'cost plus')).toBe(false);
    expect(containsSpan('anything', '')).toBe(false);
  });

  it('holds counts gold words with repeats', () => {
    expect(holdsShare('the the cat', 'cat cat')).toBe(0.5);
    expect(holdsShare('1,496.5', '1496.5')).toBe(1);
  });
});

describe('grading one answer', () => {
  const gold = (g: Partial<GoldAnswer> & { answer: string | null }): GoldAnswer => g;
  // [name, gold, read (null: refused), citesGoldPage, grade, rule]
  const rows: [string, GoldAnswer, string | null, boolean, Grade, GradeRule][] = [
    ['refused', gold({ answer: 'June 16, 2008' }), null, false, 'refused', 'refused'],
    ['unanswerable: any release is wrong', gold({ answer: null }), 'June 16, 2008', true, 'wrong', 'unanswerable'],
    ['unanswerable refused', gold({ answer: null }), null, false, 'refused', 'refused'],
    [
      'numeric gold, scaled',
      gold({ answer: '$1,496.5', type: 'span', scale: 'million' }),
      '1.4965 billion',
      false,
      'right',
      'numeric',
    ],
    [
      'the unit named by the question, a unit note in the answer',
      gold({ answer: '$303.00', question: 'What is the FY2018 accounts payable (in USD millions)?' }),
      '$302,578 (in thousands)',
      false,
      'right',
      'numeric',
    ],
    [
      'the unit named by the question, another figure',
      gold({ answer: '$1832.00', question: 'What is the operating income (in USD millions)?' }),
      '636 (in millions)',
      false,
      'wrong',
      'numeric',
    ],
    [
      'numeric gold, other figure',
      gold({ answer: '$1,496.5', type: 'span', scale: 'million' }),
      '$1,202.9',
      false,
      'wrong',
      'numeric',
    ],
    [
      'arithmetic',
      gold({ answer: '-22.22', type: 'arithmetic', scale: 'percent' }),
      '(22.2%)',
      false,
      'right',
      'numeric',
    ],
    ['count in words', gold({ answer: '4', type: 'count' }), 'There are four inputs', false, 'right', 'numeric'],
    [
      'multi-span: every span',
      gold({
        answer: 'fixed-price type; cost-plus type',
        answers: ['fixed-price type', 'cost-plus type', ''],
        type: 'multi-span',
      }),
      'Fixed-price type and cost-plus type contracts.',
      false,
      'right',
      'multi-span',
    ],
    [
      'multi-span: one missing',
      gold({
        answer: 'fixed-price type; cost-plus type',
        answers: ['fixed-price type', 'cost-plus type'],
        type: 'multi-span',
      }),
      'Fixed-price type contracts.',
      false,
      'wrong',
      'multi-span',
    ],
    [
      'multi-span of figures, scaled',
      gold({ answer: '$1,073.3; $1,095.0', answers: ['$1,073.3', '$1,095.0'], type: 'multi-span', scale: 'million' }),
      '1,073.3 and 1,095',
      false,
      'right',
      'multi-span',
    ],
    [
      'list is multi-span',
      gold({ answer: 'Python; .NET', answers: ['Python', '.NET'], type: 'list' }),
      'Python, Java and .NET',
      false,
      'right',
      'multi-span',
    ],
    [
      'long paged gold, gold page cited',
      gold({
        answer:
          'Yes, CVS Health requires an extensive asset base to operate, which is evident from its ROA of only 1.82%.',
        goldPages: [108],
      }),
      'Total assets were $228 billion.',
      true,
      'evidenced',
      'paged-free-text',
    ],
    [
      'long paged gold, no gold page cited',
      gold({
        answer:
          'Yes, CVS Health requires an extensive asset base to operate, which is evident from its ROA of only 1.82%.',
        goldPages: [108],
      }),
      'Yes, CVS Health requires an extensive asset base to operate, which is evident from its ROA of only 1.82%.',
      false,
      'wrong',
      'paged-free-text',
    ],
    [
      'long gold without pages goes to F1',
      gold({
        answer: 'Mother-to-child transmission (MTCT) is the main cause of HIV-1 infection in children worldwide.',
      }),
      'Mother-to-child transmission (MTCT) is the main cause of HIV-1 infection in children.',
      false,
      'right',
      'f1',
    ],
    [
      'yes/no: first word',
      gold({ answer: 'no', type: 'yesno' }),
      'No. Form 4868 does not extend it.',
      false,
      'right',
      'yes-no',
    ],
    [
      'yes/no: a no inside a quote is not a no',
      gold({ answer: 'no', type: 'yesno' }),
      'Form 4868 does not extend the time; no payment is extended.',
      false,
      'wrong',
      'yes-no',
    ],
    ['F1 ≥ 0.5', gold({ answer: 'next business day' }), 'the next business day', false, 'right', 'f1'],
    [
      'holds the gold in a short answer',
      gold({ answer: 'Form 4868' }),
      'If you cannot file your return by the due date, you should file Form 4868.',
      false,
      'right',
      'f1',
    ],
    [
      'holds the gold in an answer past max(6 × 2, 60) words',
      gold({ answer: 'Form 4868' }),
      `${'word '.repeat(60)}Form 4868`,
      false,
      'wrong',
      'f1',
    ],
    ['neither', gold({ answer: 'Form 4868' }), 'Schedule A', false, 'wrong', 'f1'],
    // F1 = 0.5 on the shared word, but the figure differs.
    ['F1 0.5, another figure', gold({ answer: 'Form 4868' }), 'Form 1040NR', false, 'wrong', 'f1'],
    ['F1 0.5, another duration', gold({ answer: '120 days' }), '90 days', false, 'wrong', 'f1'],
    ['number words are figures', gold({ answer: 'fourteen years' }), 'twenty years', false, 'wrong', 'f1'],
    ['the figure without its unit', gold({ answer: 'over 50 countries' }), '50', false, 'right', 'f1'],
    ['F1 0.5, no figure in the gold', gold({ answer: 'Plane Crazy' }), 'Crazy Eights', false, 'right', 'f1'],
    ['a short gold states its figures', gold({ answer: '108 per 100,000' }), '1 per 100,000', false, 'wrong', 'f1'],
    [
      'a gold of more than 4 words is graded by its words alone',
      gold({ answer: 'Nterminus of HBV preS1 (amino acids 1-47)' }),
      'Nterminus of HBV',
      false,
      'right',
      'f1',
    ],
    [
      'any accepted alternative',
      gold({ answer: 'Austin, Texas', answers: ['Austin, Texas', 'Austin, TX'] }),
      'Austin, TX',
      false,
      'right',
      'f1',
    ],
  ];
  it.each(rows)('%s', (_name, g, read, cites, grade, rule) => {
    expect(gradeAnswer(g, read === null ? null : released(read, cites))).toEqual({ grade, rule });
  });
});

describe('evidence hit', () => {
  const p = (text: string, pages: number[] = []) => ({ text, pages });

  it('by page when the evidence is paged', () => {
    const g: GoldAnswer = { answer: '$1577.00', goldPages: [60] };
    expect(evidenceHit(g, [p('nothing', [59, 60])])).toBe(true);
    expect(evidenceHit(g, [p('Purchases of PP&E (1,577)', [61])])).toBe(false);
  });

  it('by the gold span otherwise (≥ 80 % of its words in one passage)', () => {
    const g: GoldAnswer = { answer: 'DC-SIGNR plays a crucial role in MTCT of HIV-1' };
    expect(evidenceHit(g, [p('We found DC-SIGNR plays a crucial role in MTCT of HIV-1 infection.')])).toBe(true);
    // 4 of 8 words in each passage: no single passage holds the span.
    expect(evidenceHit(g, [p('DC-SIGNR plays a crucial'), p('role in MTCT of HIV-1')])).toBe(false);
    expect(evidenceHit(g, [])).toBe(false);
  });

  it('arithmetic: every operand of the derivation; count: every item', () => {
    const arith: GoldAnswer = { answer: '-12.6', type: 'arithmetic', scale: 'million', derivation: '44.1-56.7' };
    expect(evidenceRequirements(arith)).toEqual([['44.1'], ['56.7']]);
    expect(evidenceHit(arith, [p('Other 44.1'), p('Other 56.7 70.8')])).toBe(true);
    expect(evidenceHit(arith, [p('Other 44.1 70.8')])).toBe(false);
    const count: GoldAnswer = {
      answer: '2',
      type: 'count',
      derivation: 'Impairment charges##Other operating expenses',
    };
    expect(evidenceHit(count, [p('Impairment charges 12'), p('Other operating expenses 4')])).toBe(true);
    expect(evidenceHit(count, [p('Impairment charges 12')])).toBe(false);
  });

  it('multi-span: every span; yes/no: the evidence sentence; unanswerable: never', () => {
    const multi: GoldAnswer = {
      answer: 'a; b',
      answers: ['Transportation Solutions', 'Industrial Solutions'],
      type: 'multi-span',
    };
    expect(evidenceHit(multi, [p('Transportation Solutions 1,000 Industrial Solutions 2,000')])).toBe(true);
    expect(evidenceHit(multi, [p('Transportation Solutions 1,000')])).toBe(false);
    const yesNo: GoldAnswer = {
      answer: 'no',
      evidenceTexts: ['Form 4868 does not extend the time to pay your income tax.'],
    };
    expect(evidenceHit(yesNo, [p('Note. Form 4868 does not extend the time to pay your income tax.')])).toBe(true);
    expect(evidenceHit(yesNo, [p('no')])).toBe(false);
    expect(evidenceHit({ answer: null }, [p('anything', [1])])).toBe(false);
  });
});
