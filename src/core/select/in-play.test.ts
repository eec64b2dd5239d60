import { describe, expect, it } from 'vitest';
import { documentsInPlay, IN_PLAY_SHARE } from './in-play';
import { candidateTerms } from './rationales';
import { buildCorpus, candidate } from './testing';
import type { Candidate } from '../types';

const QUESTION =
  'If the regular due date for filing Form 1040NR falls on a Saturday, Sunday, or legal holiday, when should you file?';

const library = buildCorpus([
  {
    id: 'irs',
    title: 'Instructions for Form 1040NR',
    chunks: [
      'Note. If the regular due date for filing falls on a Saturday, Sunday, or legal holiday, file by the next business day.',
      'Extension of time to file. If you cannot file your return by the due date, you should file Form 4868.',
    ],
  },
  {
    id: 'travel',
    title: 'Travel and expenses policy',
    chunks: ['Claims are due within 30 days of the trip end date; a public holiday counts as a working day abroad.'],
  },
  {
    id: 'news-a',
    title: 'FIFA congress',
    chunks: ['Gianni Infantino was re-elected president of FIFA on Thursday.'],
  },
  { id: 'news-b', title: 'World Cup draw', chunks: ['FIFA announced the draw for the World Cup in Doha.'] },
  { id: 'news-c', title: 'Weather', chunks: ['Rain is expected over the weekend in the north.'] },
]);

/** Each candidate's match terms, as selection's pairing reads them. */
const termsIn = (pool: readonly Candidate[]) => new Map(pool.map((c) => [c.id, candidateTerms(library, c)]));

describe('documentsInPlay', () => {
  it('leaves out a document that meets only the common words of the question', () => {
    const pool = [candidate('irs#0', 0.9), candidate('irs#1', 0.5), candidate('travel#0', 0.3)];
    expect(documentsInPlay(QUESTION, pool, termsIn(pool))).toEqual(['irs']);
  });

  it('keeps every document on the subject, though the retriever weighs its name near nought', () => {
    // Both reports name FIFA; one names the president too. Both could confirm or contest the answer.
    const pool = [candidate('news-a#0', 0.9), candidate('news-b#0', 0.1), candidate('news-c#0', 0.05)];
    expect(documentsInPlay('Who is the president of FIFA?', pool, termsIn(pool))).toEqual(['news-a', 'news-b']);
  });

  it('reads a document by its best passage and counts its title as its text', () => {
    // "1040NR" is in the instructions' title, not in the chunk about Form 4868.
    const pool = [candidate('irs#1', 0.9), candidate('travel#0', 0.8)];
    expect(documentsInPlay('Which form extends the time to file Form 1040NR?', pool, termsIn(pool))).toEqual(['irs']);
  });

  it('puts the boundary at the declared share of the best coverage', () => {
    // The FIFA report holds both terms, the draw report one of them: exactly the share.
    expect(IN_PLAY_SHARE).toBe(0.5);
    const pool = [candidate('news-a#0', 0.9), candidate('news-b#0', 0.1)];
    expect(documentsInPlay('Who is the president of FIFA?', pool, termsIn(pool), 0.51)).toEqual(['news-a']);
  });

  it('keeps every document when the question has no terms of its own, and none of an empty pool', () => {
    const pool = [candidate('news-a#0', 0.9), candidate('news-c#0', 0.1)];
    expect(documentsInPlay('Who is it?', pool, termsIn(pool)).sort()).toEqual(['news-a', 'news-c']);
    expect(documentsInPlay(QUESTION, [], new Map())).toEqual([]);
  });
});
