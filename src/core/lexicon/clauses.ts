/**
 * Words that open a question's clauses. A question may lead with a condition or a setting ("If
 * the due date falls on a Saturday, when should you file?", "For 2019, what was …", "Under the
 * Act, who …"); its main clause is the one that asks — it opens with an interrogative word or an
 * auxiliary verb — and the kind of answer is read from that clause alone.
 */

/** Interrogative words that open an asking clause. */
export const INTERROGATIVES: ReadonlySet<string> = new Set([
  'who',
  'whom',
  'whose',
  'what',
  'which',
  'when',
  'where',
  'why',
  'how',
]);

/**
 * Imperative verbs that open a request for an answer ("List the side effects …", "Calculate the
 * margin …"): a request asks as a question does. A sentence opening otherwise, without a question
 * mark, is a statement to check (a claim), not a request for a value.
 */
export const REQUESTS: ReadonlySet<string> = new Set([
  'name',
  'list',
  'give',
  'find',
  'identify',
  'describe',
  'explain',
  'calculate',
  'compute',
  'determine',
  'tell',
  'show',
  'summarize',
  'summarise',
]);

/** Auxiliary and modal verbs that open a yes/no question. */
export const AUXILIARIES: ReadonlySet<string> = new Set([
  'is',
  'are',
  'was',
  'were',
  'am',
  'does',
  'do',
  'did',
  'can',
  'could',
  'should',
  'shall',
  'will',
  'would',
  'has',
  'have',
  'had',
  'must',
  'may',
  'might',
]);

/** Words that open a subordinate clause or a setting phrase before the main clause. */
export const SUBORDINATORS: ReadonlySet<string> = new Set([
  'if',
  'when',
  'whenever',
  'while',
  'after',
  'before',
  'once',
  'unless',
  'since',
  'although',
  'though',
  'because',
  'as',
  'given',
  'assuming',
  'suppose',
  'supposing',
  'in',
  'for',
  'under',
  'according',
  'based',
  'during',
  'from',
  'to',
  'with',
  'without',
  'at',
  'on',
  'by',
  'between',
  'among',
  'considering',
  'regarding',
  'concerning',
  'besides',
  'apart',
  'other',
  'excluding',
  'including',
]);

/**
 * Determiners and possessives that may open the asked phrase after the question word ("what was
 * the total …", "what is its margin"): they are skipped, the phrase's words follow.
 */
export const ASKED_DETERMINERS: ReadonlySet<string> = new Set([
  'the',
  'a',
  'an',
  'this',
  'that',
  'these',
  'those',
  'its',
  'their',
  'his',
  'her',
]);

/**
 * Interrogatives whose answer's kind is named by the noun they ask for ("what organ …", "which
 * museum …"), unlike "who" (a person) or "where" (a place): a name answers them only when it is of
 * that kind (`answer/question.ts:fitsAskedNoun`).
 */
export const NOUN_ASKING: ReadonlySet<string> = new Set(['what', 'which']);
