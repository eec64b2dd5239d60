import { describe, expect, it } from 'vitest';
import { shouldInquire } from './trigger';
import { CONTRACT_QUESTION, contractRecords } from './testing';

describe('shouldInquire', () => {
  const settled = contractRecords(['agreement', 'schedule']);

  it('does not run after a supported answer whose evidence refers to nothing missing', () => {
    expect(shouldInquire({ question: CONTRACT_QUESTION, outcome: 'supported', evidence: settled })).toEqual({
      triggered: false,
      reasons: [],
    });
  });

  it('runs on a conflict, an abstention or an uncovered rationale', () => {
    for (const outcome of ['conflict', 'abstain'] as const) {
      expect(shouldInquire({ question: CONTRACT_QUESTION, outcome, evidence: settled }).triggered).toBe(true);
    }
    const d = shouldInquire({
      question: CONTRACT_QUESTION,
      outcome: 'partial',
      uncovered: ['currency'],
      evidence: settled,
    });
    expect(d.reasons).toEqual(['the evidence does not cover “currency”']);
  });

  it('a name the evidence introduces beside the entity is no trigger (it refers to no record)', () => {
    const evidence = [
      {
        id: 'n',
        docId: 'n',
        title: 'Note',
        text: 'Brennic Foods and Halvorsen Mills met Oskar Tellan at the Pellam fair.',
      },
    ];
    expect(shouldInquire({ question: CONTRACT_QUESTION, outcome: 'supported', evidence }).triggered).toBe(false);
  });

  it('runs when supported evidence refers to a record it does not contain', () => {
    const d = shouldInquire({
      question: CONTRACT_QUESTION,
      outcome: 'supported',
      evidence: contractRecords(['agreement']),
    });
    expect(d.triggered).toBe(true);
    expect(d.reasons[0]).toMatch(/refers to a record it does not contain: .*Schedule 4/u);
  });
});
