import { describe, expect, it } from 'vitest';
import type { Conflict } from '../verify/conflict';
import { REDACTION_MARK } from '../verify/injection';
import { answerExtractive } from './extractive';
import { source } from './testing';

describe('answerExtractive', () => {
  const sources = [
    source(
      1,
      "Jul 13, 2019 ... The final was played on Centre Court. Simona Halep won the 2019 Wimbledon women's singles title, beating Serena Williams.",
    ),
    source(2, 'Simona Halep of Romania became the 2019 Wimbledon champion in under an hour.'),
    source(3, 'Who won Wimbledon in 2019? Tickets for the 2020 edition go on sale in March.'),
  ];

  it('answers with the cited sentence that states the value most passages agree on, and its short span', () => {
    const a = answerExtractive({ question: "Who won the women's singles Wimbledon in 2019?", sources });
    expect(a.kind).toBe('answer');
    expect(a.short).toMatchObject({ text: 'Simona Halep', kind: 'entity' });
    expect(a.sentences[0]).toMatchObject({ citationId: 'S1' });
    expect(a.sentences[0]!.text).toMatch(/^Simona Halep won/);
    expect(a.text).toMatch(/\[S1\]/);
    expect(a.votes).toMatchObject({ sources: 2 });
    // A question in the evidence is never an answer sentence.
    expect(a.text).not.toContain('Who won Wimbledon');
    expect(a.sentences.length).toBeLessThanOrEqual(3);
  });

  it('picks the value of the asked-for kind: a date for "when", money for "how much", never a dateline', () => {
    const when = answerExtractive({
      question: 'When was Splatoon 2 released?',
      sources: [source(1, 'Apr 13, 2017 ... Splatoon 2 was released on July 21, 2017 for the Nintendo Switch.')],
    });
    expect(when.short).toMatchObject({ text: 'July 21, 2017', kind: 'date' });
    const much = answerExtractive({
      question: 'How much did Google acquire YouTube for?',
      sources: [source(1, 'In 2006 Google acquired YouTube, with 65 employees, for $1.65 billion in stock.')],
    });
    expect(much.short).toMatchObject({ text: '$1.65 billion', kind: 'number' });
  });

  it('states both sides of an unresolved conflict with citations and asserts neither', () => {
    const conflict: Conflict = {
      id: 'C1',
      kind: 'entity',
      onQuestion: true,
      status: 'unresolved',
      winner: null,
      resolvedBy: null,
      reason: 'unresolved',
      pairs: [['d1#0', 'd2#0']],
      sides: [
        {
          key: 'tampa florida',
          display: 'Tampa, Florida',
          candidateIds: ['d1#0'],
          corroboratingIds: [],
          support: 0,
          sources: 0,
          citationIds: ['S1'],
        },
        {
          key: 'glendale arizona',
          display: 'Glendale, Arizona',
          candidateIds: ['d2#0'],
          corroboratingIds: [],
          support: 0,
          sources: 0,
          citationIds: ['S2'],
        },
      ],
    };
    const a = answerExtractive({
      question: 'Where was Super Bowl 2021 played?',
      sources: [
        source(1, 'Super Bowl 2021 was played at Raymond James Stadium in Tampa, Florida.'),
        source(2, 'Super Bowl 2021 was played at Raymond James Stadium in Glendale, Arizona.'),
      ],
      conflicts: [conflict],
    });
    expect(a.kind).toBe('conflict');
    expect(a.text).toMatch(/"Tampa, Florida" according to \[S1\]/);
    expect(a.text).toMatch(/"Glendale, Arizona" according to \[S2\]/);
    expect(a.text).toMatch(/neither is asserted/);
    expect(a.short).toBeNull();
  });

  it('says the evidence is insufficient when no sentence matches, and skips redaction marks', () => {
    const a = answerExtractive({
      question: 'What is the parking fee?',
      sources: [source(1, `Meals cost 45 EUR. ${REDACTION_MARK}`)],
    });
    expect(a.kind).toBe('insufficient');
    const b = answerExtractive({
      question: 'What is the hotel cap per night?',
      sources: [source(1, `Hotel stays are capped at 180 EUR per night. ${REDACTION_MARK}`)],
    });
    expect(b.text).not.toContain(REDACTION_MARK);
    expect(b.short).toMatchObject({ text: '180 EUR' });
  });

  it('rejects unknown options', () => {
    expect(() => answerExtractive({ question: 'q', sources }, { topK: 3 } as never)).toThrow(/unknown option "topK"/);
  });
});
