/**
 * Long documents: the evidence of a question over a 100–250-page filing or handbook is spread
 * over many chunks of one document that score nearly alike (a statement's rows, the note that
 * explains them, the discussion in Item 7). The elbow cutoff was made for a pool of many short
 * documents, where a clear gap after the first one or two is the rule; over one long document it
 * keeps one chunk, and a top-5 holds the answering page more often than that.
 *
 * This stage reads the pool and says whether it is dominated by long documents: at least
 * `minShare` of its first `window` candidates come from documents with `minChunks` chunks or
 * more (counted over the chunks selection can see). When it is, selection keeps at least
 * `minKeep` candidates past the cutoff (past the user's upper bound when it is lower; the token
 * budget still trims), lets MMR take up to `perDocument` chunks of one document and dedup up to
 * `perSection` of one section (a statement's rows and its notes share one). Short-document pools (SciFact
 * abstracts, news passages, policies) are unaffected.
 */
import { assertKnownOptions } from '../errors';
import type { Candidate } from '../types';
import { checkInt, checkRange, type EvidenceLookup } from './common';

export interface LongDocumentOptions {
  /** A document with at least this many chunks is long (about 15–20 pages of prose). Default 40. */
  readonly minChunks: number;
  /** Share of the window's candidates from long documents that makes the pool long. Default 0.5. */
  readonly minShare: number;
  /** Candidates (best first) the share is read over. Default 20. */
  readonly window: number;
  /**
   * Least evidence kept past the cutoff for a long pool; it may exceed the cutoff's upper bound
   * (select.ts). Default 20 (financebench dev half;
   * docs/decisions/2026-12-01-long-document-floor.md).
   */
  readonly minKeep: number;
  /** MMR's cap on chunks of one document for a long pool. Default 20. */
  readonly perDocument: number;
  /** Dedup's cap on chunks of one section for a long pool (a statement's rows share one). Default 6. */
  readonly perSection: number;
}

export const DEFAULT_LONG_DOCUMENT_OPTIONS: LongDocumentOptions = Object.freeze({
  minChunks: 40,
  minShare: 0.5,
  window: 20,
  minKeep: 20,
  perDocument: 20,
  perSection: 6,
});

export interface LongDocumentProfile {
  /** True when the pool is dominated by long documents. */
  readonly long: boolean;
  /** Share of the window from long documents. */
  readonly share: number;
  /** The long documents among the window's, with their chunk counts, most chunks first. */
  readonly documents: readonly { readonly docId: string; readonly chunks: number }[];
  /** What selection does differently (null when nothing). */
  readonly minKeep: number | null;
  readonly perDocument: number | null;
  readonly perSection: number | null;
  readonly reason: string;
}

/** Chunks per document among those selection can see. */
function chunkCounts(lookup: EvidenceLookup): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of lookup.chunks.values()) counts.set(c.docId, (counts.get(c.docId) ?? 0) + 1);
  return counts;
}

/** Reads the pool (in score order) and says whether selection should treat it as long documents. */
export function longDocumentProfile(
  pool: readonly Candidate[],
  lookup: EvidenceLookup,
  options: Partial<LongDocumentOptions> = {},
): LongDocumentProfile {
  assertKnownOptions(options, DEFAULT_LONG_DOCUMENT_OPTIONS, 'longDocument');
  const o: LongDocumentOptions = { ...DEFAULT_LONG_DOCUMENT_OPTIONS, ...options };
  checkInt('longDocument', 'minChunks', o.minChunks, 1, 1e9);
  checkRange('longDocument', 'minShare', o.minShare, 0, 1);
  checkInt('longDocument', 'window', o.window, 1, 1e6);
  checkInt('longDocument', 'minKeep', o.minKeep, 1, 1000);
  checkInt('longDocument', 'perDocument', o.perDocument, 1, 1000);
  checkInt('longDocument', 'perSection', o.perSection, 1, 1000);

  const window = pool.slice(0, o.window);
  if (window.length === 0) {
    return {
      long: false,
      share: 0,
      documents: [],
      minKeep: null,
      perDocument: null,
      perSection: null,
      reason: 'empty pool',
    };
  }
  const counts = chunkCounts(lookup);
  const isLong = (docId: string): boolean => (counts.get(docId) ?? 0) >= o.minChunks;
  const share = window.filter((c) => isLong(c.docId)).length / window.length;
  const documents = [...new Set(window.map((c) => c.docId))]
    .filter(isLong)
    .map((docId) => ({ docId, chunks: counts.get(docId) ?? 0 }))
    .sort((a, b) => b.chunks - a.chunks);
  const long = share >= o.minShare;
  const pct = `${Math.round(share * 100)} %`;
  return {
    long,
    share,
    documents,
    minKeep: long ? o.minKeep : null,
    perDocument: long ? o.perDocument : null,
    perSection: long ? o.perSection : null,
    reason: long
      ? `${pct} of the first ${window.length} candidates come from documents of ≥ ${o.minChunks} chunks: keep at least ${o.minKeep}, up to ${o.perDocument} per document and ${o.perSection} per section`
      : `${pct} of the first ${window.length} candidates come from long documents (< ${Math.round(o.minShare * 100)} %)`,
  };
}
