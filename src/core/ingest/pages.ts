/**
 * Page numbers for chunks: a chunk is on the page where its first character is. Pages are the
 * parser's character ranges into the same text the chunks were cut from (`ParsedDocument.pages`).
 * Chunks are immutable: the result holds new chunk objects with `page` set.
 */
import type { Chunk } from '../types';

export interface PageSpan {
  /** 1-based page number. */
  readonly page: number;
  /** [start, end) of the page's characters in the document text. */
  readonly start: number;
  readonly end: number;
}

/**
 * Chunks with `page` set from `pages` (sorted by `start`, as parsers emit them). A chunk that
 * starts between two pages' ranges (only whitespace lies there) gets the next page; one before
 * the first page gets the first; one after the last gets the last. Without pages, the chunks are
 * returned unchanged.
 */
export function assignPages(chunks: readonly Chunk[], pages: readonly PageSpan[]): Chunk[] {
  if (pages.length === 0) return [...chunks];
  // Pages with no text have empty ranges; they can never hold a chunk's first character.
  const spans = pages.filter((p) => p.end > p.start);
  if (spans.length === 0) return [...chunks];
  return chunks.map((chunk) => ({ ...chunk, page: pageAt(spans, chunk.start) }));
}

/** Page of offset `at`: the first span that ends after it (binary search), else the last. */
function pageAt(spans: readonly PageSpan[], at: number): number {
  let lo = 0;
  let hi = spans.length - 1;
  if (at >= (spans[hi] as PageSpan).end) return (spans[hi] as PageSpan).page;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((spans[mid] as PageSpan).end > at) hi = mid;
    else lo = mid + 1;
  }
  return (spans[lo] as PageSpan).page;
}
