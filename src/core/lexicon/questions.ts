/**
 * Question openings: the wording by which a question asks for a kind of answer — a date ("when …",
 * "what year …"), a number ("how many …"), a name ("who …"), an explanation ("why …", "what is
 * the purpose of …"). General English question forms, never a benchmark's template words;
 * `verify/values.ts` (`answerTypeOf`), `select/mmr.ts`, `select/factoid-floor.ts` and
 * `answer/extractive.ts` read them. Patterns expect lower-cased text unless flagged `i`.
 */

/**
 * Openings that ask for a date: "when …", "(on) what year/date/day …", "(in) which year …"; "which
 * period / quarter …" chooses among periods (unlike "what is the incubation period", a duration).
 */
export const DATE_OPENING =
  /^(?:when\b|(?:on\s+)?what\s+(?:year|date|day|month|time)\b|(?:in\s+)?which\s+(?:years?|months?|quarters?|periods?)\b)/u;

/** Phrases that ask for a date anywhere: "release date", "what is the date", "date of". */
export const DATE_PHRASE =
  /\b(?:release|premiere|launch|founding|birth|death)\s+date\b|\bwhat\s+is\s+the\s+date\b|\bdate\s+of\b/u;

/** "How many/much/long/old/far/often/tall/big …": asks for a number. */
export const HOW_MEASURE_OPENING = /^how\s+(?:many|much|long|old|far|often|tall|big)\b/u;

/** Openings that ask for a name when nothing more specific matched: who, where, which, what, name. */
export const ENTITY_OPENING = /^(?:who|whom|whose|where|which|what|name)\b/u;

/**
 * Questions that ask for a description by their form — why, how it is done, what something does,
 * means or is made of, what a stranded preposition leaves open — whatever nouns they hold. A
 * calculation word in such a question is its subject, not what it asks for ("What does adjusted
 * gross margin represent?", "What was the increase in free cash flow driven by?").
 */
export const DESCRIPTION_FORM = new RegExp(
  [
    String.raw`^why\b`,
    String.raw`^how\s+(?:is|are|was|were|does|do|did|can|could|should|would|to)\b`,
    String.raw`^(?:explain|describe|define|summari[sz]e|outline)\b`,
    String.raw`^(?:tell|show)\s+me\s+(?:about|how|why)\b`,
    // "What does the table show?", "What do the fees comprise?": "what" is the object of a verb in
    // the present (a standing fact), the answer a phrase or clause, never a name picked out of a
    // sentence. The past asks for a thing done ("What did the residents put on their heads?"),
    // unless it asks what something meant, stood for or did ("What did DECnet originally do?").
    String.raw`^what\s+(?:does|do)\b`,
    String.raw`^what\s+did\b.*\b(?:mean|stand\s+for|do)\s*\??$`,
    String.raw`^what\s+happen(?:s|ed)?\b`,
    // "What is the company's involvement limited to?": "what" is the object of a stranded preposition.
    // Within a dozen words: a longer question ends in a clause of its own ("… that work is going on?").
    String.raw`^what\s+(?:is|are|was|were)\s+(?:[^\s?]+\s+){1,12}(?:to|in|on|of|for|with|by|from)\s*\??$`,
    String.raw`^what\s+(?:is|are|was|were)\s+(?:a|an|meant\s+by)\b`,
  ].join('|'),
  'u',
);

/**
 * Questions that ask for a description: its forms above, or a head noun that names one ("What is
 * the purpose / the difference / the effect of …?"). The noun alone does not rule out a figure:
 * "the difference in net sales between 2018 and 2019" is a calculation.
 */
export const DESCRIPTION = new RegExp(
  [
    DESCRIPTION_FORM.source,
    String.raw`^what\s+(?:is|are|was|were)\s+the\s+(?:main\s+|key\s+)?(?:difference|differences|purpose|role|goal|goals|aim|idea|meaning|definition|advantage|advantages|benefit|benefits|drawback|drawbacks|reason|reasons|cause|causes|effect|effects|impact|mechanism|approach|method|contribution|contributions|problem|limitation|limitations|point|significance|relationship|intuition|motivation)\b`,
  ].join('|'),
  'u',
);

/**
 * "What is X?" with no determiner, figure, possessive or "called": a definition ("What is
 * trace-based compilation?"), not a name ("What is Amazon's assistant called?").
 */
export const DEFINITION =
  /^what\s+(?:is|are)\s+(?!(?:the|this|that|these|those|it|its|his|her|their|our|your|my)\b)(?![^?]*(?:\d|['’]s\b|\b(?:called|named|known\s+as)\b))/u;

/** A single-fact opening (`select/mmr.ts`): "when …", "who …", "how many …", "what is …". */
export const FACTOID_OPENING =
  /^\s*(?:when|who|whom|where|define|name|(?:which|what)\s+(?:year|date|day|month|time|country|city|percentage|number|amount)|how\s+(?:many|much|old|long|far|tall|big|often)|what\s+(?:is|was|are|were)|what's)\b/iu;

/** A question word that opens a question (`select/factoid-floor.ts`): who … name. */
export const QUESTION_OPENING = /^(?:who|whom|whose|what|which|when|where|how|name)\b/iu;

/** A question word that stands later, before the question mark: "… told advertisers to do what?". */
export const LATE_QUESTION_WORD = /\b(?:who|whom|whose|what|which|where|when|how\s+(?:many|much))\b[^.!]*\?$/iu;

/** Every question word (global: count them with `match`), lower-cased, diacritics folded. */
export const QUESTION_WORD = /\b(?:what|which|who|whom|whose|when|where|why|how)\b/gu;

/** A question that asks for several values at once, each of its own ("the respective values of …"). */
export const SEVERAL_VALUES = /\brespective(?:ly)?\b/iu;
