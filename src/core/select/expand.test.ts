import { describe, expect, it } from 'vitest';
import { expandCandidates } from './expand';
import { buildCorpus, candidate, deepFreeze } from './testing';

const corpus = buildCorpus([
  {
    id: 'd',
    chunks: [
      { text: 'intro', headings: ['A'] },
      { text: 'a1', headings: ['A', 'x'] },
      { text: 'a2', headings: ['A', 'x'] },
      { text: 'a3', headings: ['A', 'x'] },
      { text: 'a4', headings: ['A', 'x'] },
      { text: 'a5', headings: ['A', 'x'] },
      { text: 'b1', headings: ['B'] },
    ],
  },
  { id: 'e', chunks: ['only chunk'] },
]);
const lookup = { chunks: corpus.chunks, documents: corpus.documents };

describe('expandCandidates', () => {
  it('passes through when off (the default)', () => {
    const r = expandCandidates([candidate('d#3', 0.8)], { lookup });
    expect(r.added).toEqual([]);
    expect(r.candidates.map((c) => c.id)).toEqual(['d#3']);
    expect(r.candidates[0]!.trace.at(-1)).toMatchObject({ stage: 'expand', kept: true, reason: 'expansion off' });
  });

  it('adds ±1 neighbours once, scored trigger × decay, recording the trigger', () => {
    const kept = deepFreeze([candidate('d#3', 0.8), candidate('e#0', 0.5)]);
    const r = expandCandidates(kept, { lookup }, { mode: 'neighbours' });
    expect([...r.added].sort()).toEqual(['d#2', 'd#4']);
    const prev = r.candidates.find((c) => c.id === 'd#2')!;
    expect(prev.score).toBeCloseTo(0.8 * 0.7, 12);
    expect(prev.trace).toHaveLength(1);
    expect(prev.trace[0]).toMatchObject({
      stage: 'expand',
      kept: true,
      reason: 'precedes d#3',
      detail: { expandedFrom: 'd#3', relation: 'prev', revived: false },
    });
    expect(r.candidates.find((c) => c.id === 'd#3')!.trace.at(-1)).toMatchObject({ detail: { added: 2 } });
    // Output is ordered by score.
    expect(r.candidates.map((c) => c.id)).toEqual(['d#3', 'd#2', 'd#4', 'e#0']);
  });

  it('never expands an expanded item, and never duplicates a kept one', () => {
    const once = expandCandidates([candidate('d#3', 0.8), candidate('d#4', 0.6)], { lookup }, { mode: 'neighbours' });
    expect([...once.added].sort()).toEqual(['d#2', 'd#5']);
    const twice = expandCandidates(once.candidates, { lookup }, { mode: 'neighbours' });
    // d#2 and d#5 were added by expansion: they do not trigger d#1 or d#6.
    expect(twice.added).toEqual([]);
    expect(new Set(twice.candidates.map((c) => c.id)).size).toBe(twice.candidates.length);
  });

  it('revives a candidate dropped earlier instead of creating a second copy', () => {
    const earlier = { ...candidate('d#2', 0.9), trace: [{ stage: 'cutoff', kept: false, reason: 'below the elbow' }] };
    const r = expandCandidates(
      [candidate('d#3', 0.5)],
      { lookup, seen: new Map([['d#2', earlier]]) },
      { mode: 'neighbours' },
    );
    const d2 = r.candidates.find((c) => c.id === 'd#2')!;
    expect(d2.trace.map((e) => e.stage)).toEqual(['cutoff', 'expand']);
    expect(d2.trace.at(-1)!.detail).toMatchObject({ revived: true, expandedFrom: 'd#3' });
    expect(d2.score).toBe(0.9); // its own score is higher than 0.5 × 0.7
  });

  it('adds the parent section, nearest first, bounded, never crossing the heading trail', () => {
    const r = expandCandidates([candidate('d#3', 1)], { lookup }, { mode: 'section', maxSectionChunks: 4 });
    expect(r.added).toEqual(['d#2', 'd#4', 'd#1']);
    const all = expandCandidates([candidate('d#3', 1)], { lookup }, { mode: 'section' });
    expect([...all.added].sort()).toEqual(['d#1', 'd#2', 'd#4', 'd#5']); // not 'intro' (A) nor 'b1' (B)
    expect(all.candidates.find((c) => c.id === 'd#5')!.trace.at(-1)!.reason).toBe('same section as d#3');
  });

  it('skips candidates without a chunk (document-level runs)', () => {
    const r = expandCandidates([candidate('doc-only', 1)], { lookup }, { mode: 'neighbours' });
    expect(r.added).toEqual([]);
  });

  it('validates options', () => {
    expect(() => expandCandidates([], { lookup }, { mode: 'parent' as never })).toThrow(/none, neighbours, section/);
    expect(() => expandCandidates([], { lookup }, { window: 2 } as never)).toThrow(/unknown option "window"/);
  });
});
