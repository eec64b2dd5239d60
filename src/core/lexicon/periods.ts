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

/** A word of a table cell that names a period, not a table: a month (or its start), "ended", "fiscal", "years". */
export const PERIOD_CELL_WORD =
  /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b|\b(?:ended|ending|months|weeks|quarter|fiscal|year|years)\b/i;

/**
 * Month names and their short forms as one alternation (full names before short ones, "sept"
 * before "sep"), for date patterns in `verify/values.ts` and `select/rationales.ts`.
 */
export const MONTH_PATTERN =
  'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec';
