/**
 * What kind of figure a question's asked noun calls for. The head noun of the phrase a question
 * asks for ("what is the incubation *period*", "what *percentage* of …", "how *long*") names a
 * family of units; a short answer must carry a unit of that family ("2 days" answers a period,
 * "12%" a share; "7" alone answers neither). Families hold the unit keys `verify/values.ts` gives
 * numbers (`2day`, `12%`, `1496500000usd`).
 */
export const UNIT_FAMILIES = {
  duration: ['day', 'week', 'month', 'year', 'hour', 'minute'],
  share: ['%'],
  money: ['usd', 'eur', 'gbp', 'jpy'],
} as const;

export type UnitFamily = keyof typeof UNIT_FAMILIES;

/** Head nouns of an asked phrase, by the unit family their answer carries. */
export const HEAD_UNIT_FAMILY: Readonly<Record<string, UnitFamily>> = Object.freeze({
  period: 'duration',
  duration: 'duration',
  interval: 'duration',
  lifetime: 'duration',
  'half-life': 'duration',
  stay: 'duration',
  percentage: 'share',
  percent: 'share',
  proportion: 'share',
  share: 'share',
  fraction: 'share',
  price: 'money',
  cost: 'money',
  costs: 'money',
  fee: 'money',
  fees: 'money',
  salary: 'money',
  budget: 'money',
  revenue: 'money',
  revenues: 'money',
  profit: 'money',
  profits: 'money',
  income: 'money',
  expense: 'money',
  expenses: 'money',
});

/** "How long …", "how old …": the interrogative phrase names the family itself. */
export const HOW_UNIT_FAMILY: Readonly<Record<string, UnitFamily>> = Object.freeze({
  long: 'duration',
  old: 'duration',
  often: 'duration',
  much: 'money',
});

/**
 * Head nouns that ask for a figure (a number question) although the question opens with "what"
 * or "which": the asked phrase's head, not a word anywhere in the question, decides ("what is the
 * *revenue* of X" asks a figure; "what is the company paid on a *cost*-plus contract" does not).
 */
export const FIGURE_HEADS: ReadonlySet<string> = new Set([
  ...Object.keys(HEAD_UNIT_FAMILY),
  'amount',
  'total',
  'number',
  'count',
  'rate',
  'ratio',
  'cap',
  'limit',
  'size',
  'length',
  'allowance',
  'maximum',
  'minimum',
  'threshold',
  'dose',
  'dosage',
  'population',
  'age',
  'value',
  'sum',
  'margin',
  'balance',
]);

/** Words that end an asked phrase: prepositions, relatives and verbs that follow its head. */
export const PHRASE_END: ReadonlySet<string> = new Set([
  'of',
  'for',
  'in',
  'on',
  'at',
  'by',
  'to',
  'from',
  'with',
  'that',
  'which',
  'who',
  'whom',
  'does',
  'do',
  'did',
  'is',
  'are',
  'was',
  'were',
  'has',
  'have',
  'had',
  'can',
  'could',
  'should',
  'will',
  'would',
  'must',
  'may',
  'between',
  'among',
  'after',
  'before',
  'during',
  'per',
  'under',
  'when',
  'where',
  'if',
]);
