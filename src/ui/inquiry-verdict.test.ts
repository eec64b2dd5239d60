import { describe, expect, it } from 'vitest';
import { inquiryVerdict } from './inquiry-verdict';
import type { AskResult } from '../worker/ask-api';

type Input = Pick<AskResult, 'outcome' | 'answer' | 'inquiry'>;

function resultOf(outcome: AskResult['outcome'], answerer: string, released: boolean, triggered = true): Input {
  const reason = released
    ? 'Released: R1 is a binding record that names Form 1040NR.'
    : 'Not released: No record found says which kind of record settles this question.';
  return {
    outcome,
    answer: { text: 'An answer [S1]', answerer } as AskResult['answer'],
    inquiry: {
      triggered,
      trigger: ['a premise is uncovered'],
      planner: 'premise',
      budget: { budget: 2, topR: 3 },
      rounds: [],
      release: { released, chain: [], answer: '', sentences: [], reason, unresolved: null },
      ms: 1,
    } as unknown as AskResult['inquiry'],
  };
}

describe('inquiryVerdict', () => {
  it.each([
    ['supported', 'extractive', false, 'Not needed', true],
    ['supported', 'extractive', true, 'Not needed', true],
    ['abstain', 'extractive', false, 'Not released', false],
    ['abstain', 'inquiry', true, 'Answered by this inquiry', false],
    ['conflict', 'extractive', true, 'Released', false],
  ] as const)('%s answer by %s, inquiry released %s → %s', (outcome, answerer, released, label, says) => {
    const verdict = inquiryVerdict(resultOf(outcome as AskResult['outcome'], answerer, released));
    expect(verdict?.label).toBe(label);
    expect(verdict?.lead.includes('stands on the first evidence')).toBe(says);
    expect(verdict?.reason).not.toMatch(/^(?:Not released|Released):/u);
  });
  it('is null when no inquiry ran', () => {
    expect(inquiryVerdict(resultOf('supported', 'extractive', false, false))).toBeNull();
  });
});
