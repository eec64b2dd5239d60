/**
 * `npm run bench -- --peers`: Evident's BM25 and the peers (`bench-systems.ts`) on the same
 * corpora in one process — SciFact (5,183 abstracts, its 300 test claims, qrels) and synthetic
 * libraries of 10k and 100k ~120-token chunks (SciFact sentences resampled with a seeded PRNG,
 * queried with the SciFact test claims; no qrels) — reporting nDCG@10 and R@100 where qrels
 * exist, build time, index memory (JS heap + ArrayBuffers after GC), query p50/p95 (top 100),
 * and each peer's ratio to Evident. The Chromium run (`bench-browser.ts`) fills the same rows.
 */
import { evaluateRun, type Qrels } from '../core/eval/metrics';
import { loadBeir } from '../node/beir';
import { sharedPath } from '../node/shared-data';
import {
  benchSystems,
  evidentSystem,
  flexSearchSystem,
  miniSearchSystem,
  oramaSystem,
  syntheticChunks,
  timeSearches,
  type BenchDoc,
  type Latency,
  type LexicalSystem,
} from './bench-systems';

export interface BenchCorpus {
  /** `scifact`, `synthetic-10k`, `synthetic-100k`. */
  readonly name: string;
  readonly docs: readonly BenchDoc[];
  readonly queries: readonly string[];
  /** Query ids and judgements, where the corpus has them. */
  readonly qids?: readonly string[];
  readonly qrels?: Qrels;
}

/** One system × corpus × runtime: what `--json` writes (`name` is the system, Evident's `evident`). */
export interface BenchRow {
  readonly name: string;
  readonly corpus: string;
  readonly runtime: 'node' | 'chromium';
  readonly metrics: Record<string, number>;
  /** Why a system was not run (too slow or too large at this size). */
  readonly skipped?: string;
}

/** SciFact sentences (the synthetic corpora's material) and its test claims. */
export interface ScifactSource {
  readonly sentences: readonly string[];
  readonly scifact: BenchCorpus;
}

export async function loadScifactSource(): Promise<ScifactSource> {
  const dataset = await loadBeir(sharedPath('datasets', 'scifact'), 'test');
  const sentences: string[] = [];
  for (const doc of dataset.corpus) {
    for (const s of doc.sentences ?? doc.text.split(/(?<=[.!?])\s+/)) if (s.length > 20) sentences.push(s);
  }
  return {
    sentences,
    scifact: {
      name: 'scifact',
      docs: dataset.corpus.map((d) => ({ id: d.id, title: d.title, text: d.text })),
      queries: dataset.queries.map((q) => q.text),
      qids: dataset.queries.map((q) => q.id),
      qrels: dataset.qrels,
    },
  };
}

/** A synthetic corpus of `n` chunks, queried with the first `queries` SciFact test claims. */
export function syntheticCorpus(source: ScifactSource, n: number, queries: number): BenchCorpus {
  return {
    name: `synthetic-${n >= 1000 ? `${n / 1000}k` : n}`,
    docs: syntheticChunks(source.sentences, n),
    queries: source.scifact.queries.slice(0, queries),
  };
}

/** nDCG@10 and R@100 of ranked ids per query, where the corpus has qrels. */
export function quality(corpus: BenchCorpus, results: readonly (readonly string[])[]): Record<string, number> {
  if (!corpus.qrels || !corpus.qids) return {};
  const run = new Map(
    corpus.qids.map((qid, i) => [qid, (results[i] ?? []).map((id, r) => ({ id, score: 1000 - r }))] as const),
  );
  const mean = evaluateRun(run, corpus.qrels).mean;
  return { 'ndcg@10': mean['ndcg@10'], 'recall@100': mean['recall@100'] };
}

/** JS heap plus ArrayBuffer memory (typed arrays and WASM memories live outside the heap), after a GC. */
export function heapMb(): number {
  globalThis.gc?.();
  globalThis.gc?.();
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 2 ** 20;
}

/** Orama above this many documents is not run: its build and queries grow past minutes (see BENCHMARKS.md). */
export const ORAMA_MAX_DOCS = 20_000;

export function skipReason(system: LexicalSystem, corpus: BenchCorpus): string | null {
  if (system.name.startsWith('orama') && corpus.docs.length > ORAMA_MAX_DOCS) {
    return `Orama is not run above ${ORAMA_MAX_DOCS / 1000}k documents: at 10k chunks it builds in tens of seconds and answers a claim in hundreds of ms, so 100k would take many minutes and GBs`;
  }
  return null;
}

/** What one system's run on one corpus measured, in either runtime. */
export interface Measured {
  /** Ranked document ids per query, in the corpus's query order. */
  readonly results: readonly (readonly string[])[];
  readonly buildMs: number;
  readonly heapMb: number;
  readonly latency: Latency;
  /** Each query's fastest pass (see `timeSearches`). */
  readonly best: Latency;
}

/** A row of quality, build time, memory and latency (Node's and Chromium's rows alike). */
export function measuredRow(name: string, corpus: BenchCorpus, runtime: BenchRow['runtime'], m: Measured): BenchRow {
  return {
    name,
    corpus: corpus.name,
    runtime,
    metrics: {
      ...quality(corpus, m.results),
      build_ms: m.buildMs,
      heap_mb: m.heapMb,
      query_p50_ms: m.latency.p50,
      query_p95_ms: m.latency.p95,
      query_best_p50_ms: m.best.p50,
      query_best_p95_ms: m.best.p95,
      queries: corpus.queries.length,
    },
  };
}

/** Every system on every corpus, in Node, one after the other (each index dropped before the next). */
export async function runPeersNode(
  corpora: readonly BenchCorpus[],
  log: (msg: string) => void = () => {},
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const corpus of corpora) {
    for (const system of benchSystems()) {
      const skipped = skipReason(system, corpus);
      if (skipped) {
        rows.push({ name: system.name, corpus: corpus.name, runtime: 'node', metrics: {}, skipped });
        continue;
      }
      log(`${corpus.name}: ${system.name} …`);
      const before = heapMb();
      const t = performance.now();
      let searcher: Awaited<ReturnType<LexicalSystem['build']>> | null = await system.build(corpus.docs);
      const buildMs = performance.now() - t;
      const mem = heapMb() - before;
      const measured = await timeSearches(searcher, corpus.queries, 100);
      searcher = null;
      rows.push(measuredRow(system.name, corpus, 'node', { ...measured, buildMs, heapMb: mem }));
    }
  }
  return withRatios(rows);
}

/** Adds each row's ratio to Evident's row of the same corpus and runtime (peer ÷ Evident). */
export function withRatios(rows: readonly BenchRow[]): BenchRow[] {
  return rows.map((r) => {
    const base = rows.find((b) => b.name === 'evident' && b.corpus === r.corpus && b.runtime === r.runtime);
    if (!base || r.skipped || r === base) return r;
    const ratio = (k: string): Record<string, number> => {
      const a = r.metrics[k];
      const b = base.metrics[k];
      return a !== undefined && b !== undefined && b > 0 ? { [`${k.replace(/_ms$|_mb$/, '')}_ratio`]: a / b } : {};
    };
    return {
      ...r,
      metrics: {
        ...r.metrics,
        ...ratio('query_p50_ms'),
        ...ratio('query_p95_ms'),
        ...ratio('query_best_p50_ms'),
        ...ratio('query_best_p95_ms'),
        ...ratio('build_ms'),
        ...ratio('heap_mb'),
      },
    };
  });
}

const ratio = (x: number | undefined): string =>
  x === undefined || Number.isNaN(x) ? '—' : `${x >= 10 ? x.toFixed(0) : x >= 1 ? x.toFixed(1) : x.toFixed(2)}×`;

const fmt = (x: number | undefined, digits = 2): string =>
  x === undefined || Number.isNaN(x)
    ? '—'
    : Math.abs(x) >= 100
      ? x.toFixed(0)
      : Math.abs(x) >= 10
        ? x.toFixed(1)
        : x.toFixed(digits);

/** Markdown table of one runtime's rows, one block per corpus. */
export function peersTable(rows: readonly BenchRow[], title: string): string {
  const out = [`\n${title}`];
  out.push(
    '| corpus | system | nDCG@10 | R@100 | build | index memory | p50 / p95, one pass | p50 / p95, best of 3 | p95 ÷ Evident (best of 3) | build ÷ Evident | memory ÷ Evident |',
  );
  out.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    if (r.skipped) {
      out.push(`| ${r.corpus} | ${r.name} | skipped: ${r.skipped} |||||||||`);
      continue;
    }
    const m = r.metrics;
    const q = (k: string): string => (m[k] === undefined ? '—' : (m[k] as number).toFixed(4));
    const self = r.name === 'evident';
    out.push(
      `| ${r.corpus} | ${r.name} | ${q('ndcg@10')} | ${q('recall@100')} | ${fmt((m.build_ms ?? NaN) / 1000)} s | ${fmt(m.heap_mb, 1)} MB | ${fmt(m.query_p50_ms)} / ${fmt(m.query_p95_ms)} ms | ${fmt(m.query_best_p50_ms)} / ${fmt(m.query_best_p95_ms)} ms | ${self ? '1' : ratio(m.query_best_p95_ratio)} | ${self ? '1' : ratio(m.build_ratio)} | ${self ? '1' : ratio(m.heap_ratio)} |`,
    );
  }
  return out.join('\n');
}

/**
 * `npm run bench -- --tune-peers`: the settings grid the peers' "best" settings were chosen on,
 * over the SciFact TRAIN claims (never test). Prints nDCG@10 and R@100 per setting.
 */
export async function tunePeers(log: (msg: string) => void = () => {}): Promise<string> {
  const train = await loadBeir(sharedPath('datasets', 'scifact'), 'train');
  const corpus: BenchCorpus = {
    name: 'scifact-train',
    docs: train.corpus.map((d) => ({ id: d.id, title: d.title, text: d.text })),
    queries: train.queries.map((q) => q.text),
    qids: train.queries.map((q) => q.id),
    qrels: train.qrels,
  };
  const grid: LexicalSystem[] = [evidentSystem, oramaSystem(false), oramaSystem(true)];
  for (const fields of ['split', 'flat'] as const) {
    for (const bm25 of [
      { k: 1.2, b: 0.7, d: 0.5 },
      { k: 0.9, b: 0.4, d: 0 },
      { k: 1.2, b: 0.75, d: 0 },
    ]) {
      grid.push(miniSearchSystem({ fields, bm25 }, `minisearch ${fields} k${bm25.k} b${bm25.b} d${bm25.d}`));
    }
  }
  for (const encoder of ['evident', 'LatinAdvanced', 'Default'] as const) {
    for (const resolution of encoder === 'evident' ? [3, 9, 20, 50] : [9]) {
      grid.push(flexSearchSystem({ encoder, resolution, context: false }, `flexsearch ${encoder} r${resolution}`));
    }
    grid.push(flexSearchSystem({ encoder, resolution: 9, context: true }, `flexsearch ${encoder} r9 context`));
  }
  const lines = [
    `SciFact TRAIN (${corpus.queries.length} claims), top 100`,
    '| setting | nDCG@10 | R@100 |',
    '|---|---:|---:|',
  ];
  for (const system of grid) {
    log(`tune: ${system.name}`);
    const searcher = await system.build(corpus.docs);
    const { results } = await timeSearches(searcher, corpus.queries, 100, 1, 0);
    const m = quality(corpus, results);
    lines.push(`| ${system.name} | ${(m['ndcg@10'] ?? NaN).toFixed(4)} | ${(m['recall@100'] ?? NaN).toFixed(4)} |`);
  }
  return lines.join('\n');
}
