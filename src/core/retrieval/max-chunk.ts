/**
 * The max-chunk dense document representation shared by the eval CLI (`src/cli/dense-run.ts`)
 * and the in-browser benchmark (`src/worker/benchmark.ts`): the title followed by consecutive
 * sentences packed up to the encoder's window, one vector per chunk, and a document scores its
 * best chunk (MaxP, Dai & Callan 2019). Runtime-neutral: the callers embed and index.
 */
import type { Hit } from '../types';

/** A document as the BEIR corpora give it: title, text and, for SciFact, its own sentence split. */
export interface ChunkableDoc {
  readonly id: string;
  readonly title: string;
  readonly text: string;
  /** The dataset's own sentence split of `text`, when it ships one (SciFact does). */
  readonly sentences?: readonly string[];
}

const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z0-9(])/;

/** The document's sentences: the dataset's own split when it has one, else a split on end marks. */
export function sentencesOf(doc: ChunkableDoc): readonly string[] {
  if (doc.sentences && doc.sentences.length > 0) return doc.sentences;
  return doc.text.split(SENTENCE_END).filter((s) => s.trim() !== '');
}

/**
 * Title + consecutive sentences, packed while the chunk fits `maxTokens` (a sentence longer than
 * the window gets a chunk of its own, which the encoder truncates). Every document yields ≥ 1.
 */
export function packChunks(doc: ChunkableDoc, countTokens: (text: string) => number, maxTokens: number): string[] {
  const title = doc.title.trim();
  const titleTokens = title === '' ? 0 : countTokens(title);
  const chunks: string[] = [];
  let current: string[] = [];
  let used = titleTokens;
  const flush = (): void => {
    if (current.length > 0) chunks.push([title, ...current].filter((s) => s !== '').join(' '));
    current = [];
    used = titleTokens;
  };
  for (const sentence of sentencesOf(doc)) {
    const n = countTokens(sentence);
    if (current.length > 0 && used + n > maxTokens) flush();
    current.push(sentence);
    used += n;
  }
  flush();
  if (chunks.length === 0) chunks.push(title);
  return chunks;
}

/**
 * The top `depth` documents of chunk hits that come best first (`owner[chunk id]` is the chunk's
 * document): a document keeps its first, that is best, chunk's score.
 */
export function bestChunkPerDoc(chunkHits: Iterable<Hit>, owner: readonly string[], depth: number): Hit[] {
  const best = new Map<string, number>();
  for (const h of chunkHits) {
    const id = owner[Number(h.id)] as string;
    if (!best.has(id)) best.set(id, h.score);
    if (best.size >= depth) break;
  }
  return [...best].map(([id, score]) => ({ id, score }));
}
