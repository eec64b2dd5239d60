/**
 * Periods: words that name a day, a month or a reporting period ("Monday", "March", "three months
 * ended"). General English and reporting language, never a benchmark's template words.
 */

/** Weekday names and their short forms: a capitalised weekday is a date word, not a name. */
export const WEEKDAYS: ReadonlySet<string> = new Set([
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'mon',
  'tue',
  'wed',
  'thu',
  'fri',
  'sat',
  'sun',
]);
