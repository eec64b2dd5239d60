/**
 * Named measures and their formulas over line items, for computed answers (answer/compute.ts).
 *
 * A question that names a measure without defining it ("What is the FY2019 gross margin?") is
 * computed from the textbook formula below, over the line items as financial statements label them
 * (each item lists the row labels that state it). Definitions follow CFA Institute, "International
 * Financial Statement Analysis" (4th ed., 2020), ch. 6 (financial analysis techniques: activity,
 * liquidity, solvency and profitability ratios); where texts differ (ending vs average balances)
 * the variant is the one named in `note`, and the formula the answer writes out shows it. A
 * question that gives its own definition ("… is defined as: A / B") is computed from that
 * definition instead. Domain knowledge written once, not fitted.
 */

export type MeasureUnit = 'percent' | 'ratio' | 'days' | 'amount';

export interface MeasureDefinition {
  readonly name: string;
  /** How questions name it. */
  readonly pattern: RegExp;
  /** The formula over the item names below (parsed by answer/formula.ts `parseFormula`). */
  readonly formula: string;
  /** Each item of the formula: the row labels that state it, most specific first. */
  readonly items: Readonly<Record<string, readonly string[]>>;
  readonly unit: MeasureUnit;
  readonly source: string;
  readonly note?: string;
}

const CFA = 'CFA Institute, International Financial Statement Analysis, 4th ed., ch. 6';

const REVENUE = [
  'total revenue',
  'total revenues',
  'revenue',
  'revenues',
  'net revenue',
  'net revenues',
  'total net revenue',
  'total net sales',
  'net sales',
  'sales',
];
const COST_OF_REVENUE = [
  'cost of revenue',
  'cost of revenues',
  'total cost of revenue',
  'total cost of revenues',
  'cost of sales',
  'cost of goods sold',
  'cost of products sold',
];
const OPERATING_INCOME = [
  'operating income',
  'income from operations',
  'operating profit',
  'operating income (loss)',
  'income (loss) from operations',
];
const NET_INCOME = ['net income', 'net earnings', 'net income attributable to common shareholders', 'net profit'];
const OPERATING_CASH_FLOW = [
  'net cash provided by operating activities',
  'net cash provided by (used in) operating activities',
  'net cash from operating activities',
  'cash flows from operating activities',
  'net cash generated from operating activities',
];
const CAPEX = [
  'purchases of property, plant and equipment',
  'purchases of property and equipment',
  'capital expenditures',
  'capital expenditure',
  'additions to property, plant and equipment',
  'payments for property, plant and equipment',
];
const CURRENT_ASSETS = ['total current assets'];
const CURRENT_LIABILITIES = ['total current liabilities'];
const INVENTORY = ['inventories', 'inventory', 'total inventories'];
const PAYABLES = ['accounts payable', 'trade payables', 'trade accounts payable'];
const RECEIVABLES = ['accounts receivable, net', 'accounts receivable', 'trade receivables', 'receivables, net'];

const PPE = [
  'property, plant and equipment, net',
  'property and equipment, net',
  'net property, plant and equipment',
  'property, plant and equipment',
  'total property, plant and equipment, net',
];
const DEPRECIATION = [
  'depreciation and amortization',
  'depreciation, amortization and other',
  'depreciation, depletion and amortization',
  'depreciation',
];

/**
 * Line items as questions name them (`aliases`, the whole phrase once periods and qualifiers such as
 * "unadjusted" are dropped) and the row labels statements print for them. A definition a question
 * gives ("cash from operations / total current liabilities") is read over these.
 */
export interface LineItem {
  readonly name: string;
  readonly aliases: RegExp;
  readonly labels: readonly string[];
}

export const LINE_ITEMS: readonly LineItem[] = [
  { name: 'revenue', aliases: /^(?:total\s+)?(?:net\s+)?(?:revenues?|sales)$/iu, labels: REVENUE },
  {
    name: 'cost of revenue',
    aliases: /^(?:total\s+)?(?:cogs|cost\s+of\s+(?:revenues?|sales|goods\s+sold|products\s+sold))$/iu,
    labels: COST_OF_REVENUE,
  },
  {
    name: 'operating income',
    aliases: /^(?:operating\s+(?:income|profit)|income\s+from\s+operations)$/iu,
    labels: OPERATING_INCOME,
  },
  { name: 'net income', aliases: /^net\s+(?:income|earnings|profit)$/iu, labels: NET_INCOME },
  {
    name: 'operating cash flow',
    aliases:
      /^(?:cash\s+from\s+operations|(?:net\s+)?cash\s+(?:flows?\s+)?(?:provided\s+by\s+|from\s+)operating\s+activities|operating\s+cash\s+flows?|cash\s+flows?\s+from\s+operations)$/iu,
    labels: OPERATING_CASH_FLOW,
  },
  { name: 'capital expenditure', aliases: /^(?:capex|capital\s+expenditures?)$/iu, labels: CAPEX },
  { name: 'current assets', aliases: /^(?:total\s+)?current\s+assets$/iu, labels: CURRENT_ASSETS },
  { name: 'current liabilities', aliases: /^(?:total\s+)?current\s+liabilities$/iu, labels: CURRENT_LIABILITIES },
  { name: 'inventory', aliases: /^(?:total\s+)?inventor(?:y|ies)$/iu, labels: INVENTORY },
  { name: 'accounts payable', aliases: /^(?:accounts|trade)\s+payables?$/iu, labels: PAYABLES },
  { name: 'accounts receivable', aliases: /^(?:accounts|trade)\s+receivables?$/iu, labels: RECEIVABLES },
  {
    name: 'property, plant and equipment',
    aliases: /^(?:pp&e|property,?\s+plant,?\s+and\s+equipment|net\s+pp&e)$/iu,
    labels: PPE,
  },
  {
    name: 'depreciation and amortization',
    aliases: /^(?:d&a|depreciation\s+and\s+amortization)$/iu,
    labels: DEPRECIATION,
  },
];

/** The line item a phrase names as a whole, or null. */
export function lineItemNamed(phrase: string): LineItem | null {
  const t = phrase.trim().replace(/\s+/g, ' ');
  return LINE_ITEMS.find((item) => item.aliases.test(t)) ?? null;
}

export const MEASURES: readonly MeasureDefinition[] = [
  {
    name: 'gross margin',
    pattern: /\bgross\s+(?:profit\s+)?margin\b/iu,
    formula: '(revenue - cost of revenue) / revenue * 100',
    items: { revenue: REVENUE, 'cost of revenue': COST_OF_REVENUE },
    unit: 'percent',
    source: CFA,
  },
  {
    name: 'operating margin',
    pattern: /\boperating\s+(?:profit\s+|income\s+)?(?:%\s*)?margin\b/iu,
    formula: 'operating income / revenue * 100',
    items: { 'operating income': OPERATING_INCOME, revenue: REVENUE },
    unit: 'percent',
    source: CFA,
  },
  {
    name: 'net profit margin',
    pattern: /\bnet\s+(?:profit\s+|income\s+)?margin\b/iu,
    formula: 'net income / revenue * 100',
    items: { 'net income': NET_INCOME, revenue: REVENUE },
    unit: 'percent',
    source: CFA,
  },
  {
    name: 'EBITDA margin',
    pattern: /\bebitda\s+(?:%\s+)?margin\b/iu,
    formula: '(operating income + depreciation and amortization) / revenue * 100',
    items: { 'operating income': OPERATING_INCOME, 'depreciation and amortization': DEPRECIATION, revenue: REVENUE },
    unit: 'percent',
    source: CFA,
    note: 'operating income plus depreciation and amortization from the cash-flow statement (unadjusted)',
  },
  {
    name: 'EBITDA',
    pattern: /\bebitda\b(?!\s+(?:%\s+)?margin)/iu,
    formula: 'operating income + depreciation and amortization',
    items: { 'operating income': OPERATING_INCOME, 'depreciation and amortization': DEPRECIATION },
    unit: 'amount',
    source: CFA,
    note: 'operating income plus depreciation and amortization from the cash-flow statement (unadjusted)',
  },
  {
    name: 'current ratio',
    pattern: /\bcurrent\s+ratio\b/iu,
    formula: 'current assets / current liabilities',
    items: { 'current assets': CURRENT_ASSETS, 'current liabilities': CURRENT_LIABILITIES },
    unit: 'ratio',
    source: CFA,
  },
  {
    name: 'quick ratio',
    pattern: /\b(?:quick|acid[\s-]test)\s+ratio\b/iu,
    formula: '(current assets - inventory) / current liabilities',
    items: { 'current assets': CURRENT_ASSETS, inventory: INVENTORY, 'current liabilities': CURRENT_LIABILITIES },
    unit: 'ratio',
    source: CFA,
    note: 'current assets less inventories (prepaid expenses kept), a common simplification of cash + securities + receivables',
  },
  {
    name: 'working capital',
    pattern: /\b(?:net\s+)?working\s+capital\b(?!\s+ratio)/iu,
    formula: 'current assets - current liabilities',
    items: { 'current assets': CURRENT_ASSETS, 'current liabilities': CURRENT_LIABILITIES },
    unit: 'amount',
    source: CFA,
  },
  {
    name: 'working capital ratio',
    pattern: /\bworking\s+capital\s+ratio\b/iu,
    formula: 'current assets / current liabilities',
    items: { 'current assets': CURRENT_ASSETS, 'current liabilities': CURRENT_LIABILITIES },
    unit: 'ratio',
    source: CFA,
  },
  {
    name: 'free cash flow',
    pattern: /\bfree\s+cash\s+flows?\b/iu,
    formula: 'operating cash flow - capital expenditure',
    items: { 'operating cash flow': OPERATING_CASH_FLOW, 'capital expenditure': CAPEX },
    unit: 'amount',
    source: CFA,
    note: 'capital expenditure as printed, a positive amount (its sign in the cash-flow statement is dropped)',
  },
  {
    name: 'capital expenditure as a share of revenue',
    pattern:
      /\b(?:capex|capital\s+expenditures?)\s+(?:as\s+a\s+(?:%|percent(?:age)?)\s+of|to)\s+(?:total\s+)?(?:revenue|sales)\b/iu,
    formula: 'capital expenditure / revenue * 100',
    items: { 'capital expenditure': CAPEX, revenue: REVENUE },
    unit: 'percent',
    source: CFA,
  },
  {
    name: 'days payable outstanding',
    pattern: /\bdays\s+payables?\s+outstanding\b|\bDPO\b/u,
    formula: '365 * accounts payable / cost of revenue',
    items: { 'accounts payable': PAYABLES, 'cost of revenue': COST_OF_REVENUE },
    unit: 'days',
    source: CFA,
    note: 'ending payables; texts that use the average balance give another figure',
  },
  {
    name: 'days sales outstanding',
    pattern: /\bdays\s+(?:sales|receivables?)\s+outstanding\b|\bDSO\b/u,
    formula: '365 * accounts receivable / revenue',
    items: { 'accounts receivable': RECEIVABLES, revenue: REVENUE },
    unit: 'days',
    source: CFA,
    note: 'ending receivables',
  },
  {
    name: 'days inventory outstanding',
    pattern: /\bdays\s+(?:of\s+)?inventory\s+(?:outstanding|on\s+hand)\b|\bDIO\b/u,
    formula: '365 * inventory / cost of revenue',
    items: { inventory: INVENTORY, 'cost of revenue': COST_OF_REVENUE },
    unit: 'days',
    source: CFA,
    note: 'ending inventory',
  },
  {
    name: 'effective tax rate',
    pattern: /\beffective\s+(?:income\s+)?tax\s+rate\b/iu,
    formula: 'income tax expense / income before income taxes * 100',
    items: {
      'income tax expense': [
        'provision for income taxes',
        'income tax expense',
        'income tax provision',
        'provision for (benefit from) income taxes',
        'income taxes',
      ],
      'income before income taxes': [
        'income before income taxes',
        'income before provision for income taxes',
        'earnings before income taxes',
        'income before taxes',
      ],
    },
    unit: 'percent',
    source: CFA,
  },
  {
    name: 'dividend payout ratio',
    pattern: /\b(?:dividend\s+)?payout\s+ratio\b/iu,
    formula: 'dividends paid / net income * 100',
    items: {
      'dividends paid': ['dividends paid', 'cash dividends paid', 'payments of dividends', 'dividends'],
      'net income': NET_INCOME,
    },
    unit: 'percent',
    source: CFA,
  },
];

/** The measure a question names, or null (the longest name wins: "working capital ratio" over "working capital"). */
export function measureNamed(question: string): MeasureDefinition | null {
  const named = MEASURES.filter((m) => m.pattern.test(question));
  return named.sort((a, b) => b.name.length - a.name.length)[0] ?? null;
}
