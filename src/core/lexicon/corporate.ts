/**
 * Words of a company's legal form, not of its name: "3M Company", "MGM Resorts International",
 * "Apple Inc." are named by "3M", "MGM", "Resorts", "Apple" (`select/subject.ts`). "International"
 * and "Group" count as forms: a question about "international sales" names no company.
 */
export const CORPORATE_FORMS: ReadonlySet<string> = new Set([
  'company',
  'companies',
  'co',
  'corp',
  'corporation',
  'inc',
  'incorporated',
  'ltd',
  'limited',
  'llc',
  'lp',
  'llp',
  'plc',
  'sa',
  'ag',
  'nv',
  'se',
  'holding',
  'holdings',
  'group',
  'international',
  'trust',
]);
