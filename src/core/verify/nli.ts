/**
 * Verify, check 4 — contradictions by a natural-language-inference model (ReliabilityRAG), when
 * one is loaded.
 *
 * Each candidate contributes its claim: the sentence (or `claimsPerCandidate` sentences) that best
 * matches the question. Claims of candidates from different documents are classified in both
 * directions; a pair whose contradiction probability reaches `contradiction` in either direction
 * is an edge of the contradiction graph. We keep a maximum independent set of that graph — the
 * largest set of mutually consistent candidates — exact by branch and bound up to `exactLimit`
 * vertices, greedy (minimum degree first) beyond. Among sets of equal size the one with the larger
 * total weight wins, where a candidate's weight is (2λ + rank share)/3 (ReliabilityRAG's tie-break
 * toward more reliable, higher-ranked documents; λ counts double, our choice). Candidates outside
 * the set are dropped.
 *
 * Members of an unresolved conflict (conflict.ts) are protected: the answer must show both sides,
 * so edges that touch them are ignored.
 */
import type { Candidate } from '../types';
import { EvidentError, assertKnownOptions } from '../errors';
import type { AbortSignalLike, EvidenceLookup } from '../util/stage';
import { checkInt, checkRange, throwIfAborted, withEntry } from '../util/stage';
import { termsOf } from '../select/rationales';
import { splitSentences } from '../text/sentences';
import { VERIFY_STAGE, lambdaOf } from './common';

export interface EntailmentScores {
  readonly entailment: number;
  readonly neutral: number;
  readonly contradiction: number;
}

export interface EntailmentPair {
  readonly premise: string;
  readonly hypothesis: string;
}

/** An NLI model: probabilities of entailment, neutral and contradiction for each (premise, hypothesis). */
export interface EntailmentModel {
  readonly id: string;
  classify(pairs: readonly EntailmentPair[], signal?: AbortSignalLike): Promise<EntailmentScores[]>;
}

export interface NliOptions {
  /** Contradiction probability at or above which two claims contradict (argmax level for a 3-way softmax is ≥ 1/3; we ask for a majority). Evident default. */
  readonly contradiction: number;
  /** Sentences per candidate treated as its claims. Evident default: the best one (keeps the pair count small in a browser). */
  readonly claimsPerCandidate: number;
  /** Graphs up to this many vertices are solved exactly (branch and bound); larger ones greedily. */
  readonly exactLimit: number;
  /** Most (premise, hypothesis) pairs sent to the model; pairs of lower-ranked candidates are left out beyond it. */
  readonly maxPairs: number;
}

export const DEFAULT_NLI_OPTIONS: NliOptions = Object.freeze({
  contradiction: 0.5,
  claimsPerCandidate: 1,
  exactLimit: 24,
  maxPairs: 400,
});

export interface NliInput {
  readonly question: string;
  readonly lookup: EvidenceLookup;
  readonly model?: EntailmentModel;
  /** Candidates whose edges are ignored (sides of an unresolved conflict). */
  readonly protectedIds?: ReadonlySet<string>;
  readonly signal?: AbortSignalLike;
}

export interface ContradictionEdge {
  readonly a: string;
  readonly b: string;
  readonly contradiction: number;
}

export interface NliResult {
  readonly kept: readonly Candidate[];
  readonly dropped: readonly Candidate[];
  readonly edges: readonly ContradictionEdge[];
  /** Model id, or null when none was loaded (candidates pass through unchanged). */
  readonly model: string | null;
}

/**
 * Maximum independent set of a graph on vertices 0…n−1: largest size first, then largest total
 * weight (weights in (0, 1]). Exact (branch and bound) when n ≤ exactLimit, greedy otherwise.
 * Returns the chosen vertices in increasing order.
 */
export function maximumIndependentSet(
  n: number,
  edges: readonly (readonly [number, number])[],
  weights: readonly number[],
  exactLimit = DEFAULT_NLI_OPTIONS.exactLimit,
): number[] {
  const adj: Set<number>[] = Array.from({ length: n }, () => new Set<number>());
  for (const [a, b] of edges) {
    if (a === b || a < 0 || b < 0 || a >= n || b >= n) continue;
    adj[a]!.add(b);
    adj[b]!.add(a);
  }
  const w = (v: number): number => weights[v] ?? 0;
  if (n > exactLimit) {
    const alive = new Set(Array.from({ length: n }, (_, i) => i));
    const chosen: number[] = [];
    while (alive.size > 0) {
      let best = -1;
      let bestDeg = Infinity;
      for (const v of alive) {
        let deg = 0;
        for (const u of adj[v]!) if (alive.has(u)) deg++;
        if (deg < bestDeg || (deg === bestDeg && (w(v) > w(best) || (w(v) === w(best) && v < best)))) {
          best = v;
          bestDeg = deg;
        }
      }
      chosen.push(best);
      alive.delete(best);
      for (const u of adj[best]!) alive.delete(u);
    }
    return chosen.sort((a, b) => a - b);
  }
  // Branch on the highest-degree vertex (include it / exclude it); isolated vertices are always taken.
  let bestSet: number[] = [];
  let bestSize = -1;
  let bestWeight = -1;
  const better = (size: number, weight: number): boolean =>
    size > bestSize || (size === bestSize && weight > bestWeight + 1e-12);
  const search = (cand: readonly number[], chosen: number[], weight: number): void => {
    // Bound: even taking every remaining candidate cannot beat the best.
    const remW = cand.reduce((s, v) => s + w(v), 0);
    if (!better(chosen.length + cand.length, weight + remW)) return;
    let pivot = -1;
    let pivotDeg = 0;
    for (const v of cand) {
      let deg = 0;
      for (const u of adj[v]!) if (cand.includes(u)) deg++;
      if (deg > pivotDeg) {
        pivot = v;
        pivotDeg = deg;
      }
    }
    if (pivot < 0) {
      // No edges left among the candidates: take them all.
      const size = chosen.length + cand.length;
      if (better(size, weight + remW)) {
        bestSet = [...chosen, ...cand];
        bestSize = size;
        bestWeight = weight + remW;
      }
      return;
    }
    const without = cand.filter((v) => v !== pivot);
    search(
      without.filter((v) => !adj[pivot]!.has(v)),
      [...chosen, pivot],
      weight + w(pivot),
    );
    search(without, chosen, weight);
  };
  search(
    Array.from({ length: n }, (_, i) => i),
    [],
    0,
  );
  return bestSet.sort((a, b) => a - b);
}

function claimsOf(text: string, question: string, k: number): string[] {
  const q = new Set(termsOf(question));
  const scored = splitSentences(text)
    .map((s, i) => {
      const sentence = text.slice(s.start, s.end);
      const terms = termsOf(sentence);
      const overlap = terms.filter((t) => q.has(t)).length;
      return { sentence, score: overlap - i * 1e-3 };
    })
    .filter((x) => x.sentence.length > 0)
    .sort((a, b) => b.score - a.score);
  return scored.slice(0, k).map((x) => x.sentence);
}

/** Drops candidates outside a maximum independent set of the contradiction graph. */
export async function resolveContradictions(
  candidates: readonly Candidate[],
  input: NliInput,
  options: Partial<NliOptions> = {},
): Promise<NliResult> {
  assertKnownOptions(options, DEFAULT_NLI_OPTIONS, 'nli');
  const o: NliOptions = { ...DEFAULT_NLI_OPTIONS, ...options };
  checkRange('nli', 'contradiction', o.contradiction, 0, 1);
  checkInt('nli', 'claimsPerCandidate', o.claimsPerCandidate, 1, 100);
  checkInt('nli', 'exactLimit', o.exactLimit, 0, 64);
  checkInt('nli', 'maxPairs', o.maxPairs, 0, 1_000_000);
  const model = input.model;
  if (!model) {
    return {
      kept: candidates.map((c) =>
        withEntry(c, {
          stage: VERIFY_STAGE,
          score: c.score,
          kept: true,
          reason: 'no entailment model loaded: contradiction check skipped',
          detail: { check: 'nli', model: null },
        }),
      ),
      dropped: [],
      edges: [],
      model: null,
    };
  }
  throwIfAborted(input.signal);
  const n = candidates.length;
  const claims = candidates.map((c) =>
    claimsOf(input.lookup.chunks.get(c.id)?.text ?? '', input.question, o.claimsPerCandidate),
  );
  const protectedIds = input.protectedIds ?? new Set<string>();
  const pairs: EntailmentPair[] = [];
  const owners: [number, number][] = [];
  outer: for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const ci = candidates[i] as Candidate;
      const cj = candidates[j] as Candidate;
      if (ci.docId === cj.docId || (protectedIds.has(ci.id) && protectedIds.has(cj.id))) continue;
      for (const a of claims[i] as string[]) {
        for (const b of claims[j] as string[]) {
          if (pairs.length + 2 > o.maxPairs) break outer;
          pairs.push({ premise: a, hypothesis: b }, { premise: b, hypothesis: a });
          owners.push([i, j], [i, j]);
        }
      }
    }
  }
  const scores = pairs.length > 0 ? await model.classify(pairs, input.signal) : [];
  throwIfAborted(input.signal);
  if (scores.length !== pairs.length) {
    throw new EvidentError(
      'internal',
      `nli: model "${model.id}" returned ${scores.length} results for ${pairs.length} pairs.`,
    );
  }
  const best = new Map<string, number>();
  scores.forEach((s, k) => {
    const [i, j] = owners[k] as [number, number];
    const key = `${i},${j}`;
    best.set(key, Math.max(best.get(key) ?? 0, s.contradiction));
  });
  const edges: ContradictionEdge[] = [];
  const graph: [number, number][] = [];
  for (const [key, p] of best) {
    if (p < o.contradiction) continue;
    const [i, j] = key.split(',').map(Number) as [number, number];
    edges.push({ a: (candidates[i] as Candidate).id, b: (candidates[j] as Candidate).id, contradiction: p });
    const pi = protectedIds.has((candidates[i] as Candidate).id);
    const pj = protectedIds.has((candidates[j] as Candidate).id);
    if (!pi && !pj) graph.push([i, j]);
  }
  // Weight in (0, 1]: two thirds reliability λ, one third rank (input order is rank order), so a
  // credible source outweighs a less credible one ranked just above it.
  const weights = candidates.map((c, i) => (2 * lambdaOf(c, input.lookup) + (n - i) / n) / 3);
  const keep = new Set(maximumIndependentSet(n, graph, weights, o.exactLimit));
  const kept: Candidate[] = [];
  const dropped: Candidate[] = [];
  candidates.forEach((c, i) => {
    const mine = edges.filter((e) => e.a === c.id || e.b === c.id);
    const detail = { check: 'nli', model: model.id, contradictions: mine.length };
    if (keep.has(i)) {
      kept.push(withEntry(c, { stage: VERIFY_STAGE, score: c.score, kept: true, detail }));
      return;
    }
    const others = mine
      .map((e) => (e.a === c.id ? e.b : e.a))
      .filter((x) => candidates.some((y, k) => y.id === x && keep.has(k)));
    const top = mine.reduce((m, e) => Math.max(m, e.contradiction), 0);
    dropped.push(
      withEntry(c, {
        stage: VERIFY_STAGE,
        score: c.score,
        kept: false,
        reason: `contradicts ${others.join(', ')} (NLI p=${top.toFixed(2)}); the larger consistent set, ties to higher rank and λ, was kept`,
        detail,
      }),
    );
  });
  return { kept, dropped, edges, model: model.id };
}
