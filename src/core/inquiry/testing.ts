/**
 * A tiny world for the inquiry tests, in a domain of its own (supply contracts), worded unlike
 * the evaluation worlds: a memo that says which record governs, two look-alike trade-blog pages
 * stating a false answer, the executed agreement (which names the parties and defers the currency
 * to a schedule), the schedule (which never names the parties), and noise.
 */
import { Bm25Index } from '../lexical/bm25';
import { bm25TermStats, searchWithTermWeights } from '../retrieval/term-weights';
import type { InquiryRecord, InquirySearch } from './types';

export const CONTRACT_QUESTION =
  'What are the payment term and the currency of the supply contract between Brennic Foods and Halvorsen Mills?';

const rec = (id: string, title: string, text: string): InquiryRecord => ({ id, docId: id, title, text });

export const CONTRACT_CORPUS: readonly InquiryRecord[] = [
  rec(
    'memo',
    'Memo',
    'Draft memo on supplier terms. Terms of the supply contract between Brennic Foods and Halvorsen Mills are being renegotiated. Only the executed master agreement on file with the Pellam Legal Office governs the terms.',
  ),
  rec(
    'blog-1',
    'Trade blog',
    'Brennic Foods pays Halvorsen Mills within 90 days, in dollars, under the supply contract, a trade blog reports.',
  ),
  rec(
    'blog-2',
    'Trade blog',
    'Brennic Foods pays Halvorsen Mills within 90 days, in dollars, under the supply contract, a trade newsletter reports.',
  ),
  rec(
    'agreement',
    'Agreement',
    'Executed master agreement MA-2231. Parties: Brennic Foods and Halvorsen Mills. Payment falls due net 30 days after delivery. The invoicing currency is as defined in Schedule 4 of this agreement. Countersigned at the Pellam Legal Office.',
  ),
  rec(
    'schedule',
    'Schedule',
    'Schedule 4 of master agreement MA-2231. Every invoice under this agreement is issued in euros.',
  ),
  rec('noise-1', 'Page', 'The Pellam Legal Office archives executed agreements for ten years.'),
  rec('noise-2', 'Page', 'Halvorsen Mills opened a second flour plant near the river this spring.'),
  rec('noise-3', 'Page', 'Payment terms in the food trade are often 60 days; currencies vary by market.'),
];

/** Ids of the first retrieval's evidence: the memo and the two look-alike pages. */
export const CONTRACT_INITIAL = ['memo', 'blog-1', 'blog-2'] as const;

export function contractRecords(ids: readonly string[]): InquiryRecord[] {
  return ids.map((id) => CONTRACT_CORPUS.find((r) => r.id === id) as InquiryRecord);
}

/** A real BM25 search (term weights, as the engine searches) over the world, counting its calls. */
export function contractSearch(
  corpus: readonly InquiryRecord[] = CONTRACT_CORPUS,
): InquirySearch & { calls: string[] } {
  const index = Bm25Index.build(corpus.map((r) => ({ id: r.id, title: r.title, headings: '', text: r.text })));
  const stats = bm25TermStats(index);
  const byId = new Map(corpus.map((r) => [r.id, r]));
  const calls: string[] = [];
  const search = (query: string, k: number): Promise<InquiryRecord[]> => {
    calls.push(query);
    return Promise.resolve(
      searchWithTermWeights(index, index.analyze(query), { k }, { stats }).map((h) => byId.get(h.id) as InquiryRecord),
    );
  };
  return Object.assign(search, { calls });
}
