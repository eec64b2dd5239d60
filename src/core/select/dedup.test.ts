import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dedupCandidates, minhashSignature, minhashSimilarity } from './dedup';
import { buildCorpus, candidate, deepFreeze, type FixtureDoc } from './testing';
import type { Candidate } from '../types';

const para =
  'Employers must give each employee ten days of paid sick leave per calendar year. Sick leave may be taken in half days. ' +
  'A doctor’s note is required after three consecutive days of absence. Unused sick leave does not carry over to the next ' +
  'year and is not paid out when employment ends. Part-time employees receive sick leave pro rata to their contracted hours.';
const nearCopy = para.replace('three consecutive days', 'four consecutive days');
const shouty = para.toUpperCase().replace(/\./g, '!!').replace(/ /g, '   ');

const docs: FixtureDoc[] = [
  { id: 'gov', sourceType: 'government', chunks: [para] },
  { id: 'mirror', sourceType: 'government', chunks: [para] },
  { id: 'blog', sourceType: 'blog', chunks: [shouty] },
  { id: 'ai', sourceType: 'ai_generated', chunks: [nearCopy] },
  { id: 'old', sourceType: 'government', status: 'superseded', effectiveDate: '2018-01-01', chunks: [para] },
  {
    id: 'other',
    sourceType: 'blog',
    chunks: ['Mileage is reimbursed at a flat rate per kilometre for business travel.'],
  },
  {
    id: 'long',
    sourceType: 'internal_policy',
    chunks: [
      { text: 'Section text one about overtime rules.', headings: ['Pay', 'Overtime'] },
      { text: 'Section text two about overtime approval.', headings: ['Pay', 'Overtime'] },
      { text: 'Section text three about overtime caps.', headings: ['Pay', 'Overtime'] },
      { text: 'Bonus rules are separate.', headings: ['Pay', 'Bonus'] },
    ],
  },
];
const corpus = buildCorpus(docs);
const lookup = { chunks: corpus.chunks, documents: corpus.documents };
const withPrior = (id: string, score: number, prior: number): Candidate => ({
  ...candidate(id, score),
  scores: { prior },
});

describe('minhash', () => {
  it('estimates Jaccard similarity of word 3-shingles', () => {
    expect(minhashSimilarity(minhashSignature(para), minhashSignature(para))).toBe(1);
    expect(minhashSimilarity(minhashSignature(para), minhashSignature(nearCopy))).toBeGreaterThanOrEqual(0.8);
    expect(
      minhashSimilarity(minhashSignature(para), minhashSignature('Mileage is reimbursed at a flat rate.')),
    ).toBeLessThan(0.2);
    expect(minhashSignature('')).toHaveLength(0);
    expect(minhashSignature('two words')).toHaveLength(64);
  });
});

describe('dedupCandidates', () => {
  const q = 'How many sick leave days do employees get?';

  it('drops exact, normalised and near duplicates, keeping the canonical copy', () => {
    const input = deepFreeze([
      withPrior('ai#0', 0.99, 0.3),
      withPrior('blog#0', 0.95, 0.5),
      withPrior('mirror#0', 0.9, 0.9),
      withPrior('gov#0', 0.8, 0.9),
      withPrior('other#0', 0.5, 0.5),
    ]);
    const r = dedupCandidates(input, { question: q, lookup });
    // gov and mirror tie on status and λ; mirror has the higher score, so it is canonical.
    expect(r.kept.map((c) => c.id)).toEqual(['mirror#0', 'other#0']);
    const why = new Map(r.dropped.map((c) => [c.id, c.trace.at(-1)!]));
    expect(why.get('gov#0')).toMatchObject({ kept: false, detail: { how: 'exact', duplicateOf: 'mirror#0' } });
    expect(why.get('blog#0')).toMatchObject({ detail: { how: 'normalized', duplicateOf: 'mirror#0' } });
    expect(why.get('ai#0')).toMatchObject({ detail: { how: 'minhash', duplicateOf: 'mirror#0' } });
    expect(why.get('ai#0')!.reason).toMatch(
      /near-duplicate text \(MinHash Jaccard ≈ [01]\.\d\d\): duplicate of mirror#0 \(current, λ=0\.90\)/,
    );
  });

  it('prefers higher λ when status is equal, even against a higher score', () => {
    const r = dedupCandidates([withPrior('ai#0', 0.99, 0.3), withPrior('gov#0', 0.1, 0.9)], { question: q, lookup });
    expect(r.kept.map((c) => c.id)).toEqual(['gov#0']);
  });

  it('keeps the current version over a superseded copy, unless the question asks for the earlier one', () => {
    const input = [withPrior('old#0', 0.9, 0.9), withPrior('gov#0', 0.5, 0.9)];
    expect(dedupCandidates(input, { question: q, lookup }).kept.map((c) => c.id)).toEqual(['gov#0']);
    expect(
      dedupCandidates(input, { question: 'What did the previous regulation say about sick leave?', lookup }).kept.map(
        (c) => c.id,
      ),
    ).toEqual(['old#0']);
    expect(dedupCandidates(input, { question: q, lookup, asksEarlier: true }).kept.map((c) => c.id)).toEqual(['old#0']);
  });

  it('treats vectors with cosine ≥ 0.97 as duplicates', () => {
    const v = new Map([
      ['other#0', Float32Array.from([1, 0])],
      ['long#3', Float32Array.from([0.98, Math.sqrt(1 - 0.98 ** 2)])],
    ]);
    const r = dedupCandidates([withPrior('other#0', 0.9, 0.5), withPrior('long#3', 0.8, 0.85)], {
      question: q,
      lookup: { ...lookup, vectorOf: (id) => v.get(id) },
    });
    expect(r.kept.map((c) => c.id)).toEqual(['long#3']); // higher λ wins
    expect(r.dropped[0]!.trace.at(-1)).toMatchObject({ detail: { how: 'embedding' } });
  });

  it('keeps at most maxPerSection chunks of one section', () => {
    const input = [
      candidate('long#0', 0.9),
      candidate('long#1', 0.8),
      candidate('long#2', 0.7),
      candidate('long#3', 0.6),
    ];
    const r = dedupCandidates(input, { question: q, lookup });
    expect(r.kept.map((c) => c.id)).toEqual(['long#0', 'long#1', 'long#3']);
    expect(r.dropped[0]!.trace.at(-1)).toMatchObject({ detail: { how: 'section-cap' } });
    expect(dedupCandidates(input, { question: q, lookup }, { maxPerSection: 1 }).kept.map((c) => c.id)).toEqual([
      'long#0',
      'long#3',
    ]);
  });

  it('leaves text-less (document-level) candidates alone', () => {
    const r = dedupCandidates([candidate('x', 1), candidate('y', 1)], { question: q, lookup });
    expect(r.kept).toHaveLength(2);
  });

  it('is idempotent, partitions its input, and never keeps two duplicates (property)', () => {
    const vocab = ['leave', 'sick', 'days', 'pay', 'rate', 'staff', 'year', 'note', 'doctor', 'hours'];
    const text = fc.array(fc.constantFrom(...vocab), { minLength: 1, maxLength: 12 }).map((w) => w.join(' '));
    const docSpec = fc.record({
      texts: fc.array(text, { minLength: 1, maxLength: 4 }),
      status: fc.constantFrom('current' as const, 'superseded' as const, 'draft' as const),
      sourceType: fc.constantFrom('government' as const, 'blog' as const, 'ai_generated' as const),
      heading: fc.constantFrom('A', 'B'),
    });
    fc.assert(
      fc.property(
        fc.array(docSpec, { minLength: 1, maxLength: 6 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 24, maxLength: 24 }),
        fc.boolean(),
        (specs, scores, earlier) => {
          const c = buildCorpus(
            specs.map((s, i) => ({
              id: `d${i}`,
              status: s.status,
              sourceType: s.sourceType,
              chunks: s.texts.map((t) => ({ text: t, headings: [s.heading] })),
            })),
          );
          const lk = { chunks: c.chunks, documents: c.documents };
          const input = deepFreeze([...c.chunks.keys()].map((id, i) => withPrior(id, scores[i % scores.length]!, 0.5)));
          const once = dedupCandidates(input, { question: 'q', lookup: lk, asksEarlier: earlier });
          expect(once.kept.length + once.dropped.length).toBe(input.length);
          const twice = dedupCandidates(once.kept, { question: 'q', lookup: lk, asksEarlier: earlier });
          expect(twice.kept.map((x) => x.id).sort()).toEqual(once.kept.map((x) => x.id).sort());
          expect(twice.dropped).toHaveLength(0);
          const texts = once.kept.map((x) => c.chunks.get(x.id)!.text.toLowerCase());
          expect(new Set(texts).size).toBe(texts.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
