/**
 * The lexical analyzer: text → index terms. Index and query must use the same options, so the
 * options are plain data that a serialized index stores next to its postings.
 *
 * The chain mirrors Lucene's `EnglishAnalyzer` as Anserini configures it for its BM25 baselines
 * on BEIR (`DefaultEnglishAnalyzer`: StandardTokenizer → EnglishPossessiveFilter →
 * LowerCaseFilter → StopFilter(ENGLISH_STOP_WORDS_SET) → PorterStemFilter), so our BM25 numbers
 * are comparable with the published ones:
 *
 * 1. NFKC normalisation (our addition: folds ligatures "ﬁ"→"fi" and full-width forms from PDFs;
 *    a no-op on the ASCII text of the BEIR corpora).
 * 2. Word tokenization after Unicode UAX #29 word boundaries, which Lucene's StandardTokenizer
 *    implements: runs of letters, marks, digits and "_" are words; "." "'" "’" ":" join two
 *    letters ("e.g", "o'neil"); "." "," ";" "'" join two digits ("1,000", "3.5"); letters and
 *    digits join each other ("h1n1", "cd4"). Every other character splits, hyphens included:
 *    "il-6" → "il", "6" and "TNF-α" → "tnf", "α", as in Lucene. We keep Lucene's choice because
 *    the hyphenated form is also found through its parts and the published baselines use it.
 *    Han and Hiragana characters are one token each (as StandardTokenizer emits them).
 *    Numbers are kept as terms.
 * 3. English possessive "'s" removed ("cell's" → "cell").
 * 4. Lower case.
 * 5. Lucene's default English stop set (`EnglishAnalyzer.ENGLISH_STOP_WORDS_SET`, 33 words).
 * 6. Porter stemming (the `stemmer` package implements Porter 1980, as Lucene's
 *    PorterStemFilter does), unless `stem` is false. Stems are cached in a bounded Map.
 */
import { stemmer } from 'stemmer';
import { assertKnownOptions, EvidentError } from '../errors';
import { LUCENE_ENGLISH_STOPWORDS } from '../lexicon/stopwords';

export { LUCENE_ENGLISH_STOPWORDS };

export const STOPWORD_SETS = ['lucene', 'none'] as const;
export type StopwordSet = (typeof STOPWORD_SETS)[number];

export interface AnalyzerOptions {
  /** Porter stemming. Default true. */
  readonly stem: boolean;
  /** Which stop set to drop. Default 'lucene' (Lucene's English stop set). */
  readonly stopwords: StopwordSet;
}

export const DEFAULT_ANALYZER_OPTIONS: Readonly<AnalyzerOptions> = Object.freeze({
  stem: true,
  stopwords: 'lucene',
});

/** Text → terms with fixed options. */
export interface Analyzer {
  readonly options: Readonly<AnalyzerOptions>;
  analyze(text: string): string[];
}

// Letters except Han/Hiragana (those are single-character tokens), marks, digits, "_".
const WORD_CHAR = String.raw`(?:[^\P{L}\p{sc=Han}\p{sc=Hiragana}]|[\p{M}\p{N}_])`;
const JOINED_WORD = String.raw`${WORD_CHAR}+(?:(?:(?<=\p{L}\p{M}*)[.'’:](?=\p{L})|(?<=\p{N})[.,;'’](?=\p{N}))${WORD_CHAR}+)*`;
const TOKEN = new RegExp(String.raw`[\p{sc=Han}\p{sc=Hiragana}]|${JOINED_WORD}`, 'gu');
const POSSESSIVE = /['’]s$/;

/**
 * Splits text into lower-cased word tokens (steps 1–4 above: no stop words, no stemming). Named
 * apart from `tokenize` in src/core/util/stage.ts, which keeps each token's spelling and offsets.
 */
export function analyzerTokens(text: string): string[] {
  const out: string[] = [];
  const normalized = text.normalize('NFKC');
  for (const m of normalized.matchAll(TOKEN)) {
    let token = m[0];
    if (token.length > 2 && POSSESSIVE.test(token)) token = token.slice(0, -2);
    out.push(token.toLowerCase());
  }
  return out;
}

// A vocabulary is bounded in practice; the cap only guards against adversarial input.
const STEM_CACHE_LIMIT = 200_000;
const stemCache = new Map<string, string>();

/** Porter stem of a lower-cased word, memoised (a vocabulary repeats; stemming is the costly step). */
export function cachedStem(token: string): string {
  let stem = stemCache.get(token);
  if (stem === undefined) {
    stem = stemmer(token);
    if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
    stemCache.set(token, stem);
  }
  return stem;
}

/** Builds an analyzer. Unknown option keys or values throw `invalid_option`. */
export function createAnalyzer(options: Partial<AnalyzerOptions> = {}): Analyzer {
  assertKnownOptions(options, DEFAULT_ANALYZER_OPTIONS, 'analyzer');
  const opts: Readonly<AnalyzerOptions> = Object.freeze({ ...DEFAULT_ANALYZER_OPTIONS, ...options });
  if (!STOPWORD_SETS.includes(opts.stopwords)) {
    throw new EvidentError(
      'invalid_option',
      `analyzer: stopwords must be one of ${STOPWORD_SETS.join(', ')}, got "${String(opts.stopwords)}".`,
    );
  }
  const stop = opts.stopwords === 'lucene' ? LUCENE_ENGLISH_STOPWORDS : null;
  const stem = opts.stem;
  return {
    options: opts,
    analyze(text: string): string[] {
      const out: string[] = [];
      for (const token of analyzerTokens(text)) {
        if (stop !== null && stop.has(token)) continue;
        out.push(stem ? cachedStem(token) : token);
      }
      return out;
    },
  };
}

// The analyzer with default options, built once: most calls of `analyze` pass none.
let defaultAnalyzer: Analyzer | undefined;

/** One-off analysis with the given options (creates the analyzer unless they are the defaults; prefer `createAnalyzer`). */
export function analyze(text: string, options: Partial<AnalyzerOptions> = {}): string[] {
  if (Object.keys(options).length === 0) return (defaultAnalyzer ??= createAnalyzer()).analyze(text);
  return createAnalyzer(options).analyze(text);
}
