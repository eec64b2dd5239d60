import { describe, expect, it } from 'vitest';
import { CORPORATE_FORMS } from './corporate';

describe('CORPORATE_FORMS', () => {
  it.each([
    ['company', true],
    ['inc', true],
    ['corporation', true],
    ['plc', true],
    ['holdings', true],
    ['international', true],
    ['3m', false],
    ['mgm', false],
    ['resorts', false],
    ['apple', false],
    ['american', false],
    ['express', false],
  ])('%s → %s', (word, form) => {
    expect(CORPORATE_FORMS.has(word)).toBe(form);
  });

  it('holds lower-case words only', () => {
    for (const w of CORPORATE_FORMS) expect(w).toMatch(/^\p{Ll}+$/u);
  });
});
