/**
 * What a text says about other records, read from its structure rather than its vocabulary:
 * identifiers and codes, references to another part or record, capitalised names, and a record's
 * head. Shared by the premise finder, the query builder and the release guard, so the three read a
 * record the same way (the kind of record a text calls binding: `authority.ts`). The word lists
 * are data in `src/core/lexicon/references.ts`.
 */
import { NAME_PARTICLES, OPENERS, PART_WORDS, REFERENCE_CUES, TARGET_END_WORDS } from '../lexicon/references';
import { analyze } from '../text/analyze';
import { splitSentences } from '../text/sentences';
import type { InquiryRecord } from './types';

/** Texts a memo keeps at most; past it, it starts over (one ask reads a packet of ~15 passages). */
const MEMO_LIMIT = 2048;

/**
 * A text's reading, computed once: the premise finder, the trigger and the release guard read the
 * same passages many times over (every identifier is checked against every record's heading), and
 * the trigger runs on every ask. Results are shared, so callers never mutate them.
 */
export function memo<T>(read: (text: string) => T): (text: string) => T {
  const seen = new Map<string, T>();
  return (text) => {
    const had = seen.get(text);
    if (had !== undefined) return had;
    if (seen.size >= MEMO_LIMIT) seen.clear();
    const value = read(text);
    seen.set(text, value);
    return value;
  };
}

/** Sentences of a text, in order. */
export const sentencesOf: (text: string) => readonly string[] = memo((text) =>
  splitSentences(text).map((s) => text.slice(s.start, s.end)),
);

/**
 * Codes: letter-and-digit tokens joined by a hyphen, slash or dot ("CD-1968-K", "14a-8", "ZN-8753-G"),
 * and numbered parts of a document ("Note 12", "Item 7A", "Section 4.2", "Annex B"). The part words
 * are the ones filings, contracts, rules and standards number (not a domain's vocabulary).
 */
const CODE = /\b(?=[A-Za-z0-9/-]*\d)(?=[A-Za-z0-9/-]*[A-Z])[A-Za-z0-9]+(?:[-/][A-Za-z0-9]+)+\b/gu;
const NUMBERED_PART = new RegExp(
  String.raw`\b(?:${PART_WORDS.map(escapeRegExp).join('|')})\s+(?:\d+[A-Za-z]*(?:[.-]\d+[A-Za-z]*)*(?![\p{L}\p{N}])|[A-Z](?![\p{L}]))`,
  'gu',
);

/** `text` as a literal inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}

/** Identifiers in a text, first occurrence first, without repeats. */
export const identifiersIn: (text: string) => readonly string[] = memo(readIdentifiers);

function readIdentifiers(text: string): string[] {
  const found: { at: number; id: string }[] = [];
  for (const m of text.matchAll(CODE)) found.push({ at: m.index, id: m[0] });
  for (const m of text.matchAll(NUMBERED_PART)) found.push({ at: m.index, id: m[0].replace(/\s+/gu, ' ') });
  found.sort((a, b) => a.at - b.at);
  return [...new Set(found.map((f) => f.id))].filter((id, _, all) => !all.some((o) => o !== id && o.includes(id)));
}

/** Openers are read by the bridge finder too (one list, in the lexicon). */
export { OPENERS };

const PARTICLE = NAME_PARTICLES.map(escapeRegExp).join('|');
const NAME = new RegExp(String.raw`\p{Lu}[\p{L}\p{M}'’-]*(?:\s+(?:(?:${PARTICLE})\s+)?\p{Lu}[\p{L}\p{M}'’-]*)*`, 'gu');
const TRAILING_PARTICLE = new RegExp(String.raw`^(?:${PARTICLE})$`, 'u');

/**
 * Capitalised names in a text ("Cami Norbelren", "Wicknor Land Registry"): runs of capitalised
 * words, without a leading opener ("Where", "The") and without codes. A single capitalised word is
 * a name only when it does not open its sentence.
 */
export const namesIn: (text: string) => readonly string[] = memo(readNames);

function readNames(text: string): string[] {
  const out: string[] = [];
  let masked = text;
  for (const id of identifiersIn(text)) masked = masked.split(id).join(' 0 ');
  for (const sentence of sentencesOf(masked)) {
    for (const m of sentence.matchAll(NAME)) {
      let words = m[0].split(/\s+/u);
      let at = m.index;
      while (words.length > 0 && OPENERS.has((words[0] as string).toLowerCase())) {
        at += (words[0] as string).length + 1;
        words = words.slice(1);
      }
      while (words.length > 0 && TRAILING_PARTICLE.test(words[words.length - 1] as string)) words = words.slice(0, -1);
      if (words.length === 0) continue;
      if (words.length === 1 && at === 0) continue;
      // "Vault 34", "Plot 60C": a label of a value, not a name.
      if (words.length === 1 && /^\s*\d/u.test(sentence.slice(m.index + m[0].length))) continue;
      const name = words.join(' ').replace(/['’]s$/u, '');
      if (/\d/u.test(name)) continue;
      out.push(name);
    }
  }
  return [...new Set(out)];
}

/** Content stems of a phrase (the project's analyzer: stop words out, Porter stems). */
export function stemsOf(text: string): string[] {
  return analyze(text);
}

/** True when every content stem of `phrase` occurs in `text`. */
export function containsStems(text: string, phrase: string): boolean {
  const have = new Set(stemsOf(text));
  const want = stemsOf(phrase);
  return want.length > 0 && want.every((s) => have.has(s));
}

/** The heading of a record: its title and first sentence, where a record names what it is. */
export function headOf(record: InquiryRecord): string {
  return headUnitsOf(record).join('. ');
}

/**
 * The heading's units: the title, then the text's leading units up to its first sentence. A record
 * that opens with a title line ("Agreement", then "Executed master agreement MA-2231.") is headed
 * by both: leading lines without a sentence's end are read up to the first sentence (≤ 3 units).
 */
export function headUnitsOf(record: InquiryRecord): readonly string[] {
  return [record.title, ...headCache(record.text)];
}

const headCache = memo((text: string): readonly string[] => {
  const units = sentencesOf(text);
  const head: string[] = [];
  for (const u of units.slice(0, 3)) {
    head.push(u);
    if (/[.!?:;]["'”’)]*\s*$/u.test(u)) break;
  }
  return head;
});

/** True when `record` defines `identifier`: it names it in its title or first sentence. */
export function defines(record: InquiryRecord, identifier: string): boolean {
  return headOf(record).includes(identifier);
}

/** True when `text` names `name` as a whole (case-sensitive, as written): "Ann Lee" is not in "Ann Leeds". */
export function namesWhole(text: string, name: string): boolean {
  let at = text.indexOf(name);
  while (at >= 0) {
    const before = text.slice(0, at);
    const after = text.slice(at + name.length);
    if (!/[\p{L}\p{N}]$/u.test(before) && !/^[\p{L}\p{N}]/u.test(after)) return true;
    at = text.indexOf(name, at + 1);
  }
  return false;
}

/** True when `text` names every one of `names`, each as a whole. */
export function namesAll(text: string, names: readonly string[]): boolean {
  return names.length > 0 && names.every((n) => namesWhole(text, n));
}

/** A reference from one text to another part or record: the cue and what it points at. */
export interface Reference {
  readonly cue: string;
  readonly target: string;
  readonly sentence: string;
}

const REFERENCE = new RegExp(
  String.raw`\b(${REFERENCE_CUES.map((c) =>
    c
      .split(' ')
      .map(escapeRegExp)
      .join(String.raw`\s+`),
  ).join('|')})\s+([^.;:!?()]{2,90})`,
  'giu',
);
/** Where a reference's target has ended (a new clause). */
const TARGET_END = new RegExp(String.raw`\s+(?:${TARGET_END_WORDS.map(escapeRegExp).join('|')})\s+|,`, 'u');

/**
 * References in a text: a cue ("see", "as defined in", "under", "set by", …) followed by a target
 * that names something: an identifier, a capitalised name or a possessive ("that archive's signed
 * rules"). "Under review" and "according to neighbours" name nothing and are no reference.
 */
export const referencesIn: (text: string) => readonly Reference[] = memo(readReferences);

function readReferences(text: string): Reference[] {
  const out: Reference[] = [];
  for (const sentence of sentencesOf(text)) {
    for (const m of sentence.matchAll(REFERENCE)) {
      const raw = (m[2] as string).split(TARGET_END)[0] as string;
      const target = raw.trim().split(/\s+/u).slice(0, 10).join(' ');
      // "under 150 KB" is a quantity, not a record.
      if (/^\d/u.test(target)) continue;
      const named = identifiersIn(target).length > 0 || namesIn(`x ${target}`).length > 0 || /['’]s\s/u.test(target);
      if (named) out.push({ cue: (m[1] as string).toLowerCase().replace(/\s+/gu, ' '), target, sentence });
    }
  }
  return out;
}

/** An identifier a record mentions and does not define: a link to the record that does. */
export interface Link {
  readonly id: string;
  /** The reference's cue when a cue introduces it ("as defined in"), null when the record only names it. */
  readonly cue: string | null;
  /** The reference's target, or the sentence that names it. */
  readonly target: string;
  readonly sentence: string;
}

/**
 * Links of a record, by structure: every identifier it mentions outside its own heading's
 * definitions, whatever the wording around it ("set by allocation table AT-5916-E", "given by
 * parking plan PP-1303-G", "Schedule 4 applies"). Referenced ones come first, with their cue.
 */
export function linksOf(record: InquiryRecord): Link[] {
  const out: Link[] = [];
  const seen = new Set<string>();
  for (const ref of referencesIn(record.text)) {
    for (const id of identifiersIn(ref.target)) {
      if (seen.has(id) || defines(record, id)) continue;
      seen.add(id);
      out.push({ id, cue: ref.cue, target: ref.target, sentence: ref.sentence });
    }
  }
  for (const sentence of sentencesOf(record.text)) {
    for (const id of identifiersIn(sentence)) {
      if (seen.has(id) || defines(record, id)) continue;
      seen.add(id);
      out.push({ id, cue: null, target: sentence, sentence });
    }
  }
  return out;
}
