import { describe, expect, it } from 'vitest';
import { BEFORE_CHANGE, EARLIER_WORDS, QUALIFIED_EARLIER, USED_TO } from './versions';

/** Each row: a pattern, its name, a question, and whether it points at an earlier version. */
const ROWS: readonly (readonly [RegExp, string, string, boolean])[] = [
  [EARLIER_WORDS, 'EARLIER_WORDS', 'What did the previous policy allow?', true],
  [EARLIER_WORDS, 'EARLIER_WORDS', 'Which rule was repealed?', true],
  [EARLIER_WORDS, 'EARLIER_WORDS', 'How old is the building?', false],
  [QUALIFIED_EARLIER, 'QUALIFIED_EARLIER', 'What did the old travel policy say?', true],
  [QUALIFIED_EARLIER, 'QUALIFIED_EARLIER', 'Can staff leave earlier on Fridays?', false],
  [BEFORE_CHANGE, 'BEFORE_CHANGE', 'What was the limit before the 2021 update?', true],
  [BEFORE_CHANGE, 'BEFORE_CHANGE', 'What applied until the amendment?', true],
  [BEFORE_CHANGE, 'BEFORE_CHANGE', 'What must be done before lunch?', false],
  [USED_TO, 'USED_TO', 'Which forms are no longer accepted?', true],
  [USED_TO, 'USED_TO', 'Which forms are accepted?', false],
];

describe('questions about an earlier version', () => {
  it.each(ROWS)('%#: %s on %j → %s', (re, _name, question, matches) => {
    expect(re.test(question)).toBe(matches);
  });
});
