/**
 * Scale words: words and short forms after a number that multiply it ("3.2 billion", "$40bn",
 * "12k"). General English, never a benchmark's template words; `verify/values.ts` reads a number's
 * scale from them (in this order, as one alternation).
 */
export const SCALE_WORDS: readonly string[] = [
  'thousand',
  'million',
  'billion',
  'trillion',
  'bn',
  'mn',
  'tn',
  'k',
  'm',
  'b',
];
