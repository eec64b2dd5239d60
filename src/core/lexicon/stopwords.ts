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
