/**
 * `npm run bench` — timings, never asserted (benchmarks are not tests). One run reports, side by
 * side, Evident's retrieval and a baseline measured in the same process:
 *
 *   lexical: Evident's typed-array BM25 vs MiniSearch (BM25 + the same Porter stemmer)
 *   dense:   Evident's contiguous Float32Array scan + heap vs a naive scan over per-row arrays + full sort
 *   embed:   the embedded USE-lite model, inputs/s at batch 1, 8, 32 on ~120-token chunks
 *
 * at 1k, 10k and 100k chunks (chunks resampled from SciFact sentences, ~120 tokens each, seeded).
 * Dense latency does not depend on vector contents, so the scan benchmark uses seeded random unit
 * vectors rather than embedding 100k chunks (hours on 2 cores); embedding throughput is measured
 * separately on real chunks.
 *
 *   npm run bench                      # all sizes
 *   npm run bench -- --sizes 1000,10000 --queries 100 --no-embed --json out.json
 */
import { readFileSync, writeFileSync } from 'node:fs';
import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import { FlatIndex } from '../core/dense/flat-index';
import { Bm25Index } from '../core/lexical/bm25';
import type { IndexableDoc } from '../core/types';
import { sharedPath } from '../node/shared-data';
import { loadUseEmbedderNode } from '../node/use-node';
import { benchEmbedding } from './bench-embed';
import { mulberry32 } from '../core/util/prng';

interface Args {
  sizes: number[];
  queries: number;
  embed: boolean;
  json?: string;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { sizes: [1000, 10_000, 100_000], queries: 200, embed: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--sizes') args.sizes = String(argv[++i]).split(',').map(Number);
    else if (a === '--queries') args.queries = Number(argv[++i]);
    else if (a === '--no-embed') args.embed = false;
    else if (a === '--json') args.json = argv[++i];
    else throw new Error(`bench: unknown argument "${a}". Allowed: --sizes, --queries, --no-embed, --json FILE.`);
  }
  if (args.sizes.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error('bench: --sizes must be positive integers');
  return args;
}

interface Source {
  sentences: string[];
  queries: string[];
}

function loadSource(): Source {
  const corpus = readFileSync(sharedPath('datasets', 'scifact', 'corpus.jsonl'), 'utf8');
  const sentences: string[] = [];
  for (const line of corpus.split('\n')) {
    if (line.trim() === '') continue;
    const doc = JSON.parse(line) as { sentences?: string[]; text: string };
    for (const s of doc.sentences ?? doc.text.split(/(?<=[.!?])\s+/)) if (s.length > 20) sentences.push(s);
  }
  const queries = readFileSync(sharedPath('datasets', 'scifact', 'queries.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as { text: string }).text);
  return { sentences, queries };
}

/** ~120-token chunks (≈ 90 words: USE's subword tokens run ~1.3 per word on SciFact) of resampled sentences. */
function syntheticChunks(source: Source, n: number, seed = 7): IndexableDoc[] {
  const rand = mulberry32(seed);
  const docs: IndexableDoc[] = [];
  for (let i = 0; i < n; i++) {
    const parts: string[] = [];
    let words = 0;
    while (words < 90) {
      const s = source.sentences[Math.floor(rand() * source.sentences.length)] as string;
      parts.push(s);
      words += s.split(' ').length;
    }
    docs.push({ id: `c${i}`, title: '', headings: '', text: parts.join(' ') });
  }
  return docs;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] as number;
}

interface Latency {
  p50: number;
  p95: number;
  mean: number;
}

function timeQueries(queries: readonly string[], run: (q: string) => unknown): Latency {
  for (const q of queries.slice(0, 10)) run(q); // warm-up (JIT)
  const ms: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    run(q);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p95: percentile(ms, 95), mean: ms.reduce((s, x) => s + x, 0) / ms.length };
}

/** JS heap plus ArrayBuffer memory (typed arrays live outside the heap), after a GC when exposed. */
function heapMb(): number {
  globalThis.gc?.();
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 2 ** 20;
}

interface Row {
  name: string;
  metrics: Record<string, number>;
}

function lexicalRows(docs: readonly IndexableDoc[], queries: readonly string[]): Row[] {
  const rows: Row[] = [];
  let before = heapMb();
  let t = performance.now();
  const bm25 = Bm25Index.build(docs);
  const buildMs = performance.now() - t;
  const mem = heapMb() - before;
  const lat = timeQueries(queries, (q) => bm25.search(q, { k: 100 }));
  rows.push({ name: 'evident-bm25', metrics: { build_ms: buildMs, heap_mb: mem, ...prefix('query', lat) } });

  before = heapMb();
  t = performance.now();
  const mini = new MiniSearch<IndexableDoc>({
    fields: ['text'],
    storeFields: [],
    processTerm: (term) => stemmer(term.toLowerCase()),
    searchOptions: { bm25: { k: 0.9, b: 0.4, d: 0 } },
  });
  mini.addAll(docs as IndexableDoc[]);
  const miniBuild = performance.now() - t;
  const miniMem = heapMb() - before;
  const miniLat = timeQueries(queries, (q) => mini.search(q).slice(0, 100));
  rows.push({ name: 'minisearch', metrics: { build_ms: miniBuild, heap_mb: miniMem, ...prefix('query', miniLat) } });
  return rows;
}

function denseRows(n: number, dim: number, queries: number): Row[] {
  const rand = mulberry32(11);
  const unit = (): Float32Array => {
    const v = new Float32Array(dim);
    let norm = 0;
    for (let j = 0; j < dim; j++) {
      const x = rand() * 2 - 1;
      v[j] = x;
      norm += x * x;
    }
    const inv = 1 / Math.sqrt(norm);
    for (let j = 0; j < dim; j++) v[j] = (v[j] as number) * inv;
    return v;
  };
  const rows: Row[] = [];
  const before = heapMb();
  const index = new FlatIndex({ dim, initialCapacity: n });
  const naive: { id: string; v: Float32Array }[] = [];
  const matrix = new Float32Array(n * dim);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const v = unit();
    matrix.set(v, i * dim);
    ids.push(`c${i}`);
    naive.push({ id: `c${i}`, v });
  }
  index.addMany(ids, matrix);
  const mem = heapMb() - before;
  const qs = Array.from({ length: queries }, unit);
  let qi = 0;
  const lat = timeQueries(
    qs.map(() => ''),
    () => index.search(qs[qi++ % qs.length] as Float32Array, 100),
  );
  // Memory-bandwidth bound for one scan of the raw vectors, measured in this run: a plain sum over
  // the same bytes (the least work a scan can do).
  const bytes = n * dim * 4;
  const sumMs: number[] = [];
  for (let r = 0; r < 20; r++) {
    const t = performance.now();
    let s = 0;
    for (let i = 0; i < matrix.length; i++) s += matrix[i] as number;
    sumMs.push(performance.now() - t);
    if (s === 42) console.log('');
  }
  sumMs.sort((a, b) => a - b);
  const boundMs = percentile(sumMs, 50);
  rows.push({
    name: 'evident-flat',
    metrics: { heap_mb: mem, ...prefix('query', lat), bandwidth_bound_ms: boundMs, gb_per_s: bytes / 1e6 / lat.p50 },
  });
  qi = 0;
  const naiveLat = timeQueries(
    qs.slice(0, Math.min(qs.length, 50)).map(() => ''),
    () => {
      const q = qs[qi++ % qs.length] as Float32Array;
      const scored = naive.map(({ id, v }) => {
        let dot = 0;
        for (let j = 0; j < dim; j++) dot += (v[j] as number) * (q[j] as number);
        return { id, score: dot };
      });
      return scored.sort((a, b) => b.score - a.score).slice(0, 100);
    },
  );
  rows.push({ name: 'naive-scan-sort', metrics: prefix('query', naiveLat) });
  return rows;
}

function prefix(p: string, lat: Latency): Record<string, number> {
  return { [`${p}_p50_ms`]: lat.p50, [`${p}_p95_ms`]: lat.p95, [`${p}_mean_ms`]: lat.mean };
}

function printTable(title: string, rows: readonly Row[]): void {
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r.metrics)))];
  console.log(`\n${title}`);
  console.log(`| system | ${cols.join(' | ')} |`);
  console.log(`|---|${cols.map(() => '---:').join('|')}|`);
  for (const r of rows) {
    console.log(`| ${r.name} | ${cols.map((c) => fmt(r.metrics[c])).join(' | ')} |`);
  }
}

function fmt(x: number | undefined): string {
  if (x === undefined || Number.isNaN(x)) return '—';
  return Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toFixed(3);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const source = loadSource();
  const queries = source.queries.slice(0, args.queries);
  console.log(`Evident bench — node ${process.version}, ${queries.length} SciFact test claims as queries, top 100`);
  const out: { configs: { name: string; corpus: string; metrics: Record<string, number> }[] } = { configs: [] };

  for (const n of args.sizes) {
    const docs = syntheticChunks(source, n);
    const lex = lexicalRows(docs, queries);
    printTable(`lexical, ${n} chunks`, lex);
    const dense = denseRows(n, 512, Math.min(100, args.queries));
    printTable(`dense 512-d exact scan, ${n} chunks`, dense);
    for (const r of [...lex, ...dense])
      out.configs.push({ name: r.name, corpus: `synthetic-${n}`, metrics: r.metrics });
  }

  if (args.embed) {
    const t = performance.now();
    const { embedder, backend } = await loadUseEmbedderNode();
    const loadMs = performance.now() - t;
    const texts = syntheticChunks(source, 256, 3).map((d) => d.text);
    const rows: Row[] = (await benchEmbedding(embedder, texts)).map((r) => ({
      name: `use-lite batch ${r.batch}`,
      metrics: { inputs_per_s: r.inputsPerSec, load_ms: loadMs },
    }));
    printTable(`embedding, ${backend.backend} (threads ${backend.threads}), ~120-token chunks`, rows);
    for (const r of rows) out.configs.push({ name: r.name, corpus: 'synthetic-256', metrics: r.metrics });
    embedder.dispose();
  }
  const peak = process.resourceUsage().maxRSS / 1024;
  console.log(`\npeak RSS ${peak.toFixed(0)} MB`);
  if (args.json) {
    writeFileSync(args.json, JSON.stringify({ ...out, peak_rss_mb: peak }, null, 2));
    console.log(`wrote ${args.json}`);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
