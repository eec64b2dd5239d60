import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bestChunkPerDoc, sentencesOf } from './max-chunk';

describe('bestChunkPerDoc', () => {
  it('keeps each document’s best chunk, best documents first, at most depth (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ doc: fc.constantFrom('a', 'b', 'c', 'd'), score: fc.double({ noNaN: true }) }), {
          maxLength: 20,
        }),
        fc.integer({ min: 1, max: 5 }),
        (chunks, depth) => {
          const owner = chunks.map((c) => c.doc);
          const hits = chunks.map((c, i) => ({ id: String(i), score: c.score })).sort((x, y) => y.score - x.score);
          // Reference: each document's maximum over all its chunks, sorted, cut at depth.
          const max = new Map<string, number>();
          for (const c of chunks) max.set(c.doc, Math.max(max.get(c.doc) ?? -Infinity, c.score));
          const expected = [...max.values()].sort((x, y) => y - x).slice(0, depth);
          const got = bestChunkPerDoc(hits, owner, depth);
          expect(got.map((h) => h.score)).toEqual(expected);
          expect(new Set(got.map((h) => h.id)).size).toBe(got.length);
          for (const h of got) expect(h.score).toBe(max.get(h.id));
        },
      ),
    );
  });
});

describe('sentencesOf', () => {
  it('prefers the dataset’s own split, else splits after . ! ? before a capital, digit or (', () => {
    expect(sentencesOf({ id: 'd', title: '', text: 'ignored', sentences: ['One', 'two'] })).toEqual(['One', 'two']);
    expect(sentencesOf({ id: 'd', title: '', text: 'First one. Second (2)! third? 4 left' })).toEqual([
      'First one.',
      'Second (2)! third?',
      '4 left',
    ]);
  });
});
