import { describe, expect, it } from 'vitest';
import { ruleLabel } from './cutoff-label';

describe('the score chart caption', () => {
  it('names the elbow rule, or which bound moved the cut and where the elbow fell', () => {
    expect(ruleLabel('z-gap', 1, 1)).toMatch(/first gap more than 1 standard deviation/);
    expect(ruleLabel('bound', 5, 1)).toBe('the elbow fell after 1; the lower bound keeps 5');
    expect(ruleLabel('bound', 12, 30)).toBe('the elbow fell after 30; the upper bound keeps 12');
  });
});
