import { describe, expect, it } from 'vitest';
import type { EntailmentModel } from '../verify/nli';
import { source } from './testing';
import { lexicalSupport, parseCitations, unmatchedFigures, validateAnswer } from './validate';

const sources = [
  source(1, 'Hotel stays are capped at 180 EUR per night. Economy class is required for flights under six hours.'),
  source(2, 'Meals are reimbursed up to 45 EUR per day.'),
];

describe('parseCitations', () => {
  it('reads single, grouped, adjacent and ranged citations', () => {
    expect(parseCitations('a [S1] b [S2, S3][S4] c [S5–S7]').map((c) => c.id)).toEqual([
      'S1',
      'S2',
      'S3',
      'S4',
      'S5',
      'S6',
      'S7',
    ]);
  });
});

describe('validateAnswer', () => {
  it('supports claims whose terms, figures and names are in the cited passages', async () => {
    const v = await validateAnswer({
      answer: 'Hotel stays are capped at 180 EUR per night [S1]. Meals are reimbursed up to 45 EUR a day [S2].',
      sources,
    });
    expect(v.outcome).toBe('supported');
    expect(v.claims.map((c) => c.supported)).toEqual([true, true]);
    expect(v.reason).toBeNull();
  });

  it('marks a claim with a figure the source does not state, and reports partial support', async () => {
    const v = await validateAnswer({
      answer: 'Hotel stays are capped at 180 EUR per night [S1]. Meals are reimbursed up to 60 EUR a day [S2].',
      sources,
    });
    expect(v.outcome).toBe('partial');
    expect(v.claims[1]!.problem).toMatch(/60 EUR/);
    expect(v.marked).toContain('⚠ unsupported');
    expect(v.suggestion).toMatch(/narrower question/);
  });

  it('gives a citation that follows a sentence end to that sentence, not to the next one', async () => {
    // The extractive answerer joins "sentence [S1]" pieces with spaces; the splitter cuts after
    // the period, so "[S1]" opens the next piece.
    const v = await validateAnswer({
      answer: 'Hotel stays are capped at 180 EUR per night. [S1] Meals are reimbursed up to 45 EUR a day. [S2]',
      sources,
    });
    expect(v.claims.map((c) => c.citations)).toEqual([['S1'], ['S2']]);
    expect(v.outcome).toBe('supported');
  });

  it('rejects unknown citation ids and uncited claims', async () => {
    const unknown = await validateAnswer({ answer: 'Hotel stays are capped at 180 EUR per night [S9].', sources });
    expect(unknown.outcome).toBe('unsupported');
    expect(unknown.unknownCitations).toEqual(['S9']);
    const uncited = await validateAnswer({ answer: 'Hotel stays are capped at 180 EUR per night.', sources });
    expect(uncited).toMatchObject({ outcome: 'unsupported' });
    expect(uncited.claims[0]).toMatchObject({ method: 'uncited', problem: 'no citation' });
  });

  it('does not count sentences without content of their own as claims', async () => {
    const v = await validateAnswer({
      answer:
        'The sources disagree: "180 EUR" according to [S1]. They are comparable sources, so neither is asserted here.',
      sources,
    });
    expect(v.claims).toHaveLength(1);
    expect(v.outcome).toBe('supported');
  });

  it('uses an entailment model when one is given', async () => {
    const model: EntailmentModel = {
      id: 'contains',
      classify: async (pairs) =>
        pairs.map((p) =>
          p.premise.includes('180 EUR') && p.hypothesis.includes('180')
            ? { entailment: 0.9, neutral: 0.05, contradiction: 0.05 }
            : { entailment: 0.1, neutral: 0.8, contradiction: 0.1 },
        ),
    };
    const v = await validateAnswer({
      answer: 'The nightly hotel limit is 180 [S1]. Lunch is free [S2].',
      sources,
      entailment: model,
    });
    expect(v.claims.map((c) => [c.method, c.supported])).toEqual([
      ['nli', true],
      ['nli', false],
    ]);
    expect(v.outcome).toBe('partial');
  });

  it('scores lexical support as the share of claim terms found, and grounds names', () => {
    expect(lexicalSupport('hotel cap night', 'The hotel cap is per night.')).toBe(1);
    expect(lexicalSupport('hotel cap parking', 'The hotel cap.')).toBeCloseTo(2 / 3, 10);
    expect(unmatchedFigures('It was hosted in Glendale, Arizona.', 'It was played in Tampa, Florida.')).toEqual([
      'Glendale',
      'Arizona',
    ]);
  });
});
