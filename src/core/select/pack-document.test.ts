import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { splitSentences } from '../text/sentences';
import { ELISION, estimateTokens, evidenceBudget, packEvidence, SOURCE_SEPARATOR } from './pack';
import { sentenceScore } from './pack-document';
import { buildCorpus, candidate, deepFreeze } from './testing';

const words = (t: string): number => t.split(/\s+/).filter(Boolean).length;

// Chunk p#0 at 0–44, p#1 at 45–96 (buildCorpus leaves one character between chunks).
const corpus = buildCorpus([
  {
    id: 'p',
    title: 'Aspirin Trial',
    chunks: ['Background is long. Aspirin was given daily.', 'Methods were standard. Aspirin lowered stroke risk.'],
  },
  { id: 'q', title: 'Other', chunks: ['Stroke risk in cohorts. Unrelated words here.'] },
]);
const lookup = { chunks: corpus.chunks, documents: corpus.documents };
const question = 'Does aspirin lower stroke risk?'; // terms: aspirin, lower, stroke, risk
const doc = {
  unit: 'document',
  contextLimit: 10_000,
  systemPromptTokens: 0,
  answerReserve: 0,
  marginRatio: 0,
} as const;

describe('sentenceScore', () => {
  it('is the share of question terms held plus the position prior (hand-computed)', () => {
    const terms = new Set(['aspirin', 'lower', 'stroke', 'risk']);
    expect(sentenceScore('Aspirin lowered stroke risk.', terms, 0.5, 0)).toBe(1);
    expect(sentenceScore('Aspirin was given daily.', terms, 0.5, 0.3)).toBeCloseTo(0.25 + 0.15, 12);
    expect(sentenceScore('Nothing here.', new Set(), 1, 0)).toBe(0);
  });
});

describe('packing by document', () => {
  it('quotes a document once, its best sentences across its chunks, in reading order', () => {
    // Scores: "Aspirin lowered stroke risk." 4/4, "Aspirin was given daily." 1/4, the rest 0.
    // Room for the header and those two sentences only (word tokens).
    const header = '[S1] Aspirin Trial';
    const budget = words(`${header}\nAspirin was given daily.${ELISION}Aspirin lowered stroke risk.`);
    const r = packEvidence(
      [candidate('p#0', 0.6), candidate('p#1', 0.9)],
      { question, lookup, tokenCounter: words },
      { ...doc, maxTokens: budget },
    );
    expect(r.sources).toHaveLength(1);
    const s = r.sources[0]!;
    expect(s.text).toBe(`${header}\nAspirin was given daily.${ELISION}Aspirin lowered stroke risk.`);
    expect(s).toMatchObject({ candidateId: 'p#1', chunkId: 'p#1', docId: 'p', start: 20, end: 96 });
    expect(s.spans).toEqual([
      { start: 20, end: 44 },
      { start: 68, end: 96 },
    ]);
    expect(r.budget).toEqual({ limit: budget, used: words(s.text) });
    expect(r.kept.map((c) => c.id)).toEqual(['p#1']);
    expect(r.dropped.map((c) => c.trace.at(-1)!.reason)).toEqual([
      '1 of its sentences quoted in S1 (one source per document)',
    ]);
  });

  it('joins neighbouring sentences of one chunk with their own text and spans', () => {
    const r = packEvidence([candidate('p#1', 1)], { question, lookup }, doc);
    expect(r.sources[0]!.text).toBe('[S1] Aspirin Trial\nMethods were standard. Aspirin lowered stroke risk.');
    expect(r.sources[0]!.spans).toEqual([{ start: 45, end: 96 }]);
  });

  it('gives every document its best sentence before any document its second', () => {
    const header = (id: string, t: string): string => `[${id}] ${t}`;
    // p's best (4/4) and q's best ("Stroke risk in cohorts." 2/4) fit; p's second (1/4) would not.
    const budget =
      words(`${header('S1', 'Aspirin Trial')}\nAspirin lowered stroke risk.`) +
      words(SOURCE_SEPARATOR) +
      words(`${header('S2', 'Other')}\nStroke risk in cohorts.`);
    const r = packEvidence(
      [candidate('p#1', 0.9), candidate('p#0', 0.8), candidate('q#0', 0.2)],
      { question, lookup, tokenCounter: words },
      { ...doc, maxTokens: budget + 2 },
    );
    expect(r.sources.map((s) => [s.citationId, s.docId, s.text.split('\n')[1]])).toEqual([
      ['S1', 'p', 'Aspirin lowered stroke risk.'],
      ['S2', 'q', 'Stroke risk in cohorts.'],
    ]);
  });

  it('breaks ties toward the end of the document with a position prior', () => {
    const c = buildCorpus([{ id: 'd', title: 'T', chunks: ['Aspirin first. Filler one. Aspirin last.'] }]);
    const lk = { chunks: c.chunks, documents: c.documents };
    const one = (positionPrior: number): string =>
      packEvidence(
        [candidate('d#0', 1)],
        { question: 'aspirin?', lookup: lk, tokenCounter: words },
        { ...doc, maxTokens: words('[S1] T\nAspirin first.'), positionPrior },
      ).sources[0]!.text.split('\n')[1]!;
    expect(one(0)).toBe('Aspirin first.');
    expect(one(0.3)).toBe('Aspirin last.');
  });

  it('caps the budget with maxTokens and validates its options', () => {
    expect(evidenceBudget('q', { contextLimit: 4096, maxTokens: 168 })).toBe(168);
    expect(evidenceBudget('q', { contextLimit: 100, systemPromptTokens: 100, maxTokens: 168 })).toBe(0);
    expect(() => packEvidence([], { question: 'q', lookup }, { unit: 'page' as never })).toThrow(/unit/);
    expect(() => packEvidence([], { question: 'q', lookup }, { maxTokens: -1 })).toThrow(/maxTokens/);
    expect(() => packEvidence([], { question: 'q', lookup }, { positionPrior: -1 })).toThrow(/positionPrior/);
  });

  it('never exceeds the budget, never cuts a sentence, one source per document (property)', () => {
    const word = fc.constantFrom('dose', '5', 'mg', 'daily', 'patients', 'renal', 'risk', 'Dr.', 'e.g.', '3.5');
    const sentence = fc.array(word, { minLength: 1, maxLength: 10 }).map((w) => `${w.join(' ')}.`);
    const chunkText = fc.array(sentence, { minLength: 1, maxLength: 4 }).map((ss) => ss.join(' '));
    fc.assert(
      fc.property(
        fc.array(fc.array(chunkText, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 5, max: 400 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.boolean(),
        (docs, maxTokens, positionPrior, wordTokens) => {
          const c = buildCorpus(docs.map((chunks, i) => ({ id: `d${i}`, title: `Doc ${i}`, chunks })));
          const lk = { chunks: c.chunks, documents: c.documents };
          const input = deepFreeze(
            docs.flatMap((chunks, i) => chunks.map((_, j) => candidate(`d${i}#${j}`, ((i * 7 + j * 3) % 11) / 11))),
          );
          const count = wordTokens ? (t: string) => words(t) + 1 : estimateTokens;
          const r = packEvidence(
            input,
            { question: 'renal dose 5 mg daily?', lookup: lk, tokenCounter: count },
            { ...doc, maxTokens, positionPrior },
          );
          expect(r.budget.used).toBeLessThanOrEqual(r.budget.limit);
          const recount =
            r.sources.reduce((a, s) => a + count(s.text), 0) +
            Math.max(0, r.sources.length - 1) * count(SOURCE_SEPARATOR);
          expect(recount).toBe(r.budget.used);
          expect(new Set(r.sources.map((s) => s.docId)).size).toBe(r.sources.length);
          expect(r.sources.map((s) => s.citationId)).toEqual(r.sources.map((_, i) => `S${i + 1}`));
          for (const s of r.sources) {
            // Every quoted span is a run of whole sentences of one chunk of the document.
            const chunks = [...c.chunks.values()].filter((ch) => ch.docId === s.docId);
            for (const sp of s.spans!) {
              const ch = chunks.find((x) => x.start <= sp.start && sp.end <= x.end)!;
              expect(ch).toBeDefined();
              const whole = splitSentences(ch.text);
              expect(whole.some((w) => w.start === sp.start - ch.start)).toBe(true);
              expect(whole.some((w) => w.end === sp.end - ch.start)).toBe(true);
            }
          }
          expect(r.kept.length + r.dropped.length).toBe(input.length);
        },
      ),
      { numRuns: 200 },
    );
  });
});
