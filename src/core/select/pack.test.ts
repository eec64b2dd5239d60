import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { splitSentences } from '../text/sentences';
import { ELISION, estimateTokens, evidenceBudget, packEvidence, SOURCE_SEPARATOR, trimChunk } from './pack';
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

  it("shows a table chunk's context (title and column header) on its header line; the body stays the chunk text", () => {
    const table = buildCorpus([
      {
        id: 'k',
        title: '10-K',
        chunks: [{ text: '| Accounts payable | 303 | 255 |', headings: ['Item 8'], page: 70 }],
      },
    ]);
    const chunk = { ...table.chunks.get('k#0')!, context: '(In millions)\n| | 2018 | 2017 |' };
    const r = packEvidence([candidate('k#0', 0.9)], {
      question: 'accounts payable 2018',
      lookup: { chunks: new Map([['k#0', chunk]]), documents: table.documents },
    });
    expect(r.sources[0]!.text).toBe(
      '[S1] 10-K › Item 8 (p. 70) — (In millions) | | 2018 | 2017 |\n| Accounts payable | 303 | 255 |',
    );
    expect(r.sources[0]!.tokens).toBe(estimateTokens(r.sources[0]!.text));
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

describe('sentence trimming', () => {
  const text = 'Background is long. Aspirin lowered the risk. Methods were standard. Risk fell by 5 percent.';
  const terms = new Set(['aspirin', 'risk', '5']);

  it('keeps the best-matching sentences in reading order, eliding gaps (hand-computed)', () => {
    // Hits: 0, 2 (aspirin, risk), 0, 2 (risk, 5). Two kept: sentences 2 and 4, not adjacent.
    const two = trimChunk(text, terms, 2);
    expect(two.text).toBe(`Aspirin lowered the risk.${ELISION}Risk fell by 5 percent.`);
    expect(two.spans.map((s) => text.slice(s.start, s.end))).toEqual([
      'Aspirin lowered the risk.',
      'Risk fell by 5 percent.',
    ]);
    // Three kept: the tie at 0 hits goes to the earlier sentence; 1 and 2 are adjacent, one span.
    const three = trimChunk(text, terms, 3);
    expect(three.text).toBe(`Background is long. Aspirin lowered the risk.${ELISION}Risk fell by 5 percent.`);
    expect(three.spans).toHaveLength(2);
    // Short enough: the whole text, one span.
    expect(trimChunk(text, terms, 4)).toEqual({ text, spans: [{ start: 0, end: text.length }] });
  });

  it('omits a first heading that repeats the title from the header line', () => {
    const c = buildCorpus([
      { id: 'p', title: 'Aspirin Trial', chunks: [{ text, headings: ['Aspirin trial', 'Results'] }] },
    ]);
    const r = packEvidence([candidate('p#0', 1)], {
      question: 'aspirin risk',
      lookup: { chunks: c.chunks, documents: c.documents },
    });
    expect(r.sources[0]!.text.split('\n')[0]).toBe('[S1] Aspirin Trial › Results');
    expect(r.sources[0]!.spans).toEqual([{ start: 0, end: text.length }]);
  });

  it('packs trimmed chunks with their document spans and rejects unknown modes', () => {
    const c = buildCorpus([{ id: 'p', title: 'T', chunks: ['First chunk here.', text] }]);
    const lk = { chunks: c.chunks, documents: c.documents };
    const chunk = c.chunks.get('p#1')!;
    const r = packEvidence(
      [candidate('p#1', 1)],
      { question: 'Did aspirin lower the risk?', lookup: lk },
      { trim: 'sentences', maxSentences: 1 },
    );
    const s = r.sources[0]!;
    expect(s.text).toBe('[S1] T\nAspirin lowered the risk.');
    expect(s.spans).toHaveLength(1);
    expect(chunk.start).toBeGreaterThan(0);
    expect(chunk.text.slice(s.spans![0]!.start - chunk.start, s.spans![0]!.end - chunk.start)).toBe(
      'Aspirin lowered the risk.',
    );
    expect(() => packEvidence([], { question: 'q', lookup: lk }, { trim: 'words' as never })).toThrow(/trim/);
    expect(() => packEvidence([], { question: 'q', lookup: lk }, { maxSentences: 0 })).toThrow(/maxSentences/);
  });

  it('never cuts a sentence and never exceeds the budget when trimming (property)', () => {
    const word = fc.constantFrom('dose', '5', 'mg', 'daily', 'patients', 'renal', 'risk', 'Dr.', 'e.g.', '3.5');
    const sentence = fc.array(word, { minLength: 1, maxLength: 12 }).map((w) => `${w.join(' ')}.`);
    fc.assert(
      fc.property(
        fc.array(fc.array(sentence, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 60, max: 1500 }),
        (chunks, maxSentences, contextLimit) => {
          const c = buildCorpus(chunks.map((ss, i) => ({ id: `d${i}`, title: `Doc ${i}`, chunks: [ss.join(' ')] })));
          const lk = { chunks: c.chunks, documents: c.documents };
          const r = packEvidence(
            chunks.map((_, i) => candidate(`d${i}#0`, 1 / (i + 1))),
            { question: 'renal dose 5 mg daily?', lookup: lk },
            { contextLimit, systemPromptTokens: 10, answerReserve: 10, trim: 'sentences', maxSentences },
          );
          expect(r.budget.used).toBeLessThanOrEqual(r.budget.limit);
          for (const s of r.sources) {
            const chunk = c.chunks.get(s.chunkId)!;
            const whole = splitSentences(chunk.text).map((x) => [x.start, x.end].join(':'));
            const body = s.text.slice(s.text.indexOf('\n') + 1);
            const pieces: string[] = [];
            for (const sp of s.spans!) {
              const from = sp.start - chunk.start;
              const to = sp.end - chunk.start;
              // Each span starts and ends on sentence boundaries of the chunk.
              expect(whole.some((w) => w.startsWith(`${from}:`))).toBe(true);
              expect(whole.some((w) => w.endsWith(`:${to}`))).toBe(true);
              pieces.push(chunk.text.slice(from, to));
            }
            expect(body).toBe(pieces.join(ELISION));
            // At most maxSentences whole sentences are quoted.
            const quoted = splitSentences(chunk.text).filter((x) =>
              s.spans!.some((sp) => sp.start - chunk.start <= x.start && x.end <= sp.end - chunk.start),
            );
            expect(quoted.length).toBe(Math.min(maxSentences, whole.length));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
