/**
 * The wording of arithmetic a question asks for (answer/compute.ts reads it): which operation, and
 * the connectors that join its two operands. General English of arithmetic and of financial
 * statements, written once; no benchmark's template.
 */

/** A change expressed relative to its base: "percentage change", "growth rate", "% increase". */
export const PERCENT_CHANGE =
  /\b(?:percent(?:age)?|%)\s*(?:change|increase|decrease|growth|decline|rise|fall|drop|difference)\b|\bgrowth\s+rate\b|\brate\s+of\s+(?:growth|change|increase|decrease)\b|\b(?:grew|grow|increase[sd]?|decrease[sd]?|declined?|changed?)\s+by\s+what\s+percent(?:age)?\b/iu;

/** An absolute change or difference. */
export const CHANGE =
  /\b(?:change[sd]?|increase[sd]?|decrease[sd]?|differences?|grew|rose|fell|declined?|growth|variance|how\s+much\s+(?:more|less|higher|lower|larger|smaller))\b/iu;

/** A mean over periods or items. */
export const AVERAGE = /\b(?:average|mean)\b/iu;

/** A sum over periods or items. */
export const SUM = /\b(?:sum|total|combined|altogether|in\s+all)\b/iu;

/** A quotient read as a plain number: "the ratio of A to B". */
export const RATIO = /\bratio\b/iu;

/** A quotient read as a share of a whole: "A as a percentage of B", "the proportion of A over B". */
export const SHARE = /\b(?:proportion|percentage|fraction|share|portion)\b|%\s+of\b|\bas\s+a\s+%/iu;

/** "how many years/periods/quarters …": a count of the periods of a row that meet a bound. */
export const COUNT_PERIODS =
  /^\s*(?:in\s+\S+\s*,\s*)?how\s+many\s+(?:years|periods|quarters|months|fiscal\s+years)\b/iu;

/** The bound of a count: "exceed", "above", "more than", "below", "less than". */
export const ABOVE = /\b(?:exceed(?:ed|s)?|above|more\s+than|greater\s+than|higher\s+than|over)\b/iu;
export const BELOW = /\b(?:below|less\s+than|lower\s+than|under|fewer\s+than)\b/iu;

/**
 * Connectors that join the two operands of a pair operation, each splitting its clause into the
 * first operand (before) and the second (after). Order matters: the most specific first.
 */
export const PAIR_CONNECTORS: readonly RegExp[] = [
  /\s+as\s+a\s+(?:percent(?:age)?|%|proportion|share|fraction|ratio)\s+of\s+/iu,
  /\s+(?:divided\s+by|over|relative\s+to|compared\s+(?:to|with)|versus|vs\.?|against)\s+/iu,
  /\s+(?:and|to|from)\s+/iu,
];

/** Words that introduce a pair: "the difference between A and B", "the ratio of A to B", "the sum of A and B". */
export const PAIR_LEAD =
  /(?<!\bas\s+an?\s+)\b(?:difference|ratio|sum|proportion|percentage|share|fraction|total|combined)\s+(?:between|of|in)\s+(?:the\s+)?/iu;

/** Where a definition the question gives itself starts: "X is defined as: A / B", "calculated as …". */
export const DEFINITION =
  /\b(?:is|are)?\s*(?:defined|calculated|computed|measured)\s+as\s*:?\s*|\bdefine\s+[^.?:]{1,60}?\s+as\s*:?\s*/iu;

/** A result asked in percent: "in units of percents", "in percent", "as a percentage", "% margin". */
export const PERCENT_UNIT = /\bin\s+(?:units\s+of\s+)?percent(?:s|age)?\b|\bas\s+a\s+percent(?:age)?\b|%\s*margin\b/iu;

/** The rounding asked: "round your answer to two decimal places", "rounded to one decimal". */
export const ROUNDING = /\bround(?:ed)?\s+(?:\w+\s+){0,3}to\s+(?:the\s+)?(zero|one|two|three|four|\d)\s+decimal/iu;

/**
 * Words of a question that name no line item, so a table need not print them: "the *company's*
 * *value* of …", "the *amount* of …", "*global*". Stems, as `termsOf` gives them.
 */
export const GENERIC_WORDS: ReadonlySet<string> = new Set([
  'compani',
  'company',
  'valu',
  'value',
  'amount',
  'number',
  'global',
  'compar',
  'figur',
  'report',
  'total',
  'much',
  'mani',
  'unadjust',
]);

/** A question for a reason or an explanation, not a figure: "What drove the change…?", "Why did…". */
export const ASKS_REASON = /\b(?:what\s+(?:drove|caused|explains?)|why|explain|reasons?\s+for)\b/iu;

/**
 * "how many components are there under deferred tax assets?": a count of the rows a table lists
 * under a section; group 1 is the section's phrase.
 */
export const COUNT_ROWS =
  /^\s*how\s+many\s+(?!years\b|periods\b|quarters\b|months\b)[\p{L}\s-]{1,40}?\s+(?:are|were|is)\s+(?:there\s+)?(?:under|in|within|listed\s+under)\s+(?:the\s+)?([^?]+?)\s*\??\s*$/iu;

/** Row labels that sum or adjust the rows above them, not items of their own. */
export const TOTAL_LABEL = /^\s*(?:total|subtotal|gross|less|sum)\b/iu;

/** "how many …" past a bound ("how many segments in 2019 were above $50 million?"): a count of rows. */
export const COUNT_ITEMS =
  /^\s*(?:in\s+[^,]{1,30},\s*)?how\s+many\b[^?]*?\b(?:exceed\w*|above|more\s+than|greater\s+than|higher\s+than|over|below|less\s+than|lower\s+than|under|fewer\s+than)\s+(?:US)?\$?\s*\d/iu;
