/**
 * Which kind of record a text says settles a question, read from the structure of the sentence,
 * not from its verbs: a restriction frame (`lexicon/authority.ts`: "only the X …", "the X alone
 * …", "until the X …", "what counts is the X", "the X is binding") marks a noun phrase, and the
 * phrase is read up to where English ends a noun phrase — a preposition or participle that
 * attaches who issues it ("of the Hakor Science Council", "issued by …"), an auxiliary that opens
 * its predicate ("… is published"), a relative pronoun, or, for a subject, its verb (the word
 * before the clause that verb governs: "only the signed title record *settles* where …"). A
 * reference whose target is attested ("set by the county's signed zoning schedule") names a
 * binding kind too.
 *
 * A record *is of* a kind when its heading names itself as one: a unit of its heading (the title
 * or the first sentence) opens with the kind's words ("Sealed allocation notice AN-9512-G."). A
 * page that only mentions the kind ("… the binding record of the office places it at …") is not.
 */
import {
  ATTESTATION_WORDS,
  AUXILIARIES,
  CLAUSE_OPENERS,
  DETERMINERS,
  KIND_END_PARTICIPLES,
  KIND_HEAD_SLACK,
  MAKING_WORDS,
  MAX_KIND_WORDS,
  PREPOSITIONS,
  RELATIVES,
  RESTRICTIONS,
  type RestrictionConstruction,
  type RestrictionRole,
} from '../lexicon/authority';
import { headUnitsOf, memo, namesIn, referencesIn, identifiersIn, sentencesOf, stemsOf } from './mentions';
import type { InquiryRecord } from './types';

/** A kind of record the text says is binding, with who issues or keeps it when it says so. */
export interface BindingKind {
  /** The kind's words without determiners ("signed title record"). */
  readonly kind: string;
  /** The issuer or keeper ("Wicknor Land Registry"), when named. */
  readonly issuer: string | null;
  readonly sentence: string;
}

interface Token {
  readonly text: string;
  /** Offsets in the sentence. */
  readonly start: number;
  readonly end: number;
}

/** Words (with inner apostrophes, hyphens, dots and slashes) and the punctuation that ends a phrase. */
const TOKEN = /[\p{L}\p{N}](?:[\p{L}\p{N}'’./-]*[\p{L}\p{N}])?|[,;:()!?—–"“”]/gu;

function phraseTokens(sentence: string): Token[] {
  return [...sentence.matchAll(TOKEN)].map((m) => ({ text: m[0], start: m.index, end: m.index + m[0].length }));
}

const isPunct = (t: Token): boolean => !/[\p{L}\p{N}]/u.test(t.text);
const isCapitalised = (t: Token): boolean => /^\p{Lu}/u.test(t.text);
const lower = (t: Token | undefined): string => (t ? t.text.toLowerCase() : '');
const POSSESSIVE = /['’]s$/u;

/** Why a kind's words ended: decides whether the last word read was the subject's verb. */
type Stop = 'aux' | 'preposition' | 'participle' | 'relative' | 'clause' | 'punct' | 'name' | 'id' | 'bound' | 'long';

/**
 * Reads the kind whose noun phrase starts at `start` (a determiner, a possessive, or the first
 * word) and runs at most to `bound`. Null when the phrase names no kind of record: a capitalised
 * name ("the Hakor Science Council alone decides"), a number, or a clause too long to be a kind.
 */
function kindAt(
  tokens: readonly Token[],
  start: number,
  role: RestrictionRole,
  bound: number,
  sentence: string,
): (BindingKind & { readonly end: number }) | null {
  let i = start;
  let issuer: string | null = null;
  // A bare noun phrase (no determiner) is a kind only when it is attested ("only signed records …").
  if (DETERMINERS.has(lower(tokens[i]))) i++;
  else if (!ATTESTATION_WORDS.has(lower(tokens[i])) && !POSSESSIVE.test(tokens[i]?.text ?? '')) return null;
  // A possessor before the kind: a capitalised one issues it ("the Hakor Science Council's award
  // letter"), a common noun only places it ("the county's signed zoning schedule").
  for (let p = i; p < Math.min(bound, i + 5); p++) {
    const t = tokens[p] as Token;
    if (isPunct(t)) break;
    if (!POSSESSIVE.test(t.text)) {
      if (!isCapitalised(t)) break;
      continue;
    }
    const possessor = tokens.slice(i, p + 1).map((x) => x.text);
    if (p > i || isCapitalised(t)) {
      if (!possessor.every((w) => /^\p{Lu}/u.test(w))) break;
      issuer = possessor.join(' ').replace(POSSESSIVE, '');
    }
    i = p + 1;
    break;
  }
  const words: string[] = [];
  let stop: Stop = 'bound';
  for (; i < bound; i++) {
    const t = tokens[i] as Token;
    const w = lower(t);
    const next = tokens[i + 1];
    if (isPunct(t)) {
      stop = 'punct';
      break;
    }
    if (/\d/u.test(t.text)) {
      stop = 'id';
      break;
    }
    // "deed of transfer", "certificate of title": "of" before a bare common noun is inside the kind.
    if (w === 'of' && words.length > 0 && i + 1 < bound && next && !isPunct(next) && !isCapitalised(next)) {
      const n = lower(next);
      if (!DETERMINERS.has(n) && !PREPOSITIONS.has(n) && !CLAUSE_OPENERS.has(n) && !AUXILIARIES.has(n)) {
        words.push(t.text);
        continue;
      }
    }
    if (PREPOSITIONS.has(w)) {
      stop = 'preposition';
      break;
    }
    if (AUXILIARIES.has(w)) {
      stop = 'aux';
      break;
    }
    if (RELATIVES.has(w)) {
      stop = 'relative';
      break;
    }
    if (
      words.length > 0 &&
      (KIND_END_PARTICIPLES.has(w) || (/(?:ed|en)$/u.test(w) && PREPOSITIONS.has(lower(next)) && lower(next) !== 'of'))
    ) {
      stop = 'participle';
      break;
    }
    if (CLAUSE_OPENERS.has(w) || DETERMINERS.has(w)) {
      stop = 'clause';
      break;
    }
    // A capitalised word inside the phrase is a name after the kind; at the sentence's start it is not.
    if (isCapitalised(t) && t.start > 0) {
      if (words.length === 0) return null;
      stop = 'name';
      break;
    }
    if (words.length >= MAX_KIND_WORDS + 1) {
      stop = 'long';
      break;
    }
    words.push(t.start === 0 ? w : t.text);
  }
  // A subject's verb comes right after it; read up to a clause it governs, the last word is that
  // verb ("settles where …", "decides the depot", "counts."), not part of the kind.
  if (role === 'subject' && words.length >= 2) {
    const last = words[words.length - 1] as string;
    const endsClause = stop === 'clause' || stop === 'bound' || stop === 'long';
    if (endsClause || (stop === 'punct' && /s$/u.test(last))) words.pop();
  }
  if (stop === 'long' || words.length === 0 || words.length > MAX_KIND_WORDS) return null;
  const kind = words.join(' ');
  if (stemsOf(kind).length === 0) return null;
  if (!issuer && (stop === 'preposition' || stop === 'participle')) issuer = issuerAfter(tokens, i, sentence);
  return { kind, issuer, sentence, end: i };
}

/** True when the kind carries a word of attestation ("signed", "sealed", "certified" …). */
const attested = (kind: string): boolean => kind.split(/\s+/u).some((w) => ATTESTATION_WORDS.has(w.toLowerCase()));

/**
 * True when the clause after token `from` says the record is made: its first auxiliary is
 * followed (past "be"/"been") by a participle of attestation or publication ("… is published",
 * "… has been signed").
 */
function madeAfter(tokens: readonly Token[], from: number): boolean {
  for (let i = from; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (isPunct(t)) return false;
    if (!AUXILIARIES.has(lower(t))) continue;
    let j = i + 1;
    while (lower(tokens[j]) === 'be' || lower(tokens[j]) === 'been') j++;
    const w = lower(tokens[j]);
    return ATTESTATION_WORDS.has(w) || MAKING_WORDS.has(w);
  }
  return false;
}

/** The frame's kind, when what the frame needs holds. */
function frameKind(
  frame: RestrictionConstruction,
  found: (BindingKind & { readonly end: number }) | null,
  tokens: readonly Token[],
): BindingKind | null {
  if (!found) return null;
  const { end, ...kind } = found;
  if (frame.needs === 'nothing' || attested(kind.kind)) return kind;
  return frame.needs === 'attested or made' && madeAfter(tokens, end) ? kind : null;
}

/** The first name in the phrase that attaches to a kind ("of the Fenmar Transport Office …"). */
function issuerAfter(tokens: readonly Token[], from: number, sentence: string): string | null {
  let end = from + 1;
  while (end < tokens.length && end < from + 12) {
    const t = tokens[end] as Token;
    if (isPunct(t) || AUXILIARIES.has(lower(t)) || CLAUSE_OPENERS.has(lower(t)) || RELATIVES.has(lower(t))) break;
    end++;
  }
  const first = tokens[from];
  const last = tokens[end - 1];
  if (!first || !last) return null;
  return namesIn(`x ${sentence.slice(first.start, last.end)}`)[0] ?? null;
}

/**
 * Where the noun phrase that ends at token `end` starts: the last determiner of its clause that
 * opens a common noun, moved back over attachments ("the ledger *of the trust* alone": the
 * phrase is "the ledger …"); the clause's first word when it has none ("Signed records alone …").
 */
function phraseStartBefore(tokens: readonly Token[], end: number): number {
  let clause = 0;
  for (let i = end - 1; i >= 0; i--) {
    if (isPunct(tokens[i] as Token)) {
      clause = i + 1;
      break;
    }
  }
  const opens = (i: number): boolean =>
    (DETERMINERS.has(lower(tokens[i])) || POSSESSIVE.test(tokens[i]?.text ?? '')) &&
    i + 1 < end &&
    !(isCapitalised(tokens[i + 1] as Token) && !POSSESSIVE.test(tokens[i + 1]?.text ?? ''));
  const dets: number[] = [];
  for (let i = clause; i < end; i++) if (opens(i)) dets.push(i);
  if (dets.length === 0) return clause;
  let k = dets.length - 1;
  while (k > 0 && PREPOSITIONS.has(lower(tokens[(dets[k] as number) - 1]))) k--;
  return dets[k] as number;
}

/** Binding kinds a text states, first occurrence first, one per kind. */
export const bindingKindsIn: (text: string) => readonly BindingKind[] = memo(readBindingKinds);

function readBindingKinds(text: string): BindingKind[] {
  const out: BindingKind[] = [];
  for (const sentence of sentencesOf(text)) {
    // A question asks which record binds; it does not say so.
    if (/\?["'”’)]*\s*$/u.test(sentence)) continue;
    // Most sentences hold no frame: they are tokenized only when one matches.
    let tokens: Token[] | null = null;
    const found: { at: number; kind: BindingKind }[] = [];
    const folded = sentence.toLowerCase();
    for (const frame of RESTRICTIONS) {
      if (!frame.cues.some((c) => folded.includes(c))) continue;
      for (const m of sentence.matchAll(frame.pattern)) {
        tokens ??= phraseTokens(sentence);
        const read =
          frame.role === 'preceding'
            ? precedingKind(tokens, m.index, sentence)
            : kindAt(
                tokens,
                tokens.findIndex((t) => t.start >= m.index + m[0].length),
                frame.role,
                tokens.length,
                sentence,
              );
        const kind = frameKind(frame, read, tokens);
        if (kind) found.push({ at: m.index, kind });
      }
    }
    found.sort((a, b) => a.at - b.at);
    out.push(...found.map((f) => f.kind));
  }
  for (const r of referencesIn(text)) {
    const words = r.target.toLowerCase().split(/\s+/u);
    if (!words.some((w) => ATTESTATION_WORDS.has(w)) || identifiersIn(r.target).length > 0) continue;
    const tokens = phraseTokens(r.target);
    const k = kindAt(tokens, 0, 'complement', tokens.length, r.target);
    if (k) out.push({ kind: k.kind, issuer: k.issuer, sentence: r.sentence });
  }
  const seen = new Set<string>();
  return out.filter((k) => {
    const key = kindKey(k);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function precedingKind(tokens: readonly Token[], at: number, sentence: string): ReturnType<typeof kindAt> {
  const end = tokens.findIndex((t) => t.start >= at);
  const bound = end < 0 ? tokens.length : end;
  if (bound === 0) return null;
  return kindAt(tokens, phraseStartBefore(tokens, bound), 'preceding', bound, sentence);
}

/** One key per kind, however it is worded ("signed storage rules" = "signed storage rule"). */
export function kindKey(kind: BindingKind): string {
  return stemsOf(kind.kind).join(' ');
}

/**
 * True when `record` is of the binding kind: a unit of its heading (the title, the first
 * sentence) is headed as one. Its first phrase (up to a comma, colon, dash or bracket) holds the
 * kind's words in order, after at most `KIND_HEAD_SLACK` modifiers and no preposition ("Sealed
 * allocation notice AN-9512-G.", "This is the official signed title record for …"), and what
 * follows the kind labels or attaches it — an identifier, a preposition, the phrase's end. A page
 * about the record is not one: "Summary of the sealed allocation notice …" (a preposition before
 * it), "The Marenta's stamped berthing order places it at …" (a verb after it), "The van: the
 * binding record … places it …" (the kind is not its first phrase).
 */
export function isOfKind(record: InquiryRecord, kind: BindingKind): boolean {
  const want = stemsOf(kind.kind);
  if (want.length === 0) return false;
  return headUnitsOf(record).some((unit) =>
    unit.split(/\s[—–|]\s/u).some((part) => {
      const tokens = phraseTokens(part);
      const cut = tokens.findIndex(isPunct);
      return headedAs(cut < 0 ? tokens : tokens.slice(0, cut), want);
    }),
  );
}

function headedAs(phrase: readonly Token[], want: readonly string[]): boolean {
  let modifiers = 0;
  for (let j = 0; j < phrase.length; j++) {
    const end = kindRunAt(phrase, j, want);
    if (end >= 0 && labels(phrase, end)) return true;
    const t = phrase[j] as Token;
    if (PREPOSITIONS.has(lower(t)) || /\d/u.test(t.text)) return false;
    if (stemsOf(t.text).length > 0 && !DETERMINERS.has(lower(t)) && !AUXILIARIES.has(lower(t))) modifiers++;
    if (modifiers > KIND_HEAD_SLACK) return false;
  }
  return false;
}

/** Where the kind's stems, in order from token `j` (stop words between them skipped), end; -1 when they do not. */
function kindRunAt(phrase: readonly Token[], j: number, want: readonly string[]): number {
  let k = 0;
  let p = j;
  while (p < phrase.length && k < want.length) {
    const stems = stemsOf((phrase[p] as Token).text);
    if (stems.length === 0) {
      if (k === 0) return -1;
      p++;
      continue;
    }
    if (!stems.every((s, n) => want[k + n] === s)) return -1;
    k += stems.length;
    p++;
  }
  return k === want.length ? p : -1;
}

/** True when the token at `at` ends a label: nothing, an identifier, or an attachment. */
function labels(phrase: readonly Token[], at: number): boolean {
  const next = phrase[at];
  if (!next) return true;
  const w = lower(next);
  return /\d/u.test(next.text) || PREPOSITIONS.has(w) || KIND_END_PARTICIPLES.has(w);
}
