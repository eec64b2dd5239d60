import { describe, expect, it } from 'vitest';
import { inquire } from './index';
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
    expect(r.trace.budget).toEqual({ budget: 2, topR: 3 });
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
