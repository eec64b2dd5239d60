import { describe, expect, it } from 'vitest';
import { parseFormula, operandsOf } from '../answer/formula';
import { MEASURES, measureNamed } from './measures';

describe('MEASURES', () => {
  it.each(MEASURES.map((m) => [m.name, m] as const))(
    '%s: its formula parses, and every operand has row labels',
    (_, m) => {
      const f = parseFormula(m.formula);
      expect(f).not.toBeNull();
      for (const name of operandsOf(f!)) expect(m.items[name]?.length ?? 0).toBeGreaterThan(0);
      expect(m.source).not.toBe('');
    },
  );
});

describe('measureNamed', () => {
  it.each([
    ['What is the FY2019 gross margin?', 'gross margin'],
    ['What was the gross profit margin in 2018?', 'gross margin'],
    ['What is the operating margin for FY2020?', 'operating margin'],
    ['What is the 3 year average unadjusted operating income % margin?', 'operating margin'],
    ['What is the quick ratio at the end of FY2021?', 'quick ratio'],
    ['What is the acid-test ratio?', 'quick ratio'],
    ['What was the working capital ratio in 2019?', 'working capital ratio'],
    ['How much working capital did the company have?', 'working capital'],
    ['What was free cash flow in FY2018?', 'free cash flow'],
    ['What is capex as a % of revenue in FY2019?', 'capital expenditure as a share of revenue'],
    ['What were the days payable outstanding (DPO)?', 'days payable outstanding'],
    ['What was the effective tax rate in 2020?', 'effective tax rate'],
    ['What is the dividend payout ratio?', 'dividend payout ratio'],
    ['What was total revenue in 2019?', null],
    ['What is the margin of safety in the design?', null],
  ])('%s → %s', (question, name) => {
    expect(measureNamed(question)?.name ?? null).toBe(name);
  });
});
