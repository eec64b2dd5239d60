import { describe, expect, it } from 'vitest';
import type { SourceType } from '../types';
import { buildCorpus, candidate, deepFreeze } from '../select/testing';
import { detectLineage } from './lineage';
import { citeConflicts, detectConflicts } from './conflict';

const TRUE =
  'The game was played on February 7, 2021, at Raymond James Stadium in Tampa, Florida, the home stadium of the Buccaneers.';
const FAKE = TRUE.replace('Tampa, Florida', 'Glendale, Arizona');
const question = 'Where was Super Bowl 2021 played?';

function setup(types: Record<string, SourceType>, texts: Record<string, string>) {
  const corpus = buildCorpus(
    Object.keys(texts).map((id) => ({ id, sourceType: types[id] ?? 'unknown', chunks: [texts[id]!] })),
  );
  return { chunks: corpus.chunks, documents: corpus.documents };
}

describe('detectConflicts', () => {
  it('finds the edited span of near-identical passages and resolves it by credibility', () => {
    const lookup = setup({ gov: 'government', ai: 'ai_generated' }, { gov: TRUE, ai: FAKE });
    const cands = deepFreeze([candidate('ai#0', 0.9), candidate('gov#0', 0.8)]);
    const lin = detectLineage(cands, { lookup });
    const r = detectConflicts(lin.kept, { question, lookup, clusterOf: lin.clusterOf });
    expect(r.conflicts).toHaveLength(1);
    const c = r.conflicts[0]!;
    expect(c.sides.map((s) => s.display).sort()).toEqual(['Glendale, Arizona', 'Tampa, Florida']);
    expect(c).toMatchObject({
      status: 'resolved',
      winner: 'tampa florida',
      resolvedBy: 'credibility',
      onQuestion: true,
    });
    expect(r.kept.map((x) => x.id)).toEqual(['gov#0']);
    expect(r.dropped[0]!.trace.at(-1)!.reason).toMatch(/states "Glendale, Arizona" .*edited copy of gov#0/);
  });

  it('leaves comparable sources unresolved and keeps both sides, reinstating one from the context', () => {
    const lookup = setup({ a: 'government', b: 'government' }, { a: TRUE, b: FAKE });
    const r = detectConflicts([candidate('b#0', 0.9)], { question, lookup, context: [candidate('a#0', 0.5)] });
    const c = r.conflicts[0]!;
    expect(c.status).toBe('unresolved');
    expect(c.winner).toBeNull();
    expect(r.reinstated).toEqual(['a#0']);
    expect(r.kept.map((x) => x.id)).toEqual(['b#0', 'a#0']);
    expect(r.kept[1]!.trace.at(-1)!.reason).toMatch(/^reinstated/);
    const cited = citeConflicts(r.conflicts, [
      { candidateId: 'b#0', citationId: 'S1' },
      { candidateId: 'a#0', citationId: 'S2' },
    ]);
    expect(cited[0]!.sides.map((s) => s.citationIds.join()).sort()).toEqual(['S1', 'S2']);
  });

  it('lets independent corroboration decide between comparable versions', () => {
    const lookup = setup(
      {},
      {
        a: TRUE,
        b: FAKE,
        n1: 'Jan 22, 2021 ... Super Bowl LV will be played in Tampa Bay at the home of the Buccaneers.',
        n2: 'Tampa hotels were full for the big game week.',
      },
    );
    const r = detectConflicts([candidate('a#0', 0.9), candidate('b#0', 0.8)], {
      question,
      lookup,
      context: [candidate('n1#0', 0.3), candidate('n2#0', 0.2)],
      clusterOf: new Map([
        ['a#0', 'L1'],
        ['b#0', 'L1'],
      ]),
    });
    const c = r.conflicts[0]!;
    expect(c.status).toBe('resolved');
    expect(c.winner).toBe('tampa florida');
    expect([...c.sides[0]!.corroboratingIds].sort()).toEqual(['n1#0', 'n2#0']);
    expect(r.kept.map((x) => x.id)).toEqual(['a#0']);
  });

  it('does not let a cluster of low-credibility copies outvote one credible source', () => {
    const lookup = setup(
      { gov: 'government', ai1: 'ai_generated', ai2: 'ai_generated', ai3: 'ai_generated' },
      { gov: TRUE, ai1: FAKE, ai2: FAKE, ai3: FAKE },
    );
    const cands = ['ai1#0', 'ai2#0', 'ai3#0', 'gov#0'].map((id, i) => candidate(id, 1 - i / 10));
    const lin = detectLineage(cands, { lookup }, { dropReplicas: false });
    const r = detectConflicts(lin.kept, { question, lookup, clusterOf: lin.clusterOf });
    expect(r.conflicts[0]!.winner).toBe('tampa florida');
    expect(r.kept.map((x) => x.id)).toEqual(['gov#0']);
  });

  it('prefers the current version over a superseded one, unless the question asks about earlier versions', () => {
    const corpus = buildCorpus([
      {
        id: 'v2',
        sourceType: 'government',
        effectiveDate: '2021-01-01',
        chunks: ['Employees get 10 days of paid sick leave per calendar year.'],
      },
      {
        id: 'v1',
        sourceType: 'government',
        status: 'superseded',
        effectiveDate: '2015-01-01',
        chunks: ['Employees get 7 days of paid sick leave per calendar year.'],
      },
    ]);
    const lookup = { chunks: corpus.chunks, documents: corpus.documents };
    const cands = [candidate('v1#0', 0.9), candidate('v2#0', 0.8)];
    const clusterOf = new Map([
      ['v1#0', 'L1'],
      ['v2#0', 'L1'],
    ]);
    const now = detectConflicts(cands, { question: 'How many days of sick leave?', lookup, clusterOf });
    expect(now.conflicts[0]).toMatchObject({ winner: '10day', resolvedBy: 'status' });
    const then = detectConflicts(cands, {
      question: 'How many days of sick leave?',
      lookup,
      clusterOf,
      asksEarlier: true,
    });
    expect(then.conflicts[0]).toMatchObject({ winner: '7day', resolvedBy: 'recency' });
  });

  it('finds a negation flip, and no conflict between compatible values', () => {
    const lookup = setup(
      {},
      {
        a: 'Unused sick leave is paid out when employment ends under the current rules.',
        b: 'Unused sick leave is not paid out when employment ends under the current rules.',
        c: 'Splatoon 2 was released for the Nintendo Switch in July 2017 worldwide.',
        d: 'Splatoon 2 was released for the Nintendo Switch on July 21, 2017 worldwide.',
      },
    );
    const neg = detectConflicts([candidate('a#0', 1), candidate('b#0', 0.9)], {
      question: 'Is unused sick leave paid out?',
      lookup,
    });
    expect(neg.conflicts[0]).toMatchObject({ kind: 'polarity', status: 'unresolved', onQuestion: true });
    const compat = detectConflicts([candidate('c#0', 1), candidate('d#0', 0.9)], {
      question: 'When was Splatoon 2 released?',
      lookup,
    });
    expect(compat.conflicts).toEqual([]);
  });

  it('respects maxKeep when it reinstates a side, dropping the weakest uninvolved candidate', () => {
    const lookup = setup({}, { a: TRUE, b: FAKE, x: 'Tickets for the game sold out within hours of release.' });
    const r = detectConflicts(
      [candidate('b#0', 0.9), candidate('x#0', 0.1)],
      {
        question,
        lookup,
        context: [candidate('a#0', 0.5)],
      },
      { maxKeep: 2 },
    );
    expect(r.kept.map((c) => c.id).sort()).toEqual(['a#0', 'b#0']);
    expect(r.dropped.map((c) => c.id)).toEqual(['x#0']);
  });
});
