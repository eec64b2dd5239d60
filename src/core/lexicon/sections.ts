/**
 * Sections: the words of long documents' headings that label or qualify a section rather than
 * name it ("Consolidated", "Note 12", "Item 7A", "Three months ended …"). General reporting and
 * legal-document language, never a benchmark's template words; `retrieval/sections.ts` reads them.
 */

/** Words that qualify a section's name without distinguishing it (analyzed forms are compared). */
export const SECTION_QUALIFIERS: readonly string[] = [
  'consolidated',
  'condensed',
  'combined',
  'unaudited',
  'audited',
  'interim',
  'selected',
  'company',
  'companies',
  'subsidiaries',
  'inc',
  'corporation',
  'corp',
  'plc',
  'ltd',
  'llc',
  'group',
  'continued',
  'cont',
  'table',
  'contents',
];

/** Numbered labels of long documents' headings: "Item 7A", "Note 12", "Part II", "Section 4.2". */
export const SECTION_LABEL =
  /^\s*((?:part|item|note|section|schedule|exhibit|annex|appendix|article|chapter|clause|rule)\s+(?:[0-9]+[a-z]?(?:\.[0-9]+)*|[ivxlc]+\b|[a-z]\b))/i;

/** A heading that names a period or holds only figures: "Three months ended March 31", "As of". */
export const PERIOD_HEADING =
  /\b(?:january|february|march|april|may|june|july|august|september|october|november|december|ended|ending)\b|^\s*(?:at|as\s+of)\b|^\s*[\d\s.,$%()-]*$/i;
