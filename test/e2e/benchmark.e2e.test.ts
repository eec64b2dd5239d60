/**
 * The Benchmark page in a real Chromium against the production build: a tiny BEIR dataset the
 * test writes itself is chosen as a folder; every configuration runs in the worker; the table
 * shows the numbers the eval CLI computes in Node for the same files (BM25 exactly; the dense
 * ones to the four decimals shown: the browser's threaded WASM and Node's WASM may round the
 * last float bits differently). The library (list and IndexedDB) is the same afterwards; bad
 * files give plain messages; screenshots at desktop and phone widths go to test-results/.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createEvalContext } from '../../src/cli/configs';
import { denseRun } from '../../src/cli/dense-run';
import { evaluateConfigs, type ConfigResult } from '../../src/cli/eval';
import { METRIC_NAMES } from '../../src/core/eval/metrics';
import { loadBeir } from '../../src/node/beir';
import { beirFiles, writeBeir } from '../beir-fixture';
import { LOCAL_SCHEMES, launchChromium } from './browser';
import { saveScreenshot } from './screenshot';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

const CONFIGS = ['bm25', 'bm25-nostem', 'dense', 'weighted', 'rrf'] as const;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 740 };

/** What the page's IndexedDB holds: document ids and the number of chunks. */
function storedLibrary(page: Page): Promise<{ docs: string[]; chunks: number }> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((res, rej) => {
      const r = indexedDB.open('evident');
      r.onsuccess = () => res(r.result);
      r.onerror = () => rej(r.error);
    });
    const tx = db.transaction(['documents', 'chunkSets'], 'readonly');
    const all = <T>(store: string, keysOnly: boolean): Promise<T[]> =>
      new Promise((res, rej) => {
        const r = keysOnly ? tx.objectStore(store).getAllKeys() : tx.objectStore(store).getAll();
        r.onsuccess = () => res(r.result as T[]);
        r.onerror = () => rej(r.error);
      });
    // A document's chunks are one record (schema v4).
    const [docs, sets] = await Promise.all([
      all<IDBValidKey>('documents', true),
      all<{ chunks: unknown[] }>('chunkSets', false),
    ]);
    db.close();
    return { docs: docs.map(String).sort(), chunks: sets.reduce((n, s) => n + s.chunks.length, 0) };
  });
}

describe.skipIf(ctx.skip !== null)('the Benchmark page in Chromium', () => {
  let dir: string;
  let datasetDir: string;
  let expected: ConfigResult[];
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];
  const pageErrors: string[] = [];
  const origin = ctx.skip ? '' : new URL(ctx.baseUrl).origin;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evident-bench-e2e-'));
    datasetDir = join(dir, 'tiny-beir');
    await writeBeir(datasetDir);
    // The CLI's numbers for the same files (dense: USE lite in Node).
    const dataset = await loadBeir(datasetDir, 'test');
    expected = await evaluateConfigs(createEvalContext(dataset, { dense: denseRun }), CONFIGS);
    await mkdir('test-results', { recursive: true });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: DESKTOP });
    context.on('request', (r) => requests.push(r.url()));
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(ctx.baseUrl);
    await page.locator('[data-testid="model-status"][data-state="ready"]').waitFor({ timeout: 180_000 });
    await page.locator('[data-testid="library"][data-state="ready"]').waitFor({ timeout: 180_000 });
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('evaluates a dataset folder with the CLI’s numbers and leaves the library as it was', async () => {
    const listed = () =>
      page
        .getByTestId('library')
        .getByRole('listitem')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-doc-id')));
    const libraryBefore = await listed();
    const storedBefore = await storedLibrary(page);
    expect(storedBefore.docs.length).toBeGreaterThan(0);

    await page.getByRole('tab', { name: 'Benchmark' }).click();
    await page.getByLabel('Dataset folder').setInputFiles(datasetDir);
    await expect(page.getByTestId('benchmark-found').innerText()).resolves.toMatch(/tiny-beir.*corpus\.jsonl/s);
    for (const name of ['BM25 (no stemming)', 'Reciprocal rank fusion']) {
      await page.getByRole('checkbox', { name: new RegExp(`^${name.replace(/[()]/g, '\\$&')}`) }).check();
    }
    await page.getByRole('button', { name: 'Run the benchmark' }).click();
    const table = page.getByTestId('benchmark-table');
    await table.waitFor({ timeout: 180_000 });

    const rows = await table.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ({
        config: tr.getAttribute('data-config'),
        cells: [...tr.querySelectorAll('td[data-metric]')].map((td) => ({
          metric: td.getAttribute('data-metric'),
          value: Number(td.getAttribute('data-value')),
          text: td.textContent,
        })),
      })),
    );
    expect(rows.map((r) => r.config)).toEqual([...CONFIGS]);
    for (const [i, row] of rows.entries()) {
      const cli = expected[i]!;
      expect(row.cells.map((c) => c.metric)).toEqual([...METRIC_NAMES]);
      for (const cell of row.cells) {
        const want = cli.metrics[cell.metric as (typeof METRIC_NAMES)[number]];
        const what = `${row.config} ${cell.metric}`;
        expect(cell.text, what).toBe(want.toFixed(4));
        if (!row.config!.startsWith('bm25')) continue;
        expect(cell.value, what).toBe(want);
      }
    }
    // The fixture is not degenerate: configurations disagree.
    expect(new Set(rows.map((r) => r.cells[0]!.text)).size).toBeGreaterThan(2);
    expect(await page.getByTestId('benchmark-chart').locator('rect.bar').count()).toBe(CONFIGS.length * 4);
    expect(await page.getByTestId('benchmark-curves').locator('path.curve').count()).toBe(CONFIGS.length);
    await saveScreenshot(page, { path: 'test-results/benchmark-desktop.png', fullPage: true });

    await page.setViewportSize(PHONE);
    await page.evaluate(() => window.scrollTo(0, 0));
    await saveScreenshot(page, { path: 'test-results/benchmark-phone.png', fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // All four tabs fit the phone's width (the tab list does not scroll).
    expect(await page.locator('.tabs').evaluate((t) => t.scrollWidth <= t.clientWidth)).toBe(true);
    await page.setViewportSize(DESKTOP);

    // The library: the same documents listed and stored.
    await page.getByRole('tab', { name: 'Library' }).click();
    expect(await listed()).toEqual(libraryBefore);
    expect(await storedLibrary(page)).toEqual(storedBefore);
    const summary = rows.map((r) => `${r.config} ${r.cells[0]!.text}`).join(', ');
    console.log(`[e2e benchmark] nDCG@10 on the tiny fixture: ${summary} (equal to the CLI in Node)`);
  });

  it('says plainly what is wrong with bad files', async () => {
    await page.getByRole('tab', { name: 'Benchmark' }).click();
    const files = beirFiles();
    const broken = files.corpus.split('\n');
    broken[1] = '{"_id": "d2", "title": "Rooftop solar panels",';
    const input = page.getByLabel('Dataset files');
    await input.setInputFiles([
      { name: 'corpus.jsonl', mimeType: 'application/json', buffer: Buffer.from(broken.join('\n')) },
      { name: 'queries.jsonl', mimeType: 'application/json', buffer: Buffer.from(files.queries) },
      { name: 'test.tsv', mimeType: 'text/tab-separated-values', buffer: Buffer.from(files.qrels) },
    ]);
    await page.getByRole('button', { name: 'Run the benchmark' }).click();
    const error = page.getByTestId('benchmark-error');
    await error.waitFor({ timeout: 60_000 });
    expect(await error.innerText()).toBe(
      '“corpus.jsonl” line 2 is not valid JSON. A BEIR .jsonl file has one JSON object per line.',
    );
    expect(await page.getByTestId('benchmark-table').count()).toBe(0);

    await input.setInputFiles([
      { name: 'corpus.jsonl', mimeType: 'application/json', buffer: Buffer.from(files.corpus) },
      { name: 'queries.jsonl', mimeType: 'application/json', buffer: Buffer.from(files.queries) },
    ]);
    expect(await page.getByTestId('benchmark-pick-error').innerText()).toMatch(/^There is no qrels file/);
    expect(await page.getByRole('button', { name: 'Run the benchmark' }).isDisabled()).toBe(true);
  });

  it('made no request outside the page origin and raised no page error', () => {
    const offOrigin = requests.filter(
      (u) => !u.startsWith(`${origin}/`) && !LOCAL_SCHEMES.some((s) => u.startsWith(s)),
    );
    expect(offOrigin).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
