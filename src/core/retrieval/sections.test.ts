import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../lexical/bm25';
import type { IndexableDoc } from '../types';
import { measuresOf } from './financial-measures';
import { DEFAULT_SECTION_SEARCH, searchNamedSections } from './section-search';
import { SectionIndex, withinWindow, type SectionedChunk } from './sections';
import { canonicalStatementText, STATEMENT_TOKENS } from './statement-names';
import { weightedQuery } from './term-weights';

/** A small filing: a risk factor that repeats the question's words, and three statements. */
const FILING: (SectionedChunk & { text: string })[] = [
  {
    id: 'r1',
    names: ['Part I', 'Item 1A. Risk Factors'],
    text: 'Our year end results and net revenue growth may vary; equity analysts may answer questions about our debt.',
  },
  { id: 'r2', names: ['Part I', 'Item 1A. Risk Factors'], text: 'Competition may reduce revenue in any year.' },
  {
    id: 'b1',
    names: ['Part II', 'Item 8. Financial Statements', 'Consolidated Balance Sheets'],
    text: '| Total current assets | 13,709 | 14,277 |\n| Inventories | 2,766 | 2,425 |',
  },
  {
    id: 'b2',
    names: ['Part II', 'Item 8. Financial Statements', 'Consolidated Balance Sheets'],
    text: '| Property, plant and equipment — net | 8,738 | 8,866 |',
  },
  {
    id: 'b3',
    names: ['Part II', 'Item 8. Financial Statements', 'Consolidated Balance Sheets'],
    text: '| Total current liabilities | 7,244 | 7,687 |',
  },
  {
    id: 'i1',
    names: ['Part II', 'Item 8. Financial Statements', 'Consolidated Statements of Operations'],
    text: '| Net sales | 32,765 | 31,657 |\n| Operating income | 7,207 | 7,820 |',
  },
  {
    id: 'c1',
    names: ['Part II', 'Item 8. Financial Statements', 'Consolidated Statements of Cash Flows'],
    text: '| Purchases of property, plant and equipment (PP&E) | (1,577) | (1,373) |',
  },
  {
    id: 'n1',
    names: ['Part II', 'Item 8. Financial Statements', 'Note 12. Long-Term Debt', 'At December 31'],
    text: 'Long-term debt matures through 2047.',
  },
].map((c) => ({ ...c, docId: 'acme', docTitle: 'Acme Industries — Form 10-K' }));

function fixture(): { index: Bm25Index; sections: SectionIndex } {
  const docs: IndexableDoc[] = FILING.map((c) => ({
    id: c.id,
    title: c.docTitle,
    headings: c.names.join(' / '),
    text: c.text,
  }));
  const index = Bm25Index.build(docs);
  const sections = SectionIndex.build(
    FILING,
    (t) => index.analyze(t),
    (t) => index.df(t),
    index.size,
  );
  return { index, sections };
}

describe('canonicalStatementText', () => {
  it('makes the names of one primary statement one token, and keeps different statements apart', () => {
    const income = [
      'income statement',
      'Statement of Operations',
      'CONSOLIDATED STATEMENTS OF INCOME',
      'the P&L',
      'statements of earnings',
    ];
    for (const t of income) expect(canonicalStatementText(t)).toContain(STATEMENT_TOKENS.income);
    expect(canonicalStatementText('Consolidated Balance Shee t')).toContain(STATEMENT_TOKENS.balanceSheet);
    expect(canonicalStatementText('statement of financial position')).toContain(STATEMENT_TOKENS.balanceSheet);
    expect(canonicalStatementText('Statements of Cash Flows')).toContain(STATEMENT_TOKENS.cashFlows);
    expect(canonicalStatementText('Statements of Comprehensive Income')).toContain(
      STATEMENT_TOKENS.comprehensiveIncome,
    );
    expect(canonicalStatementText('Statements of Comprehensive Income')).not.toContain(STATEMENT_TOKENS.income);
    expect(canonicalStatementText("Statements of Shareholders' Equity")).toContain(STATEMENT_TOKENS.equity);
    expect(canonicalStatementText('net income rose')).toBe('net income rose');
  });
});

describe('measuresOf', () => {
  it('names the statements a measure is computed from', () => {
    expect(measuresOf('Has the quick ratio improved?').map((m) => m.name)).toEqual(['quick ratio']);
    expect(measuresOf('Has the quick ratio improved?')[0]?.statements).toEqual([STATEMENT_TOKENS.balanceSheet]);
    expect(measuresOf('What was free cash flow in 2022?')[0]?.statements).toEqual([STATEMENT_TOKENS.cashFlows]);
    expect(measuresOf('Who is the chief executive?')).toEqual([]);
  });
});

describe('withinWindow', () => {
  it('needs every term inside one short window', () => {
    expect(withinWindow(['see', 'note', '12', 'for'], ['note', '12'])).toBe(true);
    expect(withinWindow(['note', 'a', 'b', 'c', 'd', '12'], ['note', '12'])).toBe(false);
    expect(withinWindow(['note'], ['note', '12'])).toBe(false);
  });
});

describe('SectionIndex.match', () => {
  it('finds the statement a question names under another of its names', () => {
    const { sections } = fixture();
    const m = sections.match('Using the income statement, what were net sales in 2018?');
    expect(m.sections.map((s) => s.name)).toEqual(['Consolidated Statements of Operations']);
    expect(m.sections[0]?.chunkIds).toEqual(['i1']);
    expect(m.sections[0]?.via).toBe('name');
  });

  it('finds numbered labels ("Note 12") but not one common word or a period label', () => {
    const { sections } = fixture();
    expect(sections.match('What does Note 12 say about maturities?').sections.map((s) => s.name)).toContain('Note 12');
    // "Financial Statements" alone (two common words) is Item 8's name only with "Item 8" too.
    expect(sections.match('What happened at December 31?').sections).toEqual([]);
    expect(sections.match('Which risks are listed?').sections).toEqual([]);
  });

  it('a measure names the statement its inputs lie in', () => {
    const { sections } = fixture();
    const m = sections.match('Has Acme’s quick ratio improved?');
    expect(m.measures).toEqual(['quick ratio']);
    expect(m.sections.map((s) => [s.name, s.via])).toEqual([['Consolidated Balance Sheets', 'measure']]);
    expect(m.expansion).toContain('inventori');
  });
});

describe('searchNamedSections', () => {
  it('lifts the named statement’s best rows above chunks that only repeat the question’s words', () => {
    const { index, sections } = fixture();
    const q = 'Answer using the balance sheet: what is year end net PP&E for Acme? Answer as an equity analyst.';
    const weighted = weightedQuery(index, index.analyze(q));
    const plain = index.searchWeighted(weighted, { k: 8 });
    expect(plain[0]?.id).toBe('r1');
    const { hits, traces } = searchNamedSections(index, weighted, sections.match(q), plain, {
      ...DEFAULT_SECTION_SEARCH,
      k: 8,
    });
    expect(hits[0]?.id).toBe('b2');
    expect(traces.get('b2')?.section).toBe('Consolidated Balance Sheets');
    // Nothing outside the named section gains.
    for (const h of hits) if (!traces.has(h.id)) expect(h.score).toBe(plain.find((p) => p.id === h.id)?.score);
  });

  it('changes nothing when the question names no section', () => {
    const { index, sections } = fixture();
    const q = 'Competition may reduce revenue';
    const weighted = weightedQuery(index, index.analyze(q));
    const plain = index.searchWeighted(weighted, { k: 8 });
    const { hits } = searchNamedSections(index, weighted, sections.match(q), plain, {
      ...DEFAULT_SECTION_SEARCH,
      k: 8,
    });
    expect(hits).toBe(plain);
  });
});
