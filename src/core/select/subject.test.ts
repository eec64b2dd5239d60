import { describe, expect, it } from 'vitest';
import type { SourceType } from '../types';
import { buildCorpus, candidate, deepFreeze } from './testing';
import { selectEvidence } from './select';
import { filterBySubject, subjectOf } from './subject';

const doc = (id: string, title: string, sourceType: SourceType, text: string) => ({
  id,
  title,
  sourceType,
  chunks: [text],
});

// The demo library's policies beside two filings (issue 28's drift: filing passages were packed
// for a question about remote work).
const corpus = buildCorpus([
  doc('v3', 'Remote Work Policy v3.0', 'internal_policy', 'Employees may work remotely up to three days per week.'),
  doc('blog', 'Why we are going fully remote (blog)', 'blog', 'We let everyone work remotely every day.'),
  doc(
    'travel',
    'Travel and Expenses Policy v1.4',
    'internal_policy',
    'Hotel costs are reimbursed up to EUR 150 a night.',
  ),
  doc(
    'mmm',
    '3M Company — Form 10-K, fiscal year ended December 31, 2022',
    'official_filing',
    'Many employees work remotely several days per week under hybrid arrangements.',
  ),
  doc(
    'mgm',
    'MGM Resorts International — Form 10-K, fiscal year ended December 31, 2022',
    'official_filing',
    'Certain corporate employees may work remotely; casino staff work on site.',
  ),
]);
const lookup = { chunks: corpus.chunks, documents: corpus.documents };
const pool = deepFreeze(['mmm#0', 'v3#0', 'mgm#0', 'blog#0', 'travel#0'].map((id, i) => candidate(id, 1 - i / 10)));
const ids = (cs: readonly { id: string }[]) => cs.map((c) => c.id);

describe('subjectOf', () => {
  it.each([
    ['3M Company — Form 10-K, fiscal year ended December 31, 2022', 'official_filing', '3M Company'],
    ['MGM Resorts International — Form 10-K', 'official_filing', 'MGM Resorts International'],
    ['10-K - 02/08/2023 - 3M Company', 'official_filing', '3M Company'],
    ['Company — Form 10-K', 'official_filing', null],
    ['10-Q - 2023-05-02', 'official_filing', null],
    ['Annual report 2022', 'official_filing', null],
    ['Remote Work Policy — Draft', 'internal_policy', null],
  ] as const)('%s (%s) → %s', (title, sourceType, subject) => {
    expect(subjectOf({ id: 'd', title, sourceType, status: 'current' })).toBe(subject);
  });
});

describe('filterBySubject', () => {
  it('drops every filing for a question that names another document by its title', () => {
    const r = filterBySubject('How many days per week can I work remotely?', pool, lookup);
    expect(ids(r.kept)).toEqual(['v3#0', 'blog#0', 'travel#0']);
    expect(ids(r.dropped)).toEqual(['mmm#0', 'mgm#0']);
    expect(r.named).toEqual(['Remote Work Policy v3.0', 'Why we are going fully remote (blog)']);
    const entry = r.dropped[0]!.trace.at(-1)!;
    expect(entry).toMatchObject({ stage: 'subject', kept: false });
    expect(entry.reason).toMatch(
      /^a filing about 3M Company, which the question does not name \(it names "Remote Work Policy v3\.0"/,
    );
  });

  it('keeps the filing of the company the question names, and drops the other company’s', () => {
    const r = filterBySubject('Do MGM Resorts employees work remotely?', pool, lookup);
    expect(ids(r.dropped)).toEqual(['mmm#0']);
    expect(ids(r.kept)).toContain('mgm#0');
    expect(r.named).toEqual(['MGM Resorts International']);
    // A legal form names nobody: "the company" is not 3M Company.
    expect(filterBySubject('Does the company offer hybrid arrangements?', pool, lookup)).toMatchObject({
      dropped: [],
      named: [],
    });
  });

  it('keeps everything for a question that names nothing, or when only filings would be left out', () => {
    expect(filterBySubject('What are the hybrid arrangements?', pool, lookup)).toMatchObject({
      dropped: [],
      named: [],
    });
    const onlyFilings = [candidate('mmm#0', 1), candidate('mgm#0', 0.9)];
    expect(filterBySubject('How many days per week can I work remotely?', onlyFilings, lookup).dropped).toEqual([]);
  });

  it('lets a word most titles hold name no document', () => {
    // "policy" is in two of three titles in play: it names neither.
    const three = [candidate('v3#0', 1), candidate('travel#0', 0.9), candidate('mmm#0', 0.8)];
    expect(filterBySubject('What does the policy say about phones?', three, lookup).dropped).toEqual([]);
    expect(
      filterBySubject('What does the policy say about phones?', three, lookup, { titleShare: 1 }).dropped,
    ).toHaveLength(1);
  });

  it('rejects unknown options and out-of-range values', () => {
    expect(() => filterBySubject('q', pool, lookup, { share: 1 } as never)).toThrow(/share/);
    expect(() => filterBySubject('q', pool, lookup, { titleShare: 2 })).toThrow(/titleShare/);
  });
});

describe('selectEvidence and the subject stage', () => {
  // The drift e2e, small: a filing passage retrieved past the pool stated "two days" of remote work
  // and, read by verify as context, stood as a rival of the current policy's "three days".
  const library = buildCorpus([
    doc('v3', 'Remote Work Policy v3.0', 'internal_policy', 'Staff may work remotely for up to three days per week.'),
    {
      ...doc(
        'v2',
        'Remote Work Policy v2.1',
        'internal_policy',
        'Staff may work remotely for up to two days per week.',
      ),
      status: 'superseded' as const,
    },
    doc(
      'mgm',
      'MGM Resorts International — Form 10-K, fiscal year ended December 31, 2022',
      'official_filing',
      'Under the hybrid policy for corporate offices, employees work remotely two days per week.',
    ),
  ]);
  const input = {
    question: 'How many days per week can staff work remotely?',
    candidates: [candidate('v3#0', 1), candidate('v2#0', 0.9), candidate('mgm#0', 0.1)],
    chunks: library.chunks,
    documents: library.documents,
  };
  const small = { maxEvidence: 2, pool: { factor: 1, minPool: 2 } };

  it('reads no passage of a filing that leaves as the other side of a conflict, even past the pool', async () => {
    const p = await selectEvidence(input, small);
    expect(p.conflicts).toHaveLength(1);
    expect(p.conflicts[0]).toMatchObject({ status: 'resolved', winner: '3day' });
    expect(p.sources.map((s) => s.candidateId)).toEqual(['v3#0']);
  });

  it('without the stage, the filing makes the conflict unresolved', async () => {
    const p = await selectEvidence(input, { ...small, subject: null });
    expect(p.conflicts[0]).toMatchObject({ status: 'unresolved' });
  });
});
