import { describe, expect, it } from 'vitest';
import { extractValues } from '../verify/values';
import { countedTerms, countFit, OTHER_COUNT_WEIGHT } from './counted';
import { answerExtractive } from './extractive';
import { source } from './testing';

const fits = (question: string, sentence: string): Record<string, number> => {
  const counted = countedTerms(question);
  return Object.fromEntries(
    extractValues(sentence)
      .filter((v) => v.kind === 'number')
      .map((v) => [v.raw, countFit(sentence, v, counted)]),
  );
};

describe('what a "how many" question counts', () => {
  it('reads the content words after "how many"', () => {
    expect([...countedTerms('How many blocks do the engineers recommend replacing?')]).toEqual(['block']);
    expect([...countedTerms('How many Republican candidates took part?')]).toHaveLength(2);
    expect(countedTerms('What is the estimated cost of the repair?').size).toBe(0);
  });

  it('keeps a number of the counted thing, weighs numbers of other things down', () => {
    const s = 'Divers found that forty blocks had shifted by twelve centimetres; the work takes nine weeks.';
    expect(fits('How many blocks had shifted?', s)).toEqual({
      forty: 1,
      twelve: OTHER_COUNT_WEIGHT,
      'nine weeks': OTHER_COUNT_WEIGHT,
    });
    // The counted word may come a few words later, or not at all.
    expect(fits('How many medals did she win?', 'She won 3 gold medals.')).toEqual({ '3': 1 });
    expect(fits('How many people died?', 'At least 40 were killed.')).toEqual({ '40': 1 });
    // Nothing counted: every number may be the answer.
    expect(fits('What did it cost?', 'It cost 300 euros over nine weeks.')).toEqual({
      '300 euros': 1,
      'nine weeks': 1,
    });
  });

  it('lets the count win the vote over the other numbers of its passage', () => {
    const text =
      'The engineers recommend replacing forty blocks before the winter storms. The blocks had shifted by twelve centimetres. Replacing the blocks takes nine weeks.';
    const answer = answerExtractive({
      question: 'How many blocks do the engineers recommend replacing?',
      sources: [source(1, text)],
    });
    expect(answer.short?.text).toBe('forty');
    // Without the count rule (every number weighed alike) its share is 0.49: the two other
    // numbers take half the votes.
    expect(answer.votes?.share ?? 0).toBeGreaterThan(0.7);
  });
});
