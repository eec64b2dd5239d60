/**
 * Retrieval configurations the eval CLI can run, keyed by name. Each is a small function of an
 * `EvalContext`, which builds and memoises what configurations share (BM25 indexes, the dense
 * run), so `--config bm25,dense,rrf,weighted` embeds the corpus once.
 *
 * Every constant below was chosen on the SciFact TRAIN split (`npx tsx src/cli/tune.ts`), never on test.
 */
import type { Quantization } from '../core/dense/flat-index';
import type { Bm25Options } from '../core/lexical/bm25';
import { Bm25Index } from '../core/lexical/bm25';
import { EvidentError } from '../core/errors';
import type { Run } from '../core/eval/metrics';
import { fuse, DEFAULT_DENSE_WEIGHT, PLAIN_BM25_DENSE_WEIGHT, type FusionMode } from '../core/retrieval/fusion';
import {
  bm25TermStats,
  DEFAULT_TERM_COEFFICIENTS,
  searchWithTermWeights,
  type TermCoefficients,
} from '../core/retrieval/term-weights';
import type { Hit, IndexableDoc } from '../core/types';
import type { BeirDataset, BeirDoc } from '../node/beir';

/** How a document is represented for the dense encoder, which reads only its first 128 tokens. */
export const DENSE_STRATEGIES = ['lead', 'maxchunk', 'maxsent'] as const;
/**
 * - `lead`: one vector per document, title + text (the encoder keeps the first 128 tokens:
 *   the title and the opening sentences).
 * - `maxchunk`: title + sentence windows packed up to the encoder's window; a document scores
 *   its best chunk (MaxP, Dai & Callan 2019).
 * - `maxsent`: the title and every sentence on its own (USE is a sentence encoder, and a claim
 *   usually restates one rationale sentence); a document scores its best unit.
 */
export type DenseStrategy = (typeof DENSE_STRATEGIES)[number];

/** Produces a dense document run for a dataset (the embedder lives behind this seam). */
export type DenseRunner = (
  dataset: BeirDataset,
  strategy: DenseStrategy,
  depth: number,
  log: (msg: string) => void,
  /** The dense index's vector storage: float32 (default) or int8 (`FlatIndex` quantization). */
  quantization?: Quantization,
) => Promise<Run>;

/**
 * BM25 without stemming, same k1/b as the stemmed run: reproduces the BEIR paper's SciFact BM25
 * (nDCG@10 0.665). Its own train optimum (k1=1.2, b=0.6: 0.6708 vs 0.6677) is not worth a second
 * parameter set for a baseline.
 */
export const BM25_NOSTEM: Partial<Bm25Options> = Object.freeze({ stem: false, k1: 1.2, b: 0.75 });

/**
 * BM25 with Porter stemming, k1=1.2, b=0.75, flat fields: the core defaults, chosen on SciFact
 * train (see `DEFAULT_BM25_PARAMS` in src/core/lexical/bm25.ts for the numbers).
 */
export const BM25_STEM: Partial<Bm25Options> = Object.freeze({ stem: true, k1: 1.2, b: 0.75 });

/**
 * Dense document representation, chosen on SciFact TRAIN (USE lite alone, nDCG@10): lead 0.2400,
 * maxsent 0.2885, maxchunk 0.3044; fused with BM25 at the best weight: lead 0.7046, maxsent
 * 0.7051, maxchunk 0.7105.
 */
export const DENSE_STRATEGY: DenseStrategy = 'maxchunk';

/**
 * The hybrid named `default`, the best on SciFact TRAIN: weighted fusion (w = 0.15, see
 * `DEFAULT_DENSE_WEIGHT`) of term-weighted BM25 (`bm25-terms`) and dense, 0.7275, vs 0.7105 for
 * the previous default (plain BM25, w = 0.25) and 0.5329 for RRF of the same lists.
 */
export const DEFAULT_HYBRID: FusionMode = 'weighted';

export interface EvalContext {
  readonly dataset: BeirDataset;
  /** Hits kept per query and per list (trec_eval convention: 1000). */
  readonly depth: number;
  readonly log: (msg: string) => void;
  /** BM25 run over the dataset's queries with these options (memoised). */
  bm25Run(options: Partial<Bm25Options>): Run;
  /** The same, not memoised (sweeps would otherwise keep every run alive). */
  bm25Search(options: Partial<Bm25Options>): Run;
  /**
   * BM25 run whose query terms are weighted by `weighQueryTerms` with these coefficients
   * (src/core/retrieval/term-weights.ts); memoised per options × coefficients.
   */
  bm25TermsRun(options: Partial<Bm25Options>, coefficients?: Partial<TermCoefficients>): Run;
  /** The index `bm25Run(options)` searches (built once per analyzer). */
  bm25Index(options: Partial<Bm25Options>): Bm25Index;
  /** Dense run with this document representation (memoised), from float32 or int8 vectors. */
  denseRun(strategy: DenseStrategy, quantization?: Quantization): Promise<Run>;
}

export interface EvalConfig {
  readonly name: string;
  readonly description: string;
  readonly usesDense: boolean;
  run(ctx: EvalContext): Promise<Run>;
}

/** The lexical index sees title as the title field and text as the text field. */
export function toIndexable(doc: BeirDoc): IndexableDoc {
  return { id: doc.id, title: doc.title, headings: '', text: doc.text };
}

/** Fuses two runs query by query into a run of the fused scores. */
export function fuseRuns(
  bm25: Run,
  dense: Run,
  mode: FusionMode,
  denseWeight = DEFAULT_DENSE_WEIGHT,
  depth = 1000,
): Run {
  const out = new Map<string, Hit[]>();
  for (const qid of new Set([...bm25.keys(), ...dense.keys()])) {
    const fused = fuse({ bm25: bm25.get(qid) ?? [], dense: dense.get(qid) ?? [] }, { mode, denseWeight, limit: depth });
    out.set(
      qid,
      fused.map((c) => ({ id: c.id, score: c.score })),
    );
  }
  return out;
}

function bm25Config(name: string, description: string, options: Partial<Bm25Options>): EvalConfig {
  return { name, description, usesDense: false, run: async (ctx) => ctx.bm25Run(options) };
}

function hybridConfig(
  name: string,
  description: string,
  mode: FusionMode,
  lexical: 'plain' | 'terms',
  denseWeight: number,
): EvalConfig {
  return {
    name,
    description,
    usesDense: true,
    run: async (ctx) =>
      fuseRuns(
        lexical === 'terms' ? ctx.bm25TermsRun(BM25_STEM) : ctx.bm25Run(BM25_STEM),
        await ctx.denseRun(DENSE_STRATEGY),
        mode,
        denseWeight,
        ctx.depth,
      ),
  };
}

const LIST: readonly EvalConfig[] = [
  bm25Config('bm25-nostem', 'BM25, no stemming, flat title+text', BM25_NOSTEM),
  bm25Config('bm25', 'BM25, Porter stemming, flat title+text', BM25_STEM),
  {
    name: 'bm25-terms',
    description: 'bm25 with learned query-term weights (src/core/retrieval/term-weights.ts)',
    usesDense: false,
    run: async (ctx) => ctx.bm25TermsRun(BM25_STEM),
  },
  {
    name: 'dense-lead',
    description: 'USE lite, one vector per document (title + opening)',
    usesDense: true,
    run: (ctx) => ctx.denseRun('lead'),
  },
  {
    name: 'dense-maxchunk',
    description: 'USE lite, best of title + sentence-window chunks',
    usesDense: true,
    run: (ctx) => ctx.denseRun('maxchunk'),
  },
  {
    name: 'dense-maxsent',
    description: 'USE lite, best of the title and each sentence',
    usesDense: true,
    run: (ctx) => ctx.denseRun('maxsent'),
  },
  {
    name: 'dense',
    description: `USE lite, ${DENSE_STRATEGY} (chosen on train)`,
    usesDense: true,
    run: (ctx) => ctx.denseRun(DENSE_STRATEGY),
  },
  hybridConfig('rrf', `RRF (k=60) of bm25 and dense`, 'rrf', 'plain', 0),
  hybridConfig(
    'weighted',
    `min-max weighted fusion of bm25 and dense, w=${PLAIN_BM25_DENSE_WEIGHT}`,
    'weighted',
    'plain',
    PLAIN_BM25_DENSE_WEIGHT,
  ),
  hybridConfig(
    'default',
    `the default pipeline: ${DEFAULT_HYBRID} fusion of bm25-terms and dense, w=${DEFAULT_DENSE_WEIGHT}`,
    DEFAULT_HYBRID,
    'terms',
    DEFAULT_DENSE_WEIGHT,
  ),
  // The nDCG cost of int8 vectors (FlatIndex quantization 'int8', no rescoring: every score approximate).
  {
    name: 'dense-int8',
    description: `USE lite, ${DENSE_STRATEGY}, int8 vectors (per-vector scale)`,
    usesDense: true,
    run: (ctx) => ctx.denseRun(DENSE_STRATEGY, 'int8'),
  },
  {
    name: 'weighted-int8',
    description: `weighted fusion of bm25 and dense from int8 vectors, w=${DEFAULT_DENSE_WEIGHT}`,
    usesDense: true,
    run: async (ctx) =>
      fuseRuns(
        ctx.bm25Run(BM25_STEM),
        await ctx.denseRun(DENSE_STRATEGY, 'int8'),
        'weighted',
        DEFAULT_DENSE_WEIGHT,
        ctx.depth,
      ),
  },
];

export const CONFIGS: ReadonlyMap<string, EvalConfig> = new Map(LIST.map((c) => [c.name, c]));

export function getConfig(name: string): EvalConfig {
  const config = CONFIGS.get(name);
  if (!config) {
    throw new EvidentError('invalid_option', `Unknown config "${name}". Known: ${[...CONFIGS.keys()].join(', ')}.`);
  }
  return config;
}

export interface EvalContextOptions {
  readonly depth?: number;
  readonly log?: (msg: string) => void;
  /** Dense retrieval; configurations that need it fail with a clear message when absent. */
  readonly dense?: DenseRunner;
}

/** A context that builds each BM25 index and dense run once. */
export function createEvalContext(dataset: BeirDataset, options: EvalContextOptions = {}): EvalContext {
  const depth = options.depth ?? 1000;
  const log = options.log ?? (() => {});
  const indexes = new Map<string, Bm25Index>();
  const bm25Runs = new Map<string, Run>();
  const denseRuns = new Map<string, Promise<Run>>();
  const docs = dataset.corpus.map(toIndexable);
  const ctx: EvalContext = {
    dataset,
    depth,
    log,
    bm25Run(bm25Options) {
      const key = JSON.stringify(bm25Options);
      let run = bm25Runs.get(key);
      if (!run) {
        run = ctx.bm25Search(bm25Options);
        bm25Runs.set(key, run);
      }
      return run;
    },
    bm25Index(bm25Options) {
      // Postings depend only on the analyzer; k1, b and weights re-parameterise them.
      const { stem = true, stopwords = 'lucene', ...params } = bm25Options;
      const analyzerKey = `${String(stem)}/${stopwords}`;
      let base = indexes.get(analyzerKey);
      if (!base) {
        const t0 = performance.now();
        base = Bm25Index.build(docs, { stem, stopwords });
        log(
          `bm25 index (${analyzerKey}): ${base.size} docs, ${base.vocabularySize} terms, ${(performance.now() - t0).toFixed(0)} ms`,
        );
        indexes.set(analyzerKey, base);
      }
      return base.withParams(params);
    },
    bm25Search(bm25Options) {
      const index = ctx.bm25Index(bm25Options);
      return new Map(dataset.queries.map((q) => [q.id, index.search(q.text, { k: depth })]));
    },
    bm25TermsRun(bm25Options, coefficients = DEFAULT_TERM_COEFFICIENTS) {
      const key = `terms:${JSON.stringify(bm25Options)}:${JSON.stringify(coefficients)}`;
      let run = bm25Runs.get(key);
      if (!run) {
        const index = ctx.bm25Index(bm25Options);
        const stats = bm25TermStats(index);
        run = new Map(
          dataset.queries.map((q) => [
            q.id,
            searchWithTermWeights(index, index.analyze(q.text), { k: depth }, { stats, coefficients }),
          ]),
        );
        bm25Runs.set(key, run);
      }
      return run;
    },
    denseRun(strategy, quantization = 'none') {
      const dense = options.dense;
      if (!dense) {
        return Promise.reject(
          new EvidentError(
            'model_not_found',
            'Dense retrieval is not available in this context (no embedder was provided).',
          ),
        );
      }
      const key = `${strategy}/${quantization}`;
      let run = denseRuns.get(key);
      if (!run) {
        run = dense(dataset, strategy, depth, log, quantization);
        denseRuns.set(key, run);
      }
      return run;
    },
  };
  return ctx;
}
