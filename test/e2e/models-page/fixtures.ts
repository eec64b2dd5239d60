/** Inputs shared by the model test page (browser) and the e2e test (Node reference). */
export const EMBED_TEXTS = [
  'The remote work policy allows up to three days per week at home.',
  '',
  'Sick leave is paid.',
];
export const QUERY = 'how many days per week can I work from home?';
export const PASSAGES = [
  'The remote work policy allows up to three days per week at home.',
  'The court held that the clause was void.',
];
export const PAIRS = [
  {
    premise: 'The remote work policy allows up to three days per week at home.',
    hypothesis: 'Remote work is allowed.',
  },
  { premise: 'Sick leave is paid for the first ten days.', hypothesis: 'Sick leave is never paid.' },
];
export const MESSAGES = [{ role: 'user' as const, content: 'How many days per week can I work from home?' }];
