/**
 * Comparisons: words ending in "-er" that are not comparative adjectives ("rather", "whether",
 * "never", "after"), so a question's "X or Y" is not read as "better X". General English, never a
 * benchmark's template words; `select/rationales.ts` reads them.
 */
export const NOT_COMPARATIVES: ReadonlySet<string> = new Set([
  'rather',
  'other',
  'whether',
  'either',
  'neither',
  'ever',
  'never',
  'however',
  'under',
  'over',
  'after',
]);
