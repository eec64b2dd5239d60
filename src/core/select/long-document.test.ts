import { describe, expect, it } from 'vitest';
import type { Candidate } from '../types';
import { longDocumentProfile } from './long-document';
import { selectEvidence } from './select';
import { buildCorpus } from './testing';

const WORDS =
  'alpha bravo cedar delta ember fjord garnet harbor iris juniper kestrel lumen meadow nickel orchid pewter quarry russet sierra timber umber vellum willow xenon yarrow zinc'.split(
    ' ',
  );

/** A long filing (60 chunks about revenue, costs and cash) and two short memos. */
const corpus = buildCorpus([
  {
    id: 'filing',
    title: 'Annual report',
    chunks: Array.from({ length: 60 }, (_, i) => ({
      // Distinct wording per chunk, so dedup's near-duplicate check keeps them apart.
      text: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + 3) % WORDS.length]} revenue and operating costs: ${WORDS[(i * 13 + 5) % WORDS.length]} ${WORDS[(i * 5 + 1) % WORDS.length]} changed ${i + 3} percent.`,
      headings: ['Item 7', `Segment ${i % 12}`],
    })),
  },
  { id: 'memo-a', chunks: ['Revenue rose in the north.', 'Costs fell.'] },
  { id: 'memo-b', chunks: ['Cash flow was steady.'] },
]);

const candidate = (id: string, score: number): Candidate => ({
  id,
  docId: id.split('#')[0]!,
  score,
  scores: { fused: score },
  ranks: {},
  trace: [],
});

/** Near-equal scores after one clear gap: the elbow keeps one. */
const filingPool = [
  candidate('filing#0', 1),
  ...Array.from({ length: 40 }, (_, i) => candidate(`filing#${i + 1}`, 0.6 - i * 0.001)),
];

describe('longDocumentProfile', () => {
  it('reads a pool from one long document as long, and a pool of short documents as not', () => {
    const lookup = { chunks: corpus.chunks, documents: corpus.documents };
    const long = longDocumentProfile(filingPool, lookup);
    expect(long.long).toBe(true);
    expect(long.share).toBe(1);
    expect(long.documents).toEqual([{ docId: 'filing', chunks: 60 }]);
    expect(long.minKeep).toBeGreaterThan(1);
    const short = longDocumentProfile(
      [candidate('memo-a#0', 1), candidate('memo-b#0', 0.9), candidate('memo-a#1', 0.5)],
      lookup,
    );
    expect(short.long).toBe(false);
    expect(short.minKeep).toBeNull();
    expect(longDocumentProfile([], lookup).long).toBe(false);
  });

  it('counts the share over the window only, and names the unknown option', () => {
    const lookup = { chunks: corpus.chunks, documents: corpus.documents };
    const mixed = [
      candidate('memo-a#0', 1),
      candidate('memo-b#0', 0.9),
      candidate('filing#1', 0.8),
      candidate('filing#2', 0.7),
    ];
    expect(longDocumentProfile(mixed, lookup, { window: 2 }).long).toBe(false);
    expect(longDocumentProfile(mixed, lookup, { window: 4 }).long).toBe(true);
    expect(() => longDocumentProfile(mixed, lookup, { windows: 3 } as never)).toThrow(/windows/);
  });
});

describe('selection over a long document', () => {
  const input = {
    question: 'How did revenue and operating costs change?',
    candidates: filingPool,
    chunks: corpus.chunks,
    documents: corpus.documents,
  };

  it('keeps at least minKeep past a steep first gap, and says why', async () => {
    const packet = await selectEvidence(input);
    expect(packet.longDocument?.long).toBe(true);
    expect(packet.sources.length).toBeGreaterThanOrEqual(8);
    const off = await selectEvidence(input, { longDocument: null });
    expect(off.longDocument).toBeNull();
    expect(off.sources.length).toBeLessThan(packet.sources.length);
  });

  it('lets the long-document floor pass the upper bound set for short passages, never more', async () => {
    const floor = { minChunks: 40, minShare: 0.5, window: 20, minKeep: 9, perDocument: 20, perSection: 20 };
    const packet = await selectEvidence(input, {
      maxEvidence: 5,
      cutoff: { minKeep: 1, maxKeep: 5 },
      longDocument: floor,
    });
    expect(packet.sources.length).toBeGreaterThan(5);
    expect(packet.sources.length).toBeLessThanOrEqual(9);
    // A pool of short documents keeps the user's bound.
    const short = await selectEvidence(
      {
        ...input,
        candidates: [candidate('memo-a#0', 1), candidate('memo-b#0', 0.99), candidate('memo-a#1', 0.98)],
      },
      { maxEvidence: 2, cutoff: { minKeep: 1, maxKeep: 2 }, longDocument: floor },
    );
    expect(short.longDocument?.long).toBe(false);
    expect(short.sources.length).toBeLessThanOrEqual(2);
  });
});
