/**
 * The browser benchmark: `npm run eval`'s retrieval configurations run in the worker on a
 * dataset the user loaded, scored with the same metrics (`src/core/eval/metrics.ts`).
 *
 * Each configuration here reproduces the CLI's configuration of the same name
 * (`src/cli/configs.ts`, `src/cli/dense-run.ts`): the same BM25 analyzers and parameters, the
 * same dense document representation (max-chunk: title + sentence windows up to the encoder's
 * window, a document scores its best chunk: `src/core/retrieval/max-chunk.ts`, shared with the
 * CLI), the same fusion, the same depth. The CLI modules read files and a disk cache in Node, so
 * they cannot be imported here; `benchmark.test.ts` runs both on one dataset and requires equal
 * numbers.
 *
 * Everything lives in this call's own indexes, dropped when it returns: the library, its
 * indexes and its storage are never touched. Long steps check the abort signal and yield, so a
 * cancel or another call gets through.
 */
import { FlatIndex } from '../core/dense/flat-index';
import { EvidentError } from '../core/errors';
import { evaluateRun, type Run } from '../core/eval/metrics';
import { Bm25Index, type Bm25Options } from '../core/lexical/bm25';
import { fuse, PLAIN_BM25_DENSE_WEIGHT, type FusionMode } from '../core/retrieval/fusion';
import { bestChunkPerDoc, packChunks } from '../core/retrieval/max-chunk';
import type { Hit, IndexableDoc } from '../core/types';
import type { Embedder } from '../models/embedder';
import { throwIfAborted } from '../core/util/abort';
import type { RunCall } from './app-api';
import type {
  BenchmarkApi,
  BenchmarkConfigName,
  BenchmarkConfigResult,
  BenchmarkProgress,
  BenchmarkResult,
} from './benchmark-api';
import { BENCHMARK_CONFIGS } from './benchmark-api';
import { parseBenchmarkDataset, type BenchmarkDataset } from './benchmark-dataset';

/** BM25 with Porter stemming, k1 = 1.2, b = 0.75 (the CLI's `BM25_STEM`, the engine's default). */
export const BM25_STEM: Partial<Bm25Options> = Object.freeze({ stem: true, k1: 1.2, b: 0.75 });
/** The same without stemming (the CLI's `BM25_NOSTEM`: BEIR's SciFact BM25 baseline). */
export const BM25_NOSTEM: Partial<Bm25Options> = Object.freeze({ stem: false, k1: 1.2, b: 0.75 });

export const DEFAULT_DEPTH = 1000;
const MAX_DEPTH = 10_000;
/** Queries searched between two yields to the event loop (abort and other calls get through). */
const YIELD_EVERY = 25;

interface ConfigSpec {
  readonly description: string;
  readonly usesDense: boolean;
  run(ctx: BenchmarkContext): Promise<Run>;
}

const SPECS: Readonly<Record<BenchmarkConfigName, ConfigSpec>> = {
  bm25: {
    description: 'BM25, Porter stemming, title + text',
    usesDense: false,
    run: (ctx) => ctx.bm25Run(BM25_STEM),
  },
  'bm25-nostem': {
    description: 'BM25, no stemming, title + text',
    usesDense: false,
    run: (ctx) => ctx.bm25Run(BM25_NOSTEM),
  },
  dense: {
    description: 'the embedder alone, best chunk per document',
    usesDense: true,
    run: (ctx) => ctx.denseRun(),
  },
  weighted: {
    description: `min-max weighted fusion of bm25 and dense, w = ${PLAIN_BM25_DENSE_WEIGHT}`,
    usesDense: true,
    run: (ctx) => hybrid(ctx, 'weighted'),
  },
  rrf: {
    description: 'reciprocal rank fusion (k = 60) of bm25 and dense',
    usesDense: true,
    run: (ctx) => hybrid(ctx, 'rrf'),
  },
};

async function hybrid(ctx: BenchmarkContext, mode: FusionMode): Promise<Run> {
  const bm25 = await ctx.bm25Run(BM25_STEM);
  const dense = await ctx.denseRun();
  const out = new Map<string, Hit[]>();
  for (const qid of new Set([...bm25.keys(), ...dense.keys()])) {
    const fused = fuse(
      { bm25: bm25.get(qid) ?? [], dense: dense.get(qid) ?? [] },
      { mode, denseWeight: PLAIN_BM25_DENSE_WEIGHT, limit: ctx.depth },
    );
    out.set(
      qid,
      fused.map((c) => ({ id: c.id, score: c.score })),
    );
  }
  return out;
}

export function describeConfig(name: BenchmarkConfigName): string {
  return SPECS[name].description;
}

interface BenchmarkContext {
  readonly depth: number;
  bm25Run(options: Partial<Bm25Options>): Promise<Run>;
  denseRun(): Promise<Run>;
}

export interface RunBenchmarkOptions {
  readonly configs: readonly BenchmarkConfigName[];
  readonly depth?: number;
  /** The dense configurations' encoder; they fail with a plain message without one. */
  readonly embedder: Embedder | null;
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: BenchmarkProgress) => void;
}

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

/** Validates the options; throws a plain message for none, an unknown one, or dense without a model. */
export function checkOptions(options: Pick<RunBenchmarkOptions, 'configs' | 'depth' | 'embedder'>): {
  configs: BenchmarkConfigName[];
  depth: number;
} {
  const configs = [...new Set(options.configs)];
  if (configs.length === 0) throw new EvidentError('invalid_option', 'Choose at least one configuration to run.');
  for (const c of configs) {
    if (!(BENCHMARK_CONFIGS as readonly string[]).includes(c)) {
      throw new EvidentError('invalid_option', `Unknown configuration "${c}". Known: ${BENCHMARK_CONFIGS.join(', ')}.`);
    }
  }
  const depth = options.depth ?? DEFAULT_DEPTH;
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH) {
    throw new EvidentError('invalid_option', `Depth must be a whole number from 1 to ${MAX_DEPTH}, got ${depth}.`);
  }
  if (!options.embedder && configs.some((c) => SPECS[c].usesDense)) {
    throw new EvidentError(
      'model_not_found',
      'The dense configurations need the embedding model, which is not loaded yet. Wait until it is ready, or run BM25 only.',
    );
  }
  return { configs, depth };
}

/** Runs the configurations on a parsed dataset and scores them against its qrels. */
export async function runBenchmark(dataset: BenchmarkDataset, options: RunBenchmarkOptions): Promise<BenchmarkResult> {
  const { configs, depth } = checkOptions(options);
  const { signal, embedder } = options;
  const progress = options.onProgress ?? (() => {});
  let current: BenchmarkConfigName | null = null;
  const report = (stage: BenchmarkProgress['stage'], done: number, total: number): void =>
    progress({ stage, config: current, done, total });

  const docs: IndexableDoc[] = dataset.corpus.map((d) => ({ id: d.id, title: d.title, headings: '', text: d.text }));
  const indexes = new Map<string, Bm25Index>();
  const bm25Runs = new Map<string, Promise<Run>>();
  let dense: Promise<Run> | null = null;

  const searchAll = async (search: (text: string, index: number) => Hit[]): Promise<Run> => {
    const run = new Map<string, Hit[]>();
    const total = dataset.queries.length;
    for (const [i, q] of dataset.queries.entries()) {
      if (i % YIELD_EVERY === 0) {
        report('search', i, total);
        await tick();
        throwIfAborted(signal);
      }
      run.set(q.id, search(q.text, i));
    }
    report('search', total, total);
    return run;
  };

  const ctx: BenchmarkContext = {
    depth,
    bm25Run(bm25Options) {
      const key = JSON.stringify(bm25Options);
      let run = bm25Runs.get(key);
      if (!run) {
        run = (async () => {
          // Postings depend only on the analyzer; k1 and b re-parameterise them.
          const { stem = true, stopwords = 'lucene', ...params } = bm25Options;
          const analyzer = `${String(stem)}/${stopwords}`;
          let base = indexes.get(analyzer);
          if (!base) {
            report('index', 0, docs.length);
            await tick();
            throwIfAborted(signal);
            base = Bm25Index.build(docs, { stem, stopwords });
            indexes.set(analyzer, base);
            report('index', docs.length, docs.length);
          }
          const index = base.withParams(params);
          return searchAll((text) => index.search(text, { k: depth }));
        })();
        bm25Runs.set(key, run);
      }
      return run;
    },
    denseRun() {
      dense ??= denseRun(dataset, embedder as Embedder, depth, signal, report, searchAll);
      return dense;
    },
  };

  const results: BenchmarkConfigResult[] = [];
  for (const name of configs) {
    current = name;
    const t0 = performance.now();
    const run = await SPECS[name].run(ctx);
    throwIfAborted(signal);
    report('evaluate', 0, 1);
    const evaluation = evaluateRun(run, dataset.qrels);
    report('evaluate', 1, 1);
    results.push({
      name,
      description: SPECS[name].description,
      metrics: evaluation.mean,
      ndcgByQuery: [...evaluation.perQuery.values()].map((m) => m['ndcg@10']).sort((a, b) => b - a),
      ms: performance.now() - t0,
    });
  }

  let judgments = 0;
  for (const judged of dataset.qrels.values()) judgments += judged.size;
  return {
    dataset: {
      name: dataset.name,
      split: dataset.split,
      documents: dataset.corpus.length,
      queries: dataset.queries.length,
      judgments,
    },
    depth,
    embedderId: configs.some((c) => SPECS[c].usesDense) ? (embedder?.id ?? null) : null,
    configs: results,
    warnings: dataset.warnings,
  };
}

/** Max-chunk dense run: every chunk embedded, an exact scan per query, a document keeps its best chunk. */
async function denseRun(
  dataset: BenchmarkDataset,
  embedder: Embedder,
  depth: number,
  signal: AbortSignal | undefined,
  report: (stage: BenchmarkProgress['stage'], done: number, total: number) => void,
  searchAll: (search: (text: string, index: number) => Hit[]) => Promise<Run>,
): Promise<Run> {
  const texts: string[] = [];
  const owner: string[] = [];
  for (const doc of dataset.corpus) {
    for (const t of packChunks(doc, (s) => embedder.countTokens(s), embedder.maxTokens)) {
      texts.push(t);
      owner.push(doc.id);
    }
  }
  const total = texts.length + dataset.queries.length;
  report('embed', 0, total);
  const docVectors = await embedder.embed(texts, { signal, onProgress: (done) => report('embed', done, total) });
  const queryVectors = await embedder.embed(
    dataset.queries.map((q) => q.text),
    {
      signal,
      kind: 'query',
      onProgress: (done) => report('embed', texts.length + done, total),
    },
  );
  throwIfAborted(signal);

  const index = new FlatIndex({ dim: embedder.dim, metric: 'dot', initialCapacity: Math.max(1, texts.length) });
  index.addMany(
    texts.map((_, i) => String(i)),
    docVectors,
  );
  const dim = embedder.dim;
  return searchAll((_text, qi) =>
    bestChunkPerDoc(index.search(queryVectors.subarray(qi * dim, (qi + 1) * dim), index.size), owner, depth),
  );
}

/** The RPC part `worker.ts` spreads into its API. */
export function benchmarkApi(run: RunCall, embedder: () => Embedder | null, throttleMs = 100): BenchmarkApi {
  return {
    runBenchmark: (input, options, onProgress) =>
      run(options, onProgress, async (signal, send: (p: BenchmarkProgress) => void) => {
        // Before reading the files: a missing model or an empty choice fails at once.
        checkOptions({ configs: options.configs, depth: options.depth, embedder: embedder() });
        let last = 0;
        const progress = (p: BenchmarkProgress): void => {
          // At most every `throttleMs`, but every stage's start and end go through.
          const now = performance.now();
          if (p.done !== 0 && p.done !== p.total && now - last < throttleMs) return;
          last = now;
          send(p);
        };
        const files = [input.corpus, ...input.queries, input.qrels];
        const texts: string[] = [];
        for (const [i, f] of files.entries()) {
          progress({ stage: 'read', config: null, done: i, total: files.length });
          texts.push(await f.blob.text());
          throwIfAborted(signal);
        }
        progress({ stage: 'read', config: null, done: files.length, total: files.length });
        const dataset = parseBenchmarkDataset({
          name: input.name,
          split: input.split,
          corpus: { name: input.corpus.name, text: texts[0] as string },
          queries: input.queries.map((f, i) => ({ name: f.name, text: texts[1 + i] as string })),
          qrels: { name: input.qrels.name, text: texts[files.length - 1] as string },
        });
        return runBenchmark(dataset, {
          configs: options.configs,
          depth: options.depth,
          embedder: embedder(),
          signal,
          onProgress: progress,
        });
      }),
  };
}
