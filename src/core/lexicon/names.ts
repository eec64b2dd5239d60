/**
 * Names: the small words that may sit inside a capitalised name ("Bank of England", "Ludwig van
 * Beethoven") and the capitalised words that open sentences without starting a name ("The",
 * "However"). General English, never a benchmark's template words.
 */

/** Capitalised words that do not start a name on their own at the start of a sentence. */
export const SENTENCE_START_CAPS: ReadonlySet<string> = new Set(
  (
    'the a an in on at of for to by with from and or but if as is are was were be this that these those it its ' +
    'he she they we you i his her their our my your there here when where who what which why how after before ' +
    'during since while although though however also then than not no yes all any each every some many most ' +
    'more less other such both either neither one new last first next today yesterday tomorrow read see watch ' +
    'get find learn view click home official breaking news update updated photo video source image'
  ).split(' '),
);

/** Words that may join the capitalised words of one name (`verify/values.ts`): "Bank of England", "Procter & Gamble". */
export const NAME_LINKS: ReadonlySet<string> = new Set([
  'of',
  'de',
  'da',
  'del',
  'der',
  'van',
  'von',
  'la',
  'le',
  'du',
  'and',
  '&',
  'the',
  'for',
]);

/**
 * Words that may sit inside a capitalised name ("Bank of England", "Department for Education"), as
 * `select/rationales.ts` joins a question's name phrases (a narrower set than `NAME_LINKS`).
 */
export const NAME_CONNECTORS: ReadonlySet<string> = new Set([
  'of',
  'the',
  'for',
  'and',
  'de',
  'la',
  'del',
  'van',
  'von',
  'der',
  'du',
  'da',
]);
