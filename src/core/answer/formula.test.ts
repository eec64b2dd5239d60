import { describe, expect, it } from 'vitest';
import { apply, constant, derivedFigures, evaluate, operand, operandsOf, parseFormula, writeFormula } from './formula';

describe('parseFormula', () => {
  it.each([
    ['cash from operations / total current liabilities', '(cash from operations) / (total current liabilities)'],
    ['(total revenue - cost of revenue) / total revenue', '((total revenue) − (cost of revenue)) / (total revenue)'],
    ['365 * accounts payable / cost of revenue', '365 × (accounts payable) / (cost of revenue)'],
    ['net income divided by revenue', '(net income) / (revenue)'],
  ])('reads %s', (text, written) => {
    const f = parseFormula(text);
    expect(f).not.toBeNull();
    expect(writeFormula(f!, (n) => `(${n})`)).toBe(written);
  });

  it.each([['revenue'], ['(a - b'], ['a / / b'], ['']])('refuses %j', (text) => {
    expect(parseFormula(text)).toBeNull();
  });

  it('keeps the operands in reading order, each once', () => {
    expect(operandsOf(parseFormula('(a - b) / a')!)).toEqual(['a', 'b']);
  });
});

describe('evaluate', () => {
  const f = apply('/', apply('-', operand('new'), operand('old')), operand('old'));
  it('computes over named values', () => {
    expect(
      evaluate(
        f,
        new Map([
          ['new', 44.1],
          ['old', 56.7],
        ]),
      ),
    ).toBeCloseTo(-0.2222, 4);
  });
  it('is null for a zero divisor or a missing operand, never Infinity', () => {
    expect(
      evaluate(
        f,
        new Map([
          ['new', 1],
          ['old', 0],
        ]),
      ),
    ).toBeNull();
    expect(evaluate(f, new Map([['new', 1]]))).toBeNull();
  });
  it('writes parentheses only where precedence needs them', () => {
    expect(writeFormula(apply('-', operand('a'), apply('-', operand('b'), operand('c'))), (n) => n)).toBe(
      'a − (b − c)',
    );
    expect(writeFormula(apply('-', apply('-', operand('a'), operand('b')), operand('c')), (n) => n)).toBe('a − b − c');
    expect(writeFormula(apply('*', apply('/', operand('a'), operand('b')), constant(100)), (n) => n)).toBe(
      'a / b × 100',
    );
  });
});

describe('derivedFigures', () => {
  it('accepts a result that follows from its written left side, with the percent constant', () => {
    expect(derivedFigures('Percentage change = (a − b) / b × 100 = (44.1 − 56.7) / 56.7 × 100 = −22.22% [S1]')).toEqual(
      [22.22, 100],
    );
  });
  it('accepts an average and its count of terms', () => {
    expect(derivedFigures('Average = (166 + 178) / 2 = 172')).toEqual([172, 2]);
  });
  it('rejects a result that does not follow', () => {
    expect(derivedFigures('Change = 44.1 − 56.7 = −12.7')).toEqual([]);
    expect(derivedFigures('Sum = 2 + 2 = 5')).toEqual([]);
  });
  it('reads negative operands written in parentheses and thousands separators', () => {
    expect(derivedFigures('Change = 0 − (−42,271) = 42,271')).toEqual([42271]);
  });
});
