import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IndexableDoc } from '../types';
import { LUCENE_ENGLISH_STOPWORDS } from '../text/analyze';
import { BM25_SERIALIZATION_VERSION, Bm25Index, type Bm25Params, type SerializedBm25 } from './bm25';

function doc(id: string, text: string, title = '', headings = ''): IndexableDoc {
  return { id, title, headings, text };
}

/** Index without stemming, so test words are matched as written. */
function build(docs: IndexableDoc[], params: Partial<Bm25Params> = {}): Bm25Index {
  return Bm25Index.build(docs, { stem: false, ...params });
}

describe('BM25 relations between scores', () => {
  const filler = [doc('f1', 'alpha beta'), doc('f2', 'gamma delta'), doc('f3', 'epsilon zeta')];

  it('more occurrences of a term score higher at equal length', () => {
    const idx = build([doc('a', 'x x y z'), doc('b', 'x y y z'), ...filler]);
    const [first, second] = idx.search('x', { k: 10 });
    expect(first?.id).toBe('a');
    expect(second?.id).toBe('b');
    expect(first!.score).toBeGreaterThan(second!.score);
  });

  it('a longer document scores lower at equal tf', () => {
    const idx = build([doc('long', 'x y z w v u'), doc('short', 'x y'), ...filler]);
    const hits = idx.search('x', { k: 10 });
    expect(hits.map((h) => h.id)).toEqual(['short', 'long']);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });

  it('with b = 0 length does not matter', () => {
    const idx = build([doc('long', 'x y z w v u'), doc('short', 'x y'), ...filler], { b: 0 });
    const [h1, h2] = idx.search('x', { k: 10 });
    expect(h1!.score).toBeCloseTo(h2!.score, 6);
  });

  it('a rarer term has a higher idf and outweighs a common one', () => {
    const idx = build([doc('1', 'common rare'), doc('2', 'common'), doc('3', 'common other'), doc('4', 'other')]);
    expect(idx.idf('rare')).toBeGreaterThan(idx.idf('common'));
    expect(idx.df('common')).toBe(3);
    // Lucene IDF: ln(1 + (N − df + 0.5)/(df + 0.5)) with N = 4.
    expect(idx.idf('rare')).toBeCloseTo(Math.log(1 + 3.5 / 1.5), 10);
    const hits = idx.search('rare common', { k: 10 });
    expect(hits[0]!.id).toBe('1');
  });

  it('a field weight above 1 lifts documents with the term in that field', () => {
    const docs = [doc('body', 'x y z'), doc('titled', 'y z', 'x'), ...filler];
    const flat = build(docs).search('x', { k: 2 });
    const boosted = build(docs, { fieldWeights: { title: 3, headings: 1, text: 1 } }).search('x', { k: 2 });
    expect(flat[0]!.score).toBeCloseTo(flat[1]!.score, 6); // same tf and length when flat
    expect(boosted[0]!.id).toBe('titled');
    expect(boosted[0]!.score).toBeGreaterThan(boosted[1]!.score);
  });

  it('a repeated query term counts twice', () => {
    const idx = build([doc('a', 'x y'), doc('b', 'y z'), ...filler]);
    const once = idx.search('x y', { k: 10 }).find((h) => h.id === 'a')!;
    const twice = idx.search('x x y', { k: 10 }).find((h) => h.id === 'a')!;
    const xOnce = once.terms.find((t) => t.term === 'x')!.contribution;
    expect(twice.score).toBeCloseTo(once.score + xOnce, 5);
  });
});

describe('BM25 edges', () => {
  const idx = build([doc('a', 'the quick brown fox'), doc('b', 'lazy dog')]);

  it('empty query and stop-word-only query return nothing', () => {
    expect(idx.search('', { k: 10 })).toEqual([]);
    expect(idx.search('   ', { k: 10 })).toEqual([]);
    expect(idx.search('the of and', { k: 10 })).toEqual([]);
    expect(idx.search('unknownword', { k: 10 })).toEqual([]);
  });

  it('k bounds the result and k = 0 returns nothing', () => {
    expect(idx.search('fox dog', { k: 1 })).toHaveLength(1);
    expect(idx.search('fox dog', { k: 0 })).toEqual([]);
  });

  it('an empty index answers every query with nothing', () => {
    expect(Bm25Index.build([]).search('anything')).toEqual([]);
  });

  it('rejects unknown options, bad values and duplicate ids', () => {
    expect(() => Bm25Index.build([], { k3: 1 } as never)).toThrow(/unknown option "k3"/);
    expect(() => Bm25Index.build([], { b: 2 })).toThrow(/b must be in/);
    expect(() => Bm25Index.build([], { fieldWeights: { body: 1 } } as never)).toThrow(/unknown option "body"/);
    expect(() => idx.search('fox', { limit: 3 } as never)).toThrow(/unknown option "limit"/);
    expect(() => build([doc('a', 'x'), doc('a', 'y')])).toThrow(/duplicate document id "a"/);
  });

  it('the reused accumulator leaves no residue between queries', () => {
    const fresh = build([doc('a', 'x y'), doc('b', 'y z'), doc('c', 'z w')]);
    const expected = fresh.search('z', { k: 10 });
    const reused = build([doc('a', 'x y'), doc('b', 'y z'), doc('c', 'z w')]);
    reused.search('x y', { k: 10 });
    reused.search('w', { k: 1 });
    expect(reused.search('z', { k: 10 })).toEqual(expected);
  });
});

describe('BM25 explanations', () => {
  const idx = build([
    doc('a', 'sleep apnea increases blood pressure', 'Sleep apnea'),
    doc('b', 'blood pressure in children'),
    doc('c', 'apnea in infants'),
  ]);

  it('term contributions sum to the score and name idf and tf', () => {
    for (const hit of idx.search('sleep apnea blood pressure', { k: 3 })) {
      const sum = hit.terms.reduce((s, t) => s + t.contribution, 0);
      expect(sum).toBeCloseTo(hit.score, 4);
      for (const t of hit.terms) {
        expect(t.idf).toBeCloseTo(idx.idf(t.term), 10);
        expect(t.tf).toBeGreaterThan(0);
      }
    }
    const a = idx.search('sleep', { k: 1 })[0]!;
    expect(a.terms).toEqual([expect.objectContaining({ term: 'sleep', tf: 2, queryTf: 1 })]); // title + text
  });

  it('the trace is computed on read and included in JSON', () => {
    const hit = idx.search('apnea', { k: 1 })[0]!;
    const json = JSON.parse(JSON.stringify(hit)) as { id: string; terms: { term: string }[] };
    expect(json.id).toBe(hit.id);
    expect(json.terms.map((t) => t.term)).toEqual(['apnea']);
  });

  it('explain(query, id) agrees with search', () => {
    const hit = idx.search('apnea pressure', { k: 3 }).find((h) => h.id === 'b')!;
    const ex = idx.explain('apnea pressure', 'b')!;
    expect(ex.score).toBeCloseTo(hit.score, 4);
    expect(ex.terms.map((t) => t.term)).toEqual(['pressure']);
    expect(idx.explain('apnea', 'missing')).toBeNull();
    expect(idx.explain('apnea', 'b')!.terms).toEqual([]);
  });
});

describe('BM25 serialization', () => {
  const docs = [
    doc('a', 'sleep apnea increases blood pressure', 'Sleep'),
    doc('b', 'blood pressure in children', '', 'Pediatrics'),
  ];

  it('round-trips through structured clone with identical results', () => {
    const idx = Bm25Index.build(docs, { k1: 1.1, b: 0.6, fieldWeights: { title: 2, headings: 1.5, text: 1 } });
    const restored = Bm25Index.deserialize(structuredClone(idx.serialize()));
    expect(restored.options).toEqual(idx.options);
    for (const q of ['blood pressure', 'sleeping', 'pediatric children']) {
      const want = idx.search(q, { k: 5 });
      const got = restored.search(q, { k: 5 });
      expect(got.map((h) => [h.id, h.score])).toEqual(want.map((h) => [h.id, h.score]));
    }
  });

  it('rejects unknown versions and inconsistent arrays', () => {
    const data = Bm25Index.build(docs).serialize();
    expect(() => Bm25Index.deserialize({ ...data, version: BM25_SERIALIZATION_VERSION + 1 })).toThrow(/version/);
    const broken: SerializedBm25 = { ...data, docIds: data.docIds.slice(1) };
    expect(() => Bm25Index.deserialize(broken)).toThrow(/inconsistent/);
  });
});

/**
 * A plain BM25F reference: Maps, doubles, whitespace tokens, the formula written out as in
 * the module's doc comment. Documents use stop words and lower-case words that need no
 * stemming, so the whitespace split matches the analyzer with stem: false.
 */
function referenceScores(docs: IndexableDoc[], query: string, p: Bm25Params): Map<string, number> {
  const fields = ['title', 'headings', 'text'] as const;
  const toks = (s: string): string[] => s.split(' ').filter((w) => w !== '' && !LUCENE_ENGLISH_STOPWORDS.has(w));
  const n = docs.length;
  const df = new Map<string, number>();
  const tfs = docs.map((d) => {
    const tf = new Map<string, number>();
    let len = 0;
    for (const f of fields) {
      const ts = toks(d[f]);
      len += p.fieldWeights[f] * ts.length;
      for (const t of ts) tf.set(t, (tf.get(t) ?? 0) + p.fieldWeights[f]);
    }
    for (const t of new Set(fields.flatMap((f) => toks(d[f])))) df.set(t, (df.get(t) ?? 0) + 1);
    return { tf, len };
  });
  const avgdl = tfs.reduce((s, x) => s + x.len, 0) / n;
  const scores = new Map<string, number>();
  docs.forEach((d, i) => {
    const { tf, len } = tfs[i]!;
    let score = 0;
    for (const t of toks(query)) {
      const f = tf.get(t) ?? 0;
      if (f === 0) continue;
      const dft = df.get(t)!;
      const idf = Math.log(1 + (n - dft + 0.5) / (dft + 0.5));
      score += (idf * f * (p.k1 + 1)) / (f + p.k1 * (1 - p.b + (avgdl > 0 ? (p.b * len) / avgdl : 0)));
    }
    if (score > 0) scores.set(d.id, score);
  });
  return scores;
}

describe('BM25 against a plain reference (property)', () => {
  const word = fc.constantFrom(
    'apple',
    'berry',
    'cherry',
    'date',
    'elder',
    'fig',
    'grape',
    'the',
    'of',
    'kiwi',
    'lemon',
    'mango',
  );
  const text = (max: number) => fc.array(word, { maxLength: max }).map((ws) => ws.join(' '));
  const corpus = fc
    .array(fc.record({ title: text(4), headings: text(3), text: text(30) }), { minLength: 1, maxLength: 25 })
    .map((ds) => ds.map((d, i) => ({ id: `d${i}`, ...d })));
  // Zero or a normal double: subnormal weights only test float underflow, not BM25.
  const weight = fc.oneof(fc.constant(0), fc.double({ min: 0.01, max: 3, noNaN: true }));
  const params = fc.record({
    k1: fc.oneof(fc.constant(0), fc.double({ min: 0.01, max: 3, noNaN: true })),
    b: fc.double({ min: 0, max: 1, noNaN: true }),
    fieldWeights: fc.record({ title: weight, headings: weight, text: weight }),
  });

  it('returns the reference documents, scores and ranking', () => {
    fc.assert(
      fc.property(corpus, text(5), params, (docs, query, p) => {
        const want = referenceScores(docs, query, p);
        const hits = build(docs, p).search(query, { k: docs.length });
        expect(new Set(hits.map((h) => h.id))).toEqual(new Set(want.keys()));
        for (const h of hits) {
          const ref = want.get(h.id)!;
          expect(Math.abs(h.score - ref)).toBeLessThanOrEqual(1e-4 * Math.max(1, ref));
        }
        // Ranked by reference score (float32 accumulation may only reorder near-ties).
        for (let i = 1; i < hits.length; i++) {
          const prev = want.get(hits[i - 1]!.id)!;
          const cur = want.get(hits[i]!.id)!;
          expect(prev).toBeGreaterThanOrEqual(cur - 1e-4 * Math.max(1, cur));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('top-k is the head of the full ranking', () => {
    fc.assert(
      fc.property(corpus, text(4), fc.integer({ min: 1, max: 5 }), (docs, query, k) => {
        const idx = build(docs);
        const all = idx.search(query, { k: docs.length });
        expect(idx.search(query, { k }).map((h) => h.id)).toEqual(all.slice(0, k).map((h) => h.id));
      }),
    );
  });

  it('withParams scores like an index built with those parameters', () => {
    fc.assert(
      fc.property(corpus, text(4), params, (docs, query, p) => {
        const viaParams = build(docs).withParams(p).search(query, { k: 5 });
        const built = build(docs, p).search(query, { k: 5 });
        expect(viaParams.map((h) => [h.id, h.score])).toEqual(built.map((h) => [h.id, h.score]));
      }),
      { numRuns: 50 },
    );
  });
  it('withAdded equals a build over all documents, array for array', () => {
    fc.assert(
      fc.property(corpus, corpus, (a, b) => {
        const more = b.map((d) => ({ ...d, id: `n${d.id}` }));
        const grown = build(a).withAdded(more).serialize();
        const built = build([...a, ...more]).serialize();
        expect(grown.ids).toEqual(built.ids);
        expect(grown.terms).toEqual(built.terms);
        expect(grown.offsets).toEqual(built.offsets);
        expect(grown.docIds).toEqual(built.docIds);
        expect(grown.tfs).toEqual(built.tfs);
        expect(grown.fieldLengths).toEqual(built.fieldLengths);
      }),
      { numRuns: 100 },
    );
    expect(() => build([doc('a', 'apple')]).withAdded([doc('a', 'berry')])).toThrow(/duplicate document id "a"/);
  });

  it('without searches like an index built from the remaining documents', () => {
    fc.assert(
      fc.property(corpus, fc.array(fc.boolean(), { maxLength: 25 }), text(5), params, (docs, dropMask, query, p) => {
        const dropped = docs.filter((_, i) => dropMask[i] === true).map((d) => d.id);
        const kept = docs.filter((d) => !dropped.includes(d.id));
        const shrunk = build(docs, p).without(dropped);
        expect(shrunk.size).toBe(kept.length);
        const want = kept.length > 0 ? build(kept, p).search(query, { k: 10 }) : [];
        expect(shrunk.search(query, { k: 10 }).map((h) => [h.id, h.score])).toEqual(want.map((h) => [h.id, h.score]));
        if (kept.length > 0) expect(shrunk.vocabularySize).toBe(build(kept, p).vocabularySize);
      }),
      { numRuns: 200 },
    );
  });

  it('add then delete round-trips, and deleting unknown ids changes nothing', () => {
    fc.assert(
      fc.property(corpus, corpus, text(4), (a, b, query) => {
        const more = b.map((d) => ({ ...d, id: `n${d.id}` }));
        const base = build(a);
        const back = base.withAdded(more).without(more.map((d) => d.id));
        expect(back.search(query, { k: 10 }).map((h) => [h.id, h.score])).toEqual(
          base.search(query, { k: 10 }).map((h) => [h.id, h.score]),
        );
        expect(base.without(['nope'])).toBe(base);
      }),
      { numRuns: 100 },
    );
  });
});

describe('search within a set of ids', () => {
  it('scores only the given ids, with the scores of the full search', () => {
    const docs = ['cash flow cash', 'cash only', 'flow only', 'nothing here'].map((text, i) => ({
      id: `d${i}`,
      title: '',
      headings: '',
      text,
    }));
    const index = Bm25Index.build(docs);
    const all = index.search('cash flow', { k: 10 });
    const within = index.search('cash flow', { k: 10, within: new Set(['d1', 'd2', 'd3']) });
    expect(within.map((h) => h.id).sort()).toEqual(['d1', 'd2']);
    for (const h of within) expect(h.score).toBe(all.find((x) => x.id === h.id)?.score);
    expect(index.search('cash flow', { k: 10, within: new Set() })).toEqual([]);
  });
});
