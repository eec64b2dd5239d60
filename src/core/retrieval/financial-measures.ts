/**
 * Financial measures and the statements they are computed from.
 *
 * An analyst who asks for a quick ratio asks for three lines of the balance sheet; one who asks
 * about free cash flow, for two lines of the cash flow statement. The question does not say so,
 * and the lines do not say "quick ratio", so neither lexical nor (weak) dense retrieval links
 * them. This table holds the textbook definitions (as in CFA Institute's curriculum, "Financial
 * Reporting and Analysis": liquidity, solvency, profitability, activity and cash flow ratios):
 * each measure's usual wordings, the statements its inputs come from, and the line items
 * (as filings name them) that the search inside those statements looks for.
 *
 * It is domain knowledge written once, not fitted: nothing here was chosen by a benchmark's
 * outcome; a measure missing from the table only means its question is searched as before.
 */
import { STATEMENT_TOKENS, type Statement } from './statement-names';

export interface FinancialMeasure {
  readonly name: string;
  /** Statement tokens (`STATEMENT_TOKENS`) whose sections the measure's inputs lie in. */
  readonly statements: readonly string[];
  /** Line items the measure is computed from, as filings name them (searched, not required). */
  readonly lineItems: string;
}

interface MeasureDef {
  readonly name: string;
  readonly pattern: RegExp;
  readonly statements: readonly Statement[];
  readonly lineItems: string;
}

const BS: Statement = 'balanceSheet';
const IS: Statement = 'income';
const CF: Statement = 'cashFlows';

const MEASURES: readonly MeasureDef[] = [
  // Liquidity
  {
    name: 'quick ratio',
    pattern: /\b(?:quick|acid[\s-]test)\s+ratio\b/i,
    statements: [BS],
    lineItems:
      'total current assets cash and cash equivalents short-term investments accounts receivable inventories total current liabilities',
  },
  {
    name: 'current ratio',
    pattern: /\bcurrent\s+ratio\b/i,
    statements: [BS],
    lineItems: 'total current assets total current liabilities',
  },
  {
    name: 'cash ratio',
    pattern: /\bcash\s+ratio\b/i,
    statements: [BS],
    lineItems: 'cash and cash equivalents total current liabilities',
  },
  {
    name: 'working capital',
    pattern: /\bworking\s+capital\b/i,
    statements: [BS],
    lineItems: 'total current assets total current liabilities',
  },
  // Solvency
  {
    name: 'debt to equity',
    pattern: /\bdebt[\s-]+to[\s-]+(?:equity|capital)\b|\bleverage\s+ratio\b|\bgearing\b/i,
    statements: [BS],
    lineItems: 'long-term debt short-term borrowings current portion of long-term debt total equity',
  },
  {
    name: 'debt',
    pattern: /\b(?:total|net|long[\s-]term)\s+debt\b|\bdebt\s+(?:on|in)\s+(?:the\s+)?balance\b/i,
    statements: [BS],
    lineItems: 'long-term debt short-term borrowings current portion of long-term debt',
  },
  {
    name: 'interest coverage',
    pattern: /\binterest\s+coverage\b|\btimes\s+interest\s+earned\b/i,
    statements: [IS],
    lineItems: 'operating income interest expense',
  },
  // Profitability
  {
    name: 'gross margin',
    pattern: /\bgross\s+(?:profit\s+)?margins?\b/i,
    statements: [IS],
    lineItems: 'gross profit total revenue net sales cost of sales',
  },
  {
    name: 'operating margin',
    pattern: /\boperating\s+(?:profit\s+)?margins?\b|\bebit\s+margins?\b/i,
    statements: [IS],
    lineItems: 'operating income total revenue net sales',
  },
  {
    name: 'net margin',
    pattern: /\b(?:net|profit)\s+(?:profit\s+)?margins?\b/i,
    statements: [IS],
    lineItems: 'net income total revenue net sales',
  },
  {
    name: 'EBITDA',
    pattern: /\bebitda\b/i,
    statements: [IS, CF],
    lineItems: 'operating income depreciation and amortization',
  },
  {
    name: 'effective tax rate',
    pattern: /\beffective\s+tax\s+rate\b/i,
    statements: [IS],
    lineItems: 'provision for income taxes income before income taxes',
  },
  {
    name: 'revenue growth',
    pattern: /\b(?:revenue|sales)\s+growth\b|\bgrowth\s+(?:rate\s+)?(?:in|of)\s+(?:total\s+)?(?:revenue|sales)\b/i,
    statements: [IS],
    lineItems: 'total revenue net sales',
  },
  {
    name: 'return on assets',
    pattern: /\breturn\s+on\s+(?:total\s+)?assets\b|\bROA\b/,
    statements: [IS, BS],
    lineItems: 'net income total assets',
  },
  {
    name: 'return on equity',
    pattern: /\breturn\s+on\s+(?:shareholders['’]?\s+|stockholders['’]?\s+)?equity\b|\bROE\b/,
    statements: [IS, BS],
    lineItems: 'net income total equity',
  },
  // Activity
  {
    name: 'fixed asset turnover',
    pattern: /\bfixed[\s-]+asset\s+turnover\b/i,
    statements: [IS, BS],
    lineItems: 'total revenue net sales property plant and equipment net',
  },
  {
    name: 'asset turnover',
    pattern: /\b(?:total\s+)?asset\s+turnover\b/i,
    statements: [IS, BS],
    lineItems: 'total revenue net sales total assets',
  },
  {
    name: 'inventory turnover',
    pattern: /\binventory\s+turnover\b|\bdays?\s+(?:of\s+)?inventory\b|\bDIO\b/,
    statements: [IS, BS],
    lineItems: 'cost of sales cost of goods sold inventories',
  },
  {
    name: 'receivables turnover',
    pattern: /\breceivables?\s+turnover\b|\bdays\s+sales\s+outstanding\b|\bDSO\b/,
    statements: [IS, BS],
    lineItems: 'total revenue net sales accounts receivable',
  },
  {
    name: 'payables turnover',
    pattern: /\bpayables?\s+turnover\b|\bdays\s+payables?\s+outstanding\b|\bDPO\b/,
    statements: [IS, BS],
    lineItems: 'cost of sales accounts payable',
  },
  // Investment and cash flow
  {
    name: 'capital expenditure',
    pattern: /\bcapital\s+expenditures?\b|\bcapex\b/i,
    statements: [CF],
    lineItems: 'purchases of property plant and equipment capital expenditures',
  },
  {
    name: 'capital intensity',
    pattern: /\bcapital[\s-]+intens(?:ive|ity)\b/i,
    statements: [CF, BS],
    lineItems: 'purchases of property plant and equipment property plant and equipment net total assets',
  },
  {
    name: 'free cash flow',
    pattern: /\bfree\s+cash[\s-]?flows?\b|\bFCF\b/,
    statements: [CF],
    lineItems: 'net cash provided by operating activities purchases of property plant and equipment',
  },
  {
    name: 'operating cash flow',
    pattern: /\b(?:operating\s+cash\s+flows?|cash\s+flows?\s+from\s+operati\w*|cash\s+from\s+operations)\b/i,
    statements: [CF],
    lineItems: 'net cash provided by operating activities',
  },
  {
    name: 'dividends',
    pattern: /\bdividends?\s+(?:paid|payout|per\s+share)\b|\bpayout\s+ratio\b/i,
    statements: [CF],
    lineItems: 'dividends paid cash dividends',
  },
  {
    name: 'share repurchases',
    pattern: /\b(?:share|stock)\s+(?:repurchases?|buybacks?)\b|\brepurchases?\s+of\s+(?:common\s+)?(?:stock|shares)\b/i,
    statements: [CF],
    lineItems: 'purchases of treasury stock repurchases of common stock',
  },
  {
    name: 'property, plant and equipment',
    pattern: /\bPP\s*&\s*E\b|\bPPNE\b|\bfixed\s+assets\b/i,
    statements: [BS],
    lineItems: 'property plant and equipment net',
  },
  {
    name: 'depreciation and amortization',
    pattern: /\bD\s*&\s*A\b|\bdepreciation\s+and\s+amortization\b/i,
    statements: [CF],
    lineItems: 'depreciation and amortization',
  },
  {
    name: 'cost of goods sold',
    pattern: /\bCOGS\b|\bcost\s+of\s+goods\s+sold\b/,
    statements: [IS],
    lineItems: 'cost of sales cost of goods sold cost of revenue',
  },
  {
    name: 'SG&A',
    pattern: /\bSG\s*&\s*A\b/,
    statements: [IS],
    lineItems: 'selling general and administrative expenses',
  },
];

/** The measures `question` asks about, in table order. */
export function measuresOf(question: string): FinancialMeasure[] {
  return MEASURES.filter((m) => m.pattern.test(question)).map((m) => ({
    name: m.name,
    statements: m.statements.map((s) => STATEMENT_TOKENS[s]),
    lineItems: m.lineItems,
  }));
}
