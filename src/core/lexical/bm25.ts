/**
 * BM25 over typed arrays, with title / headings / text fields combined BM25F-style.
 *
 * Scoring (Robertson & Zaragoza 2009, "The Probabilistic Relevance Framework: BM25 and Beyond",
 * the "simple BM25F" that Lucene's `CombinedFieldQuery` implements): per document, the field
 * term frequencies and lengths are combined with the field weights before saturation,
 *
 *   tf~(t,d) = Σ_f w_f · tf_f(t,d)          dl~(d) = Σ_f w_f · len_f(d)
 *   score(q,d) = Σ_{t∈q} qtf(t) · idf(t) · tf~·(k1+1) / (tf~ + k1·(1 − b + b·dl~/avgdl~))
 *   idf(t) = ln(1 + (N − df + 0.5)/(df + 0.5))         (Lucene / Anserini BM25 IDF)
 *
 * With all weights 1 this is exactly BM25 over one field holding title + headings + text: the
 * "flat" index of Anserini's BEIR baselines. `df` counts documents with the term in any field.
 * A query term repeated in the query counts `qtf` times, as in Anserini's bag-of-words query.
 *
 * Layout: a term dictionary (Map term → termId) and CSR postings: for term t, entries
 * offsets[t]..offsets[t+1] of `docIds` (ascending) and of `tfs` (Uint16, one per field, stride
 * FIELD_COUNT). Built from growable buffers by a counting sort, then frozen. k1, b and the field
 * weights only change per-document normalisers, so `withParams` re-parameterises an index
 * without touching its postings (used for tuning).
 *
 * Incremental changes without re-analyzing the library: `withAdded(docs)` analyzes only the new
 * documents and merges their postings (equal, array for array, to a build over all documents);
 * `without(ids)` filters postings and renumbers documents (searches equal those of a build over
 * the rest). Both copy O(postings) typed arrays; analysis, which dominates a build, is skipped.
 * Query time is term-at-a-time over the whole postings lists with a bounded heap for top-k; no
 * MaxScore/WAND pruning: at 100k chunks the lexical step is a few percent of a full query
 * (`npm run bench -- --dense`), so pruning could not move the total.
 */
import { assertKnownOptions, EvidentError } from '../errors';
import type { Hit, IndexableDoc } from '../types';
import { createAnalyzer, STOPWORD_SETS, type Analyzer, type StopwordSet } from '../text/analyze';
import { TopK } from '../util/topk';

export const BM25_FIELDS = ['title', 'headings', 'text'] as const;
export type Bm25Field = (typeof BM25_FIELDS)[number];
const FIELD_COUNT = BM25_FIELDS.length;
const MAX_TF = 0xffff;

/** Scoring parameters: cheap to change on a built index (`withParams`). */
export interface Bm25Params {
  /** Term-frequency saturation. */
  readonly k1: number;
  /** Length normalisation, 0 (none) … 1 (full). */
  readonly b: number;
  /** BM25F field weights (multiply the field's tf and length). */
  readonly fieldWeights: Readonly<Record<Bm25Field, number>>;
}

/** Index-time options: the analyzer chain. Changing them needs a rebuild. */
export interface Bm25AnalyzerOptions {
  /** Porter stemming of index and query terms. */
  readonly stem: boolean;
  /** Stop set dropped at index and query time. */
  readonly stopwords: StopwordSet;
}

export type Bm25Options = Bm25Params & Bm25AnalyzerOptions;

/**
 * k1 = 1.2, b = 0.75: Lucene's BM25Similarity defaults (Robertson et al., TREC-3, 1994). Anserini's
 * BEIR baselines use k1 = 0.9, b = 0.4 (Pyserini 2CR beir.yaml). We measured both on the SciFact
 * TRAIN split (809 claims, stemmed, flat fields; `npx tsx src/cli/tune.ts --grid bm25`): nDCG@10
 * 0.6994 for 1.2/0.75 vs 0.6971 for 0.9/0.4, so 1.2/0.75 it is — the grid is flat (0.691–0.699
 * over k1 0.6–1.5 × b 0.3–0.9), so neither choice is fragile.
 * Field weights 1 (the Anserini "flat" index): a title weight of 3 gained 0.0026 on train, less
 * than the 0.005 a change must gain on train to be adopted here.
 */
export const DEFAULT_BM25_PARAMS: Readonly<Bm25Params> = Object.freeze({
  k1: 1.2,
  b: 0.75,
  fieldWeights: Object.freeze({ title: 1, headings: 1, text: 1 }),
});

export const DEFAULT_BM25_OPTIONS: Readonly<Bm25Options> = Object.freeze({
  ...DEFAULT_BM25_PARAMS,
  stem: true,
  stopwords: 'lucene',
});

export interface Bm25TermTrace {
  readonly term: string;
  /** How many times the analyzed query holds the term (its weight for a weighted query). */
  readonly queryTf: number;
  readonly idf: number;
  /** Weighted term frequency tf~ in the document (Σ_f w_f·tf_f). */
  readonly tf: number;
  /** This term's share of the score. The contributions sum to the hit's score. */
  readonly contribution: number;
}

/** A BM25 hit that can say why it scored: `terms` is computed on first read. */
export interface Bm25Hit extends Hit {
  readonly terms: readonly Bm25TermTrace[];
}

export interface Bm25SearchOptions {
  /** How many hits to return. Default 10. */
  readonly k: number;
  /** Only these ids compete (a search inside a section); null: all. Default null. */
  readonly within: ReadonlySet<string> | null;
}

export const DEFAULT_BM25_SEARCH_OPTIONS: Readonly<Bm25SearchOptions> = Object.freeze({ k: 10, within: null });

/** Version of `SerializedBm25`; `deserialize` rejects any other. */
export const BM25_SERIALIZATION_VERSION = 1;

/** Structured-clone friendly form (IndexedDB stores typed arrays as they are). */
export interface SerializedBm25 {
  readonly version: number;
  readonly options: Bm25Options;
  readonly ids: readonly string[];
  readonly terms: readonly string[];
  readonly offsets: Int32Array;
  readonly docIds: Int32Array;
  readonly tfs: Uint16Array;
  /** Per document, per field token count (stride FIELD_COUNT). */
  readonly fieldLengths: Uint32Array;
}

/** Frozen postings shared by every parameterisation of one index. */
interface Postings {
  readonly ids: readonly string[];
  readonly terms: readonly string[];
  readonly termIds: ReadonlyMap<string, number>;
  readonly offsets: Int32Array;
  readonly docIds: Int32Array;
  readonly tfs: Uint16Array;
  readonly fieldLengths: Uint32Array;
  readonly idf: Float64Array;
}

/** Growable Int32/Uint16 buffers for the build phase. */
class GrowableInt32 {
  data = new Int32Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
}

class GrowableUint16 {
  data = new Uint16Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Uint16Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
}

/** Lucene / Anserini BM25 IDF: ln(1 + (N − df + 0.5)/(df + 0.5)). Always > 0. */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

function validateParams(p: Bm25Params): void {
  const bad = (what: string, v: unknown): never => {
    throw new EvidentError('invalid_option', `bm25: ${what} must be a finite number ≥ 0, got ${String(v)}.`);
  };
  if (!Number.isFinite(p.k1) || p.k1 < 0) bad('k1', p.k1);
  if (!Number.isFinite(p.b) || p.b < 0 || p.b > 1) {
    throw new EvidentError('invalid_option', `bm25: b must be in [0, 1], got ${String(p.b)}.`);
  }
  assertKnownOptions(p.fieldWeights, DEFAULT_BM25_PARAMS.fieldWeights, 'bm25 fieldWeights');
  for (const f of BM25_FIELDS) {
    const w = p.fieldWeights[f];
    if (!Number.isFinite(w) || w < 0) bad(`fieldWeights.${f}`, w);
  }
}

function mergeOptions(options: Partial<Bm25Options>): Readonly<Bm25Options> {
  assertKnownOptions(options, DEFAULT_BM25_OPTIONS, 'bm25');
  const merged: Bm25Options = {
    ...DEFAULT_BM25_OPTIONS,
    ...options,
    fieldWeights: Object.freeze({ ...DEFAULT_BM25_OPTIONS.fieldWeights, ...options.fieldWeights }),
  };
  validateParams(merged);
  if (!STOPWORD_SETS.includes(merged.stopwords)) {
    throw new EvidentError('invalid_option', `bm25: stopwords must be one of ${STOPWORD_SETS.join(', ')}.`);
  }
  return Object.freeze(merged);
}

export class Bm25Index {
  readonly options: Readonly<Bm25Options>;
  private readonly p: Postings;
  private readonly analyzer: Analyzer;
  /** k1·(1 − b + b·dl~/avgdl~) per document, for the current parameters. */
  private readonly norms: Float32Array;
  private readonly weights: Float64Array;
  /** Score accumulator reused across queries; only touched entries are reset. */
  private readonly acc: Float32Array;
  private readonly touched: Int32Array;
  private readonly scorer: Scorer;
  private docIndex: Map<string, number> | null = null;

  private constructor(postings: Postings, options: Readonly<Bm25Options>) {
    this.p = postings;
    this.options = options;
    this.analyzer = createAnalyzer({ stem: options.stem, stopwords: options.stopwords });
    const n = postings.ids.length;
    this.weights = Float64Array.from(BM25_FIELDS, (f) => options.fieldWeights[f]);
    const dl = new Float64Array(n);
    let sum = 0;
    for (let d = 0; d < n; d++) {
      let l = 0;
      for (let f = 0; f < FIELD_COUNT; f++) {
        l += (this.weights[f] as number) * (postings.fieldLengths[d * FIELD_COUNT + f] as number);
      }
      dl[d] = l;
      sum += l;
    }
    const avgdl = n > 0 ? sum / n : 0;
    const { k1, b } = options;
    this.norms = new Float32Array(n);
    for (let d = 0; d < n; d++) {
      this.norms[d] = k1 * (1 - b + (avgdl > 0 ? (b * (dl[d] as number)) / avgdl : 0));
    }
    this.acc = new Float32Array(n);
    this.touched = new Int32Array(n);
    this.scorer = { p: postings, norms: this.norms, weights: this.weights, k1 };
  }

  /** Indexes documents (ids must be unique). Options: see `Bm25Options`; unknown keys throw. */
  static build(docs: readonly IndexableDoc[], options: Partial<Bm25Options> = {}): Bm25Index {
    const opts = mergeOptions(options);
    const analyzer = createAnalyzer({ stem: opts.stem, stopwords: opts.stopwords });
    const termIds = new Map<string, number>();
    const terms: string[] = [];
    const batch = collectPostings(docs, analyzer, termIds, terms, new Set());
    const { offsets, docIds, tfs } = toCsr(terms.length, batch, 0);
    return new Bm25Index(freeze(batch.ids, terms, termIds, offsets, docIds, tfs, batch.fieldLengths), opts);
  }

  /**
   * This index with `docs` appended, without re-analyzing the documents already indexed: the new
   * documents' postings are merged into the CSR arrays (O(postings) copying). The result equals
   * `Bm25Index.build([...indexed, ...docs])` array for array. Ids must be new.
   */
  withAdded(docs: readonly IndexableDoc[]): Bm25Index {
    if (docs.length === 0) return this;
    const old = this.p;
    const termIds = new Map(old.termIds);
    const terms = [...old.terms];
    const batch = collectPostings(docs, this.analyzer, termIds, terms, new Set(old.ids));
    const added = toCsr(terms.length, batch, old.ids.length);
    const v = terms.length;
    const oldV = old.terms.length;
    const offsets = new Int32Array(v + 1);
    for (let t = 0; t < v; t++) {
      const before = t < oldV ? (old.offsets[t + 1] as number) - (old.offsets[t] as number) : 0;
      const fresh = (added.offsets[t + 1] as number) - (added.offsets[t] as number);
      offsets[t + 1] = (offsets[t] as number) + before + fresh;
    }
    const nnz = offsets[v] as number;
    const docIds = new Int32Array(nnz);
    const tfs = new Uint16Array(nnz * FIELD_COUNT);
    for (let t = 0; t < v; t++) {
      let at = offsets[t] as number;
      if (t < oldV) {
        const from = old.offsets[t] as number;
        const to = old.offsets[t + 1] as number;
        docIds.set(old.docIds.subarray(from, to), at);
        tfs.set(old.tfs.subarray(from * FIELD_COUNT, to * FIELD_COUNT), at * FIELD_COUNT);
        at += to - from;
      }
      const from = added.offsets[t] as number;
      const to = added.offsets[t + 1] as number;
      docIds.set(added.docIds.subarray(from, to), at);
      tfs.set(added.tfs.subarray(from * FIELD_COUNT, to * FIELD_COUNT), at * FIELD_COUNT);
    }
    const fieldLengths = new Uint32Array(old.fieldLengths.length + batch.fieldLengths.length);
    fieldLengths.set(old.fieldLengths);
    fieldLengths.set(batch.fieldLengths, old.fieldLengths.length);
    return new Bm25Index(
      freeze([...old.ids, ...batch.ids], terms, termIds, offsets, docIds, tfs, fieldLengths),
      this.options,
    );
  }

  /**
   * This index without the documents whose id is in `ids` (unknown ids are ignored), without
   * re-analyzing the rest: postings are filtered and documents renumbered (O(postings)); terms
   * left without postings are dropped. Searches equal those of an index built from the
   * remaining documents (same scores, same order).
   */
  without(ids: Iterable<string>): Bm25Index {
    const drop = new Set(ids);
    const old = this.p;
    const n = old.ids.length;
    const newDoc = new Int32Array(n);
    const keptIds: string[] = [];
    for (let d = 0; d < n; d++) {
      const id = old.ids[d] as string;
      if (drop.has(id)) newDoc[d] = -1;
      else newDoc[d] = keptIds.push(id) - 1;
    }
    if (keptIds.length === n) return this;
    const fieldLengths = new Uint32Array(keptIds.length * FIELD_COUNT);
    for (let d = 0; d < n; d++) {
      const to = newDoc[d] as number;
      if (to >= 0)
        fieldLengths.set(old.fieldLengths.subarray(d * FIELD_COUNT, (d + 1) * FIELD_COUNT), to * FIELD_COUNT);
    }
    const docIds = new Int32Array(old.docIds.length);
    const tfs = new Uint16Array(old.tfs.length);
    const offsets: number[] = [0];
    const terms: string[] = [];
    const termIds = new Map<string, number>();
    let at = 0;
    for (let t = 0; t < old.terms.length; t++) {
      const start = at;
      for (let i = old.offsets[t] as number; i < (old.offsets[t + 1] as number); i++) {
        const d = newDoc[old.docIds[i] as number] as number;
        if (d < 0) continue;
        docIds[at] = d;
        for (let f = 0; f < FIELD_COUNT; f++) tfs[at * FIELD_COUNT + f] = old.tfs[i * FIELD_COUNT + f] as number;
        at++;
      }
      if (at === start) continue;
      termIds.set(old.terms[t] as string, terms.length);
      terms.push(old.terms[t] as string);
      offsets.push(at);
    }
    return new Bm25Index(
      freeze(
        keptIds,
        terms,
        termIds,
        Int32Array.from(offsets),
        docIds.slice(0, at),
        tfs.slice(0, at * FIELD_COUNT),
        fieldLengths,
      ),
      this.options,
    );
  }

  /** Restores an index from `serialize()`. Unknown versions and inconsistent arrays throw `cache_corrupted`. */
  static deserialize(data: SerializedBm25): Bm25Index {
    if (data.version !== BM25_SERIALIZATION_VERSION) {
      throw new EvidentError(
        'cache_corrupted',
        `bm25: stored index has version ${String(data.version)}, this build reads version ${BM25_SERIALIZATION_VERSION}. Rebuild the index.`,
      );
    }
    const opts = mergeOptions(data.options);
    const { ids, terms, offsets, docIds, tfs, fieldLengths } = data;
    const n = ids.length;
    const nnz = docIds.length;
    const consistent =
      offsets.length === terms.length + 1 &&
      offsets[0] === 0 &&
      offsets[terms.length] === nnz &&
      tfs.length === nnz * FIELD_COUNT &&
      fieldLengths.length === n * FIELD_COUNT &&
      docIds.every((d) => d >= 0 && d < n);
    if (!consistent)
      throw new EvidentError('cache_corrupted', 'bm25: stored index arrays are inconsistent. Rebuild the index.');
    const termIds = new Map<string, number>();
    terms.forEach((t, i) => termIds.set(t, i));
    return new Bm25Index(freeze([...ids], [...terms], termIds, offsets, docIds, tfs, fieldLengths), opts);
  }

  /** Plain data for storage; the typed arrays are the index's own (copy before transferring). */
  serialize(): SerializedBm25 {
    const { ids, terms, offsets, docIds, tfs, fieldLengths } = this.p;
    return {
      version: BM25_SERIALIZATION_VERSION,
      options: this.options,
      ids,
      terms,
      offsets,
      docIds,
      tfs,
      fieldLengths,
    };
  }

  /** The same postings scored with other k1 / b / field weights. */
  withParams(params: Partial<Bm25Params>): Bm25Index {
    assertKnownOptions(params, DEFAULT_BM25_PARAMS, 'bm25 params');
    return new Bm25Index(this.p, mergeOptions({ ...this.options, ...params }));
  }

  get size(): number {
    return this.p.ids.length;
  }

  get vocabularySize(): number {
    return this.p.terms.length;
  }

  /** Analyzes text with this index's analyzer (what the query will be matched as). */
  analyze(text: string): string[] {
    return this.analyzer.analyze(text);
  }

  /** Document frequency of an analyzed term (0 when unknown). */
  df(term: string): number {
    const t = this.p.termIds.get(term);
    return t === undefined ? 0 : (this.p.offsets[t + 1] as number) - (this.p.offsets[t] as number);
  }

  /** IDF of an analyzed term, or 0 when it is not in the index. */
  idf(term: string): number {
    const t = this.p.termIds.get(term);
    return t === undefined ? 0 : (this.p.idf[t] as number);
  }

  /** Top-k documents for a query, best first (ties: earlier-indexed document first). */
  search(query: string, options: Partial<Bm25SearchOptions> = {}): Bm25Hit[] {
    return this.searchTerms(this.analyze(query), options);
  }

  /** Like `search` for already analyzed terms (repeats count as query term frequency). */
  searchTerms(queryTerms: readonly string[], options: Partial<Bm25SearchOptions> = {}): Bm25Hit[] {
    const weights = new Map<string, number>();
    for (const t of queryTerms) weights.set(t, (weights.get(t) ?? 0) + 1);
    return this.searchWeighted(weights, options);
  }

  /**
   * Scores a weighted bag of analyzed terms: each term's BM25 contribution is multiplied by its
   * weight (the query term frequency for a plain query; expansion weights for RM3). Terms with a
   * weight ≤ 0 or not in the index are ignored.
   */
  searchWeighted(query: ReadonlyMap<string, number>, options: Partial<Bm25SearchOptions> = {}): Bm25Hit[] {
    assertKnownOptions(options, DEFAULT_BM25_SEARCH_OPTIONS, 'bm25 search');
    const { k, within } = { ...DEFAULT_BM25_SEARCH_OPTIONS, ...options };
    if (!Number.isInteger(k) || k < 0)
      throw new EvidentError('invalid_option', `bm25 search: k must be an integer ≥ 0, got ${k}.`);
    const q = this.queryTermIds(query);
    if (q.length === 0 || k === 0) return [];
    const { offsets, docIds, tfs, idf } = this.p;
    const { acc, touched, norms, weights } = this;
    const k1p1 = this.options.k1 + 1;
    const w0 = weights[0] as number;
    const w1 = weights[1] as number;
    const w2 = weights[2] as number;
    let nTouched = 0;
    for (const { termId, qtf } of q) {
      const scale = qtf * (idf[termId] as number) * k1p1;
      const end = offsets[termId + 1] as number;
      for (let i = offsets[termId] as number; i < end; i++) {
        const j = i * FIELD_COUNT;
        const tf = w0 * (tfs[j] as number) + w1 * (tfs[j + 1] as number) + w2 * (tfs[j + 2] as number);
        if (tf === 0) continue;
        const d = docIds[i] as number;
        if (acc[d] === 0) touched[nTouched++] = d;
        acc[d] = (acc[d] as number) + (scale * tf) / (tf + (norms[d] as number));
      }
    }
    const top = new TopK(k);
    const ids = this.p.ids;
    for (let i = 0; i < nTouched; i++) {
      const d = touched[i] as number;
      if (within === null || within.has(ids[d] as string)) top.push(d, acc[d] as number);
      acc[d] = 0;
    }
    return top.results().map(({ id, score }) => this.hit(id, score, q));
  }

  /** Why `docId` scores what it scores for `query`; null when the id is not indexed. */
  explain(query: string, docId: string): Bm25Hit | null {
    if (this.docIndex === null) {
      this.docIndex = new Map();
      this.p.ids.forEach((id, d) => this.docIndex?.set(id, d));
    }
    const d = this.docIndex.get(docId);
    if (d === undefined) return null;
    const weights = new Map<string, number>();
    for (const t of this.analyze(query)) weights.set(t, (weights.get(t) ?? 0) + 1);
    const terms = this.traceTerms(d, this.queryTermIds(weights));
    return { id: docId, score: terms.reduce((s, t) => s + t.contribution, 0), terms };
  }

  private queryTermIds(query: ReadonlyMap<string, number>): QueryTerm[] {
    const out: QueryTerm[] = [];
    for (const [term, qtf] of query) {
      const termId = this.p.termIds.get(term);
      if (termId !== undefined && qtf > 0 && Number.isFinite(qtf)) out.push({ term, termId, qtf });
    }
    return out;
  }

  private hit(d: number, score: number, q: readonly QueryTerm[]): Bm25Hit {
    return new LazyBm25Hit(this.p.ids[d] as string, score, d, q, this.scorer);
  }

  private traceTerms(d: number, q: readonly QueryTerm[]): Bm25TermTrace[] {
    return traceTerms(this.scorer, d, q);
  }
}

type QueryTerm = { readonly term: string; readonly termId: number; readonly qtf: number };

/** What tracing a hit needs from its index (shared by all hits of that index). */
interface Scorer {
  readonly p: Postings;
  readonly norms: Float32Array;
  readonly weights: Float64Array;
  readonly k1: number;
}

/**
 * A hit whose `terms` trace is computed on first read (one binary search per query term), so
 * ranking 1000 hits costs nothing for the traces nobody reads. Only `id` and `score` are own
 * data; `toJSON()` (and so JSON.stringify) includes the trace — send `hit.toJSON()` through
 * postMessage, since structured clone keeps own data properties only.
 */
class LazyBm25Hit implements Bm25Hit {
  readonly id: string;
  readonly score: number;
  readonly #doc: number;
  readonly #query: readonly QueryTerm[];
  readonly #scorer: Scorer;
  #terms: readonly Bm25TermTrace[] | null = null;

  constructor(id: string, score: number, doc: number, query: readonly QueryTerm[], scorer: Scorer) {
    this.id = id;
    this.score = score;
    this.#doc = doc;
    this.#query = query;
    this.#scorer = scorer;
  }

  get terms(): readonly Bm25TermTrace[] {
    this.#terms ??= traceTerms(this.#scorer, this.#doc, this.#query);
    return this.#terms;
  }

  toJSON(): { id: string; score: number; terms: readonly Bm25TermTrace[] } {
    return { id: this.id, score: this.score, terms: this.terms };
  }
}

function traceTerms(scorer: Scorer, d: number, q: readonly QueryTerm[]): Bm25TermTrace[] {
  const { offsets, docIds, tfs, idf } = scorer.p;
  const out: Bm25TermTrace[] = [];
  for (const { term, termId, qtf } of q) {
    let lo = offsets[termId] as number;
    let hi = (offsets[termId + 1] as number) - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = docIds[mid] as number;
      if (v === d) {
        at = mid;
        break;
      }
      if (v < d) lo = mid + 1;
      else hi = mid - 1;
    }
    if (at < 0) continue;
    let tf = 0;
    for (let f = 0; f < FIELD_COUNT; f++) tf += (scorer.weights[f] as number) * (tfs[at * FIELD_COUNT + f] as number);
    if (tf === 0) continue;
    const termIdf = idf[termId] as number;
    const contribution = (qtf * termIdf * tf * (scorer.k1 + 1)) / (tf + (scorer.norms[d] as number));
    out.push({ term, queryTf: qtf, idf: termIdf, tf, contribution });
  }
  return out;
}

/** Postings of a batch of documents, in document order, before the counting sort. */
interface PostingBatch {
  readonly ids: string[];
  readonly postTerm: GrowableInt32;
  readonly postDoc: GrowableInt32;
  readonly postTf: GrowableUint16;
  readonly fieldLengths: Uint32Array;
}

/**
 * Analyzes `docs` (numbered from 0 within the batch), extending the term dictionary in place:
 * new terms get the next ids in order of first appearance. `seen` holds ids already indexed.
 */
function collectPostings(
  docs: readonly IndexableDoc[],
  analyzer: Analyzer,
  termIds: Map<string, number>,
  terms: string[],
  seen: Set<string>,
): PostingBatch {
  const ids: string[] = [];
  const postTerm = new GrowableInt32();
  const postDoc = new GrowableInt32();
  const postTf = new GrowableUint16();
  const fieldLengths = new Uint32Array(docs.length * FIELD_COUNT);
  // Per-document scratch: termId → row in `rowTf` (stride FIELD_COUNT).
  const row = new Map<number, number>();
  let rowTf = new Uint16Array(256 * FIELD_COUNT);
  docs.forEach((doc, d) => {
    if (seen.has(doc.id)) throw new EvidentError('invalid_input', `bm25: duplicate document id "${doc.id}".`);
    seen.add(doc.id);
    ids.push(doc.id);
    row.clear();
    BM25_FIELDS.forEach((field, f) => {
      const tokens = analyzer.analyze(doc[field]);
      fieldLengths[d * FIELD_COUNT + f] = tokens.length;
      for (const term of tokens) {
        let t = termIds.get(term);
        if (t === undefined) {
          t = terms.length;
          termIds.set(term, t);
          terms.push(term);
        }
        let r = row.get(t);
        if (r === undefined) {
          r = row.size;
          row.set(t, r);
          if ((r + 1) * FIELD_COUNT > rowTf.length) {
            const next = new Uint16Array(rowTf.length * 2);
            next.set(rowTf);
            rowTf = next;
          }
          rowTf.fill(0, r * FIELD_COUNT, (r + 1) * FIELD_COUNT);
        }
        const at = r * FIELD_COUNT + f;
        if ((rowTf[at] as number) < MAX_TF) rowTf[at] = (rowTf[at] as number) + 1;
      }
    });
    for (const [t, r] of row) {
      postTerm.push(t);
      postDoc.push(d);
      for (let f = 0; f < FIELD_COUNT; f++) postTf.push(rowTf[r * FIELD_COUNT + f] as number);
    }
  });
  return { ids, postTerm, postDoc, postTf, fieldLengths };
}

/**
 * Counting sort of a batch by term into CSR over `v` terms; documents were appended in order, so
 * each list is ascending. Document numbers are shifted by `firstDoc`.
 */
function toCsr(
  v: number,
  batch: PostingBatch,
  firstDoc: number,
): { offsets: Int32Array; docIds: Int32Array; tfs: Uint16Array } {
  const { postTerm, postDoc, postTf } = batch;
  const nnz = postTerm.length;
  const offsets = new Int32Array(v + 1);
  for (let i = 0; i < nnz; i++) {
    const at = (postTerm.data[i] as number) + 1;
    offsets[at] = (offsets[at] as number) + 1;
  }
  for (let t = 0; t < v; t++) offsets[t + 1] = (offsets[t + 1] as number) + (offsets[t] as number);
  const cursor = offsets.slice(0, v);
  const docIds = new Int32Array(nnz);
  const tfs = new Uint16Array(nnz * FIELD_COUNT);
  for (let i = 0; i < nnz; i++) {
    const t = postTerm.data[i] as number;
    const at = cursor[t] as number;
    cursor[t] = at + 1;
    docIds[at] = (postDoc.data[i] as number) + firstDoc;
    for (let f = 0; f < FIELD_COUNT; f++) tfs[at * FIELD_COUNT + f] = postTf.data[i * FIELD_COUNT + f] as number;
  }
  return { offsets, docIds, tfs };
}

function freeze(
  ids: readonly string[],
  terms: readonly string[],
  termIds: ReadonlyMap<string, number>,
  offsets: Int32Array,
  docIds: Int32Array,
  tfs: Uint16Array,
  fieldLengths: Uint32Array,
): Postings {
  const n = ids.length;
  const idf = new Float64Array(terms.length);
  for (let t = 0; t < terms.length; t++) idf[t] = bm25Idf(n, (offsets[t + 1] as number) - (offsets[t] as number));
  return Object.freeze({ ids, terms, termIds, offsets, docIds, tfs, fieldLengths, idf });
}
