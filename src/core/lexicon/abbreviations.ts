/**
 * Abbreviations: short forms written with a dot that does not end a sentence ("e.g.", "Dr.",
 * "Fig.", "No. 5"). General English writing conventions, never a benchmark's template words;
 * `text/sentences.ts` reads them, lower-cased and without their final dot.
 */

/** Abbreviations that never end a sentence, lower-cased, without their final dot. */
export const ABBREVIATIONS: ReadonlySet<string> = new Set([
  'e.g',
  'i.e',
  'cf',
  'vs',
  'viz',
  'al',
  'dr',
  'mr',
  'mrs',
  'ms',
  'prof',
  'st',
  'jr',
  'sr',
  'fig',
  'figs',
  'eq',
  'eqs',
  'ref',
  'refs',
  'sec',
  'approx',
  'dept',
  'ca',
  'incl',
  'resp',
]);
/** Abbreviations that end a sentence unless a number follows ("No. 5" but "The answer is no."). */
export const NUMBER_ABBREVIATIONS: ReadonlySet<string> = new Set([
  'no',
  'nos',
  'nr',
  'p',
  'pp',
  'vol',
  'vols',
  'ch',
  'art',
  'para',
  'tab',
]);
