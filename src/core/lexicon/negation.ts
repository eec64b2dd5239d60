/**
 * Words that negate what a sentence states ("not", "never", "nothing in section 512 requires …");
 * "n't" contractions are read by their ending (`verify/values.ts:hasNegation`).
 */
export const NEGATIONS: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  'none',
  'neither',
  'nor',
  'without',
  'cannot',
  'nothing',
  'nobody',
  'nowhere',
]);

/** Joins two options of an alternative question ("should signatures or MACs be preferred?"). */
export const ALTERNATIVE = /\bor\b/iu;
