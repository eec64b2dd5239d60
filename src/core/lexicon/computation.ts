/**
 * The wording of a calculation (answer/computation.ts reads it). `DERIVED_CUES`: any derived
 * figure (a rate or a share a sentence may print as it stands). `COMPUTED_CUES`: what must be
 * computed from printed figures — a change, a difference, a ratio, an average, a growth rate, a
 * sum "in total" over named periods, a count of periods in which a figure passed a bound. `TREND_CUES`: stems of a trend a yes/no question judges.
 * General English of arithmetic; no benchmark's template.
 */
export const DERIVED_CUES =
  /\b(?:ratios?|growth|change[sd]?|average|margins?|turnover|percent(?:age)?|rates?|difference|compound|cagr|per\s+share|defined\s+as)\b|%/iu;

export const COMPUTED_CUES =
  /\b(?:ratios?|growth(?:\s+rate)?|changes?\s+(?:in|of|from|between)|changed|year[-\s]over[-\s]year|average|margins?|turnover|compound|cagr|differences?\s+(?:between|in|of)|defined\s+as|how\s+much\s+(?:more|less|higher|lower|larger|smaller)|(?:increase|decrease|rise|fall|drop)\s+(?:in|of)\s+[^?]*\bfrom\b[^?]*\bto\b|sum\s+of|combined|in\s+total\s+(?:for|over|across)|how\s+many\s+(?:years|periods|quarters|months)\s+(?:did|was|were|had|has|have)\b[^?]*\b(?:exceed\w*|above|below|more|less|greater|higher|lower|over|under))\b/iu;

export const TREND_CUES =
  /\b(?:increas|decreas|grow|grew|improv|declin|rise|rose|fall|fell|shrank|shrink|expand|contract|reduc)\w*/iu;
