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

/** Unit words and symbols after a number ("5 mg", "3 days", "20 %", "$4 usd"): `select/rationales.ts` reads a quantity's unit. */
export const UNIT_WORDS: ReadonlySet<string> = new Set(
  (
    'mg g kg µg ug mcg ml l dl mmol mol iu % percent pct days day hours hour hrs hr h minutes minute min mins seconds second sec s ' +
    'weeks week months month years year yrs km m cm mm nm usd eur gbp dollars dollar euros euro pounds pound times fold x ' +
    'mmhg bpm kcal cal mb gb tb kb'
  ).split(/\s+/),
);

/**
 * Words right before a figure that say what kind of figure it is or bound it ("a median of 13
 * days", "up to 81%", "more than 5,000", "approximately 20 kb"): part of the figure a short answer
 * shows, since "13 days" alone misstates "a median of 13 days" and "5,000" misstates "more than
 * 5,000". General English; longest first (`answer/figures.ts` matches them in this order).
 */
export const FIGURE_QUALIFIERS: readonly string[] = [
  'a mean of',
  'a median of',
  'an average of',
  'a maximum of',
  'a minimum of',
  'an estimated',
  'more than',
  'less than',
  'fewer than',
  'greater than',
  'at least',
  'at most',
  'up to',
  'approximately',
  'about',
  'around',
  'nearly',
  'almost',
  'roughly',
  'mean',
  'median',
  'average',
];

/**
 * Words right before a date that say which part of the period it is ("the fourth quarter of
 * fiscal year 2018", "the end of 2019", "early 2020"): part of the date a short answer shows, since
 * "2018" alone misstates "the fourth quarter of 2018". A "fiscal" or "fiscal year" after them (or
 * alone) goes with them. General English; longest first (`answer/figures.ts`).
 */
export const DATE_QUALIFIERS: readonly string[] = [
  'the first quarter of',
  'the second quarter of',
  'the third quarter of',
  'the fourth quarter of',
  'the first half of',
  'the second half of',
  'the beginning of',
  'the middle of',
  'the start of',
  'the end of',
  'early',
  'late',
];
