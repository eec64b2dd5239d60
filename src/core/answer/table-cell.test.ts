import { describe, expect, it } from 'vitest';
import type { PackedSource } from '../select/pack';
import { questionYears, tableCellAnswer } from './table-cell';
import { filingSource } from './testing';

const source = (citationId: string, header: string, body: string): PackedSource =>
  filingSource(citationId, header, body);

const balanceSheet = source(
  'S2',
  '[S2] Filing › Item 8 › CONSOLIDATED BALANCE SHEETS (p. 57) — (In thousands, except share data) | | December 31, 2018 | December 31, 2017 |',
  [
    '| Current liabilities | | |',
    '| Accounts payable | $302,578 | $255,028 |',
    '| Construction payable | 311,793 | 474,807 |',
    '| Total current liabilities | 2,925,024 | 2,634,419 |',
  ].join('\n'),
);
const schedule = source(
  'S1',
  '[S1] Filing › SCHEDULE II (p. 103)',
  [
    '| | Balance at Beginning of Period | Provision for Doubtful Accounts | Balance at End of Period |',
    '| --- | --- | --- | --- |',
    '| Year Ended December 31, 2018 | $92,571 | $39,762 | $90,775 |',
  ].join('\n'),
);

describe('tableCellAnswer', () => {
  it('reads the cell of the row the question names, in the column of the year it asks for', () => {
    const cell = tableCellAnswer('What is the year end FY2018 amount of accounts payable?', [schedule, balanceSheet]);
    expect(cell).toMatchObject({
      citationId: 'S2',
      row: 'Accounts payable',
      column: 'December 31, 2018',
      value: '$302,578',
      unit: 'thousands',
    });
    expect(cell!.sentence).toBe('Accounts payable, December 31, 2018: $302,578 (in thousands).');
    expect(tableCellAnswer('What were accounts payable at the end of 2017?', [balanceSheet])?.value).toBe('$255,028');
  });

  it('never guesses the period, and never answers from a label the question only touches', () => {
    expect(tableCellAnswer('What were accounts payable in 2016?', [balanceSheet])).toBeNull();
    // "Total" alone is no match; "current liabilities" names two of the three label terms only.
    expect(tableCellAnswer('What is the total for 2018?', [balanceSheet])).toBeNull();
    expect(tableCellAnswer('What were current liabilities in 2018?', [balanceSheet])).toBeNull();
    expect(tableCellAnswer('What was total current liabilities in 2018?', [balanceSheet])?.value).toBe('2,925,024');
  });

  it('takes the header above a delimiter row, and the first value column without a year', () => {
    const t = source(
      'S3',
      '[S3] Filing',
      ['| | 2018 | 2017 |', '| --- | --- | --- |', '| Net sales | 32,765 | 31,657 |'].join('\n'),
    );
    expect(tableCellAnswer('What were net sales in 2017?', [t])?.value).toBe('31,657');
    expect(tableCellAnswer('What were the net sales?', [t])).toMatchObject({
      value: '32,765',
      column: '2018',
      unit: null,
    });
    expect(() => tableCellAnswer('x', [t], { minLabel: 1 } as never)).toThrow(/minLabel/);
  });

  it('reads fiscal years in the question', () => {
    expect([...questionYears('FY2018 vs fiscal 2019, and FY17')].sort()).toEqual(['2017', '2018', '2019']);
  });
});

describe('tableCellAnswer over several periods', () => {
  const noDelimiter = source(
    'S3',
    '[S3] Report › Inventories',
    [
      '| | Year Ended December 31, | | |',
      '| | 2019 | 2018 | 2017 |',
      '| Raw materials | $222 | $191 | $150 |',
      '| Vacation and other compensation | $1,659 | $1,433 | $1,200 |',
    ].join('\n'),
  );
  it.each([
    ['What are the respective values of raw materials in 2018 and 2019?', ['$191', '$222']],
    ['What is the amount of vacation and other compensation in 2019 and 2018 respectively?', ['$1,659', '$1,433']],
    ['What were raw materials for fiscal years 2019 to 2017 respectively?', ['$222', '$191', '$150']],
  ])('%s', (question, values) => {
    const cell = tableCellAnswer(question, [noDelimiter]);
    expect(cell?.cells?.map((c) => c.value)).toEqual(values);
    expect(cell?.value).toBe(values[0]);
  });
  it('reads the row of periods as the column heading when the table has no delimiter row', () => {
    expect(tableCellAnswer('What were raw materials in 2018?', [noDelimiter])).toMatchObject({
      column: '2018',
      value: '$191',
    });
  });
  it('answers nothing when one of the asked periods has no column (one cell would answer in part)', () => {
    expect(tableCellAnswer('What were raw materials in 2019 and 2016 respectively?', [noDelimiter])).toBeNull();
  });
  it('reads no cell in another unit family than the one asked', () => {
    const lives = source(
      'S4',
      '[S4] Filing › Property (dollars in millions)',
      ['| | 2019 | Lives (Years) |', '| Land and rights-of-way | $117.2 | 20 - 60 |'].join('\n'),
    );
    // "$117.2" is money; the question counts years. A money question reads it.
    expect(
      tableCellAnswer('How many years is the minimum lifespan of the land and rights-of-way in 2019?', [lives]),
    ).toBeNull();
    expect(tableCellAnswer('What was the cost of land and rights-of-way in 2019?', [lives])?.value).toBe('$117.2');
  });
  it('answers nothing from one cell when the question asks for the respective values of several columns', () => {
    const obligations = source(
      'S3',
      '[S3] Filing › Contractual Obligations (In thousands)',
      ['| | Total | Less than 1 year | 1-3 years |', '| Operating lease obligations | $2,828 | $773 | $2,055 |'].join(
        '\n',
      ),
    );
    const asked =
      'What are the respective values of operating lease obligations that are less than one year and 1-3 years?';
    expect(tableCellAnswer(asked, [obligations])).toBeNull();
    expect(tableCellAnswer('What are the operating lease obligations?', [obligations])?.value).toBe('$2,828');
  });
});
