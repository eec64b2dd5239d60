/**
 * What a text says about other records, read from its structure rather than its vocabulary:
 * identifiers and codes, references to another part or record, the kind of record it calls
 * binding, and capitalised names. Shared by the premise finder, the query builder and the release
 * guard, so the three read a record the same way.
 */
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
function memo<T>(read: (text: string) => T): (text: string) => T {
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
const NUMBERED_PART =
  /\b(?:Note|Item|Section|Schedule|Rule|Annex|Appendix|Exhibit|Article|Clause|Part|Chapter|Paragraph|Form|Regulation|Table)\s+(?:\d+[A-Za-z]?(?:[.-]\d+[A-Za-z]?)*|[A-Z](?![\p{L}]))/gu;

/** Identifiers in a text, first occurrence first, without repeats. */
export const identifiersIn: (text: string) => readonly string[] = memo(readIdentifiers);

function readIdentifiers(text: string): string[] {
  const found: { at: number; id: string }[] = [];
  for (const m of text.matchAll(CODE)) found.push({ at: m.index, id: m[0] });
  for (const m of text.matchAll(NUMBERED_PART)) found.push({ at: m.index, id: m[0].replace(/\s+/gu, ' ') });
  found.sort((a, b) => a.at - b.at);
  return [...new Set(found.map((f) => f.id))].filter((id, _, all) => !all.some((o) => o !== id && o.includes(id)));
}

/** Words that open a sentence or a question and are capitalised for that reason only. */
export const OPENERS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'the',
  'in',
  'on',
  'at',
  'of',
  'which',
  'what',
  'where',
  'who',
  'whom',
  'whose',
  'when',
  'why',
  'how',
  'is',
  'are',
  'was',
  'were',
  'does',
  'do',
  'did',
  'can',
  'could',
  'should',
  'will',
  'this',
  'that',
  'these',
  'those',
  'it',
  'its',
  'there',
  'here',
  'until',
  'only',
  'if',
  'for',
  'to',
  'from',
  'by',
  'and',
  'or',
  'but',
  'as',
  'with',
  'under',
  'see',
  'after',
  'before',
  'during',
]);

const NAME = /\p{Lu}[\p{L}\p{M}'’-]*(?:\s+(?:of\s+|de\s+|van\s+|von\s+)?\p{Lu}[\p{L}\p{M}'’-]*)*/gu;

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
      while (words.length > 0 && /^(?:of|de|van|von)$/u.test(words[words.length - 1] as string))
        words = words.slice(0, -1);
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
  return readHead(record.title, record.text);
}

const headCache = memo((text: string) => {
  const units = sentencesOf(text);
  const head: string[] = [];
  for (const u of units.slice(0, 3)) {
    head.push(u);
    if (/[.!?:;]["'”’)]*\s*$/u.test(u)) break;
  }
  return head.join(' ');
});

function readHead(title: string, text: string): string {
  // A record that opens with a title line ("Agreement", then "Executed master agreement MA-2231.")
  // is headed by both: leading lines without a sentence's end are read up to the first sentence (≤ 3 units).
  return `${title}. ${headCache(text)}`;
}

/** True when `record` defines `identifier`: it names it in its title or first sentence. */
export function defines(record: InquiryRecord, identifier: string): boolean {
  return headOf(record).includes(identifier);
}

/** True when `text` names every one of `names` (case-sensitive, as written). */
export function namesAll(text: string, names: readonly string[]): boolean {
  return names.length > 0 && names.every((n) => text.includes(n));
}

/** A reference from one text to another part or record: the cue and what it points at. */
export interface Reference {
  readonly cue: string;
  readonly target: string;
  readonly sentence: string;
}

const REFERENCE =
  /\b(see|as defined in|as set out in|as described in|defined in|described in|under|pursuant to|in accordance with|set by|fixed by|determined by|governed by|specified in|listed in|follows|according to)\s+([^.;:!?()]{2,90})/giu;
/** Words after which a reference's target has ended (a new clause). */
const TARGET_END = /\s+(?:and|but|which|who|where|while|until|unless|because|is|are|was|were|has|have)\s+|,/u;

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
      if (named) out.push({ cue: (m[1] as string).toLowerCase(), target, sentence });
    }
  }
  return out;
}

/** A kind of record the text says is binding, with who issues or keeps it when it says so. */
export interface BindingKind {
  /** The kind's words without determiners ("signed title record"). */
  readonly kind: string;
  /** The issuer or keeper ("Wicknor Land Registry"), when named. */
  readonly issuer: string | null;
  readonly sentence: string;
}

/**
 * Statements that one kind of record decides: "the binding record is the X", "the only binding
 * record … is the X", "only the X settles / decides / governs", "until the X is issued", and a
 * reference whose target carries an attestation word ("set by the county's signed schedule").
 */
const BINDING_PATTERNS: readonly RegExp[] = [
  /\bbinding\s+[\p{L}-]+\b[^.;]*?\bis\s+((?:the|a|an)\s+[^.;]+)/giu,
  /\bonly\s+((?:the|a|an)\s+[^.;]+?)\s+(?:settles|decides|determines|governs|binds|counts|is binding)\b/giu,
  /\buntil\s+((?:the|a|an)\s+[^.;]+?)\s+(?:is|are|has been|have been)\s+(?:issued|signed|published|filed|certified|released)\b/giu,
];
const ATTESTED = /\b(?:signed|certified|sealed|notari[sz]ed|audited|official|registered|stamped|attested)\b/iu;
/** Words after a kind's first word that end it: what follows says who issues or keeps it. */
const KIND_END = new Set([
  'issued',
  'kept',
  'held',
  'published',
  'signed',
  'filed',
  'registered',
  'maintained',
  'on',
  'in',
  'at',
  'with',
  'of',
  'from',
  'by',
  'for',
  'under',
  'that',
  'which',
  'whose',
]);

function toKind(phrase: string, sentence: string): BindingKind | null {
  const words = phrase
    .trim()
    .replace(/^(?:the|a|an|that|this|its|their)\s+/iu, '')
    .replace(/^[\p{L}-]+['’]s\s+/u, '')
    .split(/\s+/u);
  let end = words.findIndex((w, i) => i > 0 && KIND_END.has(w.toLowerCase()));
  if (end < 0) end = words.length;
  const kind = words.slice(0, end).join(' ');
  if (stemsOf(kind).length === 0 || end > 6) return null;
  const rest = words.slice(end).join(' ');
  const issuer = rest ? (namesIn(`x ${rest}`)[0] ?? null) : null;
  return { kind, issuer, sentence };
}

/** Binding kinds a text states, first occurrence first, one per kind. */
export const bindingKindsIn: (text: string) => readonly BindingKind[] = memo(readBindingKinds);

function readBindingKinds(text: string): BindingKind[] {
  const out: BindingKind[] = [];
  for (const sentence of sentencesOf(text)) {
    for (const re of BINDING_PATTERNS) {
      for (const m of sentence.matchAll(re)) {
        const k = toKind(m[1] as string, sentence);
        if (k) out.push(k);
      }
    }
  }
  for (const r of referencesIn(text)) {
    if (!ATTESTED.test(r.target) || identifiersIn(r.target).length > 0) continue;
    const k = toKind(r.target, r.sentence);
    if (k) out.push(k);
  }
  const seen = new Set<string>();
  return out.filter((k) => {
    const key = stemsOf(k.kind).join(' ');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** True when `record` is of the binding kind: its heading carries every content word of the kind. */
export function isOfKind(record: InquiryRecord, kind: BindingKind): boolean {
  return containsStems(headOf(record), kind.kind);
}
