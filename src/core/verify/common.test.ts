import { describe, expect, it } from 'vitest';
import { MIN_UNIT_TOKENS, sentenceUnits } from './common';

const units = (text: string): string[] => sentenceUnits(text).map((s) => text.slice(s.start, s.end));

describe('sentenceUnits', () => {
  it('merges runs of one-word fields into one unit and leaves real sentences alone', () => {
    const text =
      '2010 FIFA World Cup South Africa. Back to FIFA+ · Match Centre · Teams. Netherlands. Runner-up. 11. Goals. 24. Yellow Cards.';
    expect(units(text)).toEqual([
      '2010 FIFA World Cup South Africa.',
      'Back to FIFA+ · Match Centre · Teams.',
      'Netherlands. Runner-up. 11. Goals. 24. Yellow Cards.',
    ]);
  });

  it('keeps a short fragment between long sentences as its own (too short) unit, and covers the text in order', () => {
    const text = 'The policy changed in 2021 for all staff. Ok. Hotel stays are capped at 180 EUR per night.';
    const u = units(text);
    expect(u).toEqual([
      'The policy changed in 2021 for all staff.',
      'Ok.',
      'Hotel stays are capped at 180 EUR per night.',
    ]);
    expect(MIN_UNIT_TOKENS).toBe(3);
    const spans = sentenceUnits(text);
    for (let i = 1; i < spans.length; i++) expect(spans[i]!.start).toBeGreaterThanOrEqual(spans[i - 1]!.end);
  });
});
