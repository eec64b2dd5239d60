/**
 * The Transformers.js runtime in a real Chromium, on the tiny generated models: a small test page
 * (test/e2e/models-page/) drives the app's `ModelHost` in a worker and runs every role
 * — embed, rerank, NLI, generate — on WASM, then in a second browser launched with
 * `--enable-unsafe-webgpu` (SwiftShader) on WebGPU. Outputs are compared with the same models
 * run in Node (onnxruntime-node), no request may leave the page's origin, and a second page load
 * must make no model or runtime request (everything is served from Cache Storage).
 *
 * The page is built here with Vite (the app's COOP/COEP headers, `public/` as built by
 * copy-assets) because it is a test harness, not part of the app.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Remote } from 'comlink';
import { preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { copyAssets } from '../../scripts/copy-assets.ts';
import { ensureTinyModels } from '../../scripts/make-tiny-models.ts';
import type { ModelRole } from '../../src/models/manifest';
import { loadTransformersCrossEncoder } from '../../src/models/transformers/cross-encoder';
import { loadTransformersEmbedder } from '../../src/models/transformers/embedder';
import { loadTransformersGenerator } from '../../src/models/transformers/generator';
import { loadTransformersNli } from '../../src/models/transformers/nli';
import { MODELS_DIR, ROOT, setupTiny } from '../tiny-models';
import { CROSS_ORIGIN_ISOLATION_HEADERS } from '../../vite.config';
import { launchChromium, offOrigin } from './browser';
import { EMBED_TEXTS, MESSAGES, PAIRS, PASSAGES, QUERY } from './models-page/fixtures';
import type { ModelsPageApi, RoleRun } from './models-page/models.worker';
import type { AbortProbe } from './models-page/abort';
import { buildModelsPages } from './models-page/build';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

const ROLES: ModelRole[] = ['embedder', 'cross-encoder', 'nli', 'generator'];
const MAX_TOKENS = 10;

interface Reference {
  embeddings: number[][];
  scores: number[];
  nli: { entailment: number; neutral: number; contradiction: number }[];
  reply: string;
  totalBytes: number;
}

/** The same inputs through the same backends in Node (onnxruntime-node), the expected values. */
async function nodeReference(): Promise<Reference> {
  const tiny = await setupTiny();
  const { embedder } = await loadTransformersEmbedder(tiny.embedder);
  const { crossEncoder } = await loadTransformersCrossEncoder(tiny['cross-encoder']);
  const { nli } = await loadTransformersNli(tiny.nli);
  const { generator } = await loadTransformersGenerator(tiny.generator);
  try {
    const v = await embedder.embed(EMBED_TEXTS);
    return {
      embeddings: EMBED_TEXTS.map((_, i) => Array.from(v.subarray(i * embedder.dim, (i + 1) * embedder.dim))),
      scores: await crossEncoder.score(QUERY, PASSAGES),
      nli: await nli.classify(PAIRS),
      reply: await generator.generate(MESSAGES, { maxTokens: MAX_TOKENS }),
      totalBytes: ROLES.reduce((a, r) => a + (tiny[r].bytes as number), 0),
    };
  } finally {
    for (const m of [embedder, crossEncoder, nli, generator]) m.dispose();
  }
}

function expectNear(actual: readonly number[], expected: readonly number[], tol: number, what: string): void {
  expect(actual.length, what).toBe(expected.length);
  const worst = Math.max(0, ...actual.map((a, i) => Math.abs(a - (expected[i] as number))));
  expect(worst, `${what}: largest difference`).toBeLessThan(tol);
}

/** Every role's output matches Node within `tol`; the generated text is identical. */
function expectMatchesReference(run: RoleRun, ref: Reference, tol: number): void {
  run.embeddings.forEach((row, i) => expectNear(row, ref.embeddings[i] as number[], tol, `embedding ${i}`));
  expect(run.embeddings[1]!.every((x) => x === 0)).toBe(true);
  expectNear(run.scores, ref.scores, tol, 'cross-encoder logits');
  run.nli.forEach((r, i) =>
    expectNear(
      [r.entailment, r.neutral, r.contradiction],
      [ref.nli[i]!.entailment, ref.nli[i]!.neutral, ref.nli[i]!.contradiction],
      tol,
      `nli ${i}`,
    ),
  );
  expect(run.reply).toBe(ref.reply);
  expect(run.pieces.join('')).toBe(run.reply);
}

async function openPage(browser: Browser, baseUrl: string, requests: string[], errors: string[]): Promise<Page> {
  const context = await browser.newContext();
  // Context-level: covers the page and its workers.
  context.on('request', (r) => requests.push(r.url()));
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(baseUrl);
  await page.locator('#status[data-state="ready"]').waitFor({ timeout: 30_000 });
  return page;
}

function runAll(page: Page, devices: ('webgpu' | 'wasm')[], threads = 1): Promise<RoleRun> {
  return page.evaluate(([d, n, t]) => (window as unknown as { models: Remote<ModelsPageApi> }).models.runAll(d, n, t), [
    devices,
    MAX_TOKENS,
    threads,
  ] as const);
}

function summary(label: string, run: RoleRun): string {
  const roles = ROLES.map((r) => {
    const info = run.loaded.roles[r]!;
    return `${r} ${info.device} ${info.loadMs} ms (${info.cachedFiles} cached)`;
  }).join(', ');
  const ms = Object.entries(run.runMs)
    .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
    .join(', ');
  return `[e2e models] ${label}: profile load ${run.loadMs.toFixed(0)} ms — ${roles}; run: ${ms}`;
}

describe.skipIf(ctx.skip !== null)('Transformers.js runtime in Chromium (tiny models)', () => {
  let server: PreviewServer;
  let outDir: string;
  let baseUrl: string;
  let origin: string;
  let reference: Reference;
  const browsers: Browser[] = [];

  beforeAll(async () => {
    await ensureTinyModels(MODELS_DIR);
    await copyAssets(ROOT);
    outDir = await mkdtemp(join(tmpdir(), 'evident-models-e2e-'));
    const pageRoot = join(ROOT, 'test/e2e/models-page');
    // abort.html: the embedded model's abort check (USE lite in a worker).
    await buildModelsPages(outDir, ['index.html', 'abort.html']);
    server = await preview({
      configFile: false,
      root: pageRoot,
      logLevel: 'warn',
      build: { outDir },
      preview: { host: '127.0.0.1', port: 0, headers: CROSS_ORIGIN_ISOLATION_HEADERS, open: false },
    });
    baseUrl = server.resolvedUrls?.local[0] ?? '';
    origin = new URL(baseUrl).origin;
    reference = await nodeReference();
  });

  afterAll(async () => {
    for (const b of browsers) await b.close();
    await server?.close();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it('runs every role on WASM; a second page load makes no model request (Cache Storage)', async () => {
    const browser = await launchChromium();
    browsers.push(browser);
    const requests: string[] = [];
    const errors: string[] = [];
    const page = await openPage(browser, baseUrl, requests, errors);
    expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);

    // Two WASM threads: the multithreaded path (SharedArrayBuffer, cross-origin isolation).
    const first = await runAll(page, ['wasm'], 2);
    expect(first.loaded).toMatchObject({ crossOriginIsolated: true, wasmThreads: 2 });
    for (const r of ROLES)
      expect(first.loaded.roles[r]).toMatchObject({ device: 'wasm', fallbackReason: null, cachedFiles: 0 });
    expectMatchesReference(first, reference, 1e-4);
    // Byte progress is monotonic and ends at the manifest's total for the profile.
    expect(first.progress.monotonic).toBe(true);
    expect(first.progress.last).toMatchObject({ loadedBytes: reference.totalBytes, totalBytes: reference.totalBytes });
    expect(requests.some((u) => u.endsWith('/models/tiny/causal-lm/onnx/model.onnx'))).toBe(true);
    expect(requests.some((u) => u.endsWith('/vendor/ort/ort-wasm-simd-threaded.asyncify.wasm'))).toBe(true);
    const cached = await page.evaluate(() =>
      (window as unknown as { models: Remote<ModelsPageApi> }).models.cachedUrls(),
    );
    expect(cached).toContain(`${origin}/models/tiny/encoder/onnx/model.onnx`);

    const firstRequests = requests.length;
    requests.length = 0;
    await page.reload();
    await page.locator('#status[data-state="ready"]').waitFor({ timeout: 30_000 });
    const second = await runAll(page, ['wasm'], 2);
    const modelRequests = requests.filter((u) => u.includes('/models/') || u.includes('/vendor/ort/'));
    expect(modelRequests).toEqual([]);
    for (const r of ROLES) expect(second.loaded.roles[r]!.cachedFiles).toBeGreaterThan(0);
    expectMatchesReference(second, reference, 1e-4);

    console.log(summary('WASM, first load', first));
    console.log(summary('WASM, second load (Cache Storage)', second));
    console.log(
      `[e2e models] requests: first load ${firstRequests}, second load ${requests.length} (none for models or runtime)`,
    );

    expect(offOrigin(requests, origin)).toEqual([]);

    // A damaged cached model file: evicted, read again from the server, and the load succeeds.
    const onnxUrl = `${origin}/models/tiny/encoder/onnx/model.onnx`;
    const goodSize = await page.evaluate(
      (u) => (window as unknown as { models: Remote<ModelsPageApi> }).models.damageCachedFile(u),
      onnxUrl,
    );
    requests.length = 0;
    await page.reload();
    await page.locator('#status[data-state="ready"]').waitFor({ timeout: 30_000 });
    const repaired = await runAll(page, ['wasm'], 2);
    expect(repaired.loaded.roles.embedder).toMatchObject({ device: 'wasm', cacheEvicted: true });
    expect(repaired.loaded.roles.nli).toMatchObject({ cacheEvicted: false });
    expect(requests).toContain(onnxUrl);
    expect(requests.filter((u) => u.includes('/models/')).every((u) => u.includes('/models/tiny/encoder/'))).toBe(true);
    expect(
      await page.evaluate(
        (u) => (window as unknown as { models: Remote<ModelsPageApi> }).models.cachedSize(u),
        onnxUrl,
      ),
    ).toBe(goodSize);
    expectMatchesReference(repaired, reference, 1e-4);
    console.log(summary('WASM, damaged cache entry evicted and re-read', repaired));

    expect(errors).toEqual([]);
  });

  it('without the WebGPU flag falls back to WASM and says why', async () => {
    const browser = browsers[0]!;
    const requests: string[] = [];
    const errors: string[] = [];
    const page = await openPage(browser, baseUrl, requests, errors);
    const run = await runAll(page, ['webgpu', 'wasm']);
    for (const r of ROLES) {
      expect(run.loaded.roles[r]!.device).toBe('wasm');
      expect(run.loaded.roles[r]!.fallbackReason).toMatch(
        /^webgpu: (navigator\.gpu is missing|navigator\.gpu\.requestAdapter\(\))/,
      );
    }
    console.log(`[e2e models] no flag: ${run.loaded.roles.embedder!.fallbackReason}`);
    expectMatchesReference(run, reference, 1e-4);
    expect(errors).toEqual([]);
  });

  it('aborting a long embedding of the embedded model stops it after at most the batch in flight', async () => {
    if (browsers.length === 0) browsers.push(await launchChromium());
    const browser = browsers[0]!;
    const requests: string[] = [];
    const errors: string[] = [];
    const context = await browser.newContext();
    context.on('request', (r) => requests.push(r.url()));
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await page.goto(new URL('abort.html', baseUrl).href);
    await page.locator('#status[data-state="ready"]').waitFor({ timeout: 30_000 });
    await page.evaluate(() => (window as unknown as { abortProbe: AbortProbe }).abortProbe.load());

    // 400 distinct ~100-word texts: about 20 s of work on 2 cores if nothing stopped it.
    const lexicon = EMBED_TEXTS.concat(PASSAGES).join(' ').split(/\s+/);
    const texts = Array.from({ length: 400 }, (_, i) =>
      Array.from({ length: 100 }, (_, j) => lexicon[(i * 31 + j * 7 + ((j * j) % 11)) % lexicon.length]).join(' '),
    );
    const run = await page.evaluate(
      (t) => (window as unknown as { abortProbe: AbortProbe }).abortProbe.abortAfterFirstProgress(t),
      texts,
    );
    expect(run.code).toBe('aborted');
    expect(run.trace).not.toBeNull();
    const trace = run.trace!;
    // Aborted on the first progress event: the worker finishes the model call in flight, at most.
    expect(trace.doneAtAbort).toBeGreaterThan(0);
    expect(trace.batchesAfterAbort).toBeLessThanOrEqual(1);
    expect(trace.inputsAfterAbort).toBeLessThanOrEqual(trace.largestBatch);
    expect(trace.doneAtAbort + trace.inputsAfterAbort).toBeLessThan(texts.length);
    console.log(
      `[e2e models] USE lite abort: ${trace.doneAtAbort} inputs embedded at abort, ${trace.inputsAfterAbort} after ` +
        `(largest batch ${trace.largestBatch}); abort→stop ${trace.stopMs.toFixed(0)} ms in the worker, ` +
        `${run.pageStopMs.toFixed(0)} ms abort sent→result on the page`,
    );

    // The worker then answers normally, and batches sized by time give the same vectors as one by one.
    const some = texts.slice(0, 12).concat(['', 'short text']);
    const timed = await page.evaluate(
      (t) => (window as unknown as { abortProbe: AbortProbe }).abortProbe.embed(t),
      some,
    );
    const single = await page.evaluate(
      (t) => (window as unknown as { abortProbe: AbortProbe }).abortProbe.embed(t, 1),
      some,
    );
    timed.forEach((row, i) => expectNear(row, single[i] as number[], 1e-5, `text ${i}, timed batches vs batch 1`));
    expect(Math.hypot(...(timed[0] as number[]))).toBeCloseTo(1, 4);
    expect(timed[12]!.every((x) => x === 0)).toBe(true);

    expect(offOrigin(requests, origin)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('tells the user how to get a model that is not self-hosted, without asking any other host', async () => {
    const browser = browsers[0]!;
    const requests: string[] = [];
    const errors: string[] = [];
    const page = await openPage(browser, baseUrl, requests, errors);
    const err = await page.evaluate(() =>
      (window as unknown as { models: Remote<ModelsPageApi> }).models.loadWithoutConsent(),
    );
    expect(err?.code).toBe('model_not_found');
    expect(err?.message).toMatch(
      /^embedder: Xenova\/bge-small-en-v1\.5 is not self-hosted .*Allow model downloads in Settings/,
    );
    // The static server answers the missing file with index.html; it is treated as missing, not parsed.
    expect(requests.some((u) => u.startsWith(`${origin}/models/Xenova/bge-small-en-v1.5/`))).toBe(true);
    expect(offOrigin(requests, origin)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('runs every role on WebGPU (SwiftShader) with --enable-unsafe-webgpu, or records why not', async () => {
    const browser = await launchChromium(['--enable-unsafe-webgpu']);
    browsers.push(browser);
    const requests: string[] = [];
    const errors: string[] = [];
    const page = await openPage(browser, baseUrl, requests, errors);
    const run = await runAll(page, ['webgpu', 'wasm']);
    console.log(summary('WebGPU browser', run));
    for (const r of ROLES) {
      const info = run.loaded.roles[r]!;
      if (info.device === 'webgpu') expect(info.fallbackReason).toBeNull();
      else {
        // Recorded, not hidden: the reason names WebGPU and why it was not used.
        expect(info.device).toBe('wasm');
        expect(info.fallbackReason).toMatch(/^webgpu: /);
        console.log(`[e2e models] WebGPU fallback for ${r}: ${info.fallbackReason}`);
      }
    }
    // SwiftShader computes in fp32 on the CPU; kernels differ from WASM's, so a looser bound.
    expectMatchesReference(run, reference, 2e-3);
    expect(offOrigin(requests, origin)).toEqual([]);
    expect(errors).toEqual([]);
  });
});

/**
 * The app itself (the global setup's production build): Settings asks before any Hugging Face
 * Hub download — checked by intercepting every request to huggingface.co — and the tiny test
 * profile (offered with `?test-models`) is really used by Ask: the trail names its reranker and
 * generator, and the answer streams in while it is written. Plumbing only: nothing here reads
 * the tiny models' answer for quality.
 */
describe.skipIf(ctx.skip !== null)('model profiles in the app (Settings → Ask)', () => {
  let browser: Browser;
  const origin = ctx.skip ? '' : new URL(ctx.baseUrl).origin;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** A fresh context (empty IndexedDB and Cache Storage); every request recorded, huggingface.co intercepted. */
  async function openApp(path: string) {
    const context = await browser.newContext({ viewport: { width: 1100, height: 1400 } });
    const requests: string[] = [];
    const hub: string[] = [];
    // Context-level: covers the page and its worker.
    context.on('request', (r) => requests.push(r.url()));
    await context.route(/^https?:\/\/([^/]*\.)?huggingface\.co\//, async (route) => {
      hub.push(route.request().url());
      await route.fulfill({
        status: 404,
        body: 'intercepted by the test',
        headers: { 'access-control-allow-origin': '*' },
      });
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await page.goto(new URL(path, ctx.baseUrl).href);
    // Attached, not visible: the Library page is hidden while Settings is shown.
    const ready = { state: 'attached', timeout: 180_000 } as const;
    await page.locator('[data-testid="model-status"][data-state="ready"]').waitFor(ready);
    await page.locator('[data-testid="library"][data-state="ready"]').waitFor(ready);
    return { context, page, requests, hub, errors };
  }

  it('asks before any download from huggingface.co; without consent no request goes there', async () => {
    const { context, page, requests, hub, errors } = await openApp('./#settings');
    await page.getByTestId('profiles').waitFor();
    // Sizes and licenses from the manifest are listed per role.
    const enhanced = page.getByTestId('profile-enhanced');
    expect(await enhanced.locator('tr[data-role="embedder"]').innerText()).toMatch(/Xenova\/bge-small-en-v1\.5.*MIT/s);
    expect(await page.getByTestId('webgpu').getAttribute('data-available')).toBe('no');

    // A controlled radio: it shows checked once the setting is saved.
    await enhanced.getByRole('radio').click();
    await expect.poll(() => enhanced.getByRole('radio').isChecked(), { timeout: 10_000 }).toBe(true);
    await page.getByRole('button', { name: 'Load the Enhanced models' }).click();
    const prompt = page.getByTestId('hub-consent-prompt');
    await prompt.waitFor({ timeout: 60_000 });
    expect(await prompt.innerText()).toMatch(/Xenova\/bge-small-en-v1\.5.*MIT/s);
    // The self-hosted folder was tried (this origin), the Hub was not.
    expect(requests.some((u) => u.startsWith(`${origin}/models/Xenova/`))).toBe(true);
    expect(hub).toEqual([]);
    expect(requests.filter((u) => u.includes('huggingface.co'))).toEqual([]);

    // Declining downloads nothing.
    await prompt.getByRole('button', { name: 'Not now' }).click();
    await prompt.waitFor({ state: 'detached' });
    expect(await page.getByTestId('hub-consent').getAttribute('data-consent')).toBe('no');
    expect(hub).toEqual([]);

    // With consent the Hub is asked (here it answers 404): the gate, not the network, kept it quiet.
    await page.getByRole('button', { name: 'Load the Enhanced models' }).click();
    await prompt.waitFor();
    await prompt.getByRole('button', { name: 'Download from huggingface.co' }).click();
    await page.locator('[data-testid="profile-load"][data-state="error"]').waitFor({ timeout: 60_000 });
    expect(hub.length).toBeGreaterThan(0);
    expect(hub.every((u) => /^https:\/\/huggingface\.co\/Xenova\//.test(u))).toBe(true);
    console.log(
      `[e2e models] consent gate: 0 Hub requests before consent, ${hub.length} after (first ${hub[0]}); error: ${await page.getByTestId('profile-load').innerText()}`,
    );

    // The choice and the consent are remembered. Withdrawn, the next start asks nothing of the
    // Hub: the startup load fails with the reason, and the Embedded profile is in use.
    await page.getByTestId('hub-consent').getByRole('button', { name: 'Withdraw' }).click();
    await expect.poll(() => page.getByTestId('hub-consent').getAttribute('data-consent')).toBe('no');
    hub.length = 0;
    requests.length = 0;
    await page.reload();
    const failed = page.locator('[data-testid="profile-load"][data-state="error"][data-at-startup="yes"]');
    await failed.waitFor({ timeout: 120_000 });
    expect(await failed.innerText()).toMatch(
      /Enhanced models you chose could not be loaded when Evident started, so the Embedded profile is in use: embedder: Xenova\/bge-small-en-v1\.5 is not self-hosted/,
    );
    expect(await enhanced.getByRole('radio').isChecked()).toBe(true);
    expect(hub).toEqual([]);
    expect(requests.filter((u) => u.includes('huggingface.co'))).toEqual([]);
    expect(requests.some((u) => u.startsWith(`${origin}/models/Xenova/`))).toBe(true);
    await expect
      .poll(async () => (await page.getByTestId('active-embedder').innerText()).trim(), { timeout: 120_000 })
      .toMatch(/^use-lite/);
    // Every other page says so too, with the way to Settings.
    await page.getByRole('tab', { name: 'Library' }).click();
    const notice = page.locator('[data-testid="profile-notice"][data-state="error"]');
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.innerText()).toMatch(
      /Enhanced models you chose could not be loaded when Evident started, so Ask uses the Embedded profile: embedder: Xenova\/bge-small-en-v1\.5 is not self-hosted/,
    );
    await notice.getByRole('button', { name: 'Open Settings' }).click();
    await expect.poll(() => page.getByRole('tab', { name: 'Settings' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByTestId('profile-notice').count()).toBe(0);
    console.log(`[e2e models] remembered Enhanced without consent at startup: ${await failed.innerText()}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('loads the tiny profile in Settings; Ask then reranks with its cross-encoder and streams its generator’s answer', async () => {
    const { context, page, requests, hub, errors } = await openApp('./?test-models#settings');
    const tests = page.getByTestId('test-models');
    await tests.getByRole('button', { name: 'Load the tiny test models' }).click();
    await page.locator('[data-testid="profile-load"][data-state="ready"]').waitFor({ timeout: 120_000 });
    const roles = page.getByTestId('profile-load').getByTestId('loaded-roles');
    expect(await roles.locator('li[data-role="generator"]').getAttribute('data-device')).toBe('wasm');
    // The tiny encoder takes the dense side: the library is re-embedded, then search is hybrid again.
    await expect
      .poll(async () => (await page.getByTestId('active-embedder').innerText()).trim(), { timeout: 120_000 })
      .toMatch(/^tiny\/encoder@\S+$/);

    await page.getByRole('tab', { name: 'Ask' }).click();
    // Record whether the draft answer ever showed text while it was written.
    await page.evaluate(() => {
      const w = window as unknown as { draftSeen: string[] };
      w.draftSeen = [];
      new MutationObserver(() => {
        const t = document.querySelector('[data-testid="answer-draft-text"]')?.textContent ?? '';
        if (t && w.draftSeen.at(-1) !== t) w.draftSeen.push(t);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    const result = page.getByTestId('ask-result');
    await result.waitFor({ timeout: 120_000 });

    expect(await page.getByTestId('answerer').getAttribute('data-answerer')).toBe('tiny/causal-lm');
    const trail = await page.getByTestId('evidence-trail').locator('p').first().innerText();
    expect(trail).toMatch(/meaning by tiny\/encoder@/);
    expect(trail).toMatch(/Reranker: tiny\/cross-encoder/);
    expect(trail).toMatch(/Contradiction check: tiny\/nli/);
    expect(trail).toMatch(/Answer: tiny\/causal-lm/);
    expect(trail).toMatch(/Budget counted in tiny\/causal-lm's tokens/);
    // Every model that took part says where it ran and why not on WebGPU (no flag: no adapter).
    // Where each model ran is a runtime detail, one disclosure away in the trail.
    await page.getByTestId('evidence-trail').locator('summary', { hasText: 'Where the models ran' }).click();
    const devices = page.getByTestId('trail-devices');
    for (const role of ['embedder', 'cross-encoder', 'nli', 'generator']) {
      const line = devices.locator(`[data-role="${role}"]`);
      expect(await line.getAttribute('data-device')).toBe('wasm');
      expect(await line.innerText()).toMatch(/not an earlier device: webgpu: navigator\.gpu/);
    }
    const drafts = await page.evaluate(() => (window as unknown as { draftSeen: string[] }).draftSeen);
    expect(drafts.length).toBeGreaterThan(1);
    console.log(`[e2e models] tiny profile in Ask: ${drafts.length} streamed states; trail: ${trail}`);

    expect(offOrigin(requests, origin)).toEqual([]);
    expect(hub).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('remembers the tiny profile: after a reload it is active again, from Cache Storage, with its stored vectors', async () => {
    const { context, page, requests, hub, errors } = await openApp('./?test-models#settings');
    await page.getByTestId('test-models').getByRole('button', { name: 'Load the tiny test models' }).click();
    await page.locator('[data-testid="profile-load"][data-state="ready"]').waitFor({ timeout: 120_000 });
    // The library is re-embedded with the tiny encoder (and stored) before the reload.
    await page.locator('[data-testid="reembed"][data-state="done"]').waitFor({ timeout: 120_000 });
    const firstModelRequests = requests.filter((u) => u.includes('/models/tiny/')).length;
    expect(firstModelRequests).toBeGreaterThan(0);

    requests.length = 0;
    await page.reload();
    const ready = { state: 'attached', timeout: 180_000 } as const;
    await page.locator('[data-testid="model-status"][data-state="ready"]').waitFor(ready);
    await page.locator('[data-testid="library"][data-state="ready"]').waitFor(ready);
    // The worker loaded the remembered profile by itself; the page shows it with each role's device.
    const load = page.locator('[data-testid="profile-load"][data-state="ready"][data-profile="tiny"]');
    await load.waitFor({ timeout: 120_000 });
    for (const role of ROLES) {
      const line = load.getByTestId('loaded-roles').locator(`li[data-role="${role}"]`);
      expect(await line.getAttribute('data-device')).toBe('wasm');
      expect(await line.innerText()).toMatch(/files from the browser cache — fell back: webgpu: /);
    }
    await expect
      .poll(async () => (await page.getByTestId('active-embedder').innerText()).trim(), { timeout: 60_000 })
      .toMatch(/^tiny\/encoder@\S+$/);
    // Its vectors were stored the first time: none is embedded again.
    expect(await page.getByTestId('reembed').getAttribute('data-total')).toBe('0');
    // The models come from Cache Storage (Transformers.js stores them as they load). Requests for
    // the onnxruntime-web files are only counted here: they are answered by the service worker
    // or the HTTP cache depending on timing (offline-runtime.e2e.test.ts proves they are cached,
    // on a first visit too, and load offline).
    const modelRequests = requests.filter((u) => u.includes('/models/tiny/'));
    expect(modelRequests).toEqual([]);
    const runtimeRequests = requests.filter((u) => u.includes('/vendor/ort/'));

    // Ask uses it: the trail names the tiny models.
    await page.getByRole('tab', { name: 'Ask' }).click();
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.getByTestId('ask-result').waitFor({ timeout: 120_000 });
    const trail = await page.getByTestId('evidence-trail').locator('p').first().innerText();
    expect(trail).toMatch(/meaning by tiny\/encoder@/);
    expect(trail).toMatch(/Reranker: tiny\/cross-encoder/);
    console.log(
      `[e2e models] reload with the tiny profile remembered: ${firstModelRequests} tiny model requests the first time, ${modelRequests.length} after the reload (${runtimeRequests.length} onnxruntime-web); ${requests.length} requests in all`,
    );

    expect(offOrigin(requests, origin)).toEqual([]);
    expect(hub).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
