/**
 * `npm run bench` — timings, never asserted (benchmarks are not tests). Every figure is measured
 * side by side with its baseline in the same run.
 *
 *   --peers      lexical: Evident's BM25 vs MiniSearch, Orama (default, stemmed), FlexSearch on
 *                SciFact (nDCG@10, R@100) and synthetic 10k / 100k chunk libraries (`bench-peers.ts`)
 *   --dense      the exact dense scan (WASM SIMD float32, plain JS float32, int8, int8 + rescoring)
 *                vs the memory-bandwidth bound measured in the same run (`bench-fullquery.ts`)
 *   --fullquery  lexical + dense scan + fusion + evidence selection at 100k chunks, per stage,
 *                excluding the query embedding; index memory vs raw vectors + postings; and the
 *                full query with and without the inquiry stage when it does not trigger (the
 *                trigger check and the release guard over the packet, as the ask calls them)
 *   --startup    a stored 10k / 100k-chunk library in the real app in Chromium: time to
 *                searchable (lexical) and fully loaded (`bench-startup.ts`)
 *   --embed      the embedded USE-lite model, inputs/s at batch 1, 8, 32 on ~120-token chunks;
 *                with --browser also the app's embedding pool in Chromium, 1 worker against one per
 *                core, chunks/s and the time to embed a 250-page filing (`bench-embed-pool.ts`)
 *   --embed-browser  the same in a Chromium worker, single vs multithreaded WASM (cross-origin
 *                isolated or not), load time cold and warm, memory, and WebGPU beside WASM when
 *                an adapter exists (`bench-embed-browser.ts`)
 *   --ingest-browser  30 PDFs dropped at once in a Chromium worker: drop → searchable and → fully
 *                embedded, embedding overlapping parsing vs one file at a time (`bench-ingest-browser.ts`);
 *                with `--pdf FILE` (repeatable; `--probe WORDS`) those files instead, e.g. a 250-page filing
 *   --testdocs   parse + chunk of every file in ../shared/testdocs in Node, slowest first, beside
 *                one token count of its text (`bench-testdocs.ts`; `--runs N`, default 3)
 *   --tune-peers the SciFact TRAIN grid the peers' best settings were chosen on (`bench-systems.ts`)
 *   --browser    also runs --peers / --dense / --fullquery inside headless Chromium (a worker,
 *                the same code, WASM SIMD for the scan; `bench-browser.ts`)
 *
 * Without a section flag every section runs at its default sizes, except that --peers uses
 * SciFact and 10k only and --startup 10k only (100k takes minutes: ask for it).
 *
 *   npm run bench -- --peers --browser --json bench.json
 *   npm run bench -- --peers --corpora scifact,10000 --queries 100
 *   npm run bench -- --dense --fullquery --browser --sizes 10000,100000
 *   npm run bench -- --startup --startup-chunks 10000,100000 --runs 3
 *
 * `--json FILE` writes `{configs: [{name, corpus, runtime, metrics}], …}`: one entry per system
 * × corpus × runtime (Evident's lexical entry is named `evident`), plus the dense, full-query
 * and startup figures.
 */
import { writeFileSync } from 'node:fs';
import { loadUseEmbedderNode } from '../node/use-node';
import { benchEmbedding } from './bench-embed';
import { embedBrowserTable, runEmbedBrowserBench, type EmbedBrowserResult } from './bench-embed-browser';
import { embedPoolTable, runEmbedPoolBench, type EmbedPoolResult } from './bench-embed-pool';
import { ingestBrowserTable, runIngestBrowserBench, type IngestBrowserResult } from './bench-ingest-browser';
import { runBrowserBench, type BrowserBenchResult } from './bench-browser';
import { runIfMain } from './common';
import {
  buildLibrary,
  runFullQueries,
  scanReport,
  syntheticLibrary,
  type FullQueryReport,
  type ScanReport,
} from './bench-fullquery';
import {
  heapMb,
  loadScifactSource,
  peersTable,
  runPeersNode,
  syntheticCorpus,
  tunePeers,
  type BenchCorpus,
  type BenchRow,
} from './bench-peers';
import { runStartup, type StartupResult } from './bench-startup';
import { runTestdocsBench, testdocsTable, type TestdocsResult } from './bench-testdocs';
import { syntheticChunks } from './bench-systems';

const SECTIONS = [
  'peers',
  'dense',
  'fullquery',
  'startup',
  'embed',
  'embed-browser',
  'ingest-browser',
  'testdocs',
  'tune-peers',
] as const;
type Section = (typeof SECTIONS)[number];

interface Args {
  sections: Set<Section>;
  browser: boolean;
  corpora: ('scifact' | number)[];
  queries: number;
  sizes: number[];
  fullQueryChunks: number;
  fullQueryQueries: number;
  startupChunks: number[];
  startupNode: boolean;
  runs: number;
  /** `--ingest-browser` over these files instead of generated PDFs. */
  pdfs: string[];
  probe?: string;
  json?: string;
}

function parseArgs(argv: readonly string[]): Args {
  const chosen = new Set<Section>();
  const args: Omit<Args, 'sections'> & { corporaSet: boolean; startupSet: boolean } = {
    browser: false,
    corpora: ['scifact', 10_000, 100_000],
    corporaSet: false,
    queries: 100,
    sizes: [10_000, 100_000],
    fullQueryChunks: 100_000,
    fullQueryQueries: 100,
    startupChunks: [10_000, 100_000],
    startupSet: false,
    startupNode: false,
    runs: 3,
    pdfs: [],
  };
  const ints = (v: string | undefined, what: string): number[] => {
    const out = String(v).split(',').map(Number);
    if (out.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`bench: ${what} takes positive integers.`);
    return out;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const section = a.replace(/^--/, '') as Section;
    if (SECTIONS.includes(section)) chosen.add(section);
    else if (a === '--browser') args.browser = true;
    else if (a === '--corpora') {
      args.corpora = String(argv[++i])
        .split(',')
        .map((c) => (c === 'scifact' ? 'scifact' : (ints(c, '--corpora')[0] as number)));
      args.corporaSet = true;
    } else if (a === '--queries') args.queries = ints(argv[++i], '--queries')[0] as number;
    else if (a === '--sizes') args.sizes = ints(argv[++i], '--sizes');
    else if (a === '--fullquery-chunks') args.fullQueryChunks = ints(argv[++i], '--fullquery-chunks')[0] as number;
    else if (a === '--startup-chunks') {
      args.startupChunks = ints(argv[++i], '--startup-chunks');
      args.startupSet = true;
    } else if (a === '--startup-node') args.startupNode = true;
    else if (a === '--runs') args.runs = ints(argv[++i], '--runs')[0] as number;
    else if (a === '--json') args.json = argv[++i];
    else if (a === '--pdf') args.pdfs.push(String(argv[++i]));
    else if (a === '--probe') args.probe = String(argv[++i]);
    else
      throw new Error(
        `bench: unknown argument "${a}". Allowed: ${SECTIONS.map((s) => `--${s}`).join(', ')}, --browser, --corpora, --queries, --sizes, --fullquery-chunks, --startup-chunks, --startup-node, --runs, --pdf FILE, --probe WORDS, --json FILE.`,
      );
  }
  const all = chosen.size === 0;
  if (all) {
    for (const s of SECTIONS) if (s !== 'tune-peers') chosen.add(s);
    if (!args.corporaSet) args.corpora = ['scifact', 10_000];
    if (!args.startupSet) args.startupChunks = [10_000];
  }
  const { corporaSet: _c, startupSet: _s, ...rest } = args;
  return { ...rest, sections: chosen };
}

const f = (x: number, digits = 2): string =>
  Number.isNaN(x) ? '—' : Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(digits);
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

function scanTable(rows: readonly { runtime: string; n: number; r: ScanReport }[]): string {
  const out = [
    '\ndense exact scan, 512-d, top 100, 50 queries (bound: SIMD loads of the same bytes, same run)',
    '| runtime | vectors | float32 SIMD p50 / p95 | float32 JS p50 | int8 SIMD p50 / p95 | int8 + rescore ×4 p50 / p95 | bound float32 / int8 | float32 ÷ bound | int8 ÷ bound |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { runtime, n, r } of rows) {
    out.push(
      `| ${runtime} | ${n.toLocaleString('en')} | ${f(r.float.p50)} / ${f(r.float.p95)} ms | ${f(r.floatJs.p50)} ms | ${f(r.int8.p50)} / ${f(r.int8.p95)} ms | ${f(r.int8Rescore.p50)} / ${f(r.int8Rescore.p95)} ms | ${f(r.boundFloatMs)} / ${f(r.boundInt8Ms)} ms | ${f(r.float.p50 / r.boundFloatMs, 1)}× | ${f(r.int8.p50 / r.boundInt8Ms, 1)}× |`,
    );
  }
  return out.join('\n');
}

interface FullQueryRow {
  runtime: string;
  chunks: number;
  bm25BuildMs: number;
  denseBuildMs: number;
  postingsBytes: number;
  rawVectorBytes: number;
  vectorIndexBytes: number;
  indexMb: number;
  report: FullQueryReport;
}

function fullQueryTable(rows: readonly FullQueryRow[]): string {
  const out = [
    '\nfull query (lexical top 100 + dense scan top 100 + weighted fusion + selection with verify; no query embedding)',
    '| runtime | chunks | p50 / p95 | lexical | dense | fuse | select (of which verify) | index memory (measured) | raw vectors + postings | ratio | BM25 build | dense build |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const s = r.report.stages;
    const raw = r.rawVectorBytes + r.postingsBytes;
    out.push(
      `| ${r.runtime} | ${r.chunks.toLocaleString('en')} | ${f(r.report.latency.p50)} / ${f(r.report.latency.p95)} ms | ${f(s.lexical ?? NaN)} ms | ${f(s.dense ?? NaN)} ms | ${f(s.fuse ?? NaN)} ms | ${f(s.select ?? NaN)} (${f(s['select.verify'] ?? NaN)}) ms | ${f(r.indexMb, 1)} MiB | ${mib(raw)} | ${f((r.indexMb * 2 ** 20) / raw)}× | ${f(r.bm25BuildMs / 1000)} s | ${f(r.denseBuildMs / 1000)} s |`,
    );
  }
  out.push(
    '(stage times are means; selection stages: ' +
      Object.keys(rows[0]?.report.stages ?? {})
        .filter((k) => k.startsWith('select.'))
        .join(', ') +
      ')',
  );
  out.push(
    '\ninquiry stage when it does not trigger (first outcome supported, no uncovered rationale: the premise check and the release guard over the packet; same run, same queries)',
    '| runtime | chunks | queries not triggered / triggered | full query without p50 / p95 | with the stage p50 / p95 | the stage alone p50 / p95 |',
    '|---|---:|---:|---:|---:|---:|',
  );
  for (const r of rows) {
    const q = r.report.inquiry;
    out.push(
      `| ${r.runtime} | ${r.chunks.toLocaleString('en')} | ${q.notTriggered} / ${q.triggered} | ${f(q.without.p50)} / ${f(q.without.p95)} ms | ${f(q.withStage.p50)} / ${f(q.withStage.p95)} ms | ${f(q.stage.p50)} / ${f(q.stage.p95)} ms |`,
    );
  }
  return out.join('\n');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const log = (msg: string): void => console.error(`[bench] ${msg}`);
  const source = await loadScifactSource();
  console.log(
    `Evident bench — node ${process.version}, ${args.browser ? 'Node and Chromium' : 'Node'}; sections: ${[...args.sections].join(', ')}`,
  );
  const out: {
    configs: BenchRow[];
    dense: { runtime: string; n: number; r: ScanReport }[];
    fullQuery: FullQueryRow[];
    incremental?: Record<string, number>;
    startup?: StartupResult[];
    chromium?: Record<string, unknown>;
    embed?: { batch: number; inputsPerSec: number }[];
    embedBrowser?: EmbedBrowserResult;
    embedPool?: EmbedPoolResult;
    ingestBrowser?: IngestBrowserResult;
    testdocs?: TestdocsResult;
  } = { configs: [], dense: [], fullQuery: [] };

  if (args.sections.has('tune-peers')) console.log(await tunePeers(log));
  if (args.sections.has('peers')) {
    const corpora: BenchCorpus[] = args.corpora.map((c) =>
      c === 'scifact' ? source.scifact : syntheticCorpus(source, c, args.queries),
    );
    const rows = await runPeersNode(corpora, log);
    out.configs.push(...rows);
    console.log(
      peersTable(
        rows,
        `lexical, Node ${process.version} (SciFact: its 300 test claims; synthetic: the first ${args.queries}; top 100)`,
      ),
    );
  }
  if (args.sections.has('dense')) {
    for (const n of args.sizes) {
      log(`dense scan, ${n} vectors`);
      out.dense.push({ runtime: 'node', n, r: scanReport(n, 512, 50) });
    }
    console.log(scanTable(out.dense));
  }
  if (args.sections.has('fullquery')) {
    const n = args.fullQueryChunks;
    log(`full query: building ${n} chunks`);
    const lib = syntheticLibrary(source.sentences, n);
    const before = heapMb();
    const built = buildLibrary(lib, 512);
    // Heap + ArrayBuffers after GC do not count WASM memories: the vectors' is added.
    const indexMb = heapMb() - before + built.dense.wasmBytes / 2 ** 20;
    const report = await runFullQueries(built, source.scifact.queries.slice(0, args.fullQueryQueries));
    out.fullQuery.push({
      runtime: 'node',
      chunks: n,
      bm25BuildMs: built.bm25BuildMs,
      denseBuildMs: built.denseBuildMs,
      postingsBytes: built.postingsBytes,
      rawVectorBytes: built.rawVectorBytes,
      vectorIndexBytes: built.dense.memoryBytes,
      indexMb,
      report,
    });
    console.log(fullQueryTable(out.fullQuery));
    // Incremental lexical changes at this size: one 100-chunk document in and out, vs a rebuild.
    const doc = syntheticChunks(source.sentences, 100, 5).map((c) => ({ ...c, id: `new-${c.id}`, headings: '' }));
    let t = performance.now();
    const grown = built.bm25.withAdded(doc);
    const addMs = performance.now() - t;
    t = performance.now();
    grown.without(doc.map((c) => c.id));
    const deleteMs = performance.now() - t;
    out.incremental = { chunks: n, addMs, deleteMs, rebuildMs: built.bm25BuildMs };
    console.log(
      `BM25 at ${n.toLocaleString('en')} chunks: add a 100-chunk document ${f(addMs)} ms, delete it ${f(deleteMs)} ms (no re-analysis), vs a full build ${f(built.bm25BuildMs / 1000)} s`,
    );
  }

  if (args.browser && (args.sections.has('peers') || args.sections.has('dense') || args.sections.has('fullquery'))) {
    const res = await runBrowserBench(source, {
      corpora: args.sections.has('peers') ? args.corpora : [],
      syntheticQueries: args.queries,
      fullQueryChunks: args.sections.has('fullquery') ? args.fullQueryChunks : 0,
      fullQueryQueries: args.fullQueryQueries,
      scanChunks: args.sections.has('dense') ? Math.max(...args.sizes) : 0,
      dim: 512,
      log,
    });
    if (typeof res === 'string') console.log(`\nChromium: ${res}`);
    else printBrowser(res, out, args);
  }

  if (args.sections.has('startup')) {
    out.startup = await runStartup({ sizes: args.startupChunks, runs: args.runs, node: args.startupNode }, (msg) =>
      console.log(msg),
    );
  }

  if (args.sections.has('embed')) {
    const t = performance.now();
    const { embedder, backend } = await loadUseEmbedderNode();
    const loadMs = performance.now() - t;
    const texts = syntheticChunks(source.sentences, 256, 3).map((d) => d.text);
    out.embed = await benchEmbedding(embedder, texts);
    console.log(
      `\nembedding, USE-lite on ${backend.backend} (threads ${backend.threads}), ~120-token chunks; load ${f(loadMs)} ms`,
    );
    for (const r of out.embed) console.log(`  batch ${r.batch}: ${f(r.inputsPerSec)} inputs/s`);
    embedder.dispose();
    if (args.browser) {
      // The app's embedding pool in Chromium: 1 worker against one per core, in one run.
      const res = await runEmbedPoolBench({ log });
      if (typeof res === 'string')
        console.log(`
Chromium: ${res}`);
      else {
        out.embedPool = res;
        console.log(`
embedding pool, USE-lite in Chromium (the app's embed-worker.ts)\n${embedPoolTable(res)}`);
      }
    }
  }

  if (args.sections.has('ingest-browser')) {
    const res = await runIngestBrowserBench({
      log,
      ...(args.pdfs.length > 0 ? { pdfs: args.pdfs, rounds: 1 } : {}),
      ...(args.probe ? { probe: args.probe } : {}),
    });
    if (typeof res === 'string') console.log(`\nChromium: ${res}`);
    else {
      out.ingestBrowser = res;
      console.log(`\nbatch ingest in a Chromium worker (median of the rounds)\n${ingestBrowserTable(res)}`);
    }
  }

  if (args.sections.has('testdocs')) {
    const res = await runTestdocsBench(args.runs, log);
    if (typeof res === 'string') console.log(`\n${res}`);
    else {
      out.testdocs = res;
      console.log(`\n${testdocsTable(res)}`);
    }
  }

  if (args.sections.has('embed-browser')) {
    const res = await runEmbedBrowserBench({ log });
    if (typeof res === 'string')
      console.log(`
Chromium: ${res}`);
    else {
      out.embedBrowser = res;
      console.log(`
embedding, USE-lite in a Chromium worker (inputs/s, ~120-token chunks)
${embedBrowserTable(res)}`);
    }
  }

  const peak = process.resourceUsage().maxRSS / 1024;
  console.log(`\npeak RSS of the Node process ${peak.toFixed(0)} MB`);
  if (args.json) {
    writeFileSync(args.json, JSON.stringify({ ...out, peak_rss_mb: peak }, null, 2));
    console.log(`wrote ${args.json}`);
  }
}

function printBrowser(
  res: BrowserBenchResult,
  out: {
    configs: BenchRow[];
    dense: { runtime: string; n: number; r: ScanReport }[];
    fullQuery: FullQueryRow[];
    chromium?: Record<string, unknown>;
  },
  args: Args,
): void {
  out.chromium = res.info;
  console.log(`\nChromium: ${JSON.stringify(res.info)}`);
  if (res.rows.length > 0) {
    out.configs.push(...res.rows);
    console.log(
      peersTable(
        res.rows,
        `lexical, Chromium worker (same corpora and queries; index memory: measureUserAgentSpecificMemory of the worker)`,
      ),
    );
  }
  if (res.scan) {
    out.dense.push({ runtime: 'chromium', n: res.scan.chunks, r: res.scan.report });
    console.log(scanTable(out.dense.filter((d) => d.runtime === 'chromium')));
  }
  if (res.fullQuery) {
    const b = res.fullQuery.build;
    out.fullQuery.push({ runtime: 'chromium', chunks: res.fullQuery.chunks, ...b, report: res.fullQuery.report });
    console.log(fullQueryTable(out.fullQuery.filter((r) => r.runtime === 'chromium')));
  }
  void args;
}

runIfMain(import.meta.url, main);
