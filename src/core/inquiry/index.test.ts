import { describe, expect, it } from 'vitest';
import { inquire, searchOf } from './index';
import { CONTRACT_INITIAL, CONTRACT_QUESTION, contractRecords, contractSearch } from './testing';

describe('inquire (the ask pipeline’s entry)', () => {
  it('does not search when the trigger does not hold', async () => {
    const search = contractSearch();
    const r = await inquire({
      question: CONTRACT_QUESTION,
      outcome: 'supported',
      evidence: contractRecords(['agreement', 'schedule']),
      search,
    });
    expect(search.calls).toEqual([]);
    expect(r.followUp).toEqual([]);
    expect(r.trace.triggered).toBe(false);
    expect(r.trace.budget).toEqual({ budget: 2, topR: 3, readPastHeld: false });
  });

  it('on an abstention returns the follow-up evidence and the whole trace', async () => {
    const r = await inquire({
      question: CONTRACT_QUESTION,
      outcome: 'abstain',
      evidence: contractRecords(CONTRACT_INITIAL),
      search: contractSearch(),
    });
    expect(r.trace.triggered).toBe(true);
    expect(r.trace.trigger[0]).toBe('the first answer abstained');
    expect(r.trace.planner).toBe('premise');
    expect(r.followUp.map((x) => x.id)).toEqual(expect.arrayContaining(['agreement', 'schedule']));
    expect(r.trace.rounds.map((x) => x.step?.premise)).toHaveLength(2);
    expect(r.trace.release.released).toBe(true);
  });
});

describe('searchOf (the engine adapter)', () => {
  it('maps engine hits to records with their chunk text and document title, passing k and the signal', async () => {
    const seen: { k?: number; signal?: string }[] = [];
    const engine = {
      search: (_q: string, opts: { k?: number; signal?: string }) => {
        seen.push(opts);
        return Promise.resolve({
          hits: [
            { chunkId: 'd1#0', docId: 'd1' },
            { chunkId: 'd2#3', docId: 'd2' },
          ],
        });
      },
      selectionView: () => ({
        chunks: new Map([['d1#0', { text: 'first' }]]),
        documents: new Map([['d1', { title: 'One' }]]),
      }),
    };
    const records = await searchOf(engine, 'sig')('q', 3);
    expect(seen).toEqual([{ k: 3, signal: 'sig' }]);
    expect(records).toEqual([
      { id: 'd1#0', docId: 'd1', title: 'One', text: 'first' },
      { id: 'd2#3', docId: 'd2', title: 'd2', text: '' },
    ]);
  });
});
