/**
 * Labels and identifiers are never answers. A value a sentence holds is a label when
 *   - a label noun names it: "Form 1040NR", "section 1201", "Note 12", "Figure 3", "page 4";
 *   - it is an enumerator: "(c)(2)" of "1201(c)(2)", "(2)", "(iv)";
 *   - its digits are joined to letters: "1040NR", "2x-20x", "H1N1" (an identifier, not a figure);
 *   - it is a footnote marker: digits glued to the end of a word or a sentence ("days.1");
 *   - it is a reference marker: a bracket holding only reference numbers ("[1]", "[6, 12]",
 *     "(23)", "[4-7]") cites a source, it states nothing;
 *   - it is a year that names a period for a question asking a figure ("in fiscal 2019");
 *   - it is a name made of a label noun ("Use Form" before "1040NR").
 * The label nouns are data (`core/lexicon/labels.ts`).
 */
import { LABEL_NOUNS } from '../lexicon/labels';
import { SCALE_WORDS, UNIT_WORDS } from '../lexicon/numbers';
import type { KeyValue } from '../verify/values';

export type LabelReason =
  'label noun' | 'enumerator' | 'identifier' | 'footnote marker' | 'reference marker' | 'period year';

/** A bracket that holds only reference numbers: "[1]", "[6, 12]", "(23)", "[4–7]". */
const REFERENCE_BRACKET = /^[[(]\s*\d{1,3}(?:\s*[,–-]\s*\d{1,3})*\s*[\])]$/u;

/**
 * Whether the bare number at `start`–`end` of `text` sits in a bracket of reference numbers only.
 * Square brackets always cite; round ones only in prose, and not before a scale or unit word: in a
 * financial table or statement "(23)" is minus 23 ("| Net loss | (23) |", "(23) million").
 */
function inReferenceBracket(text: string, start: number, end: number): boolean {
  const open = Math.max(text.lastIndexOf('[', start), text.lastIndexOf('(', start));
  if (open < 0 || start - open > 24) return false;
  const close = text.slice(end).search(/[\])]/u);
  if (close < 0 || close > 24) return false;
  if (!REFERENCE_BRACKET.test(text.slice(open, end + close + 1))) return false;
  if (text[open] === '[') return true;
  const next =
    text
      .slice(end + close + 1)
      .match(/^\s*([\p{L}%]+)/u)?.[1]
      ?.toLowerCase() ?? '';
  return !text.includes('|') && !SCALE_WORDS.includes(next) && !UNIT_WORDS.has(next);
}

/** The word right before `at` in `text` (abbreviation dots and "#"/"No." skipped), lower case. */
function wordBefore(text: string, at: number): string {
  const head = text.slice(Math.max(0, at - 40), at).replace(/(?:\s*(?:#|no\.|nos\.)\s*)$/iu, ' ');
  const m = head.match(/([\p{L}]+)\.?\s*$/u);
  return m ? (m[1] as string).toLowerCase() : '';
}

const YEAR = /^(?:19|20)\d\d$/u;

/** Why `value` (found in `text`) is a label and not an answer, or null. */
export function labelReason(text: string, value: KeyValue, asksFigure = false): LabelReason | null {
  const before = text[value.start - 1] ?? '';
  const after = text[value.end] ?? '';
  if (value.kind === 'entity') {
    const words = value.key.split(' ');
    const last = words[words.length - 1] ?? '';
    if (LABEL_NOUNS.has(last) && /^\s*[\p{N}(]/u.test(text.slice(value.end))) return 'label noun';
    return null;
  }
  if (value.kind !== 'number' && value.kind !== 'date') return null;
  const raw = value.raw.trim();
  if (value.kind === 'number') {
    // "(2)" of "1201(c)(2)", "(iv)": a number in brackets right after a bracket or a code.
    if (before === '(' && after === ')' && /[\p{L}\p{N})]/u.test(text[value.start - 2] ?? '')) return 'enumerator';
    if (after === '(' && /^[\p{L}\p{N}]{1,4}\)/u.test(text.slice(value.end + 1))) return 'enumerator';
    if (/\p{L}/u.test(after) && /^\d/u.test(raw) && !/\p{L}/u.test(raw)) return 'identifier';
    if (/^\d{1,3}$/u.test(raw) && inReferenceBracket(text, value.start, value.end)) return 'reference marker';
    if (/^\d{1,2}$/u.test(raw) && /[.,;:]/u.test(before) && /\p{L}/u.test(text[value.start - 2] ?? '')) {
      return 'footnote marker';
    }
    if (LABEL_NOUNS.has(wordBefore(text, value.start))) return 'label noun';
    if (asksFigure && YEAR.test(raw)) return 'period year';
  }
  return null;
}

/**
 * The labels a sentence gives parts of the asked kind — "Form 4868", "Schedule OI", "section
 * 1201(c)(2)" for `noun` "form", "schedule", "section" — as entity values ("form 4868"). A
 * question that asks for such a part ("Which form should you file …?") is answered by its label:
 * there, and only there, a label is the answer.
 */
export function labelledParts(text: string, noun: string): KeyValue[] {
  const out: KeyValue[] = [];
  // The identifier is read ahead without being consumed, so "file Form 4868" still finds "Form 4868".
  const re =
    /(?<![\p{L}\p{N}])(\p{L}+)(?=(\.?\s+(?:#\s*|no\.\s*)?)([\p{Lu}\p{N}][\p{L}\p{N}]*(?:[-–][\p{L}\p{N}]+)*(?:\([\p{L}\p{N}]{1,4}\))*))/gu;
  for (const m of text.matchAll(re)) {
    const [word, gap, id] = [m[1] as string, m[2] as string, m[3] as string];
    const w = word.toLowerCase();
    if (w !== noun && w !== `${noun}s`) continue;
    // "Form W-2", "Schedule OI", "Note 12": an identifier holds a digit or is a short capital code.
    if (!/\p{N}/u.test(id) && !/^\p{Lu}{1,4}$/u.test(id)) continue;
    const start = m.index ?? 0;
    out.push({
      kind: 'entity',
      raw: `${word} ${id}`,
      start,
      end: start + word.length + gap.length + id.length,
      key: `${noun} ${id.toLowerCase()}`,
    });
  }
  return out;
}

/** The label noun a question asks for ("which form …" → "form"), or null. */
export function askedLabelNoun(head: string | undefined): string | null {
  if (!head) return null;
  const singular = head.replace(/s$/u, '');
  return LABEL_NOUNS.has(head) && LABEL_NOUNS.has(singular) ? singular : LABEL_NOUNS.has(head) ? head : null;
}
