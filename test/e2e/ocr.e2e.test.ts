/**
 * OCR of a scanned PDF in Chromium (issue 16, part 2): a PDF the test makes (text drawn onto an
 * image, no text layer) is added through the Library's file input; tesseract.js, its WASM core and
 * the English data load from the app's origin on first need; the scan becomes searchable, a
 * question about its text is answered with a citation marked "OCR", the page view shows the scan,
 * and no request leaves the origin. Prints pages per minute (add to listed, OCR dominating).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cleanPage, rotatedPage, scannedPdf, tablePage, twoColumnPage } from '../fixtures/scanned-pdf';
import { launchChromium, offOrigin } from './browser';
import { appReady } from './built-app';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

describe.skipIf(ctx.skip !== null)('OCR of a scanned PDF in Chromium', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const requests: string[] = [];
  const pageErrors: string[] = [];
  const origin = ctx.skip ? '' : new URL(ctx.baseUrl).origin;

  beforeAll(async () => {
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Every request of the page, its workers and tesseract.js's nested worker.
    context.on('request', (r) => requests.push(r.url()));
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    if (process.env.DEBUG_UI_E2E) page.on('console', (m) => console.log('[console]', m.text()));
    await page.goto(ctx.baseUrl);
    await appReady(page);
  });

  afterAll(async () => {
    await browser?.close();
  });

  const tab = (name: string) => page.getByRole('tab', { name });

  it('loads nothing of OCR until a scanned page is met', () => {
    expect(requests.filter((u) => u.includes('/vendor/tesseract/'))).toEqual([]);
  });

  it('reads the scan with OCR from the origin; it becomes searchable', async () => {
    const pages = [cleanPage(), twoColumnPage()];
    const bytes = scannedPdf(pages);
    const name = 'harbour-scan.pdf';
    await tab('Library').click();
    const t0 = Date.now();
    await page
      .getByLabel('Add documents')
      .setInputFiles({ name, mimeType: 'application/pdf', buffer: Buffer.from(bytes) });
    const listed = page.getByTestId('library').locator(`li[data-doc-id="file:${name}"]`);
    const failed = page.getByRole('alert');
    await listed.or(failed).first().waitFor({ timeout: 180_000 });
    if (!(await listed.isVisible())) {
      console.log(
        '[e2e] OCR requests',
        requests.filter((u) => u.includes('tesseract')),
      );
      throw new Error(`adding the scan failed: ${await failed.first().innerText()}`);
    }
    const ms = Date.now() - t0;
    console.log(
      `[e2e] OCR (Chromium): ${pages.length} pages added in ${(ms / 1000).toFixed(1)} s = ${((pages.length / ms) * 60_000).toFixed(0)} pages/min (first use: tesseract.js loads)`,
    );
    // Throughput once the files are in the HTTP cache: the four fixture pages in a second PDF.
    const more = [cleanPage(), twoColumnPage(), rotatedPage(), tablePage()];
    const t1 = Date.now();
    await page
      .getByLabel('Add documents')
      .setInputFiles({ name: 'fixtures-scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from(scannedPdf(more)) });
    await page.getByTestId('library').locator('li[data-doc-id="file:fixtures-scan.pdf"]').waitFor({ timeout: 180_000 });
    const warm = Date.now() - t1;
    console.log(
      `[e2e] OCR (Chromium): ${more.length} pages added in ${(warm / 1000).toFixed(1)} s = ${((more.length / warm) * 60_000).toFixed(0)} pages/min (files cached)`,
    );
    const loaded = requests.filter((u) => u.includes('/vendor/tesseract/'));
    expect(loaded.some((u) => u.endsWith('/vendor/tesseract/lang/eng.traineddata.gz'))).toBe(true);
    expect(loaded.some((u) => /tesseract-core-.*lstm\.wasm\.js$/.test(u))).toBe(true);
  });

  it('answers a question about the scanned text with a citation marked OCR, and shows the scan', async () => {
    await tab('Ask').click();
    await page.getByLabel('Your question').fill('How many blocks do the engineers recommend replacing?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page
      .getByTestId('ask-status')
      .getByText(/Answered in/)
      .waitFor({ timeout: 120_000 });
    // Both scans hold the harbour page: either may be cited.
    const source = page
      .getByTestId('sources')
      .locator('li.source')
      .filter({ hasText: /forty blocks/ })
      .first();
    await source.waitFor({ timeout: 10_000 });
    expect(await source.getAttribute('data-doc-id')).toMatch(/^file:(harbour|fixtures)-scan\.pdf$/);
    await expect.poll(() => source.getByTestId('ocr-mark').innerText()).toBe('OCR');
    const citation = (await source.getAttribute('data-citation')) ?? '';
    expect(await page.getByTestId('ask-result').innerText()).toContain(citation);
    await source.getByRole('button', { name: 'Open in document' }).click();
    const view = page.getByTestId('passage-dialog').getByTestId('pdf-page-view');
    await view.locator('canvas').first().waitFor({ timeout: 30_000 });
    // The scan is drawn: its canvas has dark (text) pixels.
    const dark = await view
      .locator('canvas')
      .first()
      .evaluate((c: HTMLCanvasElement) => {
        const g = c.getContext('2d');
        if (!g) return 0;
        const d = g.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if ((d[i] ?? 255) < 100) n++;
        return n;
      });
    expect(dark).toBeGreaterThan(1000);
    await page.keyboard.press('Escape');
  });

  it('made no request outside the origin and raised no page error', () => {
    expect(offOrigin(requests, origin)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
