/**
 * Two published poisoning defenses as rows of the RGB harness (src/cli/rgb.ts), re-implemented
 * without a model from their papers' descriptions (their reference code was read, not copied).
 * Both read the same top-5 retrieved passages as baseline-top5 and answer with the same
 * extractive answerer; neither sees source types.
 *
 * - `trustrag-cluster`: TrustRAG's clean-retrieval stage (Zhou et al. 2025, "TrustRAG: Enhancing
 *   Robustness and Trustworthiness in RAG", §3.1, K-means filtering):
 *   1. n-gram gate: unless two of the passages share ROUGE-L F1 > 0.25, nothing is clustered;
 *   2. the passage vectors, standardised per dimension and L2-normalised, are split by K-means,
 *      k = 2 (k-means++ seeding, 10 restarts, at most 500 iterations, seeded);
 *   3. a cluster is tight when the mean pairwise cosine of its members' vectors is ≥ `tight`:
 *      - two clusters of two or more: both tight → everything is dropped; the tighter one tight →
 *        it is dropped and the other kept; neither → both kept; near-duplicates (ROUGE-L F1 > 0.25
 *        with another member of the same kept cluster) are dropped from what is kept;
 *      - one passage alone and a cluster: the cluster tight → it is dropped and the lone passage
 *        kept (unless its cosine with the cluster's best-ranked member is ≥ `tight` too); else the
 *        lone passage is dropped as the outlier (the reference implementation's rule);
 *   4. the extractive answerer answers from what is left ('insufficient' when nothing is).
 *   Vectors: tf-idf of the passages (idf over the question's corpus), or USE-lite with --dense.
 *   Not reproduced: stage 2 (consolidation against the LLM's internal knowledge).
 * - `robustrag-keyword`: RobustRAG's keyword aggregation (Xiang et al. 2024, "Certifiably Robust
 *   RAG against Retrieval Corruption", §3.2): the extractive answerer answers from each passage in
 *   isolation (an 'insufficient' one abstains and is not counted); each answer's keywords are the
 *   answer itself, its maximal runs of words between function words and punctuation, and those
 *   words; the keywords at least min(α·n, β) of the n answers share are kept (α = 0.3, β = 3,
 *   `sharedKeywords`, the rule the inquiry benchmark uses); with no language model to write an
 *   answer from them, the answer states the kept keywords, longest first (the paper's hint order).
 */
import { answerExtractive, sourceBody, type Answer } from '../core/answer/extractive';
import { assertKnownOptions, EvidentError } from '../core/errors';
import { checkInt, checkRange, tokenize } from '../core/util/stage';
import type { PackedSource } from '../core/select/pack';
import { isStopword } from '../core/select/rationales';
import { analyzerTokens, cachedStem, createAnalyzer } from '../core/text/analyze';
import { mulberry32 } from '../core/util/prng';
import { diffKeys } from '../core/verify/diff';
import { foldText } from '../core/verify/values';
import { ROBUSTRAG_THRESHOLDS, sharedKeywords, type KeywordThresholds } from './inquiry-defenses';

export const PEER_DEFENSES = ['trustrag-cluster', 'robustrag-keyword'] as const;
export type PeerDefense = (typeof PEER_DEFENSES)[number];

export const isPeerDefense = (name: string): name is PeerDefense => (PEER_DEFENSES as readonly string[]).includes(name);

// ---------------------------------------------------------------------------------------------
// Vectors and similarities

/** ROUGE-L F1 (Lin 2004, β = 1) of two texts over lower-cased, Porter-stemmed words: 2·LCS / (|a| + |b|). */
export function rougeL(a: string, b: string): number {
  const words = (text: string): string[] => analyzerTokens(text).map(cachedStem);
  return diffKeys(words(a), words(b)).ratio;
}

function unit(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  if (n === 0) return v; // an empty text: no direction, left at zero
  const s = 1 / Math.sqrt(n);
  return v.map((x) => x * s);
}

/** Cosine of two vectors (0 when either is zero). */
export function cosineOf(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i] as number, b[i] as number];
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * tf-idf vectors of `texts` over their Lucene-stopped, Porter-stemmed terms, with scikit-learn's
 * TfidfVectorizer defaults: raw counts × smoothed idf ln((1 + N) / (1 + df)) + 1, L2-normalised.
 * Document frequencies come from `corpus` (the question's passages), so a term every passage
 * repeats weighs little.
 */
export function tfidfVectors(texts: readonly string[], corpus: readonly string[]): Float32Array[] {
  const analyzer = createAnalyzer();
  const docs = texts.map((t) => analyzer.analyze(t));
  const vocab = new Map<string, number>();
  for (const d of docs) for (const t of d) if (!vocab.has(t)) vocab.set(t, vocab.size);
  const df = new Float64Array(vocab.size);
  for (const text of corpus) {
    for (const t of new Set(analyzer.analyze(text))) {
      const i = vocab.get(t);
      if (i !== undefined) df[i] = (df[i] as number) + 1;
    }
  }
  const idf = Array.from(df, (d) => Math.log((1 + corpus.length) / (1 + d)) + 1);
  return docs.map((d) => {
    const v = new Float32Array(vocab.size);
    for (const t of d) {
      const i = vocab.get(t) as number;
      v[i] = (v[i] as number) + (idf[i] as number);
    }
    return unit(v);
  });
}

/** Each dimension standardised over the points (zero mean, unit variance; constant ones stay 0), then each point L2-normalised. */
export function standardize(points: readonly ArrayLike<number>[]): Float32Array[] {
  const dim = points[0]?.length ?? 0;
  const mean = new Float64Array(dim);
  const sd = new Float64Array(dim);
  for (const p of points)
    for (let j = 0; j < dim; j++) mean[j] = (mean[j] as number) + (p[j] as number) / points.length;
  for (const p of points)
    for (let j = 0; j < dim; j++) sd[j] = (sd[j] as number) + ((p[j] as number) - (mean[j] as number)) ** 2;
  const scale = Array.from(sd, (s) => (s === 0 ? 1 : Math.sqrt(s / points.length)));
  return points.map((p) =>
    unit(Float32Array.from({ length: dim }, (_, j) => ((p[j] as number) - (mean[j] as number)) / (scale[j] as number))),
  );
}

// ---------------------------------------------------------------------------------------------
// K-means (Lloyd 1982; k-means++ seeding, Arthur & Vassilvitskii 2007)

export interface KMeansOptions {
  /** Clusters. TrustRAG: 2 (the clean passages and the injected ones). */
  readonly k: number;
  /** Independent seedings; the split with the least within-cluster sum of squares wins (scikit-learn's n_init, as TrustRAG sets it: 10). */
  readonly restarts: number;
  /** Lloyd iterations per seeding at most (TrustRAG: 500). */
  readonly maxIter: number;
  readonly seed: number;
}

export const DEFAULT_KMEANS_OPTIONS: KMeansOptions = Object.freeze({ k: 2, restarts: 10, maxIter: 500, seed: 0 });

const dist2 = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += ((a[i] as number) - (b[i] as number)) ** 2;
  return d;
};

function nearest(p: ArrayLike<number>, centers: readonly Float64Array[]): number {
  let best = 0;
  for (let j = 1; j < centers.length; j++)
    if (dist2(p, centers[j] as Float64Array) < dist2(p, centers[best] as Float64Array)) best = j;
  return best;
}

/** k-means++ seeding: each further center drawn with probability ∝ squared distance to the nearest one so far. */
function seedCenters(points: readonly ArrayLike<number>[], k: number, rand: () => number): Float64Array[] {
  const centers = [Float64Array.from(points[Math.floor(rand() * points.length)] as ArrayLike<number>)];
  while (centers.length < k) {
    const d = points.map((p) => dist2(p, centers[nearest(p, centers)] as Float64Array));
    let r = rand() * d.reduce((a, b) => a + b, 0);
    const i = d.findIndex((x) => (r -= x) < 0);
    centers.push(Float64Array.from(points[i < 0 ? 0 : i] as ArrayLike<number>)); // all points equal: any will do
  }
  return centers;
}

function meanOf(points: readonly ArrayLike<number>[], dim: number): Float64Array {
  const m = new Float64Array(dim);
  for (const p of points) for (let j = 0; j < dim; j++) m[j] = (m[j] as number) + (p[j] as number) / points.length;
  return m;
}

function lloyd(
  points: readonly ArrayLike<number>[],
  start: Float64Array[],
  maxIter: number,
): { labels: number[]; sse: number } {
  let centers = start;
  let labels: number[] = [];
  for (let it = 0; it < maxIter; it++) {
    const next = points.map((p) => nearest(p, centers));
    if (next.every((l, i) => l === labels[i])) break;
    labels = next;
    // An emptied cluster keeps its center.
    centers = centers.map((c, j) => {
      const members = points.filter((_, i) => labels[i] === j);
      return members.length > 0 ? meanOf(members, c.length) : c;
    });
  }
  const sse = points.reduce((a, p, i) => a + dist2(p, centers[labels[i] as number] as Float64Array), 0);
  return { labels, sse };
}

/** Cluster label of each point (0 … k−1). Fewer points than k: each point its own cluster. */
export function kMeans(points: readonly ArrayLike<number>[], options: Partial<KMeansOptions> = {}): number[] {
  assertKnownOptions(options, DEFAULT_KMEANS_OPTIONS, 'kMeans');
  const o: KMeansOptions = { ...DEFAULT_KMEANS_OPTIONS, ...options };
  checkInt('kMeans', 'k', o.k, 1, 100);
  checkInt('kMeans', 'restarts', o.restarts, 1, 1000);
  checkInt('kMeans', 'maxIter', o.maxIter, 1, 100_000);
  if (points.length <= o.k) return points.map((_, i) => i);
  const rand = mulberry32(o.seed);
  let best: { labels: number[]; sse: number } | null = null;
  for (let r = 0; r < o.restarts; r++) {
    const run = lloyd(points, seedCenters(points, o.k, rand), o.maxIter);
    if (best === null || run.sse < best.sse - 1e-12) best = run;
  }
  return (best as { labels: number[] }).labels;
}

// ---------------------------------------------------------------------------------------------
// TrustRAG: K-means filtering

export interface TrustragOptions {
  /**
   * Mean pairwise cosine at or above which a cluster is tight (suspect). TrustRAG: 0.88 (over
   * SimCSE vectors), kept for tf-idf and USE-lite. On realtimeqa-dev and rgb-counterfactual ids
   * 0–49 the tf-idf rows barely move for any value from 0.45 to 0.95 (the paraphrased poisons'
   * clusters reach 0.41 at most, copied passages 0.8–1); over USE-lite, lower values trade
   * attacks for abstentions (realtimeqa-dev spoofed: 8 attacks at 0.88, 2 at 0.5 with 43 of 50
   * abstaining) and none gives more than 2 correct answers.
   */
  readonly tight: number;
  /** ROUGE-L F1 above which two passages are near-duplicates: the n-gram gate and filter (TrustRAG: 0.25). */
  readonly nearDuplicate: number;
  readonly kmeans: Partial<KMeansOptions>;
}

export const DEFAULT_TRUSTRAG_OPTIONS: TrustragOptions = Object.freeze({
  tight: 0.88,
  nearDuplicate: 0.25,
  kmeans: {},
});

export type DropReason = 'tight-cluster' | 'near-duplicate' | 'outlier';

export interface ClusterFilterResult {
  /** Indices of the passages kept, ascending. */
  readonly kept: readonly number[];
  readonly dropped: readonly { readonly index: number; readonly reason: DropReason }[];
  /** The clusters (indices) with their mean pairwise cosine (null for a lone passage); null when the n-gram gate left the passages unclustered. */
  readonly clusters: readonly { readonly members: readonly number[]; readonly cohesion: number | null }[] | null;
}

/** Mean pairwise cosine of the members' vectors; null for fewer than two. */
function cohesion(members: readonly number[], vectors: readonly ArrayLike<number>[]): number | null {
  let sum = 0;
  let pairs = 0;
  for (let a = 0; a < members.length; a++) {
    for (let b = a + 1; b < members.length; b++) {
      sum += cosineOf(
        vectors[members[a] as number] as ArrayLike<number>,
        vectors[members[b] as number] as ArrayLike<number>,
      );
      pairs++;
    }
  }
  return pairs === 0 ? null : sum / pairs;
}

/** Members with a near-duplicate (ROUGE-L F1 above `limit`) among the other members. */
function nearDuplicates(members: readonly number[], texts: readonly string[], limit: number): number[] {
  return members.filter((a) => members.some((b) => b !== a && rougeL(texts[a] as string, texts[b] as string) > limit));
}

type Cluster = { readonly members: readonly number[]; readonly cohesion: number | null };

/** Which clusters are dropped, and as what (see the file comment, step 3); the rest are kept. */
function judge(
  clusters: readonly Cluster[],
  vectors: readonly ArrayLike<number>[],
  tight: number,
): Map<Cluster, DropReason> {
  const drop = new Map<Cluster, DropReason>();
  const isTight = (c: Cluster): boolean => c.cohesion !== null && c.cohesion >= tight;
  const groups = clusters.filter((c) => c.cohesion !== null);
  const lone = clusters.filter((c) => c.cohesion === null);
  if (groups.length === 2) {
    const [hi, lo] = [...groups].sort((a, b) => (b.cohesion as number) - (a.cohesion as number)) as [Cluster, Cluster];
    if (isTight(hi)) drop.set(hi, 'tight-cluster');
    if (isTight(lo)) drop.set(lo, 'tight-cluster');
  } else if (groups.length === 1 && lone.length === 1) {
    const [group, one] = [groups[0] as Cluster, lone[0] as Cluster];
    const best = vectors[group.members[0] as number] as ArrayLike<number>;
    if (!isTight(group)) drop.set(one, 'outlier');
    else {
      drop.set(group, 'tight-cluster');
      if (cosineOf(vectors[one.members[0] as number] as ArrayLike<number>, best) >= tight)
        drop.set(one, 'tight-cluster');
    }
  } else if (groups.length === 1 && isTight(groups[0] as Cluster)) {
    drop.set(groups[0] as Cluster, 'tight-cluster'); // every passage in one tight cluster
  }
  return drop;
}

/**
 * TrustRAG's K-means filter over `texts` (ranked best first) and their vectors: which passages
 * an answer may be read from, and why each other one was dropped.
 */
export function trustragFilter(
  texts: readonly string[],
  vectors: readonly ArrayLike<number>[],
  options: Partial<TrustragOptions> = {},
): ClusterFilterResult {
  assertKnownOptions(options, DEFAULT_TRUSTRAG_OPTIONS, 'trustrag');
  const o: TrustragOptions = { ...DEFAULT_TRUSTRAG_OPTIONS, ...options };
  checkRange('trustrag', 'tight', o.tight, -1, 1);
  checkRange('trustrag', 'nearDuplicate', o.nearDuplicate, 0, 1);
  const all = texts.map((_, i) => i);
  const gate = all.some((a) =>
    all.some((b) => b > a && rougeL(texts[a] as string, texts[b] as string) > o.nearDuplicate),
  );
  if (!gate) return { kept: all, dropped: [], clusters: null };
  const labels = kMeans(standardize(vectors), { ...o.kmeans, k: 2 });
  const clusters: Cluster[] = [0, 1]
    .map((l) => all.filter((i) => labels[i] === l))
    .filter((m) => m.length > 0)
    .map((members) => ({ members, cohesion: cohesion(members, vectors) }));
  const verdict = judge(clusters, vectors, o.tight);
  const dropped: { index: number; reason: DropReason }[] = [];
  for (const c of clusters) {
    const reason = verdict.get(c);
    if (reason) dropped.push(...c.members.map((index) => ({ index, reason })));
    // A kept cluster loses its near-duplicates, unless the lone passage beside it was the outlier.
    else if (c.cohesion !== null && ![...verdict.values()].includes('outlier')) {
      dropped.push(
        ...nearDuplicates(c.members, texts, o.nearDuplicate).map((index) => ({
          index,
          reason: 'near-duplicate' as const,
        })),
      );
    }
  }
  const out = new Set(dropped.map((d) => d.index));
  return { kept: all.filter((i) => !out.has(i)), dropped: dropped.sort((a, b) => a.index - b.index), clusters };
}

// ---------------------------------------------------------------------------------------------
// RobustRAG: keyword aggregation

/** The answer of one passage read alone: its short answer, else its lead sentence; null when the answerer finds none (an abstention). */
function isolatedAnswer(question: string, source: PackedSource): string | null {
  const a = answerExtractive({ question, sources: [source] }, { contestedShort: true });
  if (a.kind !== 'answer') return null;
  return a.short?.text ?? a.sentences[0]?.text ?? null;
}

/**
 * Keywords of one isolated answer, folded, once each: the answer itself, each maximal run of
 * words that are not function words (a run also ends at punctuation), and each of those words
 * (RobustRAG's keyphrases, with a stop list standing in for the part-of-speech tags).
 */
export function keywordUnits(answer: string): string[] {
  const runs: string[][] = [];
  let run: string[] = [];
  let end = 0;
  for (const t of tokenize(answer)) {
    const broken = /[^\s]/u.test(answer.slice(end, t.start));
    if (broken || isStopword(t.lower)) {
      if (run.length > 0) runs.push(run);
      run = [];
    }
    if (!isStopword(t.lower)) run.push(t.raw);
    end = t.end;
  }
  if (run.length > 0) runs.push(run);
  const units = [answer, ...runs.map((r) => r.join(' ')), ...runs.flat()].map(foldText).filter((u) => u !== '');
  return [...new Set(units)];
}

export interface DefenseResult {
  readonly answer: Answer;
  /** The passages the answer was read from (TrustRAG: those kept; RobustRAG: those whose isolated answer holds a kept keyword). */
  readonly sources: readonly PackedSource[];
}

const nothing = (answerer: string, text: string): Answer => ({
  kind: 'insufficient',
  text,
  sentences: [],
  short: null,
  conflict: null,
  answerer,
  votes: null,
});

/** RobustRAG's keyword aggregation over the retrieved passages (see the file comment). */
export function robustragAnswer(
  question: string,
  sources: readonly PackedSource[],
  thresholds: KeywordThresholds = ROBUSTRAG_THRESHOLDS,
): DefenseResult {
  const answered = sources.flatMap((source) => {
    const a = isolatedAnswer(question, source);
    return a === null ? [] : [{ source, units: keywordUnits(a) }];
  });
  const kept = sharedKeywords(
    answered.map((a) => a.units),
    thresholds,
  );
  if (kept.length === 0) {
    return { answer: nothing('robustrag-keyword', 'No keyword is shared by enough isolated answers.'), sources: [] };
  }
  const hints = [...kept].sort((a, b) => b.length - a.length || (a < b ? 1 : a > b ? -1 : 0));
  const answer: Answer = { ...nothing('robustrag-keyword', hints.join('; ')), kind: 'answer' };
  return { answer, sources: answered.filter((a) => a.units.some((u) => kept.includes(u))).map((a) => a.source) };
}

// ---------------------------------------------------------------------------------------------
// The rows

export interface PeerDefenseInput {
  readonly question: string;
  /** The top retrieved passages, packed as baseline-top5 packs them. */
  readonly sources: readonly PackedSource[];
  /** Texts of all the question's passages: the document frequencies of the tf-idf vectors. */
  readonly corpus: readonly string[];
  /** USE-lite vector of a chunk id when the run is dense (TrustRAG then clusters these); null: tf-idf. */
  readonly denseVectorOf: ((chunkId: string) => Float32Array | undefined) | null;
}

/** TrustRAG's K-means filter, then the extractive answerer over what is left. */
export function trustragAnswer(input: PeerDefenseInput, options: Partial<TrustragOptions> = {}): DefenseResult {
  const texts = input.sources.map(sourceBody);
  const dense = input.denseVectorOf;
  const vectors = dense
    ? input.sources.map((s) => {
        const v = dense(s.chunkId);
        if (!v) throw new EvidentError('invalid_input', `trustrag: no dense vector for ${s.chunkId}.`);
        return v;
      })
    : tfidfVectors(texts, input.corpus);
  const { kept } = trustragFilter(texts, vectors, options);
  const sources = kept.map((i) => input.sources[i] as PackedSource);
  if (sources.length === 0) {
    return { answer: nothing('extractive', 'The cluster filter set every retrieved passage aside.'), sources };
  }
  return { answer: answerExtractive({ question: input.question, sources }), sources };
}

export function peerDefense(name: PeerDefense, input: PeerDefenseInput): DefenseResult {
  return name === 'trustrag-cluster' ? trustragAnswer(input) : robustragAnswer(input.question, input.sources);
}

/** What the rows ran, for the table's header. */
export function peerDefenseNotes(dense: boolean): string[] {
  const o = DEFAULT_TRUSTRAG_OPTIONS;
  return [
    `trustrag-cluster: top 5; ROUGE-L gate/filter > ${o.nearDuplicate}; K-means k=2 over ${dense ? 'USE-lite' : 'tf-idf'} vectors; tight cluster: mean pairwise cosine ≥ ${o.tight}`,
    `robustrag-keyword: top 5; isolated extractive answers; keywords shared by ≥ min(${ROBUSTRAG_THRESHOLDS.alpha}·n, ${ROBUSTRAG_THRESHOLDS.beta}) of n; answer = the kept keywords`,
  ];
}
