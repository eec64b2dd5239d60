/**
 * Stop words: function words that carry no topic of their own ("the", "of", "is"), left out of the
 * keyword index. General English (Lucene's list), never a benchmark's template words.
 */

/**
 * Lucene `EnglishAnalyzer.ENGLISH_STOP_WORDS_SET` (org.apache.lucene.analysis.en), the stop set
 * of Anserini's default analyzer used for its BEIR BM25 baselines.
 */
export const LUCENE_ENGLISH_STOPWORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'but',
  'by',
  'for',
  'if',
  'in',
  'into',
  'is',
  'it',
  'no',
  'not',
  'of',
  'on',
  'or',
  'such',
  'that',
  'the',
  'their',
  'then',
  'there',
  'these',
  'they',
  'this',
  'to',
  'was',
  'will',
  'with',
]);

/**
 * A compact English stopword list (function words) plus question-framing words that never name an
 * aspect of the answer ("what", "difference", "compare", "explain"): `select/rationales.ts`
 * `isStopword`.
 */
export const QUESTION_STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or nor but if then else of to in on at by for with from into onto upon over under about above below ' +
    'between through during before after since until while as than so such that this these those there here ' +
    'is are was were be been being am do does did doing done have has had having can could should would will shall ' +
    'may might must need ought i me my mine we us our ours you your yours he him his she her hers it its they them their theirs ' +
    'what which who whom whose when where why how whether not no yes all any both each either neither few more most less least ' +
    'other others some same own only very too also just than again further once ever every much many lot lots ' +
    'tell explain describe list give show compare comparison compared difference differences differ versus vs ' +
    'please know mean means meaning regarding according way ways thing things kind better worse best worst ' +
    'get gets got make makes made let lets s t e g ie eg etc'
  ).split(/\s+/),
);
