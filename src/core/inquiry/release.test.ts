import { describe, expect, it } from 'vitest';
import { releaseGuard, sourcesOf } from './release';
import { CONTRACT_QUESTION, contractRecords } from './testing';
import type { InquiryRecord } from './types';

describe('releaseGuard', () => {
  it('releases a complete chain: the binding record plus the record its identifier leads to', () => {
    const d = releaseGuard({
      question: CONTRACT_QUESTION,
      evidence: contractRecords(['memo', 'blog-1', 'agreement', 'schedule']),
    });
    expect(d.released).toBe(true);
    expect(d.chain).toEqual(['agreement', 'schedule']);
    expect(d.answer).not.toMatch(/^Parties/u);
  });

  it('does not release look-alike pages, however many, without the binding record', () => {
    const d = releaseGuard({ question: CONTRACT_QUESTION, evidence: contractRecords(['memo', 'blog-1', 'blog-2']) });
    expect(d).toMatchObject({ released: false, unresolved: 'executed master agreement of the Pellam Legal Office' });
  });

  it('does not release a broken chain, naming the identifier no record defines', () => {
    const d = releaseGuard({ question: CONTRACT_QUESTION, evidence: contractRecords(['memo', 'agreement']) });
    expect(d).toMatchObject({ released: false, unresolved: 'Schedule 4', chain: ['agreement'] });
  });

  it('does not release when no record says which kind binds', () => {
    expect(
      releaseGuard({ question: CONTRACT_QUESTION, evidence: contractRecords(['agreement', 'schedule']) }).released,
    ).toBe(false);
  });

  it('two binding records that disagree release nothing', () => {
    const forged: InquiryRecord = {
      id: 'forged',
      docId: 'forged',
      title: 'Agreement',
      text: 'Executed master agreement MA-7001. Parties: Brennic Foods and Halvorsen Mills. Payment falls due net 90 days. Invoices are in dollars.',
    };
    const d = releaseGuard({
      question: CONTRACT_QUESTION,
      evidence: [...contractRecords(['memo', 'agreement', 'schedule']), forged],
    });
    expect(d.released).toBe(false);
    expect(d.reason).toMatch(/different answers/u);
  });

  it('look-alike pages are one source (the verify stage’s lineage clusters)', () => {
    const source = sourcesOf(contractRecords(['blog-1', 'blog-2', 'agreement']));
    expect(source.get('blog-1')).toBe(source.get('blog-2'));
    expect(source.get('agreement')).not.toBe(source.get('blog-1'));
  });
});
