import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { diversify, isSingleFactQuestion } from './mmr';
import { decomposeQuestion } from './rationales';
import { buildCorpus, candidate, deepFreeze } from './testing';
import { cosine, jaccard, textOf, words } from './common';

const corpus = buildCorpus([
  { id: 'a', chunks: ['statins lower ldl cholesterol in adults with high cardiovascular risk'] },
  // Shares five of its content words with a (word Jaccard 5/12: similar, not a duplicate).
  { id: 'b', chunks: ['statins lower ldl cholesterol in older adults with diabetes and kidney disease'] },
  { id: 'c', chunks: ['muscle pain is the most common side effect reported by statin users'] },
  { id: 'd', chunks: ['statins lower ldl cholesterol in adults with high cardiovascular risk'] },
]);
const lookup = { chunks: corpus.chunks, documents: corpus.documents };
const multi = 'What are the benefits and side effects of statins for cholesterol and muscle pain?';

describe('diversify', () => {
  it('trades a little relevance for coverage: λ·rel − (1−λ)·max sim', () => {
    // b: 0.7·0.95 − 0.3·5/12 = 0.54; c (no shared words): 0.7·0.85 = 0.595.
    const input = deepFreeze([candidate('a#0', 1), candidate('b#0', 0.95), candidate('c#0', 0.85)]);
    const r = diversify(input, { question: multi, lookup, rationales: decomposeQuestion(multi) }, { mode: 'on' });
    expect(r.applied).toBe(true);
    expect(r.kept.map((c) => c.id)).toEqual(['a#0', 'c#0', 'b#0']);
    const second = r.kept[1]!.trace.at(-1)!;
    expect(second).toMatchObject({ stage: 'mmr', kept: true, detail: { order: 2, applied: true } });
    const sim = jaccard(new Set(words(textOf(lookup, 'a#0'))), new Set(words(textOf(lookup, 'c#0'))));
    expect(sim).toBeLessThan(0.2);
    // Relevance alone keeps score order.
    const off = diversify(input, { question: multi, lookup }, { mode: 'off' });
    expect(off.kept.map((c) => c.id)).toEqual(['a#0', 'b#0', 'c#0']);
    expect(off.kept[0]!.trace.at(-1)!.reason).toBe('MMR off');
  });

  it('is off in auto mode for single-fact questions, with the reason in the trace', () => {
    const q = 'When was the statin guideline published?';
    const r = diversify([candidate('a#0', 1), candidate('b#0', 0.95), candidate('c#0', 0.8)], {
      question: q,
      lookup,
      rationales: decomposeQuestion(q),
    });
    expect(r).toMatchObject({ applied: false, singleFact: true });
    expect(r.kept.map((c) => c.id)).toEqual(['a#0', 'b#0', 'c#0']);
    expect(r.kept[0]!.trace.at(-1)!.reason).toBe('MMR off: single-fact question');
  });

  it('never selects a duplicate, even with MMR off', () => {
    const r = diversify(
      [candidate('a#0', 1), candidate('d#0', 0.99), candidate('c#0', 0.5)],
      { question: multi, lookup },
      { mode: 'off' },
    );
    expect(r.kept.map((c) => c.id)).toEqual(['a#0', 'c#0']);
    expect(r.dropped[0]!.trace.at(-1)).toMatchObject({ kept: false, detail: { duplicateOf: 'a#0', similarity: 1 } });
  });

  it('uses vector cosine when both chunks have vectors', () => {
    const v = new Map([
      ['a#0', Float32Array.from([1, 0, 0])],
      ['b#0', Float32Array.from([0, 1, 0])],
      ['c#0', Float32Array.from([0.99, Math.sqrt(1 - 0.99 ** 2), 0])],
    ]);
    const vl = { ...lookup, vectorOf: (id: string) => v.get(id) };
    const r = diversify(
      [candidate('a#0', 1), candidate('c#0', 0.99), candidate('b#0', 0.5)],
      { question: multi, lookup: vl },
      { mode: 'on' },
    );
    expect(cosine(v.get('a#0')!, v.get('c#0')!)).toBeGreaterThan(0.97);
    expect(r.kept.map((c) => c.id)).toEqual(['a#0', 'b#0']);
    expect(r.dropped.map((c) => c.id)).toEqual(['c#0']);
  });

  it('caps chunks per document and the number selected', () => {
    const many = buildCorpus([
      { id: 'x', chunks: ['one alpha', 'two beta', 'three gamma', 'four delta', 'five epsilon'] },
    ]);
    const input = [0, 1, 2, 3, 4].map((i) => candidate(`x#${i}`, 1 - i / 10));
    const r = diversify(
      input,
      { question: multi, lookup: { chunks: many.chunks, documents: many.documents } },
      { mode: 'on' },
    );
    expect(r.kept).toHaveLength(3);
    expect(r.dropped.map((c) => c.trace.at(-1)!.reason)).toEqual([
      'per-document cap: 3 chunks of x already selected',
      'per-document cap: 3 chunks of x already selected',
    ]);
    const capped = diversify(
      input,
      { question: multi, lookup: { chunks: many.chunks, documents: many.documents } },
      { perDocument: 10, maxSelect: 2 },
    );
    expect(capped.kept).toHaveLength(2);
    expect(capped.dropped.every((c) => /beyond the 2 most useful/.test(c.trace.at(-1)!.reason!))).toBe(true);
  });

  it('never selects duplicates or repeats, and respects the caps (property)', () => {
    const vocab = ['alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta', 'eta'];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            doc: fc.integer({ min: 0, max: 3 }),
            words: fc.array(fc.constantFrom(...vocab), { minLength: 1, maxLength: 6 }),
            score: fc.double({ min: 0, max: 1, noNaN: true }),
          }),
          {
            minLength: 1,
            maxLength: 25,
          },
        ),
        fc.constantFrom('on' as const, 'off' as const),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (rows, mode, lambda) => {
          const docs = [0, 1, 2, 3].map((d) => ({
            id: `d${d}`,
            chunks: rows.filter((r) => r.doc === d).map((r) => r.words.join(' ')),
          }));
          const c = buildCorpus(docs.filter((d) => d.chunks.length > 0));
          const idx = new Map<number, number>();
          const input = rows.map((r) => {
            const i = idx.get(r.doc) ?? 0;
            idx.set(r.doc, i + 1);
            return candidate(`d${r.doc}#${i}`, r.score);
          });
          const lk = { chunks: c.chunks, documents: c.documents };
          const out = diversify(input, { question: multi, lookup: lk }, { mode, lambda, perDocument: 2, maxSelect: 6 });
          expect(out.kept.length + out.dropped.length).toBe(input.length);
          expect(out.kept.length).toBeLessThanOrEqual(6);
          expect(new Set(out.kept.map((k) => k.id)).size).toBe(out.kept.length);
          const sets = out.kept.map((k) => new Set(words(textOf(lk, k.id))));
          for (let i = 0; i < sets.length; i++)
            for (let j = i + 1; j < sets.length; j++) expect(jaccard(sets[i]!, sets[j]!)).toBeLessThan(0.8);
          const perDoc = new Map<string, number>();
          for (const k of out.kept) perDoc.set(k.docId, (perDoc.get(k.docId) ?? 0) + 1);
          for (const n of perDoc.values()) expect(n).toBeLessThanOrEqual(2);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('isSingleFactQuestion', () => {
  it.each([
    ['When did the policy take effect?', true],
    ['Who approves overtime?', true],
    ['How many sick days do I get?', true],
    ['What is the mileage rate?', true],
    ['sick leave', true],
    ['What is the difference between sick leave and annual leave?', false],
    ['What are the pension, bonus and overtime rules?', false],
    ['ibuprofen vs paracetamol', false],
    [
      'Summarise the obligations of employers regarding sick leave, parental leave, overtime and remote work across all policies',
      false,
    ],
    ['Statins lower LDL cholesterol and reduce muscle strength in adults.', false],
  ])('%s → %s', (q, expected) => expect(isSingleFactQuestion(q, decomposeQuestion(q))).toBe(expected));
});
