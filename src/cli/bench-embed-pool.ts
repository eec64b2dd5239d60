/**
 * Embedding throughput on one core and on all the page may use (timings only; benchmarks are not
 * tests):
 *
 *   npm run bench -- --embed --browser
 *   npx tsx src/cli/bench-embed-pool.ts [--rounds 2] [--chunks 384] [--json out.json]
 *
 * The app's embedding pool (`src/worker/embed-pool.ts`) in headless Chromium on a cross-origin
 * isolated page: the app's own embedding worker (`embed-worker.ts`: USE lite, single-threaded
 * WASM, loaded from the page's origin with checksums), once with 1 worker and once with one per
 * logical core (`navigator.hardwareConcurrency`), in alternating rounds so that a change of load
 * on a shared machine falls on both. Chunks of ~120 tokens (90-word windows of SciFact abstracts),
 * sent 64 at a time as the engine sends them. Reports chunks/s, the speed-up, and the time to
 * embed a 250-page filing at that rate (3M's 2022 10-K: 252 pages, 3,045 chunks as the app cuts it).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { preview, type PreviewServer } from 'vite';
import type { PoolBenchPage, PoolRun } from '../../test/e2e/models-page/embed-pool';
import { buildModelsPages } from '../../test/e2e/models-page/build';
import { CHROMIUM_PATH, launchChromium } from '../node/chromium';
import { scifactDocTexts } from './bench-embed';
import { reportBenchResult, runIfMain } from './common';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Chunks of 3M's 2022 10-K (252 pages) as the app cuts it (test/e2e/pipeline.e2e.test.ts lists it). */
export const FILING_CHUNKS = 3045;
/** Chunks per call from the engine (`DEFAULT_ENGINE_OPTIONS.embedBatch`). */
const ENGINE_BATCH = 64;

export interface EmbedPoolOptions {
  readonly rounds: number;
  readonly chunks: number;
  readonly log: (msg: string) => void;
}

export interface EmbedPoolRow {
  readonly workers: number;
  /** One figure per round, chunks/s. */
  readonly chunksPerSec: readonly number[];
  readonly loadMs: readonly number[];
  readonly median: number;
  /** Seconds to embed `FILING_CHUNKS` at the median rate. */
  readonly filingSeconds: number;
}

export interface EmbedPoolResult {
  readonly chromium: string;
  readonly cores: number;
  readonly chunks: number;
  readonly source: string;
  readonly rows: readonly EmbedPoolRow[];
  /** All workers over one worker, medians. */
  readonly speedup: number;
  readonly loadAverage: readonly number[];
}

/** ~120-token chunks: 90-word windows of SciFact abstracts (synthetic text without ../shared). */
function benchChunks(n: number): { texts: string[]; source: string } {
  let docs: string[];
  let source = 'SciFact abstracts, 90-word windows';
  try {
    docs = scifactDocTexts().texts;
  } catch {
    docs = [Array.from({ length: 200_000 }, (_, i) => `word${i % 97} of the study`).join(' ')];
    source = 'synthetic text (../shared missing)';
  }
  const out: string[] = [];
  for (const d of docs) {
    const words = d.split(/\s+/);
    for (let i = 0; i + 30 < words.length && out.length < n; i += 90) out.push(words.slice(i, i + 90).join(' '));
    if (out.length >= n) break;
  }
  return { texts: out, source };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

export async function runEmbedPoolBench(options: Partial<EmbedPoolOptions> = {}): Promise<EmbedPoolResult | string> {
  const o: EmbedPoolOptions = { rounds: 2, chunks: 384, log: (m) => console.log(m), ...options };
  if (!existsSync(CHROMIUM_PATH)) return `${CHROMIUM_PATH} is missing: the embedding pool benchmark needs Chromium.`;
  const { copyAssets } = await import('../../scripts/copy-assets.ts');
  const { CROSS_ORIGIN_ISOLATION_HEADERS } = await import('../../vite.config');
  await copyAssets(ROOT);
  const outDir = await mkdtemp(join(tmpdir(), 'evident-embed-pool-'));
  let server: PreviewServer | null = null;
  let browser: Browser | null = null;
  const { loadavg } = await import('node:os');
  try {
    await buildModelsPages(outDir, ['embed-pool.html']);
    server = await preview({
      configFile: false,
      root: join(ROOT, 'test/e2e/models-page'),
      logLevel: 'warn',
      build: { outDir },
      preview: { host: '127.0.0.1', port: 0, headers: { ...CROSS_ORIGIN_ISOLATION_HEADERS }, open: false },
    });
    const url = new URL('embed-pool.html', server.resolvedUrls?.local[0] ?? '').href;
    browser = await launchChromium();
    const page = await (await browser.newContext()).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    await page.locator('#status[data-state="ready"]').waitFor({ timeout: 60_000 });
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    if (!(await page.evaluate(() => self.crossOriginIsolated)))
      throw new Error('the bench page is not cross-origin isolated');
    const { texts, source } = benchChunks(o.chunks);
    o.log(
      `embedding pool benchmark: Chromium ${browser.version()}, ${cores} logical cores, ${texts.length} chunks (${source}); load average ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    );
    const counts = [...new Set([1, cores])];
    const runs = new Map<number, PoolRun[]>(counts.map((c) => [c, []]));
    for (let round = 0; round < o.rounds; round++) {
      for (const workers of round % 2 === 0 ? counts : [...counts].reverse()) {
        const run = await page.evaluate(
          (args) => (window as unknown as { poolBench: PoolBenchPage }).poolBench.run(args),
          { workers, texts, batch: ENGINE_BATCH },
        );
        runs.get(workers)!.push(run);
        o.log(
          `  round ${round + 1}, ${workers} worker${workers === 1 ? '' : 's'}: ${run.chunksPerSec.toFixed(1)} chunks/s (${(run.ms / 1000).toFixed(1)} s; workers loaded in ${run.loadMs.toFixed(0)} ms)`,
        );
      }
    }
    if (errors.length > 0) throw new Error(`bench page errors: ${errors.join('; ')}`);
    const sums = [...runs.values()].flat().map((r) => r.checksum.toFixed(3));
    if (new Set(sums).size !== 1) throw new Error(`the vectors differ between runs (checksums ${sums.join(', ')})`);
    const rows = counts.map((workers): EmbedPoolRow => {
      const rs = runs.get(workers)!;
      const m = median(rs.map((r) => r.chunksPerSec));
      return {
        workers,
        chunksPerSec: rs.map((r) => r.chunksPerSec),
        loadMs: rs.map((r) => r.loadMs),
        median: m,
        filingSeconds: FILING_CHUNKS / m,
      };
    });
    const one = rows[0]!.median;
    const all = rows.at(-1)!.median;
    return {
      chromium: browser.version(),
      cores,
      chunks: texts.length,
      source,
      rows,
      speedup: all / one,
      loadAverage: loadavg(),
    };
  } finally {
    await browser?.close();
    await server?.close();
    await rm(outDir, { recursive: true, force: true });
  }
}

export function embedPoolTable(r: EmbedPoolResult): string {
  const lines = [
    `| embedding workers (1 thread each) | chunks/s, each round | median chunks/s | a 250-page filing (${FILING_CHUNKS.toLocaleString('en')} chunks) |`,
    '|---|---|---:|---:|',
    ...r.rows.map(
      (row) =>
        `| ${row.workers}${row.workers === r.cores && r.cores > 1 ? ` (all ${r.cores} cores)` : ''} | ${row.chunksPerSec.map((x) => x.toFixed(1)).join(', ')} | ${row.median.toFixed(1)} | ${row.filingSeconds.toFixed(0)} s |`,
    ),
  ];
  return `${lines.join('\n')}\nall workers / 1 worker: ${r.speedup.toFixed(2)}× (Chromium ${r.chromium}, load average at the end ${r.loadAverage.map((x) => x.toFixed(1)).join(' ')})`;
}

async function main(argv: string[]): Promise<number> {
  let json: string | undefined;
  const o: { rounds?: number; chunks?: number } = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--rounds') o.rounds = Number(argv[++i]);
    else if (a === '--chunks') o.chunks = Number(argv[++i]);
    else if (a === '--json') json = argv[++i];
    else throw new Error(`bench-embed-pool: unknown argument "${a}". Allowed: --rounds, --chunks, --json FILE.`);
  }
  return reportBenchResult(await runEmbedPoolBench(o), embedPoolTable, json);
}

runIfMain(import.meta.url, main);
