import { describe, expect, it } from 'vitest';
import { findPremises } from './premises';
import { CONTRACT_INITIAL, CONTRACT_QUESTION, contractRecords } from './testing';

describe('findPremises', () => {
  it('names the binding kind the evidence states before any name it introduces', () => {
    const premises = findPremises({ question: CONTRACT_QUESTION, evidence: contractRecords(CONTRACT_INITIAL) });
    expect(premises[0]?.kind).toBe('binding');
    expect(premises[0]?.text).toBe('executed master agreement of the Pellam Legal Office');
    expect(premises[0]?.entity).toBe('Brennic Foods Halvorsen Mills');
    expect(premises[0]?.fromIds).toEqual(['memo']);
    for (let i = 1; i < premises.length; i++) {
      expect(premises[i - 1]!.priority).toBeGreaterThanOrEqual(premises[i]!.priority);
    }
  });

  it('kinds: only the premises asked for', () => {
    const evidence = contractRecords(CONTRACT_INITIAL);
    const all = findPremises({ question: CONTRACT_QUESTION, evidence });
    expect(all.some((p) => p.kind === 'entity')).toBe(true);
    const some = findPremises({ question: CONTRACT_QUESTION, evidence, kinds: new Set(['binding', 'reference']) });
    expect(some.length).toBeGreaterThan(0);
    expect(some.every((p) => p.kind === 'binding' || p.kind === 'reference')).toBe(true);
  });

  it('a reference from a record not about the entity ranks below one from a record that is', () => {
    const rec = (id: string, text: string) => ({ id, docId: id, title: id, text });
    const premises = findPremises({
      question: CONTRACT_QUESTION,
      evidence: [
        // A record's heading (title and first sentence) is what it is about, so the references come later.
        rec('aside', 'Grain report. Grain prices rose, according to the Corven Harvest Survey.'),
        rec(
          'about',
          'Dispute note. Brennic Foods and Halvorsen Mills settle disputes as set out in the Dallow Arbitration Rules.',
        ),
      ],
    }).filter((p) => p.kind === 'reference');
    expect(premises.map((p) => p.fromIds[0])).toEqual(['about', 'aside']);
    expect(premises[0]!.priority).toBeGreaterThan(premises[1]!.priority);
  });

  it('once the binding record is held, its reference to an undefined identifier comes first', () => {
    const premises = findPremises({
      question: CONTRACT_QUESTION,
      evidence: contractRecords([...CONTRACT_INITIAL, 'agreement']),
    });
    expect(premises.map((p) => p.kind)).not.toContain('binding');
    expect(premises[0]).toMatchObject({ kind: 'identifier', key: 'id:Schedule 4', fromIds: ['agreement'] });
  });

  it('an identifier a held record defines is no premise; asked keys are not proposed again', () => {
    const all = contractRecords([...CONTRACT_INITIAL, 'agreement', 'schedule']);
    expect(findPremises({ question: CONTRACT_QUESTION, evidence: all }).some((p) => p.kind === 'identifier')).toBe(
      false,
    );
    const asked = new Set(['kind:execut master agreement']);
    const open = findPremises({ question: CONTRACT_QUESTION, evidence: contractRecords(CONTRACT_INITIAL), asked });
    expect(open.some((p) => p.key === 'kind:execut master agreement')).toBe(false);
  });

  it('an identifier the question names and no record defines is the most decisive premise', () => {
    const premises = findPremises({ question: 'What does clause C-17 of the lease require?', evidence: [] });
    expect(premises).toHaveLength(1);
    expect(premises[0]).toMatchObject({ kind: 'identifier', text: 'C-17', priority: 5 });
  });
});
