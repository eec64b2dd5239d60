import { describe, expect, it } from 'vitest';
import type { PackedSource } from '../select/pack';
import { computedAnswer, computeOver, planOf, resolvesName } from './compute';
import { figureOf } from './operands';
import { validateAnswer } from './validate';
import { filingSource } from './testing';
import { decideAbstention, type AbstentionSignals } from './abstain';

const table = (citationId: string, header: string, rows: readonly string[], page?: number): PackedSource =>
  filingSource(citationId, header, rows.join('\n'), {
    title: 'Annual report',
    ...(page !== undefined ? { page } : {}),
  });

// A statement with its column header in the context (a continuation chunk), in millions.
const income = table(
  'S1',
  '[S1] Annual report (p. 40) — (In millions) | | 2019 | 2018 | 2017 |',
  [
    '| Net sales | 1,671 | 1,612 | 1,500 |',
    '| Cost of sales | 1,000 | 980 | 950 |',
    '| Operating income | 302 | 148 | 120 |',
    '| Other | 44.1 | 56.7 | 50.0 |',
    '| Income tax benefit | (1,620) | 1,200 | 900 |',
  ],
  40,
);
// A header of two rows in the chunk itself, a spanning cell, percentages, no pages.
const rates = table('S2', '[S2] Annual report', [
  '| | Domestic | | International | |',
  '| | 2019 | 2018 | 2019 | 2018 |',
  '| Discount rate | 4.00% | 3.75% | 1.90% | 2.80% |',
]);
const balance = table('S3', '[S3] Annual report (p. 41) — | As of | 2019 | 2018 |', [
  '| Assets | | |',
  '| Total current assets | 391 | 339 |',
  '| Total assets | $2,664 | $3,025 |',
  '| Liabilities | | |',
  '| Total current liabilities | 851 | 167 |',
  '| Total liabilities | $909 | $1,305 |',
]);
const sources = [income, rates, balance];

describe('computeOver', () => {
  it.each([
    ['What is the change in Other in 2019 from 2018?', 'change', '−12.6 (in millions)'],
    ['What is the percentage change in Other from 2018 to 2019?', 'percent-change', '−22.22%'],
    // The unit asked in a trailing clause names no line item.
    ['By how much did Other change from 2018 to 2019, in percent?', 'percent-change', '−22.22%'],
    ['What is the 2019 average operating income?', 'average', '225 (in millions)'],
    ['What was the average net sales from 2017 to 2019?', 'average', '1,594.33 (in millions)'],
    ['What is the total cost of sales in 2018 and 2019?', 'sum', '1,980 (in millions)'],
    ['What is the ratio of total assets to total liabilities in 2019?', 'ratio', '2.93'],
    ['What were total current assets as a percentage of total assets in 2018?', 'share', '11.21%'],
    [
      'What is the difference between the domestic and international discount rates in 2019?',
      'difference',
      '2.10 percentage points',
    ],
    ['What is the gross margin in 2019?', 'measure', '40.16%'],
    ['What is the current ratio in 2018?', 'measure', '2.03'],
    ['What is the FY2018 - FY2019 2 year average gross margin?', 'average', '39.68%'],
    [
      'What is the 2019 cash ratio? Cash ratio is defined as: total current assets / total current liabilities.',
      'definition',
      '0.46',
    ],
    ['How many years did net sales exceed $1,550 million?', 'count', '2'],
  ])('%s → %s %s', (question, operation, shown) => {
    const c = computeOver(question, sources);
    expect(c?.operation).toBe(operation);
    expect(c?.status).toBe('complete');
    expect(c?.display).toBe(shown);
  });

  it('quotes every operand from a cell: a figure, with its row, column, page and citation', () => {
    const c = computeOver('What is the percentage change in Other from 2018 to 2019?', sources)!;
    expect(c.operands.map((o) => [o.row, o.period, o.printed, o.page, o.citationId])).toEqual([
      ['Other', '2018', '56.7', 40, 'S1'],
      ['Other', '2019', '44.1', 40, 'S1'],
    ]);
    expect(c.formula).toBe('Percentage change = (Other (2019) − Other (2018)) / Other (2018) × 100');
    expect(c.written).toBe('(44.1 − 56.7) / 56.7 × 100');
  });

  it('never takes a label as a value: every operand parses as a figure and differs from its row label', () => {
    for (const q of [
      'What is the change in Other in 2019 from 2018?',
      'What is the ratio of total assets to total liabilities in 2019?',
      'What is the gross margin in 2019?',
    ]) {
      for (const o of computeOver(q, sources)!.operands) {
        expect(figureOf(o.printed)?.value).toBe(o.value);
        expect(o.printed).not.toBe(o.row);
        expect(o.citationId).toMatch(/^S\d+$/);
      }
    }
  });

  it('is partial, naming the operand, when a period is not printed', () => {
    const c = computeOver('What is the change in Other from 2016 to 2019?', sources)!;
    expect(c.status).toBe('partial');
    expect(c.result).toBeNull();
    expect(c.missing.join(' ')).toMatch(/2016.*no cell found/);
    expect(c.operands.map((o) => o.printed)).toEqual(['44.1']);
  });

  it('refuses an ambiguous operand: two tables print different figures for one row and period', () => {
    const other = table('S4', '[S4] Annual report (p. 90) — (In millions) | | 2019 | 2018 |', [
      '| Other | 7.0 | 9.0 |',
    ]);
    const c = computeOver('What is the change in Other in 2019 from 2018?', [income, other])!;
    expect(c.status).toBe('partial');
    expect(c.missing.join(' ')).toMatch(/2 candidate cells/);
  });

  it('refuses a zero divisor and operands of different scales', () => {
    const zero = table('S5', '[S5] Annual report (p. 9) — | | 2019 | 2018 |', [
      '| Loops | 2 | 3 |',
      '| Aborts | 0 | 1 |',
    ]);
    expect(computeOver('What is the ratio of loops to aborts in 2019?', [zero])?.status).toBe('partial');
    const thousands = table('S6', '[S6] Annual report (p. 9) — (In thousands) | | 2019 | 2018 |', [
      '| Total debt | 500 | 400 |',
    ]);
    const c = computeOver('What is the ratio of total debt to total assets in 2019?', [
      thousands,
      balance.text.includes('In') ? balance : income,
    ]);
    expect(c?.status ?? 'partial').toBe('partial');
  });

  it('does not read a row whose label names only part of the phrase', () => {
    const c = computeOver('What was the change in basic operating income per share from 2018 to 2019?', sources);
    expect(c?.status ?? 'none').not.toBe('complete');
  });

  it('asks nothing of a lookup or a yes/no question', () => {
    expect(planOf('What was net sales in 2019?')).toBeNull();
    expect(computedAnswer('Did net sales increase from 2018 to 2019?', sources)).toBeNull();
    expect(computedAnswer('Which year had the larger operating income?', sources)).toBeNull();
  });
});

// A 10-K's statements over two chunks: line items as filings label them, dot leaders, fiscal years.
const cashFlows = table('S7', '[S7] Filing (p. 60) — (In thousands) | | November 27, 2015 | November 28, 2014 |', [
  '| Net cash provided by operating activities . . . . . | 1,469,502 | 1,287,482 |',
  '| Purchases of property and equipment | (184,936) | (148,332) |',
]);
const position = table('S8', '[S8] Filing (p. 58) — (In thousands) | | November 27, 2015 | November 28, 2014 |', [
  '| Inventories | 1,000 | 900 |',
  '| Total current liabilities . . . . . | 2,213,556 | 1,601,944 |',
  '| Cost of products sold | 9,500 | 8,000 |',
]);

describe('counts', () => {
  const investments = table('S9', '[S9] Annual report (p. 70) — | For the year ended | 2019 | 2018 |', [
    '| Alternative investments | | |',
    '| Private equities | 2,119 | 1,804 |',
    '| Hedge funds | 1,001 | 1,014 |',
    '| Real estate | 948 | 758 |',
    '| Total | 4,068 | 3,576 |',
  ]);
  it('counts the rows a table lists under a section, totals left out, and lists them', () => {
    const c = computeOver('How many components are there under alternative investments?', [investments])!;
    expect(c.display).toBe('3');
    expect(c.written).toBe('Alternative investments: Private equities; Hedge funds; Real estate');
  });
  it('counts the rows whose figure in the year asked passes a bound, totals left out', () => {
    const expenses = table('S10', '[S10] Annual report (p. 71) — | | 2019 | 2018 |', [
      '| Impairment charges | $94.2 | $394.0 |',
      '| Net losses on sales of assets | 45.1 | 85.6 |',
      '| Other operating expenses | 27.0 | 33.7 |',
      '| Total other operating expenses | $166.3 | $513.3 |',
    ]);
    const c = computeOver('How many expense items in 2018 were above $50 million?', [expenses])!;
    expect(c.display).toBe('2');
    expect(c.written).toMatch(/Impairment charges \(\$394\.0\), Net losses on sales of assets \(85\.6\); not in Other/);
  });
  it('counts only a whole list: rows whose printed total they sum to', () => {
    const part = table('S12', '[S12] Annual report (p. 12) — | | Loops | Aborts |', [
      '| crypto-md5 | 4 | 0 |',
      '| crypto-sha1 | 5 | 0 |',
      '| date-format | 3 | 7 |',
    ]);
    expect(computeOver('How many benchmarks had more than 5 aborts?', [part])).toBeNull();
  });
  it('refuses a count when a year header spans the wrong column', () => {
    const prices = table('S11', '[S11] Annual report (p. 30)', [
      '| | | Price range 2018 |',
      '| | Low | High |',
      '| First quarter | $5.99 | $8.40 |',
      '| Fourth quarter | $1.88 | $3.39 |',
    ]);
    expect(computeOver('In 2018, how many quarters had prices lower than $2.00 at their lows?', [prices])).toBeNull();
  });
  it('never counts amounts against a bound in percent', () => {
    expect(computeOver('How many years did net sales exceed 20%?', [income])).toBeNull();
  });
});

describe('figures stated in a sentence', () => {
  const prose = table(
    'S13',
    '[S13] Annual report (p. 33)',
    [
      'Income taxes. The effective tax rate was 21.6 percent and 24.6 percent for fiscal 2019 and 2018, respectively.',
      'Revenue grew 12% to $5.1 billion in 2019 from 2018.',
    ],
    33,
  );
  it('reads a line item over periods from the one sentence that pairs each figure with its year', () => {
    const c = computeOver('What was the change in the effective tax rate from 2018 to 2019?', [prose])!;
    expect(c.status).toBe('complete');
    expect(c.display).toBe('−3.0 percentage points');
    expect(c.operands.map((o) => [o.period, o.printed, o.citationId, o.page])).toEqual([
      ['2019', '21.6 percent', 'S13', 33],
      ['2018', '24.6 percent', 'S13', 33],
    ]);
  });
  it('does not pair figures with years when the sentence leaves the pairing open', () => {
    expect(computeOver('What was the percentage change in revenue from 2018 to 2019?', [prose])).toBeNull();
  });
});

describe('definitions and line items', () => {
  it('reads a definition over line items as questions name them, in the fiscal year asked, rounded as asked', () => {
    const q =
      'Here is the question: what is the FY2015 operating cash flow ratio for Adobe? Operating cash flow ratio is defined as: cash from operations / total current liabilities. Round your answer to two decimal places.';
    const c = computeOver(q, [cashFlows, position])!;
    expect(c.status).toBe('complete');
    expect(c.display).toBe('0.66');
    expect(c.operands.map((o) => o.row)).toEqual([
      'Net cash provided by operating activities',
      'Total current liabilities',
    ]);
  });

  it('gives a definition’s operand its own periods: an average between two years', () => {
    const q =
      "What is Filer's FY2015 inventory turnover ratio? Inventory turnover ratio is defined as: (FY2015 COGS) / (average inventory between FY2014 and FY2015).";
    const c = computeOver(q, [position])!;
    expect(c.written).toBe('9,500 / ((900 + 1,000) / 2)');
    expect(c.display).toBe('10.00');
  });

  it('names the phrases it found as line items, which are then no missing premise', () => {
    const q =
      'What is the FY2015 inventory turnover ratio? Inventory turnover ratio is defined as: (FY2015 COGS) / (average inventory between FY2014 and FY2015).';
    const c = computeOver(q, [position])!;
    expect(c.named).toContain('COGS');
    expect(resolvesName(c, 'FY2015 COGS')).toBe(true);
    expect(resolvesName(c, 'Kraft Heinz')).toBe(false);
  });

  it('asks no figure of a question for a reason', () => {
    expect(computedAnswer('What drove the operating margin change as of FY2015?', [cashFlows, position])).toBeNull();
  });
});

describe('computedAnswer', () => {
  it('passes validation: the result is recomputed from the cited figures', async () => {
    const a = computedAnswer('What is the percentage change in Other from 2018 to 2019?', sources)!;
    expect(a.short?.text).toBe('−22.22%');
    const v = await validateAnswer({ answer: a.text, sources });
    expect(v.outcome).toBe('supported');
  });

  it('a wrong result written out is not supported', async () => {
    const v = await validateAnswer({
      answer: 'Change = Other (2019) − Other (2018) = 44.1 − 56.7 = −13.6 [S1]',
      sources,
    });
    expect(v.outcome).toBe('unsupported');
  });

  it('is released only when complete; a partial computation refuses with reason computation', () => {
    const signals: AbstentionSignals = {
      answerScore: 1,
      topScore: 0.5,
      margin: 0,
      agreement: null,
      independentSources: 1,
      conflict: false,
      flagged: 0,
      coverage: 0.2,
      typed: true,
      voteSources: 1,
      voteShare: 1,
      missingEntities: [],
      computation: true,
      documents: 1,
    };
    expect(decideAbstention({ ...signals, computed: 'complete' })).toMatchObject({ abstain: false });
    expect(decideAbstention({ ...signals, computed: 'partial' })).toMatchObject({
      abstain: true,
      reason: 'computation',
    });
    expect(decideAbstention(signals)).toMatchObject({ abstain: true, reason: 'computation' });
  });
});
