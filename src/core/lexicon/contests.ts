/**
 * Contests: the words that say which side of a contest a name is on — who won and who lost ("the
 * winner", "runner-up", "beat", "lost to"). General English, never a benchmark's template words;
 * `answer/roles.ts` compares them on their lower-case form (stems would fold "winner" into "win",
 * a verb).
 */

/** Nouns that name the side that won: "the winner", "champions". */
export const WIN_NOUNS: ReadonlySet<string> = new Set([
  'winner',
  'winners',
  'champion',
  'champions',
  'champ',
  'victor',
  'victors',
  'gold',
]);
/** Nouns that name the side that lost: "runner-up", "finalists", "silver". */
export const LOSE_NOUNS: ReadonlySet<string> = new Set([
  'runner-up',
  'runners-up',
  'runnerup',
  'loser',
  'losers',
  'losing',
  'finalist',
  'finalists',
  'silver',
  'second',
  'second-placed',
]);
/** Verbs whose subject won over their object: "A beat B", "B was defeated by A". */
export const DEFEAT_VERBS: ReadonlySet<string> = new Set([
  'beat',
  'beats',
  'beaten',
  'beating',
  'defeat',
  'defeats',
  'defeated',
  'defeating',
  'edged',
  'edging',
  'overcame',
  'overcoming',
  'outlasted',
  'topped',
]);
/** Verbs whose subject lost: "A lost to B". */
export const LOSE_VERBS: ReadonlySet<string> = new Set(['lost', 'lose', 'loses', 'losing', 'fell', 'falls', 'fall']);
/** Verbs whose subject won: "A won", "A clinched the title". */
export const WIN_VERBS: ReadonlySet<string> = new Set(['won', 'win', 'wins', 'winning', 'triumphed', 'clinched']);
