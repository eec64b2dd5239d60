/**
 * Hidden-text marks for chunks: the parser's ranges of text a reader cannot see
 * (`ParsedDocument.hidden`, offsets into the document text) become each chunk's `hidden` spans,
 * offsets into that chunk's `text` (the exact source slice [start, end)). Chunks are immutable:
 * the result holds new objects for the chunks that overlap a range, the others unchanged.
 */
import type { Chunk, HiddenSpan, HiddenTextKind } from '../types';

export interface HiddenRangeInput {
  readonly start: number;
  readonly end: number;
  readonly kind: HiddenTextKind;
}

/** Chunks with `hidden` set where a range (sorted by `start`, as parsers emit them) overlaps them. */
export function assignHidden(chunks: readonly Chunk[], ranges: readonly HiddenRangeInput[] | undefined): Chunk[] {
  if (ranges === undefined || ranges.length === 0) return [...chunks];
  return chunks.map((chunk) => {
    const spans: HiddenSpan[] = [];
    for (const r of ranges) {
      if (r.start >= chunk.end) break;
      if (r.end <= chunk.start) continue;
      spans.push({
        start: Math.max(r.start, chunk.start) - chunk.start,
        end: Math.min(r.end, chunk.end) - chunk.start,
        kind: r.kind,
      });
    }
    return spans.length > 0 ? { ...chunk, hidden: spans } : chunk;
  });
}
