/**
 * Bridge premises for compositional questions, without a model. "When did the explorer reach the
 * headquarters of the group X's label is part of?" names X and asks about things X's record only
 * leads to: the record about X introduces a name (its label) the question does not contain, and
 * the next record to find is about that name. The follow-up query is that name (the bridge) plus
 * the part of the question its record does not yet cover (the residual terms: "group part
 * headquarters explorer reach"), so the next hop is asked about the bridge, not the question again.
 *
 * Read from structure only: capitalised names, the question's content stems and which of them a
 * record matches. Candidates are ranked by how well the sentence that introduces them matches the
 * question (the sentence that answers the first hop names the bridge), then by how well their
 * record does, then by distinctiveness (a name few held records mention). A chain is followed:
 * names in the records the previous round added come first, and their residual is what the whole
 * chain so far leaves uncovered — so on a 3–4-hop question each round asks for the next hop.
 */
import { OPENERS, namesIn, sentencesOf, stemsOf } from './mentions';
import type { InquiryRecord, Premise } from './types';

export interface BridgeInput {
  readonly question: string;
  readonly evidence: readonly InquiryRecord[];
  /** Keys already queried. */
  readonly asked?: ReadonlySet<string>;
}

/** Bridge premises rank below every structural premise (identifiers, binding kinds, references). */
export const BRIDGE_PRIORITY = 0.5;

/** The question's content words in order, each with its stem, once per stem. */
function contentWords(question: string): { word: string; stem: string }[] {
  const out: { word: string; stem: string }[] = [];
  const seen = new Set<string>();
  for (const word of question.split(/[^\p{L}\p{N}'’-]+/u)) {
    const stem = stemsOf(word)[0];
    // "What", "did": the question's frame, not what it asks about.
    if (!stem || seen.has(stem) || OPENERS.has(word.toLowerCase())) continue;
    seen.add(stem);
    out.push({ word: word.replace(/['’]s$/u, ''), stem });
  }
  return out;
}

/** A name without the capitalised function words that open it ("Many Chinese" → "Chinese"). */
function bareName(name: string): string {
  const words = name.split(/\s+/u);
  while (
    words.length > 1 &&
    (OPENERS.has((words[0] as string).toLowerCase()) || stemsOf(words[0] as string).length === 0)
  )
    words.shift();
  return words.join(' ');
}

/** A title without its parenthesised qualifier ("Dolores Claiborne (film)" → "Dolores Claiborne"). */
const bareTitle = (title: string): string => title.replace(/\s*\([^)]*\)\s*$/u, '');

const overlap = (stems: ReadonlySet<string>, want: readonly string[]): number =>
  want.reduce((n, s) => n + (stems.has(s) ? 1 : 0), 0);

/** Bridge premises, most promising first, one per name. */
export function bridgePremises(input: BridgeInput): Premise[] {
  const words = contentWords(input.question);
  if (words.length === 0) return [];
  const qStems = words.map((w) => w.stem);
  const qSet = new Set(qStems);
  const questionNames = namesIn(input.question);
  const titles = input.evidence.map((r) => r.title);
  const candidates: { premise: Premise; key: number[] }[] = [];
  const seen = new Set<string>();
  input.evidence.forEach((r, at) => {
    // A record whose title the question names is about the question's subject: the first hop.
    const titleStems = stemsOf(bareTitle(r.title));
    const aboutQuestion = titleStems.length > 0 && titleStems.every((t) => qSet.has(t));
    const recordStems = new Set(stemsOf(`${r.title} ${r.text}`));
    const recordMatch = overlap(recordStems, qStems) / qStems.length;
    const residual = words.filter((w) => !recordStems.has(w.stem));
    if (residual.length === 0) return;
    for (const sentence of sentencesOf(r.text)) {
      const sentenceMatch = overlap(new Set(stemsOf(sentence)), qStems) / qStems.length;
      for (const raw of namesIn(sentence)) {
        const name = bareName(raw);
        const key = `bridge:${stemsOf(name).join(' ')}`;
        if (seen.has(key) || input.asked?.has(key)) continue;
        const nameStems = stemsOf(name);
        // The question's own names, and names a held record is already about, are no bridge.
        if (nameStems.length === 0 || nameStems.every((s) => qSet.has(s))) continue;
        if (questionNames.some((q) => q.includes(name) || name.includes(q))) continue;
        if (titles.some((t) => t.includes(name) || name.includes(t))) continue;
        seen.add(key);
        const terms = residual.filter((w) => !nameStems.includes(w.stem));
        candidates.push({
          premise: {
            kind: 'bridge',
            key,
            text: name,
            why: `${r.title} ${r.id} introduces ${name}, which the question does not name; the question's ${terms.map((t) => `“${t.word}”`).join(', ')} is not answered by what is held.`,
            terms: [name, ...terms.map((t) => t.word)],
            entity: null,
            discriminator: `a record about ${name}`,
            fromIds: [r.id],
            priority: BRIDGE_PRIORITY,
          },
          key: [aboutQuestion ? 1 : 0, sentenceMatch, nameStems.some((s) => qSet.has(s)) ? 1 : 0, recordMatch, -at],
        });
      }
    }
  });
  const cmp = (a: number[], b: number[]): number => {
    for (let i = 0; i < a.length; i++)
      if ((a[i] as number) !== (b[i] as number)) return (b[i] as number) - (a[i] as number);
    return 0;
  };
  return candidates.sort((a, b) => cmp(a.key, b.key)).map((c) => c.premise);
}
