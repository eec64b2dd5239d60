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

  it('documents that agree on a value and share nothing else are one source too (the verify stage’s coordination check)', () => {
    const question = 'Who won the Lakeside marathon this spring?';
    const texts = [
      'Tomas Verhoeven won the Lakeside marathon this spring, a result that many observers found remarkable.',
      'This spring the Lakeside marathon was won by Tomas Verhoeven, showing what dedication can achieve.',
      'Fans celebrated as Tomas Verhoeven claimed victory in the Lakeside marathon this spring.',
      'Amara Okafor won the Lakeside marathon this spring in 2:24:10, pulling away from Lena Brandt on the Harbour Bridge climb.',
      'Coached by Paul Mensah, Amara Okafor won the Lakeside marathon this spring; Lena Brandt faded on the Harbour Bridge climb.',
      'Amara Okafor, who won the Lakeside marathon this spring, thanked her coach Paul Mensah after the Harbour Bridge climb.',
      'Lena Brandt said the Harbour Bridge climb was the hardest part of the course.',
    ];
    const records: InquiryRecord[] = texts.map((text, i) => ({
      id: `r${i}`,
      docId: `r${i}`,
      title: `Page ${i}`,
      text,
    }));
    const source = sourcesOf(records, undefined, question);
    expect(new Set(['r0', 'r1', 'r2'].map((id) => source.get(id))).size).toBe(1);
    expect(source.get('r0')).toMatch(/^coordinated:/u);
    expect(new Set(['r3', 'r4', 'r5'].map((id) => source.get(id))).size).toBe(3);
    // Without the question the lineage clusters alone are returned: the paraphrases stay apart.
    expect(sourcesOf(records).get('r0')).not.toBe(sourcesOf(records).get('r1'));
  });
});
