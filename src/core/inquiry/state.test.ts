import { describe, expect, it } from 'vitest';
import { admit, askedQueries, startState, withRound } from './state';
import type { InquiryRound } from './types';

const r = (id: string, docId = id) => ({ id, docId, title: 'T', text: `text ${id}` });

describe('inquiry state', () => {
  it('holds one record per document and admits only new documents', () => {
    const s = startState('q', [r('a#1', 'a'), r('a#2', 'a'), r('b')]);
    expect(s.evidence.map((x) => x.id)).toEqual(['a#1', 'b']);
    const { added, hits } = admit(s, [r('a#3', 'a'), r('c'), r('c#2', 'c')]);
    expect(added.map((x) => x.id)).toEqual(['c']);
    expect(hits.map((h) => h.added)).toEqual([false, true, false]);
  });

  it('returns a new state per round and leaves the old one as it was', () => {
    const s = startState('q', [r('a')]);
    const round: InquiryRound = {
      round: 1,
      planner: 'repeat',
      step: { premise: '', why: '', query: 'Q one', discriminator: '', stop: false },
      hits: [],
      error: null,
      stopped: null,
      ms: 0,
    };
    const next = withRound(s, round, [r('b')]);
    expect(s.evidence).toHaveLength(1);
    expect(s.history).toHaveLength(0);
    expect(next.evidence.map((x) => x.id)).toEqual(['a', 'b']);
    expect([...askedQueries(next)]).toEqual(['q one']);
  });
});
