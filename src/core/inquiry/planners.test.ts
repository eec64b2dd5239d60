import { describe, expect, it } from 'vitest';
import { EXPANSION_TERMS, expansionPlanner, premisePlanner, repeatPlanner } from './planners';
import { stemsOf } from './mentions';
import { startState } from './state';
import { CONTRACT_INITIAL, CONTRACT_QUESTION, contractRecords } from './testing';

describe('planners', () => {
  const state = startState(CONTRACT_QUESTION, contractRecords(CONTRACT_INITIAL));

  it('premise: queries the open premise by its own terms, not the question', () => {
    const step = premisePlanner.next(state) as Awaited<ReturnType<typeof premisePlanner.next>>;
    expect(step.stop).toBe(false);
    expect(step.found?.kind).toBe('binding');
    expect(step.query).toContain('executed master agreement');
    expect(step.query).not.toContain('payment');
  });

  it('premise: without a structural premise, the bridge the question’s record introduces, with the uncovered words', () => {
    const q = 'Which river flows past the yard that built the ferry Morrow Swan?';
    const held = startState(q, [
      {
        id: 'f',
        docId: 'f',
        title: 'Morrow Swan',
        text: 'Morrow Swan is a ferry. She was built by Kestrel Dockworks.',
      },
    ]);
    const step = premisePlanner.next(held) as Awaited<ReturnType<typeof premisePlanner.next>>;
    expect(step.found?.kind).toBe('bridge');
    expect(step.query).toMatch(/^Kestrel Dockworks /u);
    expect(step.query).toMatch(/river/u);
    expect(step.query).not.toMatch(/ferry|Morrow/u);
  });

  it('premise: structural premises come before bridges', () => {
    // The contract world's records introduce names too; the binding premise still leads.
    const step = premisePlanner.next(state) as Awaited<ReturnType<typeof premisePlanner.next>>;
    expect(step.found?.kind).toBe('binding');
  });

  it('premise: stops when nothing is open', () => {
    const done = startState('What is it?', [{ id: 'x', docId: 'x', title: 'Page', text: 'a plain page.' }]);
    expect((premisePlanner.next(done) as { stop: boolean }).stop).toBe(true);
  });

  it('repeat: the question itself', () => {
    expect((repeatPlanner.next(state) as { query: string }).query).toBe(CONTRACT_QUESTION);
  });

  it('expansion: the question plus feedback terms the question lacks', () => {
    const { query } = expansionPlanner.next(state) as { query: string };
    expect(query.startsWith(CONTRACT_QUESTION)).toBe(true);
    const added = query.slice(CONTRACT_QUESTION.length).trim().split(/\s+/u);
    expect(added).toHaveLength(EXPANSION_TERMS);
    const questionStems = new Set(stemsOf(CONTRACT_QUESTION));
    for (const w of added) expect(questionStems.has(stemsOf(w)[0] ?? '')).toBe(false);
    expect(added).toContain('dollars'); // stated by both look-alike pages
  });
});
