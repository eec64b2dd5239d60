/**
 * How English restricts authority to one kind of record. A text that says which record settles a
 * question does it with a grammatical frame around a noun phrase, whatever its verbs: an exclusive
 * focus ("only the X …", "the X alone …", "nothing but the X …"), a condition that holds until the
 * record exists ("until the X …", "unless the X …"), a cleft that singles it out ("what counts is
 * the X", "the only record that matters is the X"), or an authority predicate ("the X is binding",
 * "the X prevails"). The frames are data; `inquiry/authority.ts` reads the noun phrase they mark.
 *
 * Every word here is general English (determiners, prepositions, auxiliaries, words of
 * attestation and authority); none names a domain's records. Other domains are held out of the
 * evaluation, so a word that only fits its templates would help nothing there.
 */
import { ASKED_DETERMINERS } from './clauses';

/** Where the frame's noun phrase is, relative to the frame's match. */
export type RestrictionRole =
  /** The phrase starts after the match and is the subject of its clause: its verb follows it. */
  | 'subject'
  /** The phrase starts after the match and closes the construction (a copula's complement). */
  | 'complement'
  /** The phrase ends where the match starts ("the X alone", "the X is binding"). */
  | 'preceding';

/**
 * What else a frame needs before its phrase counts as a kind of record. Weak frames are common
 * in any prose ("until the late 1990s", "only the first generation was imported", "Home Alone"),
 * so they name a record only when it is attested: a word of attestation in the kind ("the
 * *signed* docket"), or, after "until", a predicate that makes the record ("until the final audit
 * is *published*"). Strong frames say by themselves that the phrase binds ("what counts is …",
 * "the binding record is …").
 */
export type RestrictionNeeds = 'attested' | 'attested or made' | 'nothing';

export interface RestrictionConstruction {
  readonly name: string;
  readonly needs: RestrictionNeeds;
  /** Lower-case words one of which every match contains: a sentence without any is not tried (speed only). */
  readonly cues: readonly string[];
  /** Global, case-insensitive, Unicode; for 'subject' and 'complement' the phrase starts at the match's end. */
  readonly pattern: RegExp;
  readonly role: RestrictionRole;
  readonly example: string;
}

/** A determiner or possessive that may open the noun phrase after a frame. */
const DET = String.raw`(?:the|a|an|this|that|these|those|its|their|any|each|every|such|[\p{L}-]+['’]s)\s`;

/** Adjectives that say a record decides, used in the frames below. */
const AUTHORITY_WORDS: readonly string[] = [
  'binding',
  'authoritative',
  'conclusive',
  'decisive',
  'definitive',
  'controlling',
  'dispositive',
  'determinative',
];
const AUTHORITY = `(?:${AUTHORITY_WORDS.join('|')})`;

/**
 * The restriction frames. "Only" counts when it opens a clause (the focus of the subject: "only
 * the X settles …"), not inside a predicate ("it is only the first step"); a cleft counts when its
 * what-clause is one verb with "what" as its subject ("what counts is the X"), not a clause with a
 * subject of its own ("what the notice shows is the depot").
 */
export const RESTRICTIONS: readonly RestrictionConstruction[] = [
  {
    name: 'only',
    needs: 'attested',
    cues: ['only'],
    pattern: new RegExp(String.raw`(?:^|[,;:(—–]|\b(?:and|but|so|yet)\b)\s*only\s+(?=${DET}|\p{Ll})`, 'giu'),
    role: 'subject',
    example: 'Only the signed title record settles where it is registered.',
  },
  {
    name: 'until',
    needs: 'attested or made',
    cues: ['until', 'till', 'unless'],
    pattern: new RegExp(String.raw`\b(?:until|till|unless)\s+(?=${DET})`, 'giu'),
    role: 'subject',
    example: 'Until the final audit is published, figures are provisional.',
  },
  {
    name: 'nothing but',
    needs: 'attested',
    cues: ['but', 'except', 'save', 'other than'],
    pattern: new RegExp(
      String.raw`\b(?:nothing|none|no\s+(?:[\p{L}-]+\s+){0,2}?)\s*(?:but|except|save|other\s+than)\s+(?=${DET})`,
      'giu',
    ),
    role: 'subject',
    example: 'Nothing but the stamped manifest counts.',
  },
  {
    name: 'what counts',
    needs: 'nothing',
    cues: ['what'],
    pattern: new RegExp(
      String.raw`\bwhat\s+(?:(?:[\p{L}]+ly\s+)?[\p{L}]+s|(?:is|are)\s+${AUTHORITY})\s+(?:is|are)\s+(?=${DET})`,
      'giu',
    ),
    role: 'complement',
    example: 'What counts is the countersigned award letter.',
  },
  {
    name: 'the only',
    needs: 'attested',
    cues: ['only', 'sole', 'all that'],
    pattern: new RegExp(
      String.raw`\b(?:the\s+only|the\s+sole|all\s+that)\s+[^.;:!?]*?\b(?:is|are)\s+(?=${DET})`,
      'giu',
    ),
    role: 'complement',
    example: 'The only record that matters is the certified register.',
  },
  {
    name: 'authority noun',
    needs: 'nothing',
    cues: AUTHORITY_WORDS,
    pattern: new RegExp(String.raw`\b${AUTHORITY}\s+[\p{L}-]+\b[^.;:!?]*?\b(?:is|are)\s+(?=${DET})`, 'giu'),
    role: 'complement',
    example: 'The binding record is the signed title record kept by the registry.',
  },
  {
    name: 'alone',
    needs: 'attested',
    cues: ['alone'],
    pattern: /\s+alone\b/giu,
    role: 'preceding',
    example: 'The audited ledger of the trust alone determines the payout.',
  },
  {
    name: 'authority predicate',
    needs: 'attested',
    cues: [...AUTHORITY_WORDS, 'prevail', 'precedence', 'final', 'last'],
    pattern: new RegExp(
      String.raw`\s+(?:(?:is|are)\s+(?:the\s+)?(?:only\s+|sole\s+|final\s+)?${AUTHORITY}|(?:is|are)\s+final\b|prevails?\b|takes\s+precedence|(?:has|have)\s+the\s+(?:final|last)\s+(?:word|say))`,
      'giu',
    ),
    role: 'preceding',
    example: 'The notarised deed of transfer is binding.',
  },
];

/** Words of attestation: a record that carries one is signed off by someone who answers for it. */
export const ATTESTATION_WORDS: ReadonlySet<string> = new Set([
  'signed',
  'countersigned',
  'certified',
  'sealed',
  'notarised',
  'notarized',
  'audited',
  'registered',
  'stamped',
  'attested',
  'executed',
  'authenticated',
  'witnessed',
  'ratified',
  'sworn',
]);

/**
 * Participles that make a record exist or public, read after "until the X is …": with the words
 * of attestation, the predicate that says a record is awaited, not a time ("until the law was
 * amended" is no record).
 */
export const MAKING_WORDS: ReadonlySet<string> = new Set([
  'issued',
  'published',
  'filed',
  'released',
  'lodged',
  'recorded',
  'entered',
  'posted',
  'delivered',
  'received',
]);

/** Determiners (and possessive pronouns) that open a noun phrase; not part of a kind. */
export const DETERMINERS: ReadonlySet<string> = new Set([
  // Those that may open a question's asked phrase (clauses.ts), and more.
  ...ASKED_DETERMINERS,
  'our',
  'your',
  'any',
  'each',
  'every',
  'such',
]);

/** Auxiliary and modal verbs: after a kind, they open its predicate ("… is issued", "… must be filed"). */
export const AUXILIARIES: ReadonlySet<string> = new Set([
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'being',
  'am',
  'has',
  'have',
  'had',
  'do',
  'does',
  'did',
  'can',
  'could',
  'may',
  'might',
  'must',
  'shall',
  'should',
  'will',
  'would',
]);

/** Prepositions: after a kind, they attach who issues or keeps it ("of the X Office", "on file with …"). */
export const PREPOSITIONS: ReadonlySet<string> = new Set([
  'of',
  'in',
  'on',
  'at',
  'by',
  'for',
  'from',
  'with',
  'under',
  'to',
  'into',
  'within',
  'without',
  'about',
  'after',
  'before',
  'between',
  'during',
  'through',
  'per',
  'upon',
  'over',
  'via',
  'as',
]);

/** Relative pronouns: a kind ended by one has no verb of its own inside it ("the docket that …"). */
export const RELATIVES: ReadonlySet<string> = new Set(['that', 'who', 'whom', 'whose']);

/**
 * Participles that, after a kind, say who issues or keeps it ("the docket issued by …", "the
 * record kept by …"). A word ending in -ed or -en followed by a preposition ends a kind too; these
 * are the irregular ones and the ones that often stand before a name directly.
 */
export const KIND_END_PARTICIPLES: ReadonlySet<string> = new Set([
  'issued',
  'kept',
  'held',
  'published',
  'signed',
  'filed',
  'registered',
  'maintained',
  'made',
  'done',
  'given',
  'set',
  'drawn',
  'written',
  'sent',
  'laid',
]);

/** Words that open a clause after a kind's verb (wh-words, pronouns, conjunctions). */
export const CLAUSE_OPENERS: ReadonlySet<string> = new Set([
  'where',
  'what',
  'which',
  'whether',
  'when',
  'how',
  'why',
  'who',
  'it',
  'they',
  'them',
  'this',
  'these',
  'those',
  'and',
  'or',
  'but',
  'nor',
  'if',
  'all',
  'both',
  'everything',
  'anything',
  'nothing',
]);

/** Words of a kind at most: a longer phrase is a clause, not the name of a kind of record. */
export const MAX_KIND_WORDS = 6;

/** Stems a record's heading may carry before the kind's last word ("Official signed title record …"). */
export const KIND_HEAD_SLACK = 2;
