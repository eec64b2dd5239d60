/**
 * A figure as its sentence states it: the qualifier right before a number ("a median of", "up to",
 * "more than", `lexicon/numbers.ts:FIGURE_QUALIFIERS`) belongs to the short answer, because the bare
 * number says something else ("13 days" for "a median of 13 days (range 8–23)", "5,000" for "more
 * than 5,000"). Only the words directly before the number, separated by spaces, count.
 */
import { FIGURE_QUALIFIERS } from '../lexicon/numbers';
import type { KeyValue } from '../verify/values';

const QUALIFIER_BEFORE = new RegExp(
  String.raw`(?:^|[\s(])(${FIGURE_QUALIFIERS.map((q) => q.replace(/ /gu, String.raw`\s+`)).join('|')})\s+$`,
  'iu',
);

/** The number value with its qualifier from the sentence ("a median of 13 days"); the value's own text otherwise. */
export function qualifiedFigure(sentence: string, value: KeyValue): string {
  if (value.kind !== 'number') return value.raw;
  const before = sentence.slice(Math.max(0, value.start - 40), value.start);
  const m = QUALIFIER_BEFORE.exec(before);
  if (!m) return value.raw;
  return `${m[1] as string} ${value.raw}`.replace(/\s+/gu, ' ');
}
