/**
 * How a text points at another record or names something, as data: the words that number a part
 * of a document, the cues that introduce a reference, the function words that open a sentence
 * and are capitalised for that reason only. `inquiry/mentions.ts` reads texts with them. All are
 * general English and generic document structure, no domain's vocabulary.
 */

/** Words that number a part of a filing, contract, rule or standard ("Note 12", "Annex B"). */
export const PART_WORDS: readonly string[] = [
  'Note',
  'Item',
  'Section',
  'Schedule',
  'Rule',
  'Annex',
  'Appendix',
  'Exhibit',
  'Article',
  'Clause',
  'Part',
  'Chapter',
  'Paragraph',
  'Form',
  'Regulation',
  'Table',
];

/** Cues that point from one text to another part or record ("see …", "as defined in …", "set by …"). */
export const REFERENCE_CUES: readonly string[] = [
  'see',
  'as defined in',
  'as set out in',
  'as described in',
  'defined in',
  'described in',
  'under',
  'pursuant to',
  'in accordance with',
  'set by',
  'fixed by',
  'determined by',
  'governed by',
  'specified in',
  'listed in',
  'follows',
  'according to',
];

/** Words after which a reference's target has ended (a new clause). */
export const TARGET_END_WORDS: readonly string[] = [
  'and',
  'but',
  'which',
  'who',
  'where',
  'while',
  'until',
  'unless',
  'because',
  'is',
  'are',
  'was',
  'were',
  'has',
  'have',
];

/** Words that open a sentence or a question and are capitalised for that reason only. */
export const OPENERS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'the',
  'in',
  'on',
  'at',
  'of',
  'which',
  'what',
  'where',
  'who',
  'whom',
  'whose',
  'when',
  'why',
  'how',
  'is',
  'are',
  'was',
  'were',
  'does',
  'do',
  'did',
  'can',
  'could',
  'should',
  'will',
  'this',
  'that',
  'these',
  'those',
  'it',
  'its',
  'there',
  'here',
  'until',
  'only',
  'if',
  'for',
  'to',
  'from',
  'by',
  'and',
  'or',
  'but',
  'as',
  'with',
  'under',
  'see',
  'after',
  'before',
  'during',
]);

/** Lower-case words that join the parts of a name ("Bank of England", "Ludwig van Beethoven"). */
export const NAME_PARTICLES: readonly string[] = ['of', 'de', 'van', 'von'];
