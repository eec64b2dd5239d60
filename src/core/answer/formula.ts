/**
 * Formulas of computed answers (compute.ts): a small expression tree over named operands, its
 * evaluation, and the two ways it is written out — with the operands' names ("(Revenue 2019 −
 * Revenue 2018) / Revenue 2018 × 100") and with their values ("(44.1 − 56.7) / 56.7 × 100") — so
 * a person can audit the arithmetic. `parseFormula` reads a definition a question gives itself
 * ("cash from operations / total current liabilities", "(A - B) / C") and the catalog's formulas
 * (`lexicon/measures.ts`); `checkWritten` recomputes a written-out computation from its printed
 * figures (validate.ts: a result no passage prints is supported when it follows from figures the
 * cited passages do print).
 */

export type Operator = '+' | '-' | '*' | '/';

export type Formula =
  | { readonly kind: 'operand'; readonly name: string }
  | { readonly kind: 'constant'; readonly value: number }
  | { readonly kind: 'apply'; readonly op: Operator; readonly left: Formula; readonly right: Formula };

export const operand = (name: string): Formula => ({ kind: 'operand', name });
export const constant = (value: number): Formula => ({ kind: 'constant', value });
export const apply = (op: Operator, left: Formula, right: Formula): Formula => ({ kind: 'apply', op, left, right });

/** The operand names of a formula, each once, in reading order. */
export function operandsOf(f: Formula): string[] {
  if (f.kind === 'operand') return [f.name];
  if (f.kind === 'constant') return [];
  return [...new Set([...operandsOf(f.left), ...operandsOf(f.right)])];
}

/** The value of a formula; null when an operand has no value or a divisor is 0 (never Infinity or NaN). */
export function evaluate(f: Formula, values: ReadonlyMap<string, number>): number | null {
  if (f.kind === 'constant') return f.value;
  if (f.kind === 'operand') return values.get(f.name) ?? null;
  const a = evaluate(f.left, values);
  const b = evaluate(f.right, values);
  if (a === null || b === null) return null;
  if (f.op === '/' && b === 0) return null;
  const v = f.op === '+' ? a + b : f.op === '-' ? a - b : f.op === '*' ? a * b : a / b;
  return Number.isFinite(v) ? v : null;
}

const PRECEDENCE: Readonly<Record<Operator, number>> = { '+': 1, '-': 1, '*': 2, '/': 2 };
const SYMBOL: Readonly<Record<Operator, string>> = { '+': '+', '-': '−', '*': '×', '/': '/' };

/** The formula written out, each operand by `leaf`, with only the parentheses precedence needs. */
export function writeFormula(f: Formula, leaf: (name: string) => string): string {
  const go = (g: Formula, parent: number, right: boolean): string => {
    if (g.kind === 'operand') return leaf(g.name);
    if (g.kind === 'constant') return String(g.value);
    const p = PRECEDENCE[g.op];
    const text = `${go(g.left, p, false)} ${SYMBOL[g.op]} ${go(g.right, p, true)}`;
    // a − (b − c) and a / (b / c) keep theirs; (a − b) − c does not need them.
    return p < parent || (right && p === parent) ? `(${text})` : text;
  };
  return go(f, 0, false);
}

/** A number as a written formula shows it: a negative one in parentheses of its own. */
export function writeNumber(value: number, decimals: number): string {
  const text = Math.abs(value).toLocaleString('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
  return value < 0 ? `(−${text})` : text;
}

// ---------------------------------------------------------------------------------------------
// Parsing

type Token = { readonly op: Operator | '(' | ')' } | { readonly text: string };

const OPERATOR_WORDS: ReadonlyArray<readonly [RegExp, Operator]> = [
  [/^(?:divided\s+by|over)$/i, '/'],
  [/^(?:times|multiplied\s+by)$/i, '*'],
  [/^(?:minus|less)$/i, '-'],
  [/^plus$/i, '+'],
];

/** Tokens of a written formula: operators (also "÷", "×", "−", "divided by", "minus"), parentheses and the phrases between. */
function formulaTokens(text: string): Token[] | null {
  const out: Token[] = [];
  const parts = text.split(/(\s+divided\s+by\s+|\s+multiplied\s+by\s+|\s+(?:times|minus|plus)\s+|[()/÷×*+−–]|\s-\s)/iu);
  for (const raw of parts) {
    const part = raw.trim();
    if (part === '') continue;
    if (part === '(' || part === ')') out.push({ op: part });
    else if (part === '/' || part === '÷') out.push({ op: '/' });
    else if (part === '×' || part === '*') out.push({ op: '*' });
    else if (part === '+') out.push({ op: '+' });
    else if (part === '−' || part === '–' || part === '-') out.push({ op: '-' });
    else {
      const word = OPERATOR_WORDS.find(([re]) => re.test(part));
      out.push(word ? { op: word[1] } : { text: part });
    }
  }
  return out.length > 0 ? out : null;
}

/**
 * A formula from its written form: phrases joined by operators and parentheses ("(total revenue
 * - cost of revenue) / total revenue"). A phrase that is a plain number is a constant ("… * 100",
 * "/ 2"). Null when the text is not one well-formed formula with at least one operator.
 */
export function parseFormula(text: string): Formula | null {
  const tokens = formulaTokens(text);
  if (!tokens || !tokens.some((t) => 'op' in t && t.op !== '(' && t.op !== ')')) return null;
  let at = 0;
  const peekOp = (): string | null => {
    const t = tokens[at];
    return t && 'op' in t ? t.op : null;
  };
  const primary = (): Formula | null => {
    const t = tokens[at];
    if (!t) return null;
    at++;
    if ('text' in t) {
      const n = Number(t.text.replace(/,/g, ''));
      return /^[\d,.]+$/.test(t.text) && Number.isFinite(n) ? constant(n) : operand(t.text);
    }
    if (t.op === '-') {
      const negated = primary();
      return negated ? apply('-', constant(0), negated) : null;
    }
    if (t.op !== '(') return null;
    const inner = sum();
    if (!inner || peekOp() !== ')') return null;
    at++;
    return inner;
  };
  const level = (ops: readonly Operator[], next: () => Formula | null) => (): Formula | null => {
    let left = next();
    while (left && ops.includes(peekOp() as Operator)) {
      const op = peekOp() as Operator;
      at++;
      const right = next();
      if (!right) return null;
      left = apply(op, left, right);
    }
    return left;
  };
  const product = level(['*', '/'], primary);
  const sum = level(['+', '-'], product);
  const f = sum();
  return f && at === tokens.length ? f : null;
}

// ---------------------------------------------------------------------------------------------
// Checking a written computation

/** Only figures, operators and parentheses: "(44.1 − 56.7) / 56.7 × 100". */
const ARITHMETIC = /^[\d\s.,()+\-−–×*/÷$€£%]+$/u;
const LEADING_NUMBER = /^\s*[−-]?\s*[$€£]?(\d[\d,]*(?:\.\d+)?)/u;

/** Conversion constants a formula may write without any passage printing them: a percentage, days in a year. */
const CONSTANTS: ReadonlySet<number> = new Set([100, 365]);

/**
 * Figures of a text that follow from a computation it writes out ("… = 44.1 − 56.7 = −12.6",
 * "(34 − 10) / 10 × 100 = 240.00%"): each result that equals its left side to the precision
 * printed, and the constants of that left side (100, 365, and the count of an average's terms).
 * Magnitudes; a result that does not follow is not returned, so a wrong sum stays unsupported.
 */
export function derivedFigures(text: string): number[] {
  const out: number[] = [];
  const parts = text.split(/\s=\s/u);
  for (let i = 0; i + 1 < parts.length; i++) {
    const left = (parts[i] as string).trim();
    if (!ARITHMETIC.test(left) || !/\d/u.test(left)) continue;
    const parsed = parseFormula(left.replace(/[$€£%]/gu, '').replace(/(\d),(?=\d{3})/gu, '$1'));
    const value = parsed ? evaluate(parsed, new Map()) : null;
    const printed = LEADING_NUMBER.exec(parts[i + 1] as string)?.[1];
    if (value === null || printed === undefined) continue;
    const shown = Number(printed.replace(/,/g, ''));
    const decimals = /\.(\d+)$/u.exec(printed)?.[1]?.length ?? 0;
    if (Math.abs(Math.abs(value) - shown) > 0.5 * 10 ** -decimals + 1e-9) continue;
    out.push(shown);
    const figures = [...left.matchAll(/\d[\d,]*(?:\.\d+)?/gu)].map((m) => Number(m[0].replace(/,/g, '')));
    for (const f of figures) if (CONSTANTS.has(f)) out.push(f);
    // An average's divisor: "(a + b + c) / 3", the count of the terms it divides.
    for (const m of left.matchAll(/\(([^()]+)\)\s*\/\s*(\d+)(?![\d.,])/gu)) {
      const n = Number(m[2]);
      if ((m[1] as string).split('+').length === n) out.push(n);
    }
  }
  return out;
}
