/**
 * `npm run bench -- --peers --browser`: the `--peers` rows, the 100k full query and the dense
 * scan measured again inside headless Chromium (Debian's /usr/bin/chromium, the e2e flags), in a
 * dedicated worker running the same runtime-neutral code (`test/bench-page/`, bundled by Vite;
 * the dense scan on the same WASM SIMD kernel). Node builds the page, serves it cross-origin
 * isolated with the corpora as JSON, and drives the worker step by step through the page, so
 * the worker's memory is measured between steps with `performance.measureUserAgentSpecificMemory`
 * (JS heap + ArrayBuffers + WASM memories of the worker). Quality is computed in Node from the
 * ranked ids the worker returns.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CHROMIUM_PATH, launchChromium } from '../node/chromium';
import type { FullQueryReport, ScanReport } from './bench-fullquery';
import {
  measuredRow,
  skipReason,
  withRatios,
  type BenchCorpus,
  type BenchRow,
  type ScifactSource,
} from './bench-peers';
import { benchSystems, type Latency } from './bench-systems';

export interface BrowserBenchOptions {
  /** `scifact` and synthetic sizes to run the lexical systems on. */
  readonly corpora: readonly ('scifact' | number)[];
  /** Claims per synthetic corpus. */
  readonly syntheticQueries: number;
  /** Full query (lexical + dense + selection) at this many chunks; 0 skips it. */
  readonly fullQueryChunks: number;
  readonly fullQueryQueries: number;
  /** Dense scan report at this many vectors; 0 skips it. */
  readonly scanChunks: number;
  readonly dim: number;
  readonly log: (msg: string) => void;
}

export interface FullQueryBuild {
  readonly bm25BuildMs: number;
  readonly denseBuildMs: number;
  readonly postingsBytes: number;
  readonly rawVectorBytes: number;
  readonly vectorIndexBytes: number;
  /** The WASM memory holding the vectors, which the memory measurement does not count. */
  readonly wasmBytes: number;
  readonly simd: boolean;
  /** The worker's memory after building minus before, plus `wasmBytes`, MiB. */
  readonly indexMb: number;
}

export interface BrowserBenchResult {
  readonly info: Record<string, unknown>;
  readonly rows: BenchRow[];
  readonly fullQuery?: { readonly chunks: number; readonly build: FullQueryBuild; readonly report: FullQueryReport };
  readonly scan?: { readonly chunks: number; readonly report: ScanReport };
}

/** Beyond the shared flags: gc() in the worker and an immediate measureUserAgentSpecificMemory. */
const EXTRA_CHROMIUM_FLAGS = ['--js-flags=--expose-gc', '--enable-blink-features=ForceEagerMeasureMemory'];

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

function serve(root: string): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname).replace(/^\/+/, '');
    const file = path.join(root, rel);
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    readFile(file).then(
      (body) =>
        res
          .writeHead(200, {
            'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
            'cross-origin-opener-policy': 'same-origin',
            'cross-origin-embedder-policy': 'require-corp',
          })
          .end(body),
      () => res.writeHead(500).end(),
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Runs the Chromium half. Returns a reason string when Chromium is missing. */
export async function runBrowserBench(
  source: ScifactSource,
  opts: BrowserBenchOptions,
): Promise<BrowserBenchResult | string> {
  if (!existsSync(CHROMIUM_PATH)) return `${CHROMIUM_PATH} is missing: the Chromium bench is skipped`;
  const { build } = await import('vite');
  const pageRoot = path.resolve('test/bench-page');
  const outDir = await mkdtemp(path.join(tmpdir(), 'evident-bench-page-'));
  opts.log('chromium: building the bench page');
  await build({
    root: pageRoot,
    configFile: false,
    logLevel: 'warn',
    worker: { format: 'es' },
    build: { outDir, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 10_000 },
  });
  await mkdir(path.join(outDir, 'data'), { recursive: true });
  await writeFile(
    path.join(outDir, 'data', 'scifact.json'),
    JSON.stringify({ docs: source.scifact.docs, queries: source.scifact.queries }),
  );
  await writeFile(path.join(outDir, 'data', 'sentences.json'), JSON.stringify(source.sentences));
  const server = await serve(outDir);
  const browser = await launchChromium(EXTRA_CHROMIUM_FLAGS);
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => opts.log(`chromium page error: ${e.message}`));
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.waitForFunction(() => 'bench' in globalThis);
    const call = <T>(step: Record<string, unknown>): Promise<T> =>
      page.evaluate((s) => (globalThis as unknown as BenchGlobal).bench.call(s), step) as Promise<T>;
    const memory = (): Promise<number> => page.evaluate(() => (globalThis as unknown as BenchGlobal).bench.memory());
    const info = {
      ...(await page.evaluate(() => (globalThis as unknown as BenchGlobal).bench.info())),
      ...(await call<Record<string, unknown>>({ op: 'info' })),
    };

    const rows: BenchRow[] = [];
    for (const c of opts.corpora) {
      const corpus: BenchCorpus =
        c === 'scifact'
          ? source.scifact
          : {
              name: `synthetic-${c / 1000}k`,
              // Only the size matters for the skip rule; the worker makes the same chunks itself.
              docs: { length: c } as unknown as BenchCorpus['docs'],
              queries: source.scifact.queries.slice(0, opts.syntheticQueries),
            };
      await call(
        c === 'scifact'
          ? { op: 'corpus', corpus: 'scifact' }
          : { op: 'corpus', corpus: 'synthetic', n: c, queries: opts.syntheticQueries },
      );
      for (const system of benchSystems()) {
        const skipped = skipReason(system, corpus);
        if (skipped) {
          rows.push({ name: system.name, corpus: corpus.name, runtime: 'chromium', metrics: {}, skipped });
          continue;
        }
        opts.log(`chromium ${corpus.name}: ${system.name} …`);
        const before = await memory();
        const { buildMs } = await call<{ buildMs: number }>({ op: 'build', system: system.name });
        const mem = (await memory()) - before;
        const measured = await call<{ results: string[][]; latency: Latency; best: Latency }>({ op: 'query', k: 100 });
        await call({ op: 'drop' });
        rows.push(measuredRow(system.name, corpus, 'chromium', { ...measured, buildMs, heapMb: mem }));
      }
    }
    const result: { -readonly [K in keyof BrowserBenchResult]: BrowserBenchResult[K] } = {
      info,
      rows: withRatios(rows),
    };

    if (opts.scanChunks > 0) {
      opts.log(`chromium: dense scan, ${opts.scanChunks} vectors`);
      result.scan = {
        chunks: opts.scanChunks,
        report: await call<ScanReport>({ op: 'scan', n: opts.scanChunks, dim: opts.dim, queries: 50 }),
      };
    }
    if (opts.fullQueryChunks > 0) {
      opts.log(`chromium: full query, building ${opts.fullQueryChunks} chunks`);
      await call({ op: 'drop' });
      await call({ op: 'fq-lib', n: opts.fullQueryChunks });
      // Index memory only: measured after the chunks exist, before and after building the indexes.
      const before = await memory();
      const built = await call<Omit<FullQueryBuild, 'indexMb'>>({ op: 'fq-index', dim: opts.dim });
      const indexMb = (await memory()) - before + built.wasmBytes / 2 ** 20;
      opts.log('chromium: full query, running');
      const report = await call<FullQueryReport>({ op: 'fq-run', queries: opts.fullQueryQueries });
      result.fullQuery = { chunks: opts.fullQueryChunks, build: { ...built, indexMb }, report };
      await call({ op: 'drop' });
    }
    return result;
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
    await rm(outDir, { recursive: true, force: true });
  }
}

interface BenchGlobal {
  bench: {
    call(step: Record<string, unknown>): Promise<unknown>;
    memory(): Promise<number>;
    info(): Record<string, unknown>;
  };
}
