/**
 * Headings by numbering: the patterns long documents number their sections with ("PART II",
 * "Item 7.", "ITEM 1A. RISK FACTORS", "Note 12", "NOTE 3 —", "4.2 Scope", "Annex B",
 * "Schedule II") and statement titles over financial tables ("Consolidated Balance Sheets").
 * A rank orders them: Part and Chapter above Article and Item, above Note, Schedule, Annex and
 * Appendix, above decimal sections by depth. The page-layout code decides where a line stands
 * alone; this file only reads its text.
 */

export type NumberedKind = 'part' | 'item' | 'note' | 'decimal';

export interface NumberedHeading {
  readonly kind: NumberedKind;
  /** Smaller is higher in the outline. */
  readonly rank: number;
}

const MAX_CHARS = 120;

const PATTERNS: readonly { readonly re: RegExp; readonly kind: NumberedKind; readonly rank: number }[] = [
  {
    re: /^(?:part|chapter)\s+(?:[IVX]{1,5}|\d{1,2}|one|two|three|four|five)\b(?:\s*[.:—–-]|\s|$)/i,
    kind: 'part',
    rank: 1,
  },
  { re: /^(?:item|article)\s+\d{1,2}[A-Z]?\b\s*(?:[.:—–-]|\s|$)/i, kind: 'item', rank: 2 },
  {
    re: /^(?:note|schedule|annex|appendix)\s+(?:[IVX]{1,5}|\d{1,2}|[A-Z])\b\s*(?:[.:—–-]|\s|$)/i,
    kind: 'note',
    rank: 3,
  },
];

/** "4.2 Scope", "1 Introduction", "3.1.4 Limits": a section number then a capitalised title. */
const DECIMAL = /^(\d{1,2}(?:\.\d{1,2}){0,3})\.?\s+\p{Lu}[\p{L}’',&()/ -]*$/u;

/** The numbering of a heading line, or null when its text is not numbered like a heading. */
export function numberedHeading(text: string): NumberedHeading | null {
  const t = text.trim();
  if (t.length > MAX_CHARS || !/\p{L}/u.test(t)) return null;
  // A contents entry ends in its page number: "Item 7. Management's Discussion 34".
  if (/(?:\.{3,}|\s)\d{1,4}$/.test(t) && !/^(?:part|item|note|schedule|annex|appendix|chapter|article)\s+\S+$/i.test(t))
    return null;
  for (const p of PATTERNS) if (p.re.test(t)) return { kind: p.kind, rank: p.rank };
  const d = DECIMAL.exec(t);
  if (d !== null && t.length <= 80 && !/[.:;,]$/.test(t)) {
    const depth = (d[1] as string).split('.').length;
    return { kind: 'decimal', rank: 3 + depth };
  }
  return null;
}

const STATEMENT =
  /^(?:(?:consolidated|combined|condensed|unaudited|interim|selected)\s+)*(?:balance sheets?|statements?\s+of\s+[\p{L} ,’'()-]{3,70}|(?:income|cash flows?|operations)\s+statements?)(?:\s*\((?:unaudited|continued)\))?$/iu;

/** "Consolidated Balance Sheets", "CONSOLIDATED STATEMENTS OF CASH FLOWS": a statement's title. */
export function isStatementTitle(text: string): boolean {
  return text.length <= 90 && STATEMENT.test(text.trim());
}

/**
 * The numbering of a line as a sequence: its word and whole number ("NOTE 5. Restructuring" →
 * note 5), for the numbered kinds counted 1, 2, 3 … (notes, schedules, parts and articles in digits);
 * null otherwise ("Item 1A", "4.2 Scope", a heading numbered in letters or roman numerals).
 */
export function sequenceNumber(text: string): { readonly word: string; readonly n: number } | null {
  const m = /^(note|schedule|annex|appendix|article|chapter|part)\s+(\d{1,3})\b\s*(?:[.:—–-]|\s|$)/i.exec(text.trim());
  return m ? { word: (m[1] as string).toLowerCase(), n: Number(m[2]) } : null;
}

/**
 * Whether a numbered line continues its sequence — the next number after the last heading of its
 * word (`seen`), or number 1 when none came before — and reads as a title: short, its longer words
 * mostly capitalised ("NOTE 5. Restructuring Actions", not "Note 5. The Company recorded …"). Such a
 * line is a heading even set in the body's size with no space above it, as many filings set their
 * notes.
 */
export function continuesSequence(text: string, seen: ReadonlyMap<string, number>): boolean {
  const s = sequenceNumber(text);
  if (s === null || text.length > SEQUENCE_MAX_CHARS) return false;
  if (s.n !== (seen.get(s.word) ?? 0) + 1) return false;
  const title = text.trim().replace(/^\S+\s+\d{1,3}\s*[.:—–-]?\s*/u, '');
  // A title, not a sentence: no sentence break inside it, and its longer words mostly capitalised
  // ("Supplemental Income Statement Information"; not "The Company recorded charges in 2022.").
  if (/[.!?]\s+\S/u.test(title)) return false;
  const words = title.match(/\p{L}{4,}/gu) ?? [];
  return words.filter((w) => /^\p{Lu}/u.test(w)).length * 2 >= words.length;
}

/** Longest line `continuesSequence` takes for a title (a wrapped prose line is longer). */
const SEQUENCE_MAX_CHARS = 80;
