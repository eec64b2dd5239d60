import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { estimateTokens, evidenceBudget, packEvidence, SOURCE_SEPARATOR } from './pack';
import { decomposeQuestion, pairRationales } from './rationales';
import { buildCorpus, candidate, deepFreeze } from './testing';

const corpus = buildCorpus([
  {
    id: 'pol',
    title: 'Leave Policy',
    sourceType: 'internal_policy',
    effectiveDate: '2024-01-01',
    chunks: [
      { text: 'Employees get 10 days of sick leave per year.', headings: ['Leave', 'Sick leave'], page: 3 },
      { text: 'Sick leave over 3 days needs a doctor’s note.', headings: ['Leave', 'Sick leave'], page: 3 },
    ],
  },
  { id: 'hb', title: 'Handbook', chunks: ['Part-time staff accrue leave pro rata.', 'x'.repeat(4000)] },
]);
const lookup = { chunks: corpus.chunks, documents: corpus.documents };
const question = 'How many sick leave days do part-time staff get?';

describe('budget', () => {
  it('is contextLimit − system prompt − question − answer reserve − margin', () => {
    const q = 'x'.repeat(35); // 10 estimated tokens
    expect(
      evidenceBudget(q, { contextLimit: 1000, systemPromptTokens: 100, answerReserve: 200, marginRatio: 0.05 }),
    ).toBe(1000 - 100 - 10 - 200 - 50);
    expect(evidenceBudget(q, { contextLimit: 100, systemPromptTokens: 100 })).toBe(0);
  });

  it('estimates tokens conservatively as ⌈chars / 3.5⌉', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcdefg')).toBe(2);
    expect(estimateTokens('abcdefgh')).toBe(3);
  });
});

describe('packEvidence', () => {
  it('packs whole chunks behind a header line with title, heading trail and page, numbered S1…', () => {
    const r = packEvidence([candidate('pol#0', 0.9), candidate('pol#1', 0.5)], { question, lookup });
    expect(r.sources.map((s) => s.citationId)).toEqual(['S1', 'S2']);
    expect(r.sources[0]).toMatchObject({
      chunkId: 'pol#0',
      docId: 'pol',
      title: 'Leave Policy',
      headings: ['Leave', 'Sick leave'],
      page: 3,
      start: 0,
      end: 45,
      sourceType: 'internal_policy',
      status: 'current',
      effectiveDate: '2024-01-01',
    });
    expect(r.sources[0]!.text).toBe(
      '[S1] Leave Policy › Leave › Sick leave (p. 3)\nEmployees get 10 days of sick leave per year.',
    );
    expect(r.budget.used).toBe(r.sources.reduce((a, s) => a + s.tokens, 0) + estimateTokens(SOURCE_SEPARATOR));
    expect(r.kept[0]!.trace.at(-1)).toMatchObject({ stage: 'pack', kept: true, reason: 'packed as S1' });
  });

  it('skips a chunk that does not fit and tries the next, never cutting it', () => {
    const r = packEvidence(
      [candidate('hb#1', 0.99), candidate('pol#0', 0.5)],
      { question, lookup },
      { contextLimit: 1200, systemPromptTokens: 0, answerReserve: 0 },
    );
    expect(r.sources.map((s) => s.chunkId)).toEqual(['pol#0']);
    expect(r.dropped[0]!.trace.at(-1)!.reason).toMatch(
      /^does not fit the token budget \(\d+ tokens, \d+ left of \d+\)$/,
    );
  });

  it('prefers a chunk that covers a not-yet-covered rationale when the budget binds', () => {
    const rationales = decomposeQuestion(question); // sick leave days, part-time staff
    const pool = [candidate('pol#0', 0.9), candidate('pol#1', 0.8), candidate('hb#0', 0.4)];
    const pairing = pairRationales(rationales, pool, lookup);
    // Room for two of the three short chunks.
    const one = packEvidence(
      pool,
      { question, lookup, pairing },
      { contextLimit: 80, systemPromptTokens: 0, answerReserve: 0, marginRatio: 0 },
    );
    expect(one.sources.map((s) => s.chunkId).sort()).toEqual(['hb#0', 'pol#0']);
    const noBonus = packEvidence(
      pool,
      { question, lookup, pairing },
      { contextLimit: 80, systemPromptTokens: 0, answerReserve: 0, marginRatio: 0, coverBonus: 0 },
    );
    expect(noBonus.sources.map((s) => s.chunkId).sort()).toEqual(['pol#0', 'pol#1']);
  });

  it('groups by rationale, then document, then reading order, and is stable', () => {
    const rationales = decomposeQuestion(question);
    const pool = [candidate('hb#0', 0.9), candidate('pol#1', 0.8), candidate('pol#0', 0.3)];
    const pairing = pairRationales(rationales, pool, lookup);
    const a = packEvidence(pool, { question, lookup, pairing });
    const b = packEvidence([...pool].reverse(), { question, lookup, pairing });
    expect(a.sources.map((s) => [s.citationId, s.chunkId, s.group])).toEqual(
      b.sources.map((s) => [s.citationId, s.chunkId, s.group]),
    );
    // R1 (sick leave days) before R2 (part-time staff) although hb#0 has the best score; inside R1,
    // reading order (pol#0 before pol#1) although pol#1 scores higher.
    expect(a.sources.map((s) => [s.citationId, s.chunkId, s.group])).toEqual([
      ['S1', 'pol#0', 'R1'],
      ['S2', 'pol#1', 'R1'],
      ['S3', 'hb#0', 'R2'],
    ]);
  });

  it("uses the generator's tokenizer when given", () => {
    const words = (t: string) => t.split(/\s+/).filter(Boolean).length;
    const r = packEvidence([candidate('pol#0', 1)], { question, lookup, tokenCounter: words });
    expect(r.sources[0]!.tokens).toBe(words(r.sources[0]!.text));
  });

  it('drops candidates without chunk text, saying so', () => {
    const r = packEvidence([candidate('nope', 1)], { question, lookup });
    expect(r.sources).toEqual([]);
    expect(r.dropped[0]!.trace.at(-1)!.reason).toBe('no chunk text to pack');
  });

  it('never exceeds the budget, never splits a chunk, numbers S1…Sn (property)', () => {
    const sentence = fc
      .array(fc.constantFrom('dose', '5', 'mg', 'daily', 'patients', 'renal', 'risk', 'table', 'row'), {
        minLength: 1,
        maxLength: 40,
      })
      .map((w) => `${w.join(' ')}.`);
    fc.assert(
      fc.property(
        fc.array(fc.array(sentence, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 50, max: 2000 }),
        fc.boolean(),
        (chunks, contextLimit, wordTokens) => {
          const c = buildCorpus(
            chunks.map((ss, i) => ({
              id: `d${i}`,
              title: `Doc ${i}`,
              chunks: [{ text: ss.join(' '), headings: ['H', `h${i}`] }],
            })),
          );
          const lk = { chunks: c.chunks, documents: c.documents };
          const input = deepFreeze(chunks.map((_, i) => candidate(`d${i}#0`, ((i * 7919) % 13) / 13)));
          const counter = wordTokens ? (t: string) => t.split(/\s+/).filter(Boolean).length + 1 : undefined;
          const r = packEvidence(
            input,
            { question: 'dose for renal patients?', lookup: lk, ...(counter ? { tokenCounter: counter } : {}) },
            { contextLimit, systemPromptTokens: 10, answerReserve: 10 },
          );
          expect(r.budget.used).toBeLessThanOrEqual(r.budget.limit);
          const count = counter ?? estimateTokens;
          const recount =
            r.sources.reduce((a, s) => a + count(s.text), 0) +
            Math.max(0, r.sources.length - 1) * count(SOURCE_SEPARATOR);
          expect(recount).toBe(r.budget.used);
          expect(r.sources.map((s) => s.citationId)).toEqual(r.sources.map((_, i) => `S${i + 1}`));
          for (const s of r.sources) {
            const chunk = c.chunks.get(s.chunkId)!;
            // The whole chunk, every sentence intact, after exactly one header line.
            expect(s.text.endsWith(`\n${chunk.text}`)).toBe(true);
            expect(s.text.split('\n')).toHaveLength(2);
          }
          expect(r.kept.length + r.dropped.length).toBe(input.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
