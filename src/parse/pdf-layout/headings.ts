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
