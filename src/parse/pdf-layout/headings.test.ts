import { describe, expect, it } from 'vitest';
import { continuesSequence, isStatementTitle, numberedHeading, sequenceNumber } from './headings';

describe('numbered headings', () => {
  it('reads the numbering of long documents, ranked Part > Item > Note > decimal sections', () => {
    const rank = (t: string): number | undefined => numberedHeading(t)?.rank;
    expect(rank('PART II')).toBeLessThan(rank('Item 7. Management’s Discussion and Analysis')!);
    expect(rank('ITEM 1A. RISK FACTORS')).toBe(rank('Item 8.'));
    expect(rank('Item 8.')).toBeLessThan(rank('NOTE 3 — ACCOUNTS RECEIVABLE, NET')!);
    expect(rank('Note 12')).toBe(rank('Schedule II — Valuation and Qualifying Accounts'));
    expect(rank('Annex B')).toBe(rank('Note 12'));
    expect(rank('Note 12')).toBeLessThan(rank('4 Scope')!);
    expect(rank('4 Scope')).toBeLessThan(rank('4.2 Scope of the audit')!);
  });

  it('rejects contents entries, sentences and numbers that are no section numbers', () => {
    for (const t of [
      'Item 7. Management’s Discussion and Analysis 34',
      '2018 Compared to 2017',
      '1. Pay the tax due by the deadline.',
      'Partnership income is reported on line 4.',
      '12,345',
    ])
      expect(numberedHeading(t), t).toBeNull();
  });

  it('recognises statement titles over financial tables', () => {
    for (const t of [
      'Consolidated Balance Sheets',
      'CONSOLIDATED STATEMENTS OF CASH FLOWS',
      'Statements of Operations (Unaudited)',
    ])
      expect(isStatementTitle(t), t).toBe(true);
    expect(isStatementTitle('The balance sheet shows a strong position.')).toBe(false);
  });
});

describe('numbered sequences', () => {
  it.each([
    ['NOTE 5. Restructuring Actions', { word: 'note', n: 5 }],
    ['Note 12 — Stockholders’ Equity', { word: 'note', n: 12 }],
    ['PART 2', { word: 'part', n: 2 }],
    ['Item 1A. Risk Factors', null],
    ['4.2 Scope', null],
    ['Annex B', null],
  ])('%s', (text, expected) => {
    expect(sequenceNumber(text)).toEqual(expected);
  });

  // 3M's 2022 10-K sets "NOTE 5. Restructuring Actions" in the body's size right under the last
  // line of Note 4: no gap told it apart, and its pages kept Note 4's trail.
  it('takes the next number of a sequence as a heading, the first one too', () => {
    const seen = new Map([['note', 4]]);
    expect(continuesSequence('NOTE 5. Restructuring Actions', seen)).toBe(true);
    expect(continuesSequence('NOTE 6. Supplemental Income Statement Information', seen)).toBe(false);
    expect(continuesSequence('NOTE 1. Significant Accounting Policies', new Map())).toBe(true);
    expect(continuesSequence('Note 5', seen)).toBe(true);
  });

  it('takes no sentence, no long line and no number out of sequence', () => {
    const seen = new Map([['note', 4]]);
    for (const t of [
      'Note 5. The Company recorded restructuring charges in 2022.',
      'Note 5 for details.',
      'NOTE 5. Restructuring Actions, which the Company undertook across its four business groups in 2022',
      'Note 4. Goodwill',
      'Item 5. Market for Registrant’s Common Equity',
    ])
      expect(continuesSequence(t, seen), t).toBe(false);
  });
});
