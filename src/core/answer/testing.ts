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

/**
 * A passage of one filing ('d') with its own header line (`[S2] Filing (p. 57) — | | 2019 | 2018 |`:
 * a table's title and column header ride there), as the table readers see a packed table chunk.
 */
export function filingSource(
  citationId: string,
  header: string,
  body: string,
  extra: Partial<PackedSource> = {},
): PackedSource {
  return {
    citationId,
    candidateId: `d#${citationId}`,
    docId: 'd',
    chunkId: `d#${citationId}`,
    title: 'Filing',
    headings: [],
    start: 0,
    end: body.length,
    text: `${header}\n${body}`,
    tokens: 50,
    score: 1,
    sourceType: 'official_filing',
    status: 'current',
    rationaleIds: [],
    group: null,
    ...extra,
  };
}
