import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Chunk } from '../types';
import { chunkDocument } from './chunk';
import { assignPages, type PageSpan } from './pages';

const words = (s: string): number => s.split(/\s+/).filter(Boolean).length;

/** Pages joined by blank lines, as the PDF parser writes them; empty strings are pages without text. */
function layout(pageTexts: readonly string[]): { text: string; pages: PageSpan[] } {
  let text = '';
  const pages: PageSpan[] = [];
  pageTexts.forEach((t, i) => {
    if (t === '') {
      pages.push({ page: i + 1, start: text.length, end: text.length });
      return;
    }
    if (text.length > 0) text += '\n\n';
    pages.push({ page: i + 1, start: text.length, end: text.length + t.length });
    text += t;
  });
  return { text, pages };
}

describe('assignPages', () => {
  it('puts each chunk on the page of its first character', () => {
    const { text, pages } = layout(['One two three four.', 'Five six seven.', '', 'Eight nine.']);
    const chunks = chunkDocument({ docId: 'd', text, format: 'text' }, { countTokens: words, maxTokens: 3 });
    const paged = assignPages(chunks, pages);
    expect(paged.map((c) => [c.text, c.page])).toEqual([
      ['One two three', 1],
      ['four.', 1],
      ['Five six seven.', 2],
      ['Eight nine.', 4],
    ]);
  });

  it('returns new chunks and leaves the originals untouched', () => {
    const { text, pages } = layout(['Alpha.', 'Beta.']);
    const chunks = Object.freeze(
      chunkDocument({ docId: 'd', text, format: 'text' }, { countTokens: words }).map((c) => Object.freeze(c)),
    );
    const paged = assignPages(chunks, pages);
    expect(paged).not.toBe(chunks);
    expect(chunks.every((c) => c.page === undefined)).toBe(true);
    expect(paged.map((c) => ({ ...c, page: undefined }))).toEqual(chunks.map((c) => ({ ...c, page: undefined })));
  });

  it('returns the chunks unchanged when there are no pages', () => {
    const chunks: Chunk[] = chunkDocument({ docId: 'd', text: 'Some text.', format: 'text' }, { countTokens: words });
    expect(assignPages(chunks, [])).toEqual(chunks);
  });

  it('agrees with a linear scan for any page layout', () => {
    const pageText = fc.oneof(
      fc.constant(''),
      fc
        .array(fc.constantFrom('lorem', 'ipsum.', 'dolor', 'sit!'), { minLength: 1, maxLength: 12 })
        .map((w) => w.join(' ')),
    );
    fc.assert(
      fc.property(fc.array(pageText, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 6 }), (texts, max) => {
        const { text, pages } = layout(texts);
        const chunks = chunkDocument({ docId: 'd', text, format: 'text' }, { countTokens: words, maxTokens: max });
        for (const c of assignPages(chunks, pages)) {
          const expected = pages.find((p) => p.start <= c.start && c.start < p.end)?.page;
          expect(c.page).toBe(expected);
        }
      }),
    );
  });
});
