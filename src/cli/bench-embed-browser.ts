/**
 * Browser embedding benchmark (timings only; benchmarks are not tests):
 *
 *   npm run bench -- --embed-browser
 *   npx tsx src/cli/bench-embed-browser.ts [--seconds 3] [--rounds 3] [--threads 1,2] [--json out.json]
 *
 * The embedded model (USE lite) in a dedicated worker of headless Chromium (Debian's
 * /usr/bin/chromium, the e2e flags), loaded exactly as the app loads it (`loadUseLite`: the
 * self-hosted model folder with checksums, TF.js WASM from `vendor/tfjs/`, one warm-up embedding).
 * The page (`test/e2e/models-page/embed-bench.html`) is built by Vite and served twice: with the
 * app's COOP/COEP headers (cross-origin isolated: SharedArrayBuffer, so TF.js's threaded WASM) and
 * without them (single-threaded WASM). Per configuration, in a fresh browser context:
 *
 * - cold load: empty HTTP cache; then inputs/s at batch 1, 8, 32 on ~120-token SciFact chunks
 *   (synthetic text without ../shared), interleaved rounds (`benchEmbedding`, as in Node);
 * - warm load: the page reloaded (model files from the browser's HTTP cache);
 * - memory with the model loaded: the WASM heap and, when isolated, the page + worker total from
 *   `performance.measureUserAgentSpecificMemory()`;
 * - WebGPU beside WASM: the isolated page in a browser launched with `--enable-unsafe-webgpu`,
 *   backends `webgpu → wasm`, at `webgpuBatches` (one round), when it gives an adapter. Headless
 *   Chromium's adapter is SwiftShader (a CPU emulation): that row is labelled a correctness
 *   figure, not a speed; on a machine with a real GPU it is the GPU's throughput.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { preview, type PreviewServer } from 'vite';
import type { EmbedBenchPage, PageRun } from '../../test/e2e/models-page/embed-bench';
import { CHROMIUM_PATH, launchChromium } from '../node/chromium';
import { reportBenchResult, runIfMain } from './common';
import { buildModelsPages } from '../../test/e2e/models-page/build';
import { scifactDocTexts } from './bench-embed';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Beyond the shared flags: an immediate measureUserAgentSpecificMemory. */
const EXTRA_FLAGS = ['--enable-blink-features=ForceEagerMeasureMemory'];

export interface EmbedBrowserOptions {
  readonly batches: readonly number[];
  readonly minSeconds: number;
  readonly rounds: number;
  /** Thread counts to ask for on the cross-origin isolated page. */
  readonly threads: readonly number[];
  /**
   * Also run the isolated page with TF.js told there are this many cores (its threaded WASM gives
   * XNNPACK at most half the logical cores); null skips it.
   */
  readonly reportCores: number | null;
  /**
   * Batch sizes of the WebGPU row (a browser launched with `--enable-unsafe-webgpu`), run when it
   * gives an adapter; empty skips it. Small: on SwiftShader a 120-token text takes seconds.
   */
  readonly webgpuBatches: readonly number[];
  readonly log: (msg: string) => void;
}

export const DEFAULT_EMBED_BROWSER_OPTIONS: EmbedBrowserOptions = Object.freeze({
  batches: [1, 8, 32],
  minSeconds: 3,
  rounds: 3,
  threads: [1, 2],
  reportCores: 4,
  webgpuBatches: [1, 4],
  log: (msg: string) => console.log(msg),
});

export interface EmbedBrowserRow {
  readonly page: 'isolated' | 'not isolated';
  /** Backend asked for first: 'webgpu' for the WebGPU row (which may fall back: see `cold.info.backend`). */
  readonly asked: 'wasm' | 'webgpu';
  /** The WebGPU row on a software adapter (SwiftShader): its figure checks correctness, not speed. */
  readonly softwareGpu: boolean;
  readonly threadsAsked: number | null;
  /** Cores TF.js was told the machine has (null: the real count). */
  readonly reportedCores: number | null;
  readonly cold: PageRun;
  readonly warm: PageRun;
}

export interface EmbedBrowserResult {
  readonly chromium: string;
  readonly cores: number;
  readonly rows: readonly EmbedBrowserRow[];
}

/** The documents chunked in the worker: SciFact's first 300 abstracts, else synthetic text. */
function benchTexts(): { texts: string[]; source: string } {
  try {
    return { texts: scifactDocTexts().texts.slice(0, 300), source: 'SciFact abstracts' };
  } catch {
    const words = Array.from({ length: 4000 }, (_, i) => `word${i % 97} of the study`).join(' ');
    return { texts: [words], source: 'synthetic text (../shared missing)' };
  }
}

export async function runEmbedBrowserBench(
  options: Partial<EmbedBrowserOptions> = {},
): Promise<EmbedBrowserResult | string> {
  const o = { ...DEFAULT_EMBED_BROWSER_OPTIONS, ...options };
  const { existsSync } = await import('node:fs');
  if (!existsSync(CHROMIUM_PATH)) return `${CHROMIUM_PATH} is missing: the browser embedding benchmark needs Chromium.`;
  const { copyAssets } = await import('../../scripts/copy-assets.ts');
  const { CROSS_ORIGIN_ISOLATION_HEADERS } = await import('../../vite.config');

  await copyAssets(ROOT);
  const outDir = await mkdtemp(join(tmpdir(), 'evident-embed-bench-'));
  const pageRoot = join(ROOT, 'test/e2e/models-page');
  const servers: PreviewServer[] = [];
  let browser: Browser | null = null;
  try {
    await buildModelsPages(outDir, ['embed-bench.html']);
    const serve = async (headers: Record<string, string>): Promise<string> => {
      const server = await preview({
        configFile: false,
        root: pageRoot,
        logLevel: 'warn',
        build: { outDir },
        preview: { host: '127.0.0.1', port: 0, headers, open: false },
      });
      servers.push(server);
      return new URL('embed-bench.html', server.resolvedUrls?.local[0] ?? '').href;
    };
    const isolatedUrl = await serve(CROSS_ORIGIN_ISOLATION_HEADERS);
    const plainUrl = await serve({});

    browser = await launchChromium(EXTRA_FLAGS);
    const { texts, source } = benchTexts();
    o.log(`browser embedding benchmark: Chromium ${browser.version()}, ${source}`);
    const configs: {
      page: EmbedBrowserRow['page'];
      url: string;
      threads: number | null;
      cores: number | null;
      webgpu?: true;
    }[] = [
      { page: 'not isolated', url: plainUrl, threads: null, cores: null },
      ...o.threads.map((t) => ({ page: 'isolated' as const, url: isolatedUrl, threads: t, cores: null })),
      ...(o.reportCores !== null
        ? [{ page: 'isolated' as const, url: isolatedUrl, threads: Math.max(...o.threads), cores: o.reportCores }]
        : []),
      ...(o.webgpuBatches.length > 0
        ? [{ page: 'isolated' as const, url: isolatedUrl, threads: null, cores: null, webgpu: true as const }]
        : []),
    ];
    let gpuBrowser: Browser | null = null;
    const rows: EmbedBrowserRow[] = [];
    let cores = 0;
    for (const c of configs) {
      if (c.webgpu) gpuBrowser ??= await launchChromium([...EXTRA_FLAGS, '--enable-unsafe-webgpu']);
      const context = await (c.webgpu ? (gpuBrowser as Browser) : browser).newContext();
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      if (process.env.DEBUG_BENCH) page.on('console', (m) => o.log(`  [console] ${m.text()}`));
      const run = async (loadOnly: boolean): Promise<PageRun> => {
        await page.locator('#status[data-state="ready"]').waitFor({ timeout: 60_000 });
        return page.evaluate((args) => (window as unknown as { bench: EmbedBenchPage }).bench.run(args), {
          texts,
          batches: c.webgpu ? o.webgpuBatches : o.batches,
          minSeconds: c.webgpu ? 0 : o.minSeconds,
          rounds: c.webgpu ? 1 : o.rounds,
          ...(c.webgpu ? { minInputs: 4 } : {}),
          loadOnly,
          ...(c.webgpu ? { backends: ['webgpu', 'wasm'] as const } : {}),
          ...(c.threads !== null ? { threads: c.threads } : {}),
          ...(c.cores !== null ? { reportCores: c.cores } : {}),
        });
      };
      await page.goto(c.url);
      cores = await page.evaluate(() => navigator.hardwareConcurrency);
      const cold = await run(false);
      await page.reload();
      const warm = await run(true);
      await context.close();
      if (errors.length > 0) throw new Error(`bench page errors: ${errors.join('; ')}`);
      const reason = cold.info.backend.reason;
      if (c.webgpu && cold.info.backend.name !== 'webgpu') {
        o.log(`  WebGPU row skipped: ${reason}`);
        continue;
      }
      rows.push({
        page: c.page,
        asked: c.webgpu ? 'webgpu' : 'wasm',
        softwareGpu: Boolean(c.webgpu) && /swiftshader/i.test(reason),
        threadsAsked: c.threads,
        reportedCores: c.cores,
        cold,
        warm,
      });
      o.log(describeRow(rows.at(-1) as EmbedBrowserRow));
    }
    await gpuBrowser?.close();
    return { chromium: browser.version(), cores, rows };
  } finally {
    await browser?.close();
    for (const s of servers) await s.close();
    await rm(outDir, { recursive: true, force: true });
  }
}

const f = (x: number, d = 0): string => (Number.isFinite(x) ? x.toFixed(d) : '–');
const mib = (b: number | null): string => (b === null ? '–' : `${f(b / 2 ** 20)} MiB`);

function describeRow(r: EmbedBrowserRow): string {
  const b = r.cold.info.backend;
  const tp = r.cold.throughput.map((t) => `b${t.batch} ${f(t.inputsPerSec, 1)}/s`).join(', ');
  if (r.asked === 'webgpu') {
    return `  WebGPU (${b.reason})${r.softwareGpu ? ' [software adapter: a correctness figure, not a speed]' : ''}: ${tp}; load cold ${f(r.cold.loadMs)} ms`;
  }
  return `  ${r.page}${r.threadsAsked !== null ? `, ${r.threadsAsked} thread(s) asked` : ''}${r.reportedCores !== null ? `, TF.js told ${r.reportedCores} cores` : ''}: ${b.name} ${b.threads} thread(s)${b.simd ? ' SIMD' : ''}; ${tp}; load cold ${f(r.cold.loadMs)} ms, warm ${f(r.warm.loadMs)} ms`;
}

/** A Markdown table of the result (BENCHMARKS.md's form). */
export function embedBrowserTable(res: EmbedBrowserResult): string {
  const gpu = res.rows.filter((r) => r.asked === 'webgpu');
  const wasm = embedWasmTable({ ...res, rows: res.rows.filter((r) => r.asked === 'wasm') });
  if (gpu.length === 0)
    return `${wasm}\n(WebGPU: no adapter in this Chromium, or the row was skipped; real-GPU throughput not measured)`;
  const lines = gpu.map((r) => {
    const tp = r.cold.throughput.map((t) => `batch ${t.batch} ${f(t.inputsPerSec, 2)}/s`).join(', ');
    const label = r.softwareGpu
      ? 'software adapter (SwiftShader): a correctness figure, not a speed; real-GPU throughput not measured'
      : 'hardware adapter';
    return `| ${r.cold.info.backend.reason} | ${tp} | ${f(r.cold.loadMs)} ms | ${label} |`;
  });
  return [wasm, '', '| WebGPU | inputs/s | load cold | note |', '|---|---|---:|---|', ...lines].join('\n');
}

function embedWasmTable(res: EmbedBrowserResult): string {
  const batches = res.rows[0]?.cold.throughput.map((t) => t.batch) ?? [];
  const head = `| page | WASM threads asked → used | ${batches.map((b) => `batch ${b}`).join(' | ')} | load cold (download + init + warm-up) | load warm | WASM heap | page + worker memory |`;
  const out = [head, `|---|---|${batches.map(() => '---:').join('|')}|---:|---:|---:|---:|`];
  for (const r of res.rows) {
    const b = r.cold.info.backend;
    const c = r.cold.info;
    out.push(
      `| ${r.page}${r.reportedCores !== null ? ` (TF.js told ${r.reportedCores} cores)` : ''} | ${r.threadsAsked ?? 1} → ${b.threads}${b.simd ? ', SIMD' : ''} | ${r.cold.throughput
        .map((t) => `${f(t.inputsPerSec, 1)}/s`)
        .join(
          ' | ',
        )} | ${f(r.cold.loadMs)} ms (${f(c.downloadMs)} + ${f(c.initMs)} + ${f(c.warmupMs)}) | ${f(r.warm.loadMs)} ms (${f(r.warm.info.downloadMs)} + ${f(r.warm.info.initMs)} + ${f(r.warm.info.warmupMs)}) | ${mib(r.cold.wasmHeapBytes)} | ${mib(r.cold.measuredBytes)} |`,
    );
  }
  const first = res.rows[0]?.cold;
  if (first) {
    out.push(
      `(${first.chunks} chunks, mean ${f(first.meanTokens, 1)} tokens; token counting ${f((first.countCharsPerSec ?? NaN) / 1e6, 1)} M chars/s; Chromium ${res.chromium}, ${res.cores} logical cores)`,
    );
  }
  return out.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const opts: { -readonly [K in keyof EmbedBrowserOptions]?: EmbedBrowserOptions[K] } = {};
  let json: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--seconds') opts.minSeconds = Number(argv[++i]);
    else if (a === '--rounds') opts.rounds = Number(argv[++i]);
    else if (a === '--threads') opts.threads = String(argv[++i]).split(',').map(Number);
    else if (a === '--report-cores') {
      const v = argv[++i];
      opts.reportCores = v === 'none' ? null : Number(v);
    } else if (a === '--batches') opts.batches = String(argv[++i]).split(',').map(Number);
    else if (a === '--json') json = argv[++i];
    else
      throw new Error(
        `bench-embed-browser: unknown argument "${a}". Allowed: --seconds, --rounds, --threads, --report-cores N|none, --batches, --webgpu-batches N,N|none, --json FILE.`,
      );
  }
  return reportBenchResult(await runEmbedBrowserBench(opts), embedBrowserTable, json);
}

runIfMain(import.meta.url, main);
