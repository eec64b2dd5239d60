/**
 * Batch ingest benchmark (timings only; benchmarks are not tests):
 *
 *   npm run bench -- --ingest-browser
 *   npx tsx src/cli/bench-ingest-browser.ts [--files 30] [--rounds 2] [--json out.json]
 *   npm run bench -- --ingest-browser --pdf ../shared/datasets/financebench-dev/docs/3M_2022_10K.pdf [--probe "balance sheet"]
 *
 * A batch of PDFs dropped at once, through the app's ingest path in a worker of headless
 * Chromium (`test/e2e/models-page/ingest-bench.html`: USE lite on WASM, an Engine on IndexedDB
 * with the ingest queue, `ingestFiles` with pdf.js): the time from the call ("drop") to the first
 * and the last file searchable by its words, and to every file embedded — with embedding
 * overlapping the next files' parsing and indexing (the app) and, as the baseline in the same
 * run, each file embedded before the next is parsed (`overlap: false`, the ingest before it).
 * Rounds alternate the two. The PDFs are made here (`test/fixtures/documents.ts` `pdf`): pages of
 * SciFact abstracts from ../shared, else of synthetic sentences. With `--pdf FILE` (repeatable) the
 * batch is those files instead (a real long filing: time from the drop to searchable and to fully
 * embedded), and the search during the batch looks for `--probe` (default "total assets").
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { preview, type PreviewServer } from 'vite';
import { pdf, type PdfLine } from '../../test/fixtures/documents';
import type { IngestBenchPage } from '../../test/e2e/models-page/ingest-bench';
import type { IngestBenchRun } from '../../test/e2e/models-page/ingest-bench.worker';
import { buildModelsPages } from '../../test/e2e/models-page/build';
import { CHROMIUM_PATH, launchChromium } from '../node/chromium';
import { reportBenchResult, runIfMain } from './common';
import { scifactDocTexts } from './bench-embed';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface IngestBrowserOptions {
  readonly files: number;
  /** Abstracts (or synthetic paragraphs) per PDF. */
  readonly paragraphsPerFile: number;
  readonly rounds: number;
  /** Real files to ingest instead of generated PDFs (paths). */
  readonly pdfs: readonly string[];
  /** What the search during the batch looks for (generated PDFs: "study results"). */
  readonly probe: string | null;
  readonly log: (msg: string) => void;
}

export const DEFAULT_INGEST_BROWSER_OPTIONS: IngestBrowserOptions = Object.freeze({
  files: 30,
  paragraphsPerFile: 6,
  rounds: 2,
  pdfs: [],
  probe: null,
  log: (msg: string) => console.log(msg),
});

export interface IngestBrowserResult {
  readonly chromium: string;
  readonly source: string;
  readonly backend: string;
  readonly runs: readonly IngestBenchRun[];
}

function paragraphs(n: number): { texts: string[]; source: string } {
  try {
    return { texts: scifactDocTexts().texts.slice(0, n), source: 'SciFact abstracts' };
  } catch {
    const texts = Array.from(
      { length: n },
      (_, i) =>
        `Study ${i} reports results on cell growth in mice. `.repeat(8) + `Sample ${i} was measured twice. `.repeat(6),
    );
    return { texts, source: 'synthetic paragraphs (../shared missing)' };
  }
}

/** Words into lines of at most `width` characters, ASCII only (the fixture PDF's font encoding). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text
    .replace(/[^\x20-\x7e]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** The user's own PDFs, read as they are. */
async function readPdfs(
  paths: readonly string[],
): Promise<{ files: { name: string; base64: string }[]; source: string }> {
  const { readFile } = await import('node:fs/promises');
  const { basename } = await import('node:path');
  const files = await Promise.all(
    paths.map(async (p) => ({ name: basename(p), base64: (await readFile(p)).toString('base64') })),
  );
  return { files, source: files.map((f) => f.name).join(', ') };
}

/** One PDF per file: a title, then its paragraphs, 50 lines a page. */
function makeFiles(o: IngestBrowserOptions): { files: { name: string; base64: string }[]; source: string } {
  const { texts, source } = paragraphs(o.files * o.paragraphsPerFile);
  const files = Array.from({ length: o.files }, (_, f) => {
    const body = texts
      .slice(f * o.paragraphsPerFile, (f + 1) * o.paragraphsPerFile)
      .flatMap((t) => [...wrap(t, 90), '']);
    const lines = [`Batch report ${f + 1}`, '', ...body];
    const pages: PdfLine[][] = [];
    lines.forEach((text, i) => {
      if (i % 50 === 0) pages.push([]);
      pages.at(-1)?.push({ text, y: 740 - (i % 50) * 13, ...(i === 0 ? { size: 18 } : {}) });
    });
    return { name: `report-${String(f + 1).padStart(2, '0')}.pdf`, base64: Buffer.from(pdf(pages)).toString('base64') };
  });
  return { files, source };
}

export async function runIngestBrowserBench(
  options: Partial<IngestBrowserOptions> = {},
): Promise<IngestBrowserResult | string> {
  const o = { ...DEFAULT_INGEST_BROWSER_OPTIONS, ...options };
  if (!existsSync(CHROMIUM_PATH)) return `${CHROMIUM_PATH} is missing: the batch ingest benchmark needs Chromium.`;
  const { copyAssets } = await import('../../scripts/copy-assets.ts');
  const { CROSS_ORIGIN_ISOLATION_HEADERS } = await import('../../vite.config');
  await copyAssets(ROOT);
  const outDir = await mkdtemp(join(tmpdir(), 'evident-ingest-bench-'));
  let server: PreviewServer | null = null;
  let browser: Browser | null = null;
  try {
    await buildModelsPages(outDir, ['ingest-bench.html']);
    server = await preview({
      configFile: false,
      root: join(ROOT, 'test/e2e/models-page'),
      logLevel: 'warn',
      build: { outDir },
      preview: { host: '127.0.0.1', port: 0, headers: CROSS_ORIGIN_ISOLATION_HEADERS, open: false },
    });
    const { files, source } = o.pdfs.length > 0 ? await readPdfs(o.pdfs) : makeFiles(o);
    const probe = o.probe ?? (o.pdfs.length > 0 ? 'total assets' : 'study results');
    browser = await launchChromium();
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(new URL('ingest-bench.html', server.resolvedUrls?.local[0] ?? '').href);
    await page.locator('#status[data-state="ready"]').waitFor({ timeout: 30_000 });
    const backend = await page.evaluate(() =>
      (window as unknown as { ingestBench: IngestBenchPage }).ingestBench.load(),
    );
    o.log(`batch ingest benchmark: Chromium ${browser.version()}, ${files.length} PDFs of ${source}; ${backend}`);
    const runs: IngestBenchRun[] = [];
    for (let round = 0; round < o.rounds; round++) {
      // The user's own files: the app's path only (no one-file-at-a-time baseline for one filing).
      const modes = o.pdfs.length > 0 ? [true] : round % 2 === 0 ? [false, true] : [true, false];
      for (const overlap of modes) {
        const run = await page.evaluate(
          ([f, ov, pr]) => (window as unknown as { ingestBench: IngestBenchPage }).ingestBench.run(f, ov, pr),
          [files, overlap, probe] as const,
        );
        runs.push(run);
        o.log(`  ${describeRun(run)}`);
      }
    }
    if (errors.length > 0) throw new Error(`bench page errors: ${errors.join('; ')}`);
    return { chromium: browser.version(), source, backend, runs };
  } finally {
    await browser?.close();
    await server?.close();
    await rm(outDir, { recursive: true, force: true });
  }
}

const s = (ms: number): string => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : '–');

function describeRun(r: IngestBenchRun): string {
  return `${r.overlap ? 'overlapped' : 'one file at a time'}: first searchable ${s(r.firstSearchableMs)}, all searchable ${s(r.allSearchableMs)}, all embedded ${s(r.embeddedMs)} (${r.files} files, ${r.chunks} chunks, ${r.failed} failed; search during the batch ${r.searchMs.toFixed(0)} ms, found the last file: ${r.lastFileFound})`;
}

/** A Markdown table of the result (BENCHMARKS.md's form): the median of each mode's rounds. */
export function ingestBrowserTable(res: IngestBrowserResult): string {
  const median = (xs: number[]): number => {
    const v = [...xs].sort((a, b) => a - b);
    return v.length === 0 ? NaN : ((v[(v.length - 1) >> 1] as number) + (v[v.length >> 1] as number)) / 2;
  };
  const out = [
    '| embedding | first file searchable | all files searchable | all embedded | runs |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const overlap of [false, true]) {
    const runs = res.runs.filter((r) => r.overlap === overlap);
    if (runs.length === 0) continue;
    const m = (k: 'firstSearchableMs' | 'allSearchableMs' | 'embeddedMs'): string => s(median(runs.map((r) => r[k])));
    out.push(
      `| ${overlap ? 'overlaps the next files (now)' : 'before the next file (before)'} | ${m('firstSearchableMs')} | ${m('allSearchableMs')} | ${m('embeddedMs')} | ${runs.length} |`,
    );
  }
  const r = res.runs[0];
  if (r) out.push(`(${r.files} PDFs, ${r.chunks} chunks, ${res.source}; ${res.backend} Chromium ${res.chromium})`);
  return out.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const opts: { -readonly [K in keyof IngestBrowserOptions]?: IngestBrowserOptions[K] } = {};
  const pdfs: string[] = [];
  let json: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--files') opts.files = Number(argv[++i]);
    else if (a === '--rounds') opts.rounds = Number(argv[++i]);
    else if (a === '--paragraphs') opts.paragraphsPerFile = Number(argv[++i]);
    else if (a === '--json') json = argv[++i];
    else if (a === '--pdf') pdfs.push(String(argv[++i]));
    else if (a === '--probe') opts.probe = String(argv[++i]);
    else
      throw new Error(
        `bench-ingest-browser: unknown argument "${a}". Allowed: --files, --rounds, --paragraphs, --pdf FILE, --probe WORDS, --json FILE.`,
      );
  }
  if (pdfs.length > 0) opts.pdfs = pdfs;
  return reportBenchResult(await runIngestBrowserBench(opts), ingestBrowserTable, json);
}

runIfMain(import.meta.url, main);
