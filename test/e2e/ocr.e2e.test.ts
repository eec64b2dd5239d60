/**
 * OCR of a scanned PDF in Chromium (issue 16, part 2): a PDF the test makes (text drawn onto an
 * image, no text layer) is added through the Library's file input; tesseract.js, its WASM core and
 * the English data load from the app's origin on first need; the scan becomes searchable, a
 * question about its text is answered (outcome supported) with a citation marked "OCR", the page view shows the scan
 * with the cited span marked over its words (the marked words are the cited passage's, each mark
 * over ink of the scan, also zoomed; a screenshot goes to /tmp/notes/ocr-highlight.png), and no
 * request leaves the origin. Prints pages per minute (add to listed, OCR dominating).
 */
import { mkdir } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { cleanPage, linesPage, rotatedPage, scannedPdf, tablePage, twoColumnPage } from '../fixtures/scanned-pdf';
import { launchChromium, offOrigin } from './browser';
import { addFiles, appReady, askQuestion } from './built-app';
import { saveScreenshot } from './screenshot';

/** The letters-and-digits words of `s`, lower case, one space apart (OCR's words keep their punctuation). */
const words = (s: string): string => (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');

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

  // A failed test must not leave the modal dialog over the next one's page.
  afterEach(async () => {
    if (await page.getByTestId('passage-dialog').isVisible()) await page.keyboard.press('Escape');
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
    const [warm] = (await addFiles(
      page,
      [{ name: 'fixtures-scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from(scannedPdf(more)) }],
      { timeout: 180_000 },
    )) as [number];
    console.log(
      `[e2e] OCR (Chromium): ${more.length} pages added in ${(warm / 1000).toFixed(1)} s = ${((more.length / warm) * 60_000).toFixed(0)} pages/min (files cached)`,
    );
    const loaded = requests.filter((u) => u.includes('/vendor/tesseract/'));
    expect(loaded.some((u) => u.endsWith('/vendor/tesseract/lang/eng.traineddata.gz'))).toBe(true);
    expect(loaded.some((u) => /tesseract-core-.*lstm\.wasm\.js$/.test(u))).toBe(true);
  });

  it('answers a question about the scanned text with a citation marked OCR, and shows the scan', async () => {
    await askQuestion(page, 'How many blocks do the engineers recommend replacing?');
    // Answered, not refused: the copy of the page in the other scan is no rival source.
    expect(await page.getByTestId('ask-result').getAttribute('data-outcome')).toBe('supported');
    expect(await page.getByTestId('ask-result').innerText()).toMatch(/forty/);
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
    // data-rendered names the page once its canvas is drawn (0 until then).
    await expect.poll(() => view.getAttribute('data-rendered'), { timeout: 30_000 }).not.toBe('0');
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

    // The cited span is marked on the scan, over the words OCR read there.
    await view.locator('mark.pdf-hit').first().waitFor({ timeout: 30_000 });
    const marked = words((await view.locator('mark.pdf-hit').allTextContents()).join(' '));
    // A chunk that opens with its section's heading shows it in the "where" line, not in the text.
    const { passage, heading } = await citedWords();
    await view.locator('mark.pdf-hit').first().waitFor({ timeout: 30_000 });
    await expect.poll(() => view.getAttribute('data-rendered'), { timeout: 30_000 }).toBe('1');
    console.log(`[e2e] OCR page view: ${citation} marks ${JSON.stringify(marked)}`);
    expect([passage, `${heading} ${passage}`]).toContain(marked);
    expect(marked).toMatch(/recommend replacing forty blocks/);
    expect(await view.getByTestId('pdf-where').innerText()).not.toMatch(/not found/);
    // Every mark lies on the drawn page over dark (text) pixels of the scan.
    const onText = () =>
      view.evaluate((root) => {
        const canvas = root.querySelector('canvas') as HTMLCanvasElement;
        const g = canvas.getContext('2d');
        const c = canvas.getBoundingClientRect();
        const k = canvas.width / c.width;
        const data = g?.getImageData(0, 0, canvas.width, canvas.height).data;
        return [...root.querySelectorAll('mark.pdf-hit')].map((m) => {
          const r = m.getBoundingClientRect();
          const x0 = Math.round((r.left - c.left) * k);
          const y0 = Math.round((r.top - c.top) * k);
          const x1 = Math.round((r.right - c.left) * k);
          const y1 = Math.round((r.bottom - c.top) * k);
          if (!data || x0 < 0 || y0 < 0 || x1 > canvas.width || y1 > canvas.height) return 0;
          let dark = 0;
          for (let y = y0; y < y1; y++)
            for (let x = x0; x < x1; x++) if ((data[(y * canvas.width + x) * 4] ?? 255) < 128) dark++;
          // The share of the mark's pixels that are ink: a word's box holds some, a blank one none.
          return dark / Math.max(1, (x1 - x0) * (y1 - y0));
        });
      });
    const ink = await onText();
    expect(ink.length).toBeGreaterThan(3);
    expect(Math.min(...ink)).toBeGreaterThan(0.05);
    await mkdir('/tmp/notes', { recursive: true });
    await saveScreenshot(page, { path: '/tmp/notes/ocr-highlight.png' });
    // Zoom: the page grows, the marks follow (same words, still over the ink); 0 fits it again.
    const before = (await view.locator('canvas').boundingBox())?.width ?? 0;
    await page.keyboard.press('+');
    await expect
      .poll(async () => (await view.locator('canvas').boundingBox())?.width ?? 0, { timeout: 15_000 })
      .toBeGreaterThan(before);
    await expect.poll(() => view.getAttribute('data-zoom'), { timeout: 10_000 }).toBe('1.25');
    await view.locator('mark.pdf-hit').first().waitFor({ timeout: 30_000 });
    expect(words((await view.locator('mark.pdf-hit').allTextContents()).join(' '))).toBe(marked);
    // The marks show before the larger canvas is drawn: wait for its ink under every mark.
    await expect.poll(async () => Math.min(...(await onText())), { timeout: 15_000 }).toBeGreaterThan(0.05);
    await saveScreenshot(page, { path: '/tmp/notes/ocr-highlight-zoom.png' });
    await page.keyboard.press('0');
    await expect.poll(() => view.getAttribute('data-zoom'), { timeout: 10_000 }).toBe('1');
    await page.keyboard.press('Escape');
  });

  const dialog = () => page.getByTestId('passage-dialog');
  const view = () => dialog().getByTestId('pdf-page-view');
  const marks = async (): Promise<string> => words((await view().locator('mark.pdf-hit').allTextContents()).join(' '));

  /** Asks `question` and opens the first source of `docId` on its page, drawn with its marks. */
  async function openCited(question: string, docId: RegExp): Promise<void> {
    await askQuestion(page, question);
    const sources = page.getByTestId('sources').locator('li.source');
    await sources.first().waitFor({ timeout: 10_000 });
    const ids = await sources.evaluateAll((els) => els.map((e) => e.getAttribute('data-doc-id') ?? ''));
    const at = ids.findIndex((id) => docId.test(id));
    expect(at, `a source of ${String(docId)} among ${ids.join(', ')}`).toBeGreaterThanOrEqual(0);
    await sources.nth(at).getByRole('button', { name: 'Open in document' }).click();
    await view().locator('mark.pdf-hit').first().waitFor({ timeout: 30_000 });
  }

  /** The cited passage's words as the passage view shows them, with its section heading (the chunk may open with it). */
  async function citedWords(): Promise<{ passage: string; heading: string }> {
    await view().getByTestId('show-passage').click();
    const cited = dialog().locator('.passage-cited');
    await cited.waitFor({ timeout: 10_000 });
    const passage = words((await cited.locator(':scope > p:not(.passage-where)').allInnerTexts()).join(' '));
    const where = await cited.locator('.passage-where > span:not(.cited-label)').allInnerTexts();
    const heading = words(
      where
        .find((w) => !/^Page \d+$/.test(w))
        ?.split(' › ')
        .at(-1) ?? '',
    );
    await dialog().getByTestId('show-page').click();
    await view().locator('mark.pdf-hit').first().waitFor({ timeout: 30_000 });
    return { passage, heading };
  }

  it('marks a part of a two-column scan: the cited passage’s words, in both columns', async () => {
    await openCited('What destroyed most of the blossom on the cherry trees?', /^file:(harbour|fixtures)-scan\.pdf$/);
    await expect.poll(() => view().getAttribute('data-page'), { timeout: 10_000 }).toBe('2');
    await expect.poll(() => view().getAttribute('data-rendered'), { timeout: 30_000 }).toBe('2');
    const shown = await marks();
    const { passage, heading } = await citedWords();
    console.log(`[e2e] OCR page view, two columns: marks ${JSON.stringify(shown)}`);
    expect([passage, `${heading} ${passage}`]).toContain(shown);
    expect(shown).toMatch(/frost in april destroyed most of the blossom/);
    // A part of the page: the orchard's first lines are another passage.
    expect(shown).not.toMatch(/apple orchards/);
    await saveScreenshot(page, { path: '/tmp/notes/ocr-highlight-columns.png' });
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
  });

  it('marks a scanned passage across a page break on both pages; ← and → change page', async () => {
    const glacier = scannedPdf([
      linesPage([
        { y: 96, lines: ['Field notes from the glacier station, written by the winter crew.'] },
        {
          y: 690,
          lines: [
            'The meltwater gauge on the eastern tongue recorded a peak flow of',
            'forty two cubic metres per second on the ninth of August, the',
          ],
        },
      ]),
      linesPage([
        {
          y: 96,
          lines: [
            'highest reading since the gauge was installed by the survey team',
            'in the year the station opened, well above the summer average.',
          ],
        },
      ]),
    ]);
    await addFiles(page, [{ name: 'glacier-scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from(glacier) }], {
      timeout: 180_000,
    });
    await openCited(
      'What peak flow did the meltwater gauge record on the ninth of August?',
      /^file:glacier-scan\.pdf$/,
    );
    expect(await view().getAttribute('data-page')).toBe('1');
    expect(await view().getByTestId('pdf-where').innerText()).toMatch(/pages 1 and 2/);
    await expect.poll(() => view().getAttribute('data-rendered'), { timeout: 30_000 }).toBe('1');
    const first = await marks();
    const { passage, heading } = await citedWords();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => view().getAttribute('data-page'), { timeout: 10_000 }).toBe('2');
    await expect.poll(() => view().getAttribute('data-rendered'), { timeout: 30_000 }).toBe('2');
    const second = await marks();
    console.log(`[e2e] OCR page view across pages: ${JSON.stringify(first)} | ${JSON.stringify(second)}`);
    expect(first).toMatch(/meltwater gauge/);
    expect(second).toMatch(/highest reading/);
    expect([passage, `${heading} ${passage}`]).toContain(`${first} ${second}`);
    await saveScreenshot(page, { path: '/tmp/notes/ocr-highlight-page-2.png' });
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => view().getAttribute('data-page'), { timeout: 10_000 }).toBe('1');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
  });

  it('made no request outside the origin and raised no page error', () => {
    expect(offOrigin(requests, origin)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
