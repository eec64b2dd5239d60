import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  applyFeedback,
  applyPriors,
  asksForEarlierVersion,
  createPriorState,
  DEFAULT_SOURCE_LAMBDAS,
  documentLambda,
  MemoryPriorStore,
  parsePriorState,
  sourceLambda,
  type Feedback,
} from './priors';
import { buildCorpus, candidate, deepFreeze } from './testing';
import { SOURCE_TYPES, type DocumentMeta } from '../types';
import { EvidentError } from '../errors';

const DAY = 86_400_000;
const T0 = Date.UTC(2025, 0, 1);

const original =
  'Employers must give each employee ten days of paid sick leave per calendar year. Unused days do not carry over.';
// A reworded copy on an AI-written blog: closer to the question's wording, so retrieval ranks it first.
const aiCopy =
  'How many sick leave days do employees get? Employees get ten paid sick leave days per year, and unused days do not carry over.';

const corpus = buildCorpus([
  { id: 'gov', title: 'Sick Leave Regulation', sourceType: 'government', chunks: [original] },
  { id: 'blog', title: 'Sick leave explained', sourceType: 'ai_generated', chunks: [aiCopy] },
  { id: 'news', title: 'Leave news', sourceType: 'established_news', chunks: ['Unions want more sick leave days.'] },
  {
    id: 'old',
    title: 'Sick Leave Regulation 2018',
    sourceType: 'government',
    status: 'superseded',
    effectiveDate: '2018-01-01',
    chunks: ['Employers must give seven days.'],
  },
  {
    id: 'new',
    title: 'Sick Leave Regulation 2021',
    sourceType: 'government',
    status: 'current',
    effectiveDate: '2021-01-01',
    chunks: ['Employers must give ten days.'],
  },
  {
    id: 'draft',
    title: 'Draft regulation',
    sourceType: 'government',
    status: 'draft',
    chunks: ['Employers might give twelve days.'],
  },
]);
const lookup = { chunks: corpus.chunks, documents: corpus.documents };

describe('applyPriors', () => {
  it('lets the credible original beat a low-λ near-copy that outranks it on similarity alone', () => {
    // Fused (similarity) scores: the AI copy leads.
    const pool = deepFreeze([candidate('blog#0', 0.0328), candidate('gov#0', 0.0323), candidate('news#0', 0.0161)]);
    expect(pool[0]!.id).toBe('blog#0');
    const r = applyPriors(pool, { question: 'How many sick leave days do employees get?', lookup });
    expect(r.candidates[0]!.id).toBe('gov#0');
    const gov = r.candidates.find((c) => c.id === 'gov#0')!;
    const blog = r.candidates.find((c) => c.id === 'blog#0')!;
    expect(gov.score).toBeGreaterThan(blog.score);
    expect(gov.scores.prior).toBe(0.9);
    expect(blog.scores.prior).toBe(0.3);
    expect(blog.trace.at(-1)).toMatchObject({
      stage: 'priors',
      kept: true,
      reason: 'ai_generated λ=0.30',
      detail: { lambda: 0.3, sourceType: 'ai_generated' },
    });
  });

  it('multiplies min-max normalised relevance by λ (so the worst of the pool scores 0)', () => {
    const r = applyPriors([candidate('gov#0', 10), candidate('news#0', 20), candidate('blog#0', 15)], {
      question: 'q',
      lookup,
    });
    const by = new Map(r.candidates.map((c) => [c.id, c]));
    expect(by.get('news#0')!.score).toBeCloseTo(1 * 0.75, 12);
    expect(by.get('blog#0')!.score).toBeCloseTo(0.5 * 0.3, 12);
    expect(by.get('gov#0')!.score).toBe(0);
    // Raw mode multiplies the score itself.
    const raw = applyPriors([candidate('gov#0', 10)], { question: 'q', lookup }, { normalize: 'none' });
    expect(raw.candidates[0]!.score).toBeCloseTo(9, 12);
  });

  it('orders by λ alone when all scores are equal', () => {
    const r = applyPriors([candidate('blog#0', 1), candidate('news#0', 1), candidate('gov#0', 1)], {
      question: 'q',
      lookup,
    });
    expect(r.candidates.map((c) => c.id)).toEqual(['gov#0', 'news#0', 'blog#0']);
    expect(r.candidates[0]!.score).toBe(0.9);
  });

  it('penalises superseded ×0.8 and drafts ×0.9, unless the question asks about earlier versions', () => {
    const pool = [candidate('old#0', 1), candidate('new#0', 1), candidate('draft#0', 1)];
    const now = applyPriors(pool, { question: 'How many days must employers give?', lookup });
    const s = new Map(now.candidates.map((c) => [c.id, c.score]));
    expect(now.asksEarlier).toBe(false);
    expect(s.get('new#0')).toBeCloseTo(0.9, 12);
    expect(s.get('draft#0')).toBeCloseTo(0.81, 12);
    expect(s.get('old#0')).toBeCloseTo(0.72, 12);
    const then = applyPriors(pool, { question: 'How many days did the previous regulation give?', lookup });
    expect(then.asksEarlier).toBe(true);
    expect(then.candidates.find((c) => c.id === 'old#0')!.score).toBeCloseTo(0.9, 12);
    const year = applyPriors(pool, { question: 'How many days applied in 2019?', lookup });
    expect(year.asksEarlier).toBe(true);
  });

  it('uses a user-edited λ table', () => {
    const priors = createPriorState({ ai_generated: 0.95, government: 0.2 });
    const r = applyPriors([candidate('blog#0', 1), candidate('gov#0', 1)], { question: 'q', lookup, priors });
    expect(r.candidates[0]!.id).toBe('blog#0');
  });

  it('smooths λ between neighbouring documents, within the pair’s range, only when asked', () => {
    const v = new Map<string, Float32Array>([
      ['gov#0', Float32Array.from([1, 0, 0])],
      ['blog#0', Float32Array.from([0.995, 0.0999, 0])],
      ['news#0', Float32Array.from([0, 1, 0])],
    ]);
    const withVectors = { ...lookup, vectorOf: (id: string) => v.get(id) };
    const pool = [candidate('gov#0', 1), candidate('blog#0', 1), candidate('news#0', 1)];
    const off = applyPriors(pool, { question: 'q', lookup: withVectors });
    expect(off.lambdas.get('blog')).toBe(0.3);
    const on = applyPriors(pool, { question: 'q', lookup: withVectors }, { smoothing: { tau: 0.9, alpha: 0.5 } });
    expect(on.lambdas.get('blog')).toBeCloseTo(0.6, 12); // 0.3 + 0.5·(0.9 − 0.3)
    expect(on.lambdas.get('gov')).toBeCloseTo(0.6, 12); // 0.9 + 0.5·(0.3 − 0.9)
    expect(on.lambdas.get('news')).toBe(0.75); // no neighbour above τ
    const full = applyPriors(pool, { question: 'q', lookup: withVectors }, { smoothing: { alpha: 1 } });
    for (const d of ['gov', 'blog']) {
      expect(full.lambdas.get(d)).toBeGreaterThanOrEqual(0.3);
      expect(full.lambdas.get(d)).toBeLessThanOrEqual(0.9);
    }
  });

  it('rejects unknown options', () => {
    expect(() => applyPriors([], { question: 'q', lookup }, { lambda: 1 } as never)).toThrow(/unknown option "lambda"/);
    expect(() => applyPriors([], { question: 'q', lookup }, { smoothing: { beta: 1 } as never })).toThrow(
      /priors.smoothing: unknown option "beta"/,
    );
  });
});

describe('asksForEarlierVersion', () => {
  const docs: DocumentMeta[] = [
    { id: 'p', title: 'Policy', sourceType: 'internal_policy', status: 'current', effectiveDate: '2021-03-01' },
  ];
  it.each([
    ['What did the previous policy say about overtime?', true],
    ['What was the old rate for mileage?', true],
    ['Which rules applied before the 2021 update?', true],
    ['What did the superseded handbook allow?', true],
    ['What was the rule in 2019?', true],
    ['Do we still get a laptop allowance, or is it no longer paid?', true],
  ])('%s → %s', (q, expected) => expect(asksForEarlierVersion(q, docs)).toBe(expected));
  it.each([
    ['How old must a child be to get the allowance?', false],
    ['What should I do before surgery?', false],
    ['What is the rule in 2022?', false],
    ['Is prior authorisation needed for an MRI?', false],
    ['Can I leave earlier on Fridays?', false],
    ['Can I work until the new year?', false],
    ['What did the earlier version of the handbook say?', true],
  ])('%s → %s', (q, expected) => expect(asksForEarlierVersion(q, docs)).toBe(expected));
});

describe('feedback', () => {
  it('moves λ toward the bound by a step that shrinks with the number of past updates', () => {
    let s = createPriorState();
    const steps: number[] = [];
    let prev = sourceLambda(s, 'blog', T0);
    for (let i = 0; i < 5; i++) {
      s = applyFeedback(s, { sourceType: 'blog', verdict: 'helpful', at: T0 });
      const next = sourceLambda(s, 'blog', T0);
      steps.push(next - prev);
      prev = next;
    }
    expect(steps[0]).toBeCloseTo(0.2 * (1 - 0.5), 12); // η/√1 of the distance to 1
    for (let i = 1; i < steps.length; i++) {
      expect(steps[i]).toBeGreaterThan(0);
      // Smaller step size and a smaller remaining distance: strictly shrinking moves.
      expect(steps[i]!).toBeLessThan(steps[i - 1]!);
    }
    expect(s.sources.blog!.n).toBe(5);
  });

  it('decays old feedback with a half-life (90 days by default)', () => {
    const s = applyFeedback(createPriorState(), { sourceType: 'government', verdict: 'misleading', at: T0 });
    const delta = sourceLambda(s, 'government', T0) - DEFAULT_SOURCE_LAMBDAS.government;
    expect(delta).toBeCloseTo(0.2 * (0.05 - 0.9), 12);
    expect(sourceLambda(s, 'government', T0 + 90 * DAY) - 0.9).toBeCloseTo(delta / 2, 12);
    expect(sourceLambda(s, 'government', T0 + 900 * DAY) - 0.9).toBeCloseTo(delta / 1024, 12);
    // The update count decays too: after a long pause the next judgement moves λ like a first one.
    const later = applyFeedback(s, { sourceType: 'government', verdict: 'misleading', at: T0 + 3650 * DAY });
    expect(later.sources.government!.n).toBeCloseTo(1, 6);
  });

  it('adjusts one document relative to its source type', () => {
    const s = applyFeedback(createPriorState(), {
      docId: 'blog',
      sourceType: 'ai_generated',
      verdict: 'helpful',
      at: T0,
    });
    expect(documentLambda(s, { id: 'blog', sourceType: 'ai_generated' }, T0)).toBeCloseTo(0.3 + 0.2 * 0.7, 12);
    expect(documentLambda(s, { id: 'other', sourceType: 'ai_generated' }, T0)).toBe(0.3);
    expect(sourceLambda(s, 'ai_generated', T0)).toBe(0.3);
  });

  it('keeps λ within [0.05, 1] for any sequence of feedback (property)', () => {
    const fb = fc.record({
      sourceType: fc.constantFrom(...SOURCE_TYPES),
      docId: fc.option(fc.constantFrom('d1', 'd2'), { nil: undefined }),
      verdict: fc.constantFrom('helpful' as const, 'misleading' as const),
      dt: fc.integer({ min: 0, max: 400 * DAY }),
    });
    fc.assert(
      fc.property(fc.array(fb, { maxLength: 60 }), fc.double({ min: 0, max: 1, noNaN: true }), (events, eta) => {
        let s = createPriorState();
        let at = T0;
        for (const e of events) {
          at += e.dt;
          const f: Feedback = e.docId
            ? { docId: e.docId, sourceType: e.sourceType, verdict: e.verdict, at }
            : { sourceType: e.sourceType, verdict: e.verdict, at };
          s = applyFeedback(s, f, { eta });
          for (const t of SOURCE_TYPES) {
            const l = sourceLambda(s, t, at);
            expect(l).toBeGreaterThanOrEqual(0.05);
            expect(l).toBeLessThanOrEqual(1);
            for (const d of ['d1', 'd2']) {
              const dl = documentLambda(s, { id: d, sourceType: t }, at);
              expect(dl).toBeGreaterThanOrEqual(0.05);
              expect(dl).toBeLessThanOrEqual(1);
            }
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('returns a new state and leaves the old one untouched', () => {
    const s = deepFreeze(createPriorState());
    const next = applyFeedback(s, { sourceType: 'blog', verdict: 'misleading', at: T0 });
    expect(next).not.toBe(s);
    expect(s.sources.blog).toBeUndefined();
  });

  it('rejects bad feedback', () => {
    expect(() =>
      applyFeedback(createPriorState(), { sourceType: 'tabloid' as never, verdict: 'helpful', at: T0 }),
    ).toThrow(EvidentError);
    expect(() => applyFeedback(createPriorState(), { sourceType: 'blog', verdict: 'meh' as never, at: T0 })).toThrow(
      /verdict/,
    );
  });
});

describe('prior storage', () => {
  it('round-trips through the in-memory store and feeds the priors stage', async () => {
    const store = new MemoryPriorStore();
    const s = applyFeedback(await store.load(), {
      docId: 'gov',
      sourceType: 'government',
      verdict: 'misleading',
      at: T0,
    });
    await store.save(s);
    const loaded = await store.load();
    expect(loaded).toEqual(s);
    const r = applyPriors([candidate('gov#0', 1)], { question: 'q', lookup, priors: loaded, now: T0 });
    expect(r.lambdas.get('gov')).toBeCloseTo(0.9 + 0.2 * (0.05 - 0.9), 12);
  });

  it('rejects unknown versions and corrupt values', () => {
    expect(() => parsePriorState({ ...createPriorState(), version: 2 })).toThrow(/unknown version 2/);
    expect(() => parsePriorState({ ...createPriorState(), table: { ...DEFAULT_SOURCE_LAMBDAS, blog: 3 } })).toThrow(
      /table.blog/,
    );
    expect(() => parsePriorState({ ...createPriorState(), sources: { tabloid: { delta: 0, n: 0, at: 0 } } })).toThrow(
      /tabloid/,
    );
    expect(() => parsePriorState(null)).toThrow(/cache_corrupted|unreadable/);
  });
});
