/**
 * Words that mark which version of a document a title names, not what the document is: "Remote
 * Work Policy v3.0" and "Remote Work Policy (draft, rev. 2)" are one document's versions
 * (`verify/versions.ts` sets these words, and every word holding a digit, aside). Month names
 * count: "Pricing — March 2024" and "Pricing — June 2025" are versions of one price list.
 */
export const VERSION_MARKS: ReadonlySet<string> = new Set([
  'v',
  'ver',
  'version',
  'rev',
  'revised',
  'revision',
  'ed',
  'edition',
  'draft',
  'final',
  'updated',
  'update',
  'amended',
  'amendment',
  'superseded',
  'current',
  'new',
  'old',
  'archived',
  'copy',
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
]);

// Questions about an earlier version (`select/priors.ts`): "the previous policy", "before the
// 2021 update", "used to".
// Words that on their own point at an earlier version.
export const EARLIER_WORDS =
  /\b(previous|previously|superseded|former|formerly|outdated|obsolete|repealed|rescinded|historical)\b/i;
// "old", "earlier", "prior", "original", "past", "last" are too common alone ("how old", "leave earlier");
// they count only before a word that names a version of a rule or document.
const VERSION_NOUNS =
  'version|versions|policy|policies|rule|rules|edition|guidance|guideline|guidelines|law|laws|regulation|regulations|standard|document|release|revision|wording|text|rate|rates|limit|limits|procedure|form|one|terms|contract|agreement|plan|scheme|handbook';
export const QUALIFIED_EARLIER = new RegExp(
  `\\b(old|older|earlier|prior|original|past|last year'?s?)\\s+(?:\\w+\\s+)?(${VERSION_NOUNS})\\b`,
  'i',
);
// "before"/"prior to"/"until" count before a year or a change ("before the 2021 update", "until the amendment").
export const BEFORE_CHANGE =
  /\b(before|prior to|until|up to)\s+(?:the\s+)?(?:(?:19|20)\d{2}\b|(?:\w+\s+)?(update|change|changes|revision|amendment|reform|rewrite|new\s+(?:version|policy|rules?|law|regulation|edition|guidance|handbook)))/i;
export const USED_TO = /\b(used to|no longer|anymore|any more)\b/i;
