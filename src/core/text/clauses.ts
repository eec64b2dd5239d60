/**
 * The clause of a question that asks, and the phrase it asks for. Read from structure: a
 * question's clauses are split at commas and semicolons; the main clause is the last one that
 * opens with an interrogative word or an auxiliary verb when the question opens with a condition
 * or a setting ("If the due date falls on a Saturday, Sunday, or legal holiday, when should you
 * file?" → "when should you file?"). The asked phrase is the noun phrase after the interrogative
 * (and a copula): "what was the total revenue of X" → "total revenue", head "revenue".
 * Word lists are data in `core/lexicon`.
 */
import { ASKED_DETERMINERS, AUXILIARIES, INTERROGATIVES, REQUESTS, SUBORDINATORS } from '../lexicon/clauses';
import { PHRASE_END } from '../lexicon/answer-kinds';

const firstWord = (text: string): string => (text.trim().match(/^[\p{L}'’-]+/u)?.[0] ?? '').toLowerCase();

/** The question's main clause (the whole question when it opens with it). */
export function mainClause(question: string): string {
  const q = question.trim();
  const lead = firstWord(q);
  // Opens with the asking clause: "When did …", "What is …" ("when" opens both kinds: only a
  // later asking clause after a comma makes it a condition).
  const parts = q.split(/[,;]\s*/u);
  if (parts.length < 2 || !SUBORDINATORS.has(lead)) return fromInterrogative(q);
  for (let i = parts.length - 1; i >= 1; i--) {
    const w = firstWord(parts[i] as string);
    if (INTERROGATIVES.has(w) || AUXILIARIES.has(w)) return fromInterrogative(parts.slice(i).join(', '));
  }
  return fromInterrogative(q);
}

/**
 * A clause whose interrogative follows a preposition asks with that interrogative: "By what date
 * is the return due?" asks "what date …", "In which year …" asks "which year …", "To whom …" asks
 * "whom …".
 */
function fromInterrogative(clause: string): string {
  const m = clause.match(/^([\p{L}'’-]+)\s+([\p{L}'’-]+)/u);
  if (!m) return clause;
  const [first, second] = [(m[1] as string).toLowerCase(), (m[2] as string).toLowerCase()];
  if (INTERROGATIVES.has(first) || !SUBORDINATORS.has(first) || !INTERROGATIVES.has(second)) return clause;
  return clause.slice((m[1] as string).length).trimStart();
}

/**
 * True when the text asks — a question mark, a main clause opening with an interrogative word or an
 * auxiliary verb, or a request ("List …", "Calculate …") — and false for a statement to check ("PGE2
 * promotes tumor growth by …"): a claim asks whether the evidence supports it, never for a value
 * or a computation.
 */
export function asks(text: string): boolean {
  if (/\?["'”’)]*\s*$/u.test(text)) return true;
  const w = firstWord(mainClause(text));
  return INTERROGATIVES.has(w) || AUXILIARIES.has(w) || REQUESTS.has(firstWord(text));
}

/** The noun phrase a wh-question asks for, lower case, and its head (last word); null when none. */
export function askedPhrase(clause: string): { readonly phrase: string; readonly head: string } | null {
  const words = clause
    .toLowerCase()
    .replace(/[?.!]+\s*$/u, '')
    .split(/\s+/u)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}%-]+$/gu, ''))
    .filter((w) => w !== '');
  if (words.length < 2 || !INTERROGATIVES.has(words[0] as string)) return null;
  let i = 1;
  if (AUXILIARIES.has(words[i] as string)) i++;
  if (ASKED_DETERMINERS.has(words[i] ?? '')) i++;
  const phrase: string[] = [];
  for (; i < words.length && phrase.length < 5; i++) {
    const w = words[i] as string;
    if (PHRASE_END.has(w) || AUXILIARIES.has(w)) break;
    phrase.push(w);
  }
  if (phrase.length === 0) return null;
  return { phrase: phrase.join(' '), head: phrase[phrase.length - 1] as string };
}
