/**
 * Stage 8 — diversification by Maximal Marginal Relevance (Carbonell & Goldstein 1998):
 * repeatedly pick argmax λ·rel(c) − (1−λ)·max_{s ∈ selected} sim(c, s), with λ = 0.7 (RAG guide,
 * "λ≈0.7"), plus a cap per document.
 *
 * rel is the candidate's score divided by the best score (so the MMR terms share the [0, 1] scale
 * of the similarity); sim is the cosine of the chunk vectors when both exist, else the Jaccard
 * similarity of their word sets.
 *
 * MMR trades relevance for coverage, which is wrong when the question asks for one fact ("when",
 * "who", "how many", "what is" questions, or a short question with a single rationale): the best
 * passage should not lose to a less relevant but different one. In 'auto' mode such questions are
 * ordered by relevance alone; 'on'/'off' force it. In every mode the stage never selects a
 * duplicate of an already selected item (cosine ≥ 0.97 or word Jaccard ≥ 0.8, the dedup
 * thresholds) and never more than `perDocument` chunks of one document.
 */
import type { Candidate } from '../types';
import { assertKnownOptions } from '../errors';
import type { EvidenceLookup } from './common';
import {
  byScoreDesc,
  checkInt,
  checkOneOf,
  checkRange,
  cosine,
  jaccard,
  minMax,
  textOf,
  tokenize,
  withEntry,
} from './common';
import type { Rationale } from './rationales';
import { isStopword } from './rationales';
import { FACTOID_OPENING } from '../lexicon/questions';

export const MMR_MODES = ['auto', 'on', 'off'] as const;
export type MmrMode = (typeof MMR_MODES)[number];

export interface MmrOptions {
  readonly mode: MmrMode;
  /** Relevance weight λ (Carbonell & Goldstein 1998; RAG guide λ≈0.7). */
  readonly lambda: number;
  /** Most chunks per document (RAG guide: caps per document). Evident default 3. */
  readonly perDocument: number;
  /** Most items this stage passes on (cascade "selection 5–12", RAG guide). */
  readonly maxSelect: number;
  /** Cosine at or above which a candidate duplicates a selected one (same as dedup's embedding threshold). */
  readonly duplicateCosine: number;
  /** Word-set Jaccard at or above which a candidate duplicates a selected one, when vectors are absent. */
  readonly duplicateJaccard: number;
}

export const DEFAULT_MMR_OPTIONS: MmrOptions = Object.freeze({
  mode: 'auto',
  lambda: 0.7,
  perDocument: 3,
  maxSelect: 12,
  duplicateCosine: 0.97,
  duplicateJaccard: 0.8,
});

export interface MmrInput {
  readonly question: string;
  readonly lookup: EvidenceLookup;
  readonly rationales?: readonly Rationale[];
}

export interface MmrResult {
  /** Selected candidates in MMR order. */
  readonly kept: readonly Candidate[];
  readonly dropped: readonly Candidate[];
  /** Whether diversity re-ranking ran (false: relevance order, caps and duplicate guard only). */
  readonly applied: boolean;
  readonly singleFact: boolean;
}

/**
 * Heuristic: a single-fact question is short (≤ 12 words), never a comparison, and either has at
 * most one rationale or opens like a factoid ("when…", "who…", "how many…", "what is…") with at
 * most two. Without rationales (undefined) only the length and the opening are judged.
 */
export function isSingleFactQuestion(question: string, rationales?: readonly Rationale[]): boolean {
  if (rationales?.some((r) => r.kind === 'comparison')) return false;
  const n = tokenize(question).length;
  if (n === 0 || n > 12) return false;
  if (rationales && rationales.length <= 1) return true;
  return FACTOID_OPENING.test(question) && (rationales === undefined || rationales.length <= 2);
}

/** Orders by MMR (or relevance for single-fact questions), dropping duplicates and per-document overflow. */
export function diversify(
  candidates: readonly Candidate[],
  input: MmrInput,
  options: Partial<MmrOptions> = {},
): MmrResult {
  assertKnownOptions(options, DEFAULT_MMR_OPTIONS, 'mmr');
  const o: MmrOptions = { ...DEFAULT_MMR_OPTIONS, ...options };
  checkOneOf('mmr', 'mode', o.mode, MMR_MODES);
  checkRange('mmr', 'lambda', o.lambda, 0, 1);
  checkInt('mmr', 'perDocument', o.perDocument, 1, 1000);
  checkInt('mmr', 'maxSelect', o.maxSelect, 1, 10_000);
  checkRange('mmr', 'duplicateCosine', o.duplicateCosine, -1, 1);
  checkRange('mmr', 'duplicateJaccard', o.duplicateJaccard, 0, 1);

  const singleFact = isSingleFactQuestion(input.question, input.rationales);
  const applied = o.mode === 'on' || (o.mode === 'auto' && !singleFact);
  const modeReason = applied ? '' : o.mode === 'off' ? 'MMR off' : 'MMR off: single-fact question';

  const items = [...candidates].sort(byScoreDesc);
  const maxScore = Math.max(...items.map((c) => (Number.isFinite(c.score) ? c.score : -Infinity)), -Infinity);
  const rel =
    maxScore > 0
      ? items.map((c) => (Number.isFinite(c.score) ? Math.max(0, c.score) / maxScore : 0))
      : minMax(items.map((c) => c.score));
  const vectors = items.map((c) => input.lookup.vectorOf?.(c.id));
  const wordSets = items.map(
    (c) =>
      new Set(
        tokenize(textOf(input.lookup, c.id))
          .map((t) => t.lower)
          .filter((w) => !isStopword(w)),
      ),
  );
  const simCache = new Map<number, number>();
  const sim = (i: number, j: number): { value: number; duplicate: boolean } => {
    const vi = vectors[i];
    const vj = vectors[j];
    if (vi && vj) {
      const v = cosine(vi, vj);
      return { value: v, duplicate: v >= o.duplicateCosine };
    }
    const key = Math.min(i, j) * items.length + Math.max(i, j);
    let v = simCache.get(key);
    if (v === undefined) {
      v = jaccard(wordSets[i] as Set<string>, wordSets[j] as Set<string>);
      simCache.set(key, v);
    }
    return { value: v, duplicate: v >= o.duplicateJaccard };
  };

  const selected: number[] = [];
  const perDoc = new Map<string, number>();
  const remaining = new Set(items.map((_, i) => i));
  const kept: Candidate[] = [];
  const dropped: Candidate[] = [];
  while (remaining.size > 0 && selected.length < o.maxSelect) {
    let best = -1;
    let bestValue = -Infinity;
    let bestMaxSim = 0;
    for (const i of [...remaining]) {
      const c = items[i] as Candidate;
      if ((perDoc.get(c.docId) ?? 0) >= o.perDocument) {
        remaining.delete(i);
        dropped.push(
          withEntry(c, {
            stage: 'mmr',
            score: c.score,
            kept: false,
            reason: `per-document cap: ${o.perDocument} chunks of ${c.docId} already selected`,
            detail: { perDocument: o.perDocument },
          }),
        );
        continue;
      }
      let maxSim = 0;
      let dupOf: number | null = null;
      for (const s of selected) {
        const x = sim(i, s);
        if (x.duplicate) {
          dupOf = s;
          maxSim = x.value;
          break;
        }
        if (x.value > maxSim) maxSim = x.value;
      }
      if (dupOf !== null) {
        remaining.delete(i);
        dropped.push(
          withEntry(c, {
            stage: 'mmr',
            score: c.score,
            kept: false,
            reason: `too similar to selected ${(items[dupOf] as Candidate).id} (similarity ${maxSim.toFixed(2)})`,
            detail: { duplicateOf: (items[dupOf] as Candidate).id, similarity: maxSim },
          }),
        );
        continue;
      }
      const value = applied ? o.lambda * (rel[i] as number) - (1 - o.lambda) * maxSim : (rel[i] as number);
      // Ties keep score order: `items` is sorted and only a strictly better value replaces `best`.
      if (value > bestValue || best < 0) {
        best = i;
        bestValue = value;
        bestMaxSim = maxSim;
      }
    }
    if (best < 0) break;
    remaining.delete(best);
    selected.push(best);
    const c = items[best] as Candidate;
    perDoc.set(c.docId, (perDoc.get(c.docId) ?? 0) + 1);
    kept.push(
      withEntry(c, {
        stage: 'mmr',
        score: c.score,
        kept: true,
        ...(modeReason ? { reason: modeReason } : {}),
        detail: {
          order: selected.length,
          mmr: bestValue,
          relevance: rel[best] as number,
          maxSimilarity: bestMaxSim,
          applied,
        },
      }),
    );
  }
  for (const i of remaining) {
    const c = items[i] as Candidate;
    dropped.push(
      withEntry(c, {
        stage: 'mmr',
        score: c.score,
        kept: false,
        reason: `beyond the ${o.maxSelect} most useful items`,
        detail: { maxSelect: o.maxSelect },
      }),
    );
  }
  return { kept, dropped, applied, singleFact };
}
