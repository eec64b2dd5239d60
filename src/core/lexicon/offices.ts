/**
 * Offices: nouns that name a role, office or body that acts or decides ("manager", "committee",
 * "registrar"). General organisational language, never a benchmark's template words;
 * `answer/extractive.ts` reads role phrases as entity values.
 */

/**
 * Nouns that name a role, office or body ("the operations manager", "your line manager", "the
 * audit committee"): policies answer "who" with a role more often than with a name.
 */
export const ROLE_NOUNS =
  'manager|director|officer|committee|board|department|team|supervisor|administrator|head|lead|chair|chairperson|' +
  'secretary|council|panel|authority|owner|controller|auditor|counsel|employer|coordinator|representative|' +
  'trustee|registrar|commissioner|ombudsman|court|judge|tribunal|regulator|inspector|desk|office|unit';
/** A role phrase after a determiner: "the operations manager" (captured: "operations manager"); global. */
export const ROLE_PHRASE = new RegExp(
  String.raw`\b(?:the|your|their|his|her|its|each|every)\s+((?:[a-z][\w-]*\s+){0,3}?(?:${ROLE_NOUNS})s?)\b`,
  'gu',
);
