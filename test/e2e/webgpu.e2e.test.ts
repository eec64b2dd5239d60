/**
 * The embedded model (USE lite) on TF.js's WebGPU backend in a real Chromium, launched with
 * `--enable-unsafe-webgpu` (SwiftShader: a CPU emulation of a GPU — correct, slow), against the
 * same model on WASM in the same browser. Each backend runs in a fresh worker of a small test
 * page (test/e2e/models-page/webgpu.html) that loads the model as the app does (`loadUseLite`).
 *
 * Compared: every chunk's vector (cosine ≥ 0.999 to its WASM vector) and, for every claim, its
 * top-10 chunks by dense similarity over the embedded chunk set (claim and chunk vectors both
 * from the backend under test; ties broken by chunk order): identical lists, where two chunks
 * whose scores differ by less than the claim's largest score difference between the backends
 * (measured in the run; the test fails above 1e-3) are a tie. The two backends sum in different orders, so their scores agree to
 * about 1e-5, and over the full set 6 of the 300 claims have two chunks closer than 1e-5 in their
 * top 11 (measured with the WASM vectors of these texts): those swap by rounding. Exact-list agreement is
 * printed beside it.
 *
 * Data: SciFact from ../shared (read at run time; the chunks are the app's own — `chunkDocument`
 * with the model's tokenizer, `embeddingText` — of the documents judged for the test claims, in
 * qrels order; the claims are the test claims judged on those documents first, then the other test
 * claims, up to the slice's count). SwiftShader embeds a
 * 128-token chunk in about 4 s on 2 busy cores, so the suite embeds a slice that fits about two
 * minutes (`DEFAULT_SLICE`); `EVIDENT_WEBGPU_FULL=1` runs the 256 chunks and all 300 test
 * claims (about 20 minutes here). Without ../shared a small project-made fixture is used, unless
 * REQUIRE_SHARED=1, which makes the missing data a failure.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { copyAssets } from '../../scripts/copy-assets.ts';
import { chunkDocument } from '../../src/core/ingest/chunk';
import { UseTokenizer, type UseVocabulary } from '../../src/models/use/tokenizer';
import { USE_MAX_TOKENS, type TfBackendName } from '../../src/models/use/use-embedder';
import { loadBeir } from '../../src/node/beir';
import { sharedPath, sharedRequired } from '../../src/node/shared-data';
import { embeddingText } from '../../src/worker/engine';
import { CROSS_ORIGIN_ISOLATION_HEADERS } from '../../vite.config';
import { ROOT } from '../tiny-models';
import { launchChromium } from './browser';
import { buildModelsPages } from './models-page/build';
import type { PageBackendRun, WebGpuPage } from './models-page/webgpu';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

const FULL = process.env.EVIDENT_WEBGPU_FULL === '1';
/** Chunks and claims embedded on each backend. */
const DEFAULT_SLICE = { chunks: 16, claims: 16 };
const FULL_SLICE = { chunks: 256, claims: Infinity };
/** Texts per model call: SwiftShader's time per text does not fall with the batch, so few calls (few shapes to compile). */
const CHUNK_BATCH = 16;
const CLAIM_BATCH = 32;
const TOP_K = 10;
const MIN_COSINE = 0.999;

interface Texts {
  readonly source: string;
  readonly chunks: readonly string[];
  readonly claims: readonly string[];
}

/** The app's chunks of SciFact documents judged for the test claims, and the claims judged on them. */
async function scifactTexts(tokenizer: UseTokenizer, slice: typeof DEFAULT_SLICE): Promise<Texts> {
  const data = await loadBeir(sharedPath('datasets', 'scifact'), 'test');
  const byId = new Map(data.corpus.map((d) => [d.id, d]));
  const judged = [...new Set([...data.qrels.values()].flatMap((rels) => [...rels.keys()]))];
  const chunks: string[] = [];
  const docsUsed = new Set<string>();
  for (const id of judged) {
    const doc = byId.get(id);
    if (!doc || chunks.length >= slice.chunks) continue;
    const cut = chunkDocument(
      { docId: id, text: `${doc.title}\n\n${doc.text}`, format: 'text' },
      { countTokens: (t) => tokenizer.count(t), maxTokens: USE_MAX_TOKENS },
    );
    for (const c of cut.slice(0, slice.chunks - chunks.length)) chunks.push(embeddingText(c));
    docsUsed.add(id);
  }
  const claims = data.queries
    .filter((q) => [...(data.qrels.get(q.id)?.keys() ?? [])].some((d) => docsUsed.has(d)))
    .concat(data.queries)
    .map((q) => q.text);
  const unique = [...new Set(claims)].slice(0, slice.claims);
  return { source: `SciFact (${docsUsed.size} judged documents)`, chunks, claims: unique };
}

/** Made for this test: a few topics, each with passages and a question that should find them. */
function fixtureTexts(): Texts {
  const topics = [
    ['Annual leave is 28 days per year, including public holidays.', 'how many days of annual leave do staff get'],
    ['Expense claims above 500 euros need a director’s approval.', 'who approves large expense claims'],
    ['The server room is cooled to 18 degrees and monitored hourly.', 'what temperature is the server room kept at'],
    ['Visitors sign in at reception and wear a badge at all times.', 'what must visitors do when they arrive'],
    ['Backups run nightly and are kept for ninety days off site.', 'how long are backups retained'],
    ['Mice given the enzyme inhibitor showed lower blood glucose.', 'does the inhibitor lower glucose in mice'],
  ];
  const chunks = topics.flatMap(([passage], i) => [
    passage as string,
    `${passage} This note was updated in review ${i + 1}.`,
    `Section ${i + 1}: ${(passage as string).split(' ').reverse().join(' ')}`,
  ]);
  return { source: 'project fixture (../shared missing)', chunks, claims: topics.map(([, q]) => q as string) };
}

const dot = (a: readonly number[], b: readonly number[]): number => a.reduce((s, x, j) => s + x * (b[j] as number), 0);

/** Row indices of the `k` most similar chunks, best first; ties by chunk order. */
function topK(query: readonly number[], chunks: readonly (readonly number[])[], k: number): number[] {
  const scores = chunks.map((c, i) => ({ i, s: dot(c, query) }));
  scores.sort((a, b) => b.s - a.s || a.i - b.i);
  return scores.slice(0, k).map((x) => x.i);
}

/**
 * Most claim `q`'s score with any chunk differs between the two backends: the float noise of two
 * implementations that sum in different orders (the same model, the same inputs).
 */
function scoreNoise(gpu: Vectors, cpu: Vectors, q: number): number {
  let worst = 0;
  gpu.chunks.forEach((c, j) => {
    worst = Math.max(worst, Math.abs(dot(c, gpu.claims[q]!) - dot(cpu.chunks[j]!, cpu.claims[q]!)));
  });
  return worst;
}

interface Vectors {
  readonly chunks: readonly (readonly number[])[];
  readonly claims: readonly (readonly number[])[];
}

/**
 * The same top-k up to ties at float precision: at every rank the GPU's chunk scores, by the WASM
 * vectors, within `eps` of the WASM's own chunk at that rank. Two chunks whose scores differ by
 * less than the backends' noise swap places by rounding, not by a different ranking.
 */
function sameRanking(
  gpu: readonly number[],
  cpu: readonly number[],
  cpuScore: (i: number) => number,
  eps: number,
): boolean {
  return (
    gpu.length === cpu.length && gpu.every((g, k) => g === cpu[k] || Math.abs(cpuScore(g) - cpuScore(cpu[k]!)) <= eps)
  );
}

/**
 * Most any claim's scores may differ between the backends (0.1 % of the score range; measured on
 * the full set: 1.9e-4). Above it the backends disagree by more than rounding, and the test fails.
 */
const MAX_SCORE_NOISE = 1e-3;

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, j) => {
    const y = b[j] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  });
  return na === 0 || nb === 0 ? (na === nb ? 1 : 0) : dot / Math.sqrt(na * nb);
}

function run(page: Page, backends: TfBackendName[], texts: readonly string[], batchSize: number) {
  return page.evaluate((o) => (window as unknown as { backends: WebGpuPage }).backends.run(o), {
    backends,
    texts: [...texts],
    batchSize,
  }) as Promise<PageBackendRun>;
}

describe.skipIf(ctx.skip !== null)('USE lite on WebGPU (SwiftShader) against WASM in Chromium', () => {
  let server: PreviewServer;
  let outDir: string;
  let browser: Browser;
  let texts: Texts;

  beforeAll(async () => {
    await copyAssets(ROOT);
    const vocab = JSON.parse(await readFile(join(ROOT, 'public/models/use-lite/vocab.json'), 'utf8')) as UseVocabulary;
    const tokenizer = UseTokenizer.fromVocabulary(vocab);
    const haveScifact = existsSync(sharedPath('datasets', 'scifact', 'corpus.jsonl'));
    if (!haveScifact && sharedRequired())
      throw new Error('REQUIRE_SHARED=1 but ../shared/datasets/scifact is missing.');
    texts = haveScifact ? await scifactTexts(tokenizer, FULL ? FULL_SLICE : DEFAULT_SLICE) : fixtureTexts();
    outDir = await mkdtemp(join(tmpdir(), 'evident-webgpu-e2e-'));
    await buildModelsPages(outDir, ['webgpu.html']);
    server = await preview({
      configFile: false,
      root: join(ROOT, 'test/e2e/models-page'),
      logLevel: 'warn',
      build: { outDir },
      preview: { host: '127.0.0.1', port: 0, headers: CROSS_ORIGIN_ISOLATION_HEADERS, open: false },
    });
    browser = await launchChromium(['--enable-unsafe-webgpu']);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it(
    'embeds within cosine 0.999 of WASM and gives every claim the same top-10 chunks',
    async () => {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(new URL('webgpu.html', server.resolvedUrls?.local[0] ?? '').href);
      await page.locator('#status[data-state="ready"]').waitFor({ timeout: 30_000 });

      const gpuChunks = await run(page, ['webgpu', 'wasm'], texts.chunks, CHUNK_BATCH);
      // WebGPU was chosen (not a silent fallback): this Chromium has a SwiftShader adapter.
      expect(gpuChunks.info.backend.name, gpuChunks.info.backend.reason).toBe('webgpu');
      expect(gpuChunks.info.backend.reason).toMatch(/^Using WebGPU/);
      const gpuClaims = await run(page, ['webgpu', 'wasm'], texts.claims, CLAIM_BATCH);
      const cpuChunks = await run(page, ['wasm'], texts.chunks, CHUNK_BATCH);
      const cpuClaims = await run(page, ['wasm'], texts.claims, CLAIM_BATCH);
      expect(cpuChunks.info.backend.name).toBe('wasm');
      expect(errors).toEqual([]);

      const cosines = [...gpuChunks.rows, ...gpuClaims.rows].map((row, i) =>
        cosine(row, i < gpuChunks.rows.length ? cpuChunks.rows[i]! : cpuClaims.rows[i - gpuChunks.rows.length]!),
      );
      const worst = Math.min(...cosines);
      const k = Math.min(TOP_K, texts.chunks.length);
      const gpu: Vectors = { chunks: gpuChunks.rows, claims: gpuClaims.rows };
      const cpu: Vectors = { chunks: cpuChunks.rows, claims: cpuClaims.rows };
      const lists = texts.claims.map((_, q) => ({
        gpu: topK(gpu.claims[q]!, gpu.chunks, k),
        cpu: topK(cpu.claims[q]!, cpu.chunks, k),
        score: (i: number) => dot(cpu.chunks[i]!, cpu.claims[q]!),
        // Each claim's ties are within its own measured noise.
        eps: scoreNoise(gpu, cpu, q),
      }));
      const noise = Math.max(...lists.map((l) => l.eps));
      const exact = lists.filter((l) => l.gpu.join() === l.cpu.join()).length;
      const differing = texts.claims.filter((_, q) => {
        const l = lists[q]!;
        return !sameRanking(l.gpu, l.cpu, l.score, Math.min(l.eps, MAX_SCORE_NOISE));
      });
      // Where the lists differ: each swapped rank, and how far apart its two chunks score on WASM.
      for (const l of lists.filter((x) => x.gpu.join() !== x.cpu.join())) {
        const swaps = l.gpu
          .map((g, r) =>
            g === l.cpu[r] ? null : `rank ${r + 1}: Δ ${Math.abs(l.score(g) - l.score(l.cpu[r]!)).toExponential(1)}`,
          )
          .filter((x) => x !== null);
        console.log(`[e2e webgpu] differs (noise ${l.eps.toExponential(1)}): ${swaps.join(', ')}`);
      }
      const rate = (r: PageBackendRun, n: number): string => `${((n / r.embedMs) * 1000).toFixed(2)}/s`;
      console.log(
        `[e2e webgpu] ${texts.source}: ${texts.chunks.length} chunks, ${texts.claims.length} claims; ` +
          `lowest cosine ${worst.toFixed(7)}; largest claim–chunk score difference ${noise.toExponential(2)}; ` +
          `top-${k} identical for ${exact}/${texts.claims.length} claims, ` +
          `identical up to ties within it for ${texts.claims.length - differing.length}/${texts.claims.length}; ` +
          `chunks on ${gpuChunks.info.backend.reason} ${rate(gpuChunks, texts.chunks.length)} (SwiftShader: a correctness check, not a speed), ` +
          `WASM ${rate(cpuChunks, texts.chunks.length)}`,
      );
      expect(worst).toBeGreaterThanOrEqual(MIN_COSINE);
      expect(noise).toBeLessThanOrEqual(MAX_SCORE_NOISE);
      expect(differing).toEqual([]);
    },
    FULL ? 3_600_000 : 240_000,
  );
});
