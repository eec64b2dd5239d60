import { describe, expect, it } from 'vitest';
import type { OcrWords } from '../core/ocr-words';
import { placeWords, wordsInSpan } from './ocr-words';

/** Each word's text in `page` by its span, or null where it has none. */
function placed(page: string, words: readonly string[]): (string | null)[] {
  const spans = placeWords(page, words);
  return words.map((_, i) => {
    const s = spans[2 * i] as number;
    return s < 0 ? null : page.slice(s, spans[2 * i + 1]);
  });
}

/** `OcrWords` for `words` placed in `page` (boxes: one word a unit, one line). */
function ocrWords(page: string, words: readonly string[]): OcrWords {
  return { text: words, boxes: words.flatMap((_, i) => [i * 10, 0, i * 10 + 8, 10]), spans: placeWords(page, words) };
}

describe('placeWords', () => {
  it('gives each word the letters and digits it has in the page text, punctuation left out', () => {
    const words = ['Divers', 'found', 'that', 'the', 'blocks', 'had', 'shifted', 'by', '12', 'cm,', 'mostly.'];
    const page = 'Divers found that the blocks had shifted by 12 cm, mostly.';
    expect(placed(page, words)).toEqual([
      'Divers',
      'found',
      'that',
      'the',
      'blocks',
      'had',
      'shifted',
      'by',
      '12',
      'cm',
      'mostly',
    ]);
  });

  it('finds the words through the layout’s markup, line breaks and normalization', () => {
    const words = ['Harbour', 'Report', 'The', 'ﬁnal', 'cost', 'City', 'Tonnes', 'Lisbon', '545000'];
    const page = '# Harbour Report\n\nThe final\ncost\n\n| City | Tonnes |\n| --- | --- |\n| Lisbon | 545000 |';
    expect(placed(page, words)).toEqual([
      'Harbour',
      'Report',
      'The',
      'final',
      'cost',
      'City',
      'Tonnes',
      'Lisbon',
      '545000',
    ]);
  });

  it('places the words of two columns that OCR read row by row and the layout wrote one after the other', () => {
    // OCR's order: left line 1, right line 1, left line 2, right line 2.
    const words = ['apples', 'grew', 'cherry', 'growers', 'in', 'the', 'lost', 'their', 'valley', 'crops'];
    const page = 'apples grew in the valley\n\ncherry growers lost their crops';
    const got = placed(page, words);
    expect(got).toEqual(['apples', 'grew', 'cherry', 'growers', 'in', 'the', 'lost', 'their', 'valley', 'crops']);
    // And each at its own occurrence, not the first "the…" the page has.
    const spans = placeWords(page, words);
    expect(spans[2 * 5]).toBe(page.indexOf('the valley'));
  });

  it('a running head the layout left out gets no span, even where its words occur in the body', () => {
    const words = ['Annual', 'Report', 'The', 'annual', 'report', 'covers', 'the', 'harbour', '7'];
    const page = 'The annual report covers the harbour';
    const got = placed(page, words);
    expect(got.slice(2, 8)).toEqual(['The', 'annual', 'report', 'covers', 'the', 'harbour']);
    expect(got.slice(0, 2)).toEqual([null, null]);
    expect(got[8]).toBeNull();
    // No character of the text belongs to two words.
    const spans = placeWords(page, words);
    const owners = new Map<number, number>();
    for (let w = 0; w < words.length; w++) {
      for (let k = spans[2 * w] as number; k >= 0 && k < (spans[2 * w + 1] as number); k++) {
        expect(owners.has(k), `character ${k}`).toBe(false);
        owners.set(k, w);
      }
    }
  });

  it('a word of punctuation only, or on an empty page, has no span', () => {
    expect(placed('The cost — three euros', ['The', 'cost', '—', 'three', 'euros'])).toEqual([
      'The',
      'cost',
      null,
      'three',
      'euros',
    ]);
    expect(placeWords('', ['a', 'b'])).toEqual([-1, -1, -1, -1]);
    expect(placeWords('text', [])).toEqual([]);
  });

  it('counts offsets in UTF-16 units past characters outside the BMP', () => {
    const page = '𝐀 note: Zürich ships';
    expect(placed(page, ['note:', 'Zürich', 'ships'])).toEqual(['note', 'Zürich', 'ships']);
  });
});

describe('wordsInSpan', () => {
  const page = 'The engineers recommend replacing forty blocks before the winter storms.';
  const words = page.split(' ');
  const w = ocrWords(page, words);

  it('gives the words whose place meets the span, in order: a phrase marks its own words', () => {
    const from = page.indexOf('forty');
    const to = page.indexOf(' before');
    expect(wordsInSpan(w, from, to).map((i) => words[i])).toEqual(['forty', 'blocks']);
  });

  it('a word cut by the span’s edge is in; a word that only touches it is not', () => {
    const from = page.indexOf('ineers');
    const to = page.indexOf('recommend') + 3;
    expect(wordsInSpan(w, from, to).map((i) => words[i])).toEqual(['engineers', 'recommend']);
    // [from, to) ends where "recommend" starts: it is not in.
    expect(wordsInSpan(w, 0, page.indexOf('recommend')).map((i) => words[i])).toEqual(['The', 'engineers']);
  });

  it('the whole page marks every placed word; an empty span or a span past the text marks none', () => {
    expect(wordsInSpan(w, 0, page.length)).toHaveLength(words.length);
    expect(wordsInSpan(w, 5, 5)).toEqual([]);
    expect(wordsInSpan(w, page.length, page.length + 40)).toEqual([]);
  });

  it('never marks a word without a place', () => {
    const words2 = ['Annual', 'Report', ...words];
    const w2 = ocrWords(page, words2);
    expect(wordsInSpan(w2, 0, page.length).map((i) => words2[i])).toEqual(words);
  });

  it('a span across a page break: each page’s part marks that page’s words, together the span', () => {
    // Two pages of one document text: "… forty blocks" | "before the winter storms."
    const text = 'The engineers recommend replacing forty blocks\n\nbefore the winter storms.';
    const p1 = { start: 0, end: text.indexOf('\n\n') };
    const p2 = { start: text.indexOf('before'), end: text.length };
    const w1 = ocrWords(text.slice(p1.start, p1.end), text.slice(p1.start, p1.end).split(' '));
    const w2 = ocrWords(text.slice(p2.start, p2.end), text.slice(p2.start, p2.end).split(' '));
    const span = { start: text.indexOf('forty'), end: text.indexOf(' winter') };
    const on1 = wordsInSpan(w1, Math.max(span.start, p1.start) - p1.start, Math.min(span.end, p1.end) - p1.start);
    const on2 = wordsInSpan(w2, Math.max(span.start, p2.start) - p2.start, Math.min(span.end, p2.end) - p2.start);
    expect([...on1.map((i) => w1.text[i]), ...on2.map((i) => w2.text[i])]).toEqual([
      'forty',
      'blocks',
      'before',
      'the',
    ]);
  });
});
