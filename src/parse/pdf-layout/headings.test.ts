import { describe, expect, it } from 'vitest';
import { isStatementTitle, numberedHeading } from './headings';

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
