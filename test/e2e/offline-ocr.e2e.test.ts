/**
 * OCR offline after a very first visit, in a real Chromium (issue 16): tesseract.js's files
 * (`vendor/tesseract/`) are not precached; on a very first visit the app's worker — and so
 * tesseract.js's own worker — starts before the service worker controls the page, so it fetches
 * them itself and nothing stores them. After a batch in which a page was OCR'd the page asks the
 * service worker to store them (`CACHE_OCR_MESSAGE`), so that OCR then works with no network.
 *
 * The app is built here and served by its own `vite preview`. The service worker's script is held
 * back until the first scan has been added, whatever the timing of a real first visit. Then the
 * context goes offline, the server is shut down, the page reloads and a second scan is added: it
 * is OCR'd from Cache Storage, and a question about its text is answered from it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FILE_HASH_HEADER, MODEL_CACHE } from '../../src/sw/precache';
import { cleanPage, scannedPdf, twoColumnPage } from '../fixtures/scanned-pdf';
import { LOCAL_SCHEMES } from './browser';
import { appReady, openBuiltApp, serviceWorkerControls, type AppInBrowser } from './built-app';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

/** The `vendor/tesseract/` entries of `MODEL_CACHE` that carry the build's hash, by path. */
function stampedOcrFiles(page: Page): Promise<string[]> {
  return page.evaluate(
    async ({ cacheName, header }) => {
      if (!(await caches.has(cacheName))) return [];
      const cache = await caches.open(cacheName);
      const out: string[] = [];
      for (const request of await cache.keys()) {
        const path = new URL(request.url).pathname;
        if (path.includes('/vendor/tesseract/') && (await cache.match(request))?.headers.get(header)) out.push(path);
      }
      return out.sort();
    },
    { cacheName: MODEL_CACHE, header: FILE_HASH_HEADER },
  );
}

/** Adds a scanned PDF through the Library's file input and waits until its job is done (OCR'd and stored). */
async function addScan(page: Page, name: string, bytes: Uint8Array): Promise<void> {
  await page.getByRole('tab', { name: 'Library' }).click();
  await page
    .getByLabel('Add documents')
    .setInputFiles({ name, mimeType: 'application/pdf', buffer: Buffer.from(bytes) });
  const job = page.locator(`ul.jobs > li[data-file-name="${name}"]`);
  await job.and(page.locator('[data-job-status="done"], [data-job-status="failed"]')).waitFor({ timeout: 180_000 });
  expect(await job.getAttribute('data-job-status'), await job.innerText()).toBe('done');
  await page.getByTestId('library').locator(`li[data-doc-id="file:${name}"]`).waitFor();
}

describe.skipIf(ctx.skip !== null)('OCR files: cached on a very first visit, OCR then works offline (Chromium)', () => {
  let app: AppInBrowser;

  beforeAll(async () => {
    app = await openBuiltApp('evident-offline-ocr-e2e-', { viewport: { width: 1280, height: 900 } });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('stores the OCR files a first visit fetched outside the service worker; a scan added offline is OCR’d', async () => {
    const { page, context, pageErrors } = app;
    let releaseServiceWorker = (): void => {};
    const held = new Promise<void>((resolve) => (releaseServiceWorker = resolve));
    await context.route(/\/sw\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    const ocrRequests: { url: string; fromServiceWorker: boolean }[] = [];
    context.on('response', (r) => {
      if (r.url().includes('/vendor/tesseract/'))
        ocrRequests.push({ url: r.url(), fromServiceWorker: r.fromServiceWorker() });
    });
    await page.goto(app.url);
    await appReady(page);

    // First visit: the scan is OCR'd by workers no service worker controls.
    await addScan(page, 'harbour-scan.pdf', scannedPdf([cleanPage()]));
    expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
    const fetched = ocrRequests.map((r) => new URL(r.url).pathname);
    expect(fetched).toContain('/vendor/tesseract/lang/eng.traineddata.gz');
    expect(ocrRequests.filter((r) => r.fromServiceWorker)).toEqual([]);

    // The service worker installs, and the page's message has it store what OCR loaded: the
    // worker script, the language data and the one core this browser runs, with the build's hash.
    releaseServiceWorker();
    await serviceWorkerControls(page);
    await expect
      .poll(async () => (await stampedOcrFiles(page)).length, { timeout: 120_000 })
      .toBe(3)
      .catch(async (err: unknown) => {
        throw new Error(`${String(err)}; stamped: ${(await stampedOcrFiles(page)).join(', ')}`);
      });
    const stored = await stampedOcrFiles(page);
    expect(stored.filter((p) => !/\/tesseract-core-[^/]*\.wasm\.js$/.test(p))).toEqual([
      '/vendor/tesseract/lang/eng.traineddata.gz',
      '/vendor/tesseract/worker.min.js',
    ]);
    const core = stored.find((p) => /\/tesseract-core-[^/]*lstm\.wasm\.js$/.test(p));
    // The core stored is the one tesseract.js loaded on the first visit.
    expect(fetched).toContain(core);

    // No network: the context is offline and the server is gone.
    await context.setOffline(true);
    await app.stopServer();
    const responses: { url: string; fromServiceWorker: boolean }[] = [];
    const failed: string[] = [];
    context.on('response', (r) => responses.push({ url: r.url(), fromServiceWorker: r.fromServiceWorker() }));
    context.on('requestfailed', (r) => failed.push(r.url()));
    await page.reload();
    await appReady(page);
    const t0 = Date.now();
    await addScan(page, 'orchards-scan.pdf', scannedPdf([twoColumnPage()]));
    const ms = Date.now() - t0;
    expect(failed.filter((u) => u.includes('/vendor/tesseract/'))).toEqual([]);
    const served = responses.filter((r) => !LOCAL_SCHEMES.some((s) => r.url.startsWith(s)));
    expect(served.filter((r) => !r.fromServiceWorker)).toEqual([]);
    expect(served.filter((r) => r.url.includes('/vendor/tesseract/')).length).toBeGreaterThan(0);

    // Its OCR'd text is searchable: a question about it is answered from it.
    await page.getByRole('tab', { name: 'Ask' }).click();
    await page.getByLabel('Your question').fill('What destroyed most of the blossom on the cherry trees?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page
      .getByTestId('ask-status')
      .getByText(/Answered in/)
      .waitFor({ timeout: 120_000 });
    const source = page.getByTestId('sources').locator('li.source[data-doc-id="file:orchards-scan.pdf"]').first();
    await source.waitFor({ timeout: 10_000 });
    await expect.poll(() => source.getByTestId('ocr-mark').innerText()).toBe('OCR');
    expect(pageErrors).toEqual([]);
    console.log(
      `[e2e offline-ocr] first visit stored ${stored.length} OCR files (${core}); offline, a scan was OCR'd and added in ${(ms / 1000).toFixed(1)} s, ` +
        `${served.length} responses, all from the service worker`,
    );
  });
});
