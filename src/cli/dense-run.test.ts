import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packChunks } from './dense-run';

const words = (s: string): number => s.split(' ').filter((w) => w !== '').length;

describe('packChunks (max-chunk document representation)', () => {
  it('packs consecutive sentences after the title up to the window', () => {
    const doc = { id: 'd', title: 'T t', text: '', sentences: ['a a a', 'b b', 'c c c c', 'd'] };
    // Title costs 2; window 7: [a a a, b b] = 7, [c c c c, d] = 7.
    expect(packChunks(doc, words, 7)).toEqual(['T t a a a b b', 'T t c c c c d']);
  });

  it('gives an over-long sentence a chunk of its own and never drops a document', () => {
    const doc = { id: 'd', title: 'T', text: '', sentences: ['x x x x x x x x x x', 'y'] };
    expect(packChunks(doc, words, 5)).toEqual(['T x x x x x x x x x x', 'T y']);
    expect(packChunks({ id: 'e', title: 'Only a title', text: '' }, words, 5)).toEqual(['Only a title']);
  });

  it('splits text into sentences when the dataset has none', () => {
    const doc = { id: 'd', title: '', text: 'First one here. Second one. Third.' };
    expect(packChunks(doc, words, 4)).toEqual(['First one here.', 'Second one. Third.']);
  });

  it('keeps every sentence exactly once, in order, within the window where it can', () => {
    const sentence = fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 6 }).map((ws) => ws.join(' '));
    fc.assert(
      fc.property(
        fc.array(sentence, { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 1, max: 12 }),
        (sentences, max) => {
          const chunks = packChunks({ id: 'd', title: 'T', text: '', sentences }, words, max);
          const body = chunks.map((c) => c.slice(2)).join(' ');
          expect(body).toBe(sentences.join(' '));
          for (const c of chunks) {
            expect(c.startsWith('T ')).toBe(true);
            // Over the window only when it holds a single sentence that alone overflows.
            if (words(c) > max) expect(sentences.some((s) => `T ${s}` === c)).toBe(true);
          }
        },
      ),
    );
  });
});
