/**
 * A library over chunks already in memory whose retrieval is a function: the answer path's
 * `AnswerLibrary` for a benchmark that retrieves in its own way (RGB's per-question passages, the
 * SciFact ablation's prepared candidates). The hits carry their chunk's title, headings and text,
 * as the engine's do.
 */
import type { Candidate, Chunk, DocumentMeta } from '../types';
import type { AnswerLibrary, RetrievalResponse } from './answer-question';

export interface CandidateLibraryInput {
  readonly chunks: ReadonlyMap<string, Chunk>;
  readonly documents: ReadonlyMap<string, DocumentMeta>;
  readonly vectorOf?: (id: string) => Float32Array | undefined;
  /** The ranked candidates for a query (the benchmark's retrieval), best first. */
  readonly retrieve: (query: string, k: number) => readonly Candidate[] | Promise<readonly Candidate[]>;
  /** Whether `retrieve` has a dense side (reported as the engine reports it). */
  readonly dense: boolean;
  readonly fusion: string;
}

export function candidateLibrary(input: CandidateLibraryInput): AnswerLibrary {
  const { chunks, documents } = input;
  return {
    async search(query, { k = 100 } = {}): Promise<RetrievalResponse> {
      const ranked = (await input.retrieve(query, k)).slice(0, k);
      return {
        dense: input.dense,
        fusion: input.fusion,
        timings: {},
        hits: ranked.map((c, i) => {
          const chunk = chunks.get(c.id);
          return {
            rank: i + 1,
            chunkId: c.id,
            docId: c.docId,
            title: documents.get(c.docId)?.title ?? c.docId,
            headings: chunk?.headings ?? [],
            text: chunk?.text ?? '',
            score: c.score,
            scores: c.scores,
            ranks: c.ranks,
            trace: c.trace,
          };
        }),
      };
    },
    selectionView: () => ({ chunks, documents }),
    vectorOf: (id) => input.vectorOf?.(id),
  };
}
