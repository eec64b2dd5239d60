/**
 * Stage 2 — cross-encoder reranking of the head of the pool.
 *
 * Cascade (RAG guide): cheap retrieval (80–150) → cross-encoder (20–40) → selection (5–12).
 * The reranker sees structured input, `[TITLE] … [SECTION] … [STATUS] … [TEXT] …`, so it can use
 * the document title, the heading trail and the version status, not only the chunk body.
 *
 * How scores combine: for the top N the cross-encoder's score *replaces* the fused score, mapped
 * through a sigmoid (cross-encoders such as ms-marco-MiniLM emit logits) so it lies in (0, 1).
 * Fused and cross-encoder scores are on unrelated scales, so a weighted sum would need tuning per
 * model; replacement does not. The candidates past N keep their fused order and are placed
 * strictly below the lowest reranked score, so reranking never lets an unreranked item jump ahead.
 *
 * Without a cross-encoder the stage is honest about it: scores pass through unchanged and the
 * trace says so.
 */
import type { Candidate, Chunk } from '../types';
import { EvidentError, assertKnownOptions } from '../errors';
import { throwIfAborted } from '../util/abort';
import type { AbortSignalLike, EvidenceLookup } from './common';
import {
  SELECTION_WORK,
  byScoreDesc,
  checkInt,
  checkOneOf,
  checkRange,
  headingLine,
  metaOf,
  withEntry,
} from './common';

/** A cross-encoder backend (src/models implements it). Returns one relevance score per passage, in order. */
export interface CrossEncoder {
  readonly id: string;
  score(query: string, passages: string[], signal?: AbortSignalLike): Promise<number[]>;
}

export const RERANK_NORMALIZATIONS = ['sigmoid', 'none'] as const;
export type RerankNormalization = (typeof RERANK_NORMALIZATIONS)[number];

export interface RerankOptions {
  /** How many of the best pool candidates the cross-encoder scores. Cascade: 20–40 (RAG guide). */
  readonly topN: number;
  /** 'sigmoid' for models that emit logits; 'none' for models that already return [0, 1] scores. */
  readonly normalize: RerankNormalization;
  /**
   * Candidates past N are scaled into [0, belowFactor × lowest reranked score): their fused order
   * is kept and they stay below every reranked item. Evident default, not from a paper.
   */
  readonly belowFactor: number;
  /** Characters of chunk text sent to the cross-encoder (its window is ~512 tokens; MiniLM cross-encoders truncate anyway). */
  readonly maxPassageChars: number;
}

export const DEFAULT_RERANK_OPTIONS: RerankOptions = Object.freeze({
  topN: 30,
  normalize: 'sigmoid',
  belowFactor: 0.9,
  maxPassageChars: 2000,
});

export interface RerankInput {
  readonly question: string;
  readonly lookup: EvidenceLookup;
  readonly crossEncoder?: CrossEncoder;
  readonly signal?: AbortSignalLike;
}

export interface RerankResult {
  /** All candidates, best first, each with a 'rerank' entry. */
  readonly candidates: readonly Candidate[];
  /** Id of the cross-encoder used, or null when scores passed through. */
  readonly reranker: string | null;
}

/** Reranker input for one chunk: `[TITLE] … [SECTION] … [STATUS] … [TEXT] …`. */
export function structuredPassage(
  title: string,
  headings: readonly string[],
  status: string,
  text: string,
  maxChars = DEFAULT_RERANK_OPTIONS.maxPassageChars,
): string {
  const body = text.length > maxChars ? text.slice(0, maxChars) : text;
  return `[TITLE] ${title} [SECTION] ${headingLine(headings)} [STATUS] ${status} [TEXT] ${body}`;
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** Scores the top N with the cross-encoder (when given) and orders the pool by the result. */
export async function rerankCandidates(
  candidates: readonly Candidate[],
  input: RerankInput,
  options: Partial<RerankOptions> = {},
): Promise<RerankResult> {
  assertKnownOptions(options, DEFAULT_RERANK_OPTIONS, 'rerank');
  const o: RerankOptions = { ...DEFAULT_RERANK_OPTIONS, ...options };
  checkInt('rerank', 'topN', o.topN, 1, 1000);
  checkOneOf('rerank', 'normalize', o.normalize, RERANK_NORMALIZATIONS);
  checkRange('rerank', 'belowFactor', o.belowFactor, 0, 1);
  checkInt('rerank', 'maxPassageChars', o.maxPassageChars, 1, 1_000_000);
  throwIfAborted(input.signal, SELECTION_WORK);

  const sorted = [...candidates].sort(byScoreDesc);
  const encoder = input.crossEncoder;
  if (!encoder || sorted.length === 0) {
    return {
      reranker: null,
      candidates: sorted.map((c, i) =>
        withEntry(c, {
          stage: 'rerank',
          score: c.score,
          kept: true,
          reason: encoder ? 'nothing to rerank' : 'no cross-encoder loaded: scores passed through',
          detail: { rank: i + 1 },
        }),
      ),
    };
  }

  const head = sorted.slice(0, o.topN);
  const tail = sorted.slice(o.topN);
  const passages = head.map((c) => {
    const chunk: Chunk | undefined = input.lookup.chunks.get(c.id);
    const meta = metaOf(input.lookup, c.docId);
    return structuredPassage(meta.title, chunk?.headings ?? [], meta.status, chunk?.text ?? '', o.maxPassageChars);
  });
  const raw = await encoder.score(input.question, passages, input.signal);
  throwIfAborted(input.signal, SELECTION_WORK);
  if (!Array.isArray(raw) || raw.length !== head.length) {
    throw new EvidentError(
      'internal',
      `Cross-encoder "${encoder.id}" returned ${Array.isArray(raw) ? raw.length : 'no'} scores for ${head.length} passages.`,
    );
  }
  // A NaN from the model cannot be ranked: it sorts last among the reranked, at score 0.
  const mapped = raw.map((x) => (Number.isFinite(x) ? (o.normalize === 'sigmoid' ? sigmoid(x) : x) : 0));
  const rerankedHead = head.map((c, i) => {
    const s = mapped[i] as number;
    return withEntry(
      c,
      {
        stage: 'rerank',
        score: s,
        kept: true,
        reason: `cross-encoder ${encoder.id}`,
        detail: { raw: raw[i] ?? null, fusedRank: i + 1 },
      },
      { score: s, scores: { ...c.scores, fused: c.scores.fused ?? c.score, rerank: s } },
    );
  });
  const lowest = rerankedHead.reduce((m, c) => Math.min(m, c.score), Infinity);
  // Tail: fused order kept, squeezed below the lowest reranked score. Positive fused scores
  // (RRF, BM25, cosine ≥ 0) keep their ratios; otherwise min-max so the order survives any sign.
  const tailScores = tail.map((c) => c.score);
  const max = Math.max(...tailScores.filter(Number.isFinite), -Infinity);
  const min = Math.min(...tailScores.filter(Number.isFinite), Infinity);
  const ceiling = Math.max(0, lowest) * o.belowFactor;
  const rerankedTail = tail.map((c, i) => {
    const v = c.score;
    let rel: number;
    if (!Number.isFinite(v)) rel = 0;
    else if (min > 0) rel = v / max;
    else rel = max > min ? (v - min) / (max - min) : 1;
    // A non-positive lowest (possible only with normalize 'none') cannot be scaled below; shift instead.
    const s = lowest > 0 ? ceiling * rel : lowest - 1 + 0.5 * rel;
    return withEntry(
      c,
      {
        stage: 'rerank',
        score: s,
        kept: true,
        reason: `past the top ${o.topN}: fused order kept below the reranked head`,
        detail: { fusedRank: head.length + i + 1 },
      },
      { score: s, scores: { ...c.scores, fused: c.scores.fused ?? c.score } },
    );
  });
  return { reranker: encoder.id, candidates: [...rerankedHead, ...rerankedTail].sort(byScoreDesc) };
}
