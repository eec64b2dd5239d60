/**
 * The names of the primary financial statements, made one: "income statement", "statement of
 * operations", "statement of earnings", "profit and loss" and "P&L" name the same table of a
 * filing; "balance sheet" and "statement of financial position" (IFRS) another. US GAAP and IFRS
 * let a company choose among these titles (ASC 220, 230, 210; IAS 1.10), so a question and the
 * document often use different ones.
 *
 * `canonicalStatementText` replaces each such name in a text by one token per statement
 * (`STATEMENT_TOKENS`), which the lexical analyzer keeps whole (letters joined to a digit, no
 * suffix to stem). Applied to questions and to section names alike (./sections.ts); never to
 * the indexed text.
 */

export const STATEMENT_TOKENS = {
  balanceSheet: 'zzstatement1',
  income: 'zzstatement2',
  cashFlows: 'zzstatement3',
  equity: 'zzstatement4',
  comprehensiveIncome: 'zzstatement5',
} as const;

export type Statement = keyof typeof STATEMENT_TOKENS;

const OF = String.raw`(?:of\s+|on\s+)?(?:consolidated\s+|condensed\s+|combined\s+)*`;
const S = String.raw`(?:s|'s|’s)?['’]?`;

/** Comprehensive income before income; each pattern is applied once, in this order. */
const PATTERNS: readonly [Statement, RegExp][] = [
  [
    'comprehensiveIncome',
    new RegExp(String.raw`\bstatements?\s+${OF}comprehensive\s+(?:income|loss|earnings)(?:\s*\(loss\))?`, 'gi'),
  ],
  ['comprehensiveIncome', /\bcomprehensive\s+income\s+statements?\b/gi],
  ['cashFlows', new RegExp(String.raw`\bstatements?\s+${OF}cash\s+flow(?:\s?s)?\b`, 'gi')],
  ['cashFlows', /\bcash[\s-]+flows?\s+statements?\b/gi],
  [
    'equity',
    new RegExp(
      String.raw`\bstatements?\s+${OF}(?:changes\s+in\s+)?(?:stock|share)holders${S}\s+(?:equity|deficit)|\bstatements?\s+${OF}(?:changes\s+in\s+)?(?:equity|owners${S}\s+equity)\b`,
      'gi',
    ),
  ],
  // "Balance Shee t": some filings' text layers split a kerned word (3M's 2018 10-K).
  ['balanceSheet', /\bbalance\s+shee\s?ts?\b/gi],
  ['balanceSheet', new RegExp(String.raw`\bstatements?\s+${OF}financial\s+(?:position|condition)\b`, 'gi')],
  [
    'income',
    new RegExp(
      String.raw`\bstatements?\s+${OF}(?:income|operations|earnings|(?:net\s+)?(?:income|earnings)\s+\(loss\)|profit\s+(?:and|or|&)\s+loss)\b`,
      'gi',
    ),
  ],
  ['income', /\b(?:income|earnings|operating)\s+statements?\b/gi],
  ['income', /\bprofit\s+(?:and|&)\s+loss(?:\s+statements?)?\b|\bP\s*&\s*L\b/gi],
];

/** `text` with every name of a primary statement replaced by that statement's token. */
export function canonicalStatementText(text: string): string {
  let out = text;
  for (const [statement, re] of PATTERNS) out = out.replace(re, ` ${STATEMENT_TOKENS[statement]} `);
  return out;
}
