/**
 * A figure as its sentence states it: the qualifier right before a number ("a median of", "up to",
 * "more than", `lexicon/numbers.ts:FIGURE_QUALIFIERS`) belongs to the short answer, because the bare
 * number says something else ("13 days" for "a median of 13 days (range 8–23)", "5,000" for "more
 * than 5,000"). So does the part of a period before a date ("the fourth quarter of fiscal year 2018",
 * `DATE_QUALIFIERS`). Only the words directly before the value, separated by spaces, count.
 */
import { DATE_QUALIFIERS, FIGURE_QUALIFIERS } from '../lexicon/numbers';
import type { KeyValue } from '../verify/values';

/** The phrases as one alternation, any run of spaces between their words. */
const alternation = (phrases: readonly string[]): string =>
  phrases.map((q) => q.replace(/ /gu, String.raw`\s+`)).join('|');

/** A qualifier ending right before the value (`before` is the text up to it). */
const endingQualifier = (qualifier: string): RegExp => new RegExp(String.raw`(?:^|[\s(])(${qualifier})\s+$`, 'iu');

const FISCAL = String.raw`fiscal(?:\s+year)?`;
const QUALIFIER_BEFORE = endingQualifier(alternation(FIGURE_QUALIFIERS));
const DATE_QUALIFIER_BEFORE = endingQualifier(
  String.raw`(?:${alternation(DATE_QUALIFIERS)})(?:\s+${FISCAL})?|${FISCAL}`,
);

/**
 * The number or date with its qualifier from the sentence ("a median of 13 days", "the fourth
 * quarter of fiscal year 2018"); the value's own text otherwise.
 */
export function qualifiedFigure(sentence: string, value: KeyValue): string {
  const pattern = value.kind === 'number' ? QUALIFIER_BEFORE : value.kind === 'date' ? DATE_QUALIFIER_BEFORE : null;
  if (!pattern) return value.raw;
  const before = sentence.slice(Math.max(0, value.start - 50), value.start);
  const m = pattern.exec(before);
  if (!m) return value.raw;
  return `${m[1] as string} ${value.raw}`.replace(/\s+/gu, ' ');
}
