import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { selectEvidence } from './select';
import { outcomeOf, selectedDocIds } from './packet';
import type { CrossEncoder } from './rerank';
import { buildCorpus, candidate, deepFreeze, type FixtureDoc } from './testing';
import { EvidentError } from '../errors';
import { words } from './common';

const original =
  'Employers must give each employee ten days of paid sick leave per calendar year. Sick leave may be taken in half days. ' +
  'A doctor’s note is required after three consecutive days of absence. Unused sick leave does not carry over to the next ' +
  'year and is not paid out when employment ends. Part-time employees receive sick leave pro rata to their contracted hours.';
const aiCopy = original
  .replace('three consecutive days', 'four consecutive days')
  .replace('Employers must', 'By law, employers must');
const docs: FixtureDoc[] = [
  {
    id: 'gov',
    title: 'Sick Leave Regulation',
    sourceType: 'government',
    effectiveDate: '2021-01-01',
    chunks: [{ text: original, headings: ['Sick leave'] }],
  },
  { id: 'ai', title: 'Sick leave, explained', sourceType: 'ai_generated', chunks: [aiCopy] },
  {
    id: 'old',
    title: 'Sick Leave Regulation 2015',
    sourceType: 'government',
    status: 'superseded',
    effectiveDate: '2015-01-01',
    chunks: ['Employers must give each employee seven days of paid sick leave per calendar year.'],
  },
  {
    id: 'hb',
    title: 'Staff handbook',
    sourceType: 'internal_policy',
    chunks: [
      { text: 'Part-time staff accrue all leave pro rata to their hours.', headings: ['Leave', 'Part-time'] },
      { text: 'Report an absence to your manager before 10am.', headings: ['Leave', 'Reporting'] },
      { text: 'Overtime must be approved in advance.', headings: ['Pay'] },
    ],
  },
  ...Array.from({ length: 16 }, (_, i) => ({
    id: `filler${i}`,
    sourceType: 'blog' as const,
    chunks: [`Unrelated note number ${i} about parking, canteen menus and office plants.`],
  })),
];
const corpus = buildCorpus(docs);
const question = 'How many days of paid sick leave do part-time employees get?';
// Fused scores as RRF would give them: the AI copy matches the wording best.
const fused = () =>
  deepFreeze([
    candidate('ai#0', 0.0325),
    candidate('gov#0', 0.032),
    candidate('old#0', 0.031),
    candidate('hb#0', 0.0319),
    candidate('hb#1', 0.022),
    ...Array.from({ length: 16 }, (_, i) => candidate(`filler${i}#0`, 0.02 - i * 0.0002)),
  ]);

describe('selectEvidence', () => {
  it('runs with only fused candidates, chunks and metadata, and explains every candidate', async () => {
    const p = await selectEvidence({
      question,
      candidates: fused(),
      chunks: corpus.chunks,
      documents: corpus.documents,
    });
    // The credible original leads; its AI-written near-copy is not packed.
    expect(p.sources[0]!.chunkId).toBe('gov#0');
    expect(p.sources.map((s) => s.chunkId)).not.toContain('ai#0');
    expect(p.sources.map((s) => s.chunkId)).toContain('hb#0');
    expect(p.sources.map((s) => s.citationId)).toEqual(p.sources.map((_, i) => `S${i + 1}`));
    expect(p.reranker).toBeNull();

    expect(p.candidates).toHaveLength(21);
    expect(new Set(p.candidates.map((c) => c.id)).size).toBe(21);
    for (const c of p.candidates) {
      const o = outcomeOf(c)!;
      expect(o).toBeDefined();
      expect(o.kept).toBe(p.sources.some((s) => s.candidateId === c.id));
      if (!o.kept) expect(o.reason).toMatch(/^dropped by (pool|cutoff|dedup|mmr|verify|pack): ./);
    }
    const gov = p.candidates.find((c) => c.id === 'gov#0')!;
    expect(gov.trace.map((e) => e.stage)).toEqual([
      'pool',
      'rerank',
      'priors',
      'cutoff',
      'expand',
      'dedup',
      'mmr',
      // Verify is on by default: one entry per check (injection, lineage, conflict, nli).
      'verify',
      'verify',
      'verify',
      'verify',
      'pack',
      'outcome',
    ]);
    expect(gov.trace.filter((e) => e.stage === 'verify').map((e) => e.detail?.check)).toEqual([
      'injection',
      'lineage',
      'conflict',
      'nli',
    ]);
    expect(gov.trace[1]!.reason).toBe('no cross-encoder loaded: scores passed through');
    const ai = outcomeOf(p.candidates.find((c) => c.id === 'ai#0')!)!;
    expect(ai.kept).toBe(false);

    expect(p.cutoff.curve).toHaveLength(21);
    expect(p.cutoff.position).toBeLessThanOrEqual(12);
    expect(['z-gap', 'second-diff', 'bound', 'degenerate']).toContain(p.cutoff.rule);
    expect(p.budget.used).toBeLessThanOrEqual(p.budget.limit);
    for (const stage of [
      'rationales',
      'pool',
      'rerank',
      'priors',
      'cutoff',
      'expand',
      'dedup',
      'mmr',
      'verify',
      'pack',
    ] as const) {
      expect(p.timings[stage]).toBeGreaterThanOrEqual(0);
    }
    // Batch timings sit on one candidate per stage (TraceEntry.ms convention).
    const stamped = p.candidates.flatMap((c) => c.trace.filter((e) => e.ms !== undefined).map((e) => e.stage));
    expect(new Set(stamped)).toEqual(
      new Set(['pool', 'rerank', 'priors', 'cutoff', 'expand', 'dedup', 'mmr', 'verify', 'pack']),
    );
    expect(p.independentSources).not.toBeNull();

    // Rationale coverage refers to packed citation ids.
    const ids = new Set(p.sources.map((s) => s.citationId));
    for (const r of p.rationales) {
      expect(r.covered).toBe(r.supportingIds.length > 0);
      for (const id of r.supportingIds) expect(ids.has(id)).toBe(true);
    }
    expect(p.rationales.find((r) => r.rationale.text === 'part-time employees')!.covered).toBe(true);
    expect(selectedDocIds(p)[0]).toBe('gov');
  });

  it('prefers the superseded version only when the question asks about it', async () => {
    const input = { candidates: fused(), chunks: corpus.chunks, documents: corpus.documents };
    const now = await selectEvidence({ ...input, question: 'How many days of paid sick leave per calendar year?' });
    const then = await selectEvidence({
      ...input,
      question: 'How many days of paid sick leave did the previous regulation give?',
    });
    expect(now.asksEarlier).toBe(false);
    expect(then.asksEarlier).toBe(true);
    const rank = (p: typeof now, id: string) => p.sources.findIndex((s) => s.chunkId === id);
    const oldNow = rank(now, 'old#0');
    expect(oldNow === -1 || oldNow > rank(now, 'gov#0')).toBe(true);
    expect(rank(then, 'old#0')).toBeGreaterThanOrEqual(0);
  });

  it('uses a cross-encoder, vectors and expansion when given', async () => {
    const ce: CrossEncoder = {
      id: 'overlap',
      async score(q, passages) {
        const qs = new Set(words(q));
        return passages.map((p) => words(p.split('[TEXT]')[1] ?? '').filter((w) => qs.has(w)).length - 3);
      },
    };
    const vectors = new Map<string, Float32Array>();
    let k = 0;
    for (const id of corpus.chunks.keys()) {
      const v = new Float32Array(32);
      v[k++ % 32] = 1;
      vectors.set(id, v);
    }
    vectors.set('ai#0', vectors.get('gov#0')!);
    const p = await selectEvidence(
      {
        question,
        candidates: fused(),
        chunks: corpus.chunks,
        documents: corpus.documents,
        crossEncoder: ce,
        vectorOf: (id) => vectors.get(id),
      },
      { expand: { mode: 'neighbours' }, cutoff: { minKeep: 4 } },
    );
    expect(p.reranker).toBe('overlap');
    expect(p.sources[0]!.chunkId).toBe('gov#0');
    // hb#2 was never retrieved: expansion added it next to hb#1 (or revived hb#1 next to hb#0).
    const expanded = p.candidates.filter((c) =>
      c.trace.some((e) => e.stage === 'expand' && e.detail?.expandedFrom != null),
    );
    expect(expanded.length).toBeGreaterThan(0);
    for (const c of expanded) expect(outcomeOf(c)).toBeDefined();
    expect(new Set(p.candidates.map((c) => c.id)).size).toBe(p.candidates.length);
    const ai = p.candidates.find((c) => c.id === 'ai#0')!;
    expect(outcomeOf(ai)!.kept).toBe(false);
  });

  it('works at document level (ids are document ids), as the SciFact evaluation runs it', async () => {
    const chunks = new Map(
      [...corpus.documents.keys()].map((d) => {
        const first = corpus.chunks.get(`${d}#0`)!;
        return [d, { ...first, id: d }] as const;
      }),
    );
    const candidates = fused().map((c) => candidate(c.docId, c.score, c.docId));
    const p = await selectEvidence({ question, candidates, chunks, documents: corpus.documents });
    expect(selectedDocIds(p)[0]).toBe('gov');
    expect(p.candidates.every((c) => outcomeOf(c) !== undefined)).toBe(true);
  });

  it('runs verify by default and skips it only when told to (verify: null)', async () => {
    const input = { question, candidates: fused(), chunks: corpus.chunks, documents: corpus.documents };
    const on = await selectEvidence(input);
    const off = await selectEvidence(input, { verify: null });
    expect(on.timings.verify).toBeGreaterThanOrEqual(0);
    expect(on.independentSources).not.toBeNull();
    expect(off.timings.verify).toBeUndefined();
    expect(off.independentSources).toBeNull();
    expect(off.candidates.some((c) => c.trace.some((e) => e.stage === 'verify'))).toBe(false);
  });

  it('handles an empty candidate list', async () => {
    const p = await selectEvidence({ question, candidates: [], chunks: corpus.chunks, documents: corpus.documents });
    expect(p).toMatchObject({
      sources: [],
      candidates: [],
      cutoff: { curve: [], position: 0, rule: 'degenerate' },
      budget: { used: 0 },
    });
    expect(p.rationales.every((r) => !r.covered)).toBe(true);
  });

  it('rejects unknown options and bad input, and stops when cancelled', async () => {
    const input = { question, candidates: fused(), chunks: corpus.chunks, documents: corpus.documents };
    await expect(selectEvidence(input, { topK: 5 } as never)).rejects.toThrow(/selectEvidence: unknown option "topK"/);
    await expect(selectEvidence(input, { dedup: { threshold: 0.9 } as never })).rejects.toThrow(
      /dedup: unknown option "threshold"/,
    );
    await expect(selectEvidence({ ...input, candidates: [{ id: 1 }] as never })).rejects.toThrow(EvidentError);
    const err = await selectEvidence({ ...input, signal: { aborted: true } }).catch((e: unknown) => e);
    expect((err as EvidentError).code).toBe('aborted');
  });

  it('ends every candidate with a kept/dropped outcome and a reason, for any input (property)', async () => {
    const vocab = ['sick', 'leave', 'days', 'pay', 'part', 'time', 'staff', 'note', 'doctor', 'year', 'rate'];
    const docSpec = fc.record({
      chunks: fc.array(
        fc.array(fc.constantFrom(...vocab), { minLength: 1, maxLength: 15 }).map((w) => w.join(' ')),
        { minLength: 1, maxLength: 4 },
      ),
      sourceType: fc.constantFrom('government' as const, 'blog' as const, 'ai_generated' as const, 'unknown' as const),
      status: fc.constantFrom('current' as const, 'superseded' as const, 'draft' as const),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(docSpec, { minLength: 1, maxLength: 8 }),
        fc.array(fc.oneof(fc.double({ min: -1, max: 1, noNaN: true }), fc.constant(0.5)), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.constantFrom('none' as const, 'neighbours' as const, 'section' as const),
        fc.integer({ min: 1, max: 12 }),
        async (specs, scores, mode, maxEvidence) => {
          const c = buildCorpus(
            specs.map((s, i) => ({ id: `d${i}`, sourceType: s.sourceType, status: s.status, chunks: s.chunks })),
          );
          const ids = [...c.chunks.keys()];
          const candidates = scores.map((s, i) => candidate(ids[i % ids.length]!, s));
          const p = await selectEvidence(
            {
              question: 'how many sick leave days for part time staff',
              candidates,
              chunks: c.chunks,
              documents: c.documents,
            },
            { maxEvidence, expand: { mode }, pack: { contextLimit: 700 } },
          );
          const packed = new Set(p.sources.map((s) => s.candidateId));
          const added = p.candidates.filter((x) => x.trace[0]!.stage === 'expand').length;
          expect(p.candidates.length).toBe(candidates.length + added);
          for (const x of p.candidates) {
            const o = outcomeOf(x);
            expect(o).toBeDefined();
            expect(o!.reason).toBeTruthy();
            if (o!.kept) expect(packed.has(x.id)).toBe(true);
            expect(x.trace.filter((e) => e.stage === 'outcome')).toHaveLength(1);
          }
          expect(p.candidates.filter((x) => outcomeOf(x)!.kept)).toHaveLength(p.sources.length);
          expect(p.sources.length).toBeLessThanOrEqual(maxEvidence);
          expect(p.budget.used).toBeLessThanOrEqual(p.budget.limit);
        },
      ),
      { numRuns: 150 },
    );
  });
});
