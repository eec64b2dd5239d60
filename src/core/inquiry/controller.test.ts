import { describe, expect, it } from 'vitest';
import { EvidentError } from '../errors';
import { runInquiry } from './controller';
import { expansionPlanner, premisePlanner, repeatPlanner } from './planners';
import { CONTRACT_INITIAL, CONTRACT_QUESTION, contractRecords, contractSearch } from './testing';

const input = (planner = premisePlanner) => ({
  question: CONTRACT_QUESTION,
  evidence: contractRecords(CONTRACT_INITIAL),
  search: contractSearch(),
  planner,
});

describe('runInquiry', () => {
  it('two-hop: the binding record, then the schedule its identifier leads to, then release', async () => {
    const i = input();
    const run = await runInquiry(i);
    expect(run.rounds).toHaveLength(2);
    expect(run.rounds[0]?.hits[0]?.id).toBe('agreement');
    // The second query is built from what the first round resolved, not from the question.
    expect(i.search.calls[1]).toContain('Schedule 4');
    expect(i.search.calls[1]).not.toMatch(/payment|currency/iu);
    expect(run.rounds[1]?.stopped).toBe('released');
    expect(run.release.chain).toEqual(['agreement', 'schedule']);
    expect(run.release.answer).toMatch(/net 30 days/u);
    expect(run.release.answer).toMatch(/euros/u);
    expect(run.release.answer).not.toMatch(/dollars|90 days/u);
  });

  it('respects the budget and top r, and says which premise stayed open', async () => {
    const i = input();
    const run = await runInquiry(i, { budget: 1, topR: 2 });
    expect(i.search.calls).toHaveLength(1);
    expect(run.rounds[0]?.hits.length).toBeLessThanOrEqual(2);
    expect(run.rounds[0]?.stopped).toBe('budget spent');
    expect(run.release).toMatchObject({ released: false, unresolved: 'Schedule 4' });
  });

  it('de-duplicates by document: hits already held are recorded but not added', async () => {
    const run = await runInquiry(input(repeatPlanner));
    const held = new Set(CONTRACT_INITIAL as readonly string[]);
    for (const h of run.rounds.flatMap((r) => r.hits)) if (held.has(h.docId)) expect(h.added).toBe(false);
    expect(new Set(run.state.evidence.map((r) => r.docId)).size).toBe(run.state.evidence.length);
  });

  it('readPastHeld: a round reads past held documents until it has r new ones; off, held hits use up r', async () => {
    const on = await runInquiry(input(repeatPlanner), { budget: 1, topR: 2, readPastHeld: true });
    const added = on.rounds[0]?.hits.filter((h) => h.added) ?? [];
    expect(added).toHaveLength(2);
    expect(on.state.evidence).toHaveLength(CONTRACT_INITIAL.length + 2);
    const off = await runInquiry(input(repeatPlanner), { budget: 1, topR: 2 });
    expect(off.rounds[0]?.hits).toHaveLength(2);
    // The question's own top hits are the documents already held: nothing new by default.
    expect(off.state.evidence.length).toBeLessThan(on.state.evidence.length);
    await expect(runInquiry(input(), { readPastHeld: 'yes' } as never)).rejects.toThrow(/readPastHeld/u);
  });

  it('the controls do not reach the binding record on this world', async () => {
    for (const planner of [repeatPlanner, expansionPlanner]) {
      const run = await runInquiry(input(planner));
      expect(run.rounds).toHaveLength(2);
      expect(run.release.released).toBe(false);
    }
  });

  it('budget 0 is the first evidence alone; bad options throw naming the option', async () => {
    const i = input();
    const run = await runInquiry(i, { budget: 0 });
    expect(i.search.calls).toEqual([]);
    expect(run.release.released).toBe(false);
    await expect(runInquiry(input(), { budget: -1 })).rejects.toThrow(/budget/u);
    await expect(runInquiry(input(), { rounds: 2 } as never)).rejects.toThrow(EvidentError);
  });
});
