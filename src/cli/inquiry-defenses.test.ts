import { describe, expect, it } from 'vitest';
import { CONTRACT_INITIAL, CONTRACT_QUESTION, contractRecords } from '../core/inquiry/testing';
import { clusterFilter, keywordAggregation } from './inquiry-defenses';

describe('fixed-context defenses on the supply-contract world', () => {
  const initial = contractRecords(CONTRACT_INITIAL);

  it('keyword aggregation keeps what the look-alike pages share: the false answer', () => {
    const a = keywordAggregation(CONTRACT_QUESTION, initial);
    expect(a.released).toBe(true);
    expect(a.answer).toMatch(/90/);
    expect(a.answer).toMatch(/dollars/);
    expect(a.answer).not.toMatch(/euros|30/);
    // Asking all three isolated answers to share a keyword drops it: the memo states no term.
    expect(keywordAggregation(CONTRACT_QUESTION, initial, { alpha: 1, beta: 3 }).answer).not.toMatch(/dollars/);
  });

  it('the cluster filter drops the two near-copies and answers from the rest, which does not settle it', () => {
    const a = clusterFilter(CONTRACT_QUESTION, initial);
    expect(a.dropped).toEqual(['blog-1', 'blog-2']);
    expect(a.used.map((r) => r.id)).toEqual(['memo']);
    expect(a.answer).not.toMatch(/90 days|dollars/);
    expect(a.answer).not.toMatch(/net 30|euros/);
  });
});
