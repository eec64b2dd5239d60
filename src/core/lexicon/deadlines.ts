/**
 * Relative dates and deadlines: a "when" is often answered by a rule rather than a calendar date
 * ("file by the next business day", "by the 15th day of the 6th month after your tax year ends",
 * "within 30 days after the close of the case"). Patterns as data, read by
 * `answer/deadlines.ts`; the ordinals and units are general English, no document's wording.
 */
const ORDINAL = String.raw`\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last`;
const UNIT = String.raw`(?:business|working|calendar|banking)?\s*(?:days?|weeks?|months?|years?|quarters?)`;
const ANCHOR = String.raw`(?:after|of|from|following|before|prior\s+to)\s+[^,.;:()]{3,80}`;

export const DEADLINE_PATTERNS: readonly RegExp[] = [
  new RegExp(
    String.raw`\b(?:the\s+)?(?:next|following|same|preceding|previous)\s+(?:business|working|banking|calendar)\s+day\b`,
    'giu',
  ),
  new RegExp(String.raw`\bthe\s+(?:${ORDINAL})\s+day\s+of\s+the\s+(?:${ORDINAL})\s+month\s+${ANCHOR}`, 'giu'),
  new RegExp(String.raw`\bwithin\s+(?:\d+|[a-z]+)\s+${UNIT}\s+${ANCHOR}`, 'giu'),
  new RegExp(
    String.raw`\b(?:no\s+later\s+than|not\s+later\s+than|at\s+least)\s+(?:\d+|[a-z]+)\s+${UNIT}\s+${ANCHOR}`,
    'giu',
  ),
  new RegExp(String.raw`\bthe\s+end\s+of\s+the\s+(?:${ORDINAL})?\s*(?:day|week|month|quarter|year)\s+${ANCHOR}`, 'giu'),
];
