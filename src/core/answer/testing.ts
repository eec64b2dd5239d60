/** Fixture builders for the answer stage's tests: packed sources from plain text. Not used by the app. */
import type { PackedSource } from '../select/pack';

/** A packed source S{i} whose chunk text is `body` (header line as the pack stage writes it). */
export function source(i: number, body: string, extra: Partial<PackedSource> = {}): PackedSource {
  const citationId = `S${i}`;
  return {
    citationId,
    candidateId: `d${i}#0`,
    docId: `d${i}`,
    chunkId: `d${i}#0`,
    title: `Doc ${i}`,
    headings: [],
    start: 0,
    end: body.length,
    text: `[${citationId}] Doc ${i}\n${body}`,
    tokens: Math.ceil(body.length / 4),
    score: 1 / i,
    sourceType: 'government',
    status: 'current',
    rationaleIds: [],
    group: null,
    ...extra,
  };
}
