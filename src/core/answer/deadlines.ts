/**
 * Relative deadlines as date answers: "the next business day", "the 15th day of the 6th month
 * after your tax year ends", "within 30 days after the close". Their keys (`rel:` + the folded
 * phrase) are compatible only with themselves (`verify/values.ts:compatibleKeys`). Patterns are
 * data (`lexicon/deadlines.ts`).
 */
import { DEADLINE_PATTERNS } from '../lexicon/deadlines';
import type { KeyValue } from '../verify/values';

/** The relative deadlines a text states, first first, without overlaps. */
export function deadlinesIn(text: string): KeyValue[] {
  const found: KeyValue[] = [];
  for (const re of DEADLINE_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const raw = m[0].trim();
      const start = m.index;
      const end = start + raw.length;
      if (found.some((v) => start < v.end && end > v.start)) continue;
      found.push({ kind: 'date', raw, start, end, key: `rel:${raw.toLowerCase().replace(/\s+/gu, ' ')}` });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}
