/**
 * What a question's asked phrase calls for beyond its answer type: the unit family of a figure
 * ("how long", "what is the incubation period" → a duration; "what percentage" → a share; "how
 * much", "what is the price" → money). Read from the main clause's asked phrase
 * (`text/clauses.ts`); the head nouns and families are data (`lexicon/answer-kinds.ts`).
 */
import { HEAD_UNIT_FAMILY, HOW_UNIT_FAMILY, UNIT_FAMILIES, type UnitFamily } from '../lexicon/answer-kinds';
import { NOUN_ASKING } from '../lexicon/clauses';
import { askedPhrase, mainClause } from '../text/clauses';
import { termOf } from '../select/rationales';
import type { KeyValue } from '../verify/values';

/** A family is strict when the asked noun names it; "how long" and "how much" only prefer it. */
export interface FamilyAsk {
  readonly family: UnitFamily;
  readonly strict: boolean;
}

/** The unit family the question's answer carries, or null. */
export function unitFamilyOf(question: string): FamilyAsk | null {
  const clause = mainClause(question).toLowerCase();
  const how = clause.match(/^how\s+([a-z]+)(?:\s+([a-z]+))?/u);
  if (how) {
    // "How long …", or "how many years …": the counted noun is a unit ("years" → year).
    const family = HOW_UNIT_FAMILY[how[1] as string] ?? (how[1] === 'many' ? familyOfUnit(how[2]) : undefined);
    return family ? { family, strict: false } : null;
  }
  const asked = askedPhrase(clause);
  const family = asked ? HEAD_UNIT_FAMILY[asked.head] : undefined;
  return family ? { family, strict: family !== 'money' } : null;
}

/** The family whose units hold this word, singular or plural ("years" → duration). */
function familyOfUnit(word: string | undefined): UnitFamily | undefined {
  if (!word) return undefined;
  const singular = word.replace(/s$/u, '');
  const families = Object.keys(UNIT_FAMILIES) as UnitFamily[];
  return families.find((f) => (UNIT_FAMILIES[f] as readonly string[]).includes(singular));
}

/** The family of a number's unit ("$2,010" → money, "12%" → share), or null for a bare number. */
export function familyOf(v: KeyValue): UnitFamily | null {
  if (v.kind !== 'number') return null;
  return (Object.keys(UNIT_FAMILIES) as UnitFamily[]).find((f) => fitsFamily(v, f)) ?? null;
}

const unitOf = (v: KeyValue): string => v.key.replace(/^-?[\d.]+(?:e[+-]?\d+)?/u, '');

/** Whether a number value carries a unit of the family. */
export function fitsFamily(v: KeyValue, family: UnitFamily): boolean {
  return v.kind === 'number' && (UNIT_FAMILIES[family] as readonly string[]).includes(unitOf(v));
}

/**
 * Keeps the values of the asked family when any fits; when none does, a strict family keeps no
 * number (a bare "7" does not answer "what is the incubation period"), a loose one keeps them all.
 */
export function fitFamily(values: readonly KeyValue[], ask: FamilyAsk | null): KeyValue[] {
  if (!ask) return [...values];
  const fitting = values.filter((v) => fitsFamily(v, ask.family));
  if (fitting.length > 0) return values.filter((v) => v.kind !== 'number' || fitsFamily(v, ask.family));
  return ask.strict ? values.filter((v) => v.kind !== 'number') : [...values];
}

/** Words either side of a name that may tie it to the asked noun ("the liver, an organ", "Rhine Gorge"). */
const NOUN_WINDOW = 2;

const wordTerms = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/\s+/u)
    .map((w) => termOf(w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')))
    .filter((t) => t !== '');

/**
 * Whether a name in a sentence is of the kind a "what …" or "which …" question asks for: one of the
 * asked phrase's words is part of the name or stands within `NOUN_WINDOW` words of it ("What gorge
 * …?" — "the Rhine Gorge"; "Which museum …?" — "the Horniman Museum"). Nothing in the sentence says
 * that "Fe" is an organ or "HBV" what regulates an interaction, and inside one document no second
 * source does either: such a name is no short answer, the sentence answers. Other questions (who,
 * where, when, how many) name their kind themselves: true.
 */
export function fitsAskedNoun(sentence: string, value: KeyValue, question: string): boolean {
  const clause = mainClause(question).toLowerCase();
  if (value.kind !== 'entity' || !NOUN_ASKING.has(clause.split(/\s+/u)[0] ?? '')) return true;
  const asked = new Set(wordTerms(askedPhrase(clause)?.phrase ?? ''));
  if (asked.size === 0) return false;
  const near = [
    ...wordTerms(sentence.slice(0, value.start)).slice(-NOUN_WINDOW),
    ...wordTerms(sentence.slice(value.start, value.end)),
    ...wordTerms(sentence.slice(value.end)).slice(0, NOUN_WINDOW),
  ];
  return near.some((t) => asked.has(t));
}
