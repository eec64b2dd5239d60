/**
 * Ingest as a pipeline across files, in Chromium on the production build (issue 28): a ~250-page
 * 10-K (3M's 2022 filing, 252 pages) is added, and while its meaning vectors are computed a second
 * filing (MGM Resorts' 2022 10-K, 220 pages) is added as a batch of its own.
 *
 * - each becomes searchable by its words (listed in the Library, and a search for a word only it
 *   has finds it) while the first is still being embedded: the second never waits for the first's
 *   embedding (it waited 332 s before);
 * - Settings opens while the embedding runs (it showed "Reading settings…" for 1.5 s);
 * - Remove asks first, naming the document, then acts at once: the document leaves the list, its
 *   embedding is cancelled (its file's row says it was removed) and a search no longer finds it.
 *
 * The seconds from adding each file to searchable, Settings' wait and the removal's are printed
 * for the notes, not asserted (HOUSE_STYLE rule 10): the test asserts the relations —
 * the second searchable while the first still embeds, Settings shown meanwhile, the removal
 * reported by the worker while the document's vectors were incomplete.
 * Reads the filings from ../shared at run time (`describeShared`). Screenshots at desktop and
 * phone width go to test-results/.
 */
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { describeShared, sharedPath } from '../../src/node/shared-data';
import { launchChromium } from './browser';
import { addFiles, appReady, fileDocId } from './built-app';
import { saveScreenshot } from './screenshot';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

const FIRST = 'datasets/financebench-dev/docs/3M_2022_10K.pdf';
const SECOND = 'datasets/financebench-dev/docs/MGMRESORTS_2022_10K.pdf';
const FIRST_ID = 'file:3M_2022_10K.pdf';
const SECOND_ID = 'file:MGMRESORTS_2022_10K.pdf';
/** Words each filing has and no demo document has. */
const FIRST_QUERY = 'Post-it Scotch-Brite';
const SECOND_QUERY = 'Bellagio casino';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 740 };

describeShared('two filings, one added while the other embeds', [FIRST, SECOND], () => {
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (ctx.skip) return;
    await mkdir('test-results', { recursive: true });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    if (process.env.DEBUG_UI_E2E) page.on('console', (m) => console.log('[console]', m.text()));
    await page.goto(ctx.baseUrl);
    await appReady(page);
  });

  afterAll(async () => {
    await browser?.close();
  });

  const tab = (name: string) => page.getByRole('tab', { name });
  const listed = (docId: string) => page.getByTestId('library').locator(`li[data-doc-id="${docId}"]`);
  const vectors = async (docId: string): Promise<{ vectors: number; chunks: number } | null> => {
    const li = listed(docId);
    if ((await li.count()) === 0) return null;
    return {
      vectors: Number(await li.getAttribute('data-vectors')),
      chunks: Number(await li.getAttribute('data-chunks')),
    };
  };
  /**
   * One snapshot of every status text on the page (read in one go, so from one render): the
   * strip's vectors line, the library's line for that document, its file's row, and the library's
   * totals. They must agree: the same counts, and totals that add up over the listed documents.
   */
  const statusTexts = () =>
    page.evaluate(() => {
      const strip = document.querySelector('[data-testid="status-strip"] li[data-kind="vectors"]');
      const docId = strip?.getAttribute('data-doc-id') ?? null;
      const item = docId ? document.querySelector(`[data-testid="library"] li[data-doc-id="${docId}"]`) : null;
      const job = docId ? document.querySelector(`ul.jobs > li[data-doc-id="${docId}"]`) : null;
      const docs = [...document.querySelectorAll('[data-testid="library"] li[data-doc-id]')].map((li) => ({
        chunks: Number(li.getAttribute('data-chunks')),
        vectors: Number(li.getAttribute('data-vectors')),
      }));
      return {
        strip: strip?.textContent ?? null,
        docId,
        stripVectors: Number(strip?.getAttribute('data-vectors')),
        stripChunks: Number(strip?.getAttribute('data-chunks')),
        itemVectors: Number(item?.getAttribute('data-vectors')),
        itemText: item?.querySelector('.doc-meta')?.textContent ?? null,
        jobText: job?.querySelector('.progress-text')?.textContent ?? null,
        totals: document.querySelector('[data-testid="library-counts"]')?.textContent ?? '',
        docs,
      };
    });
  const n = (x: number): string => x.toLocaleString('en');
  /** Reads the status texts and checks that none contradicts another; returns the strip's line. */
  const consistent = async (moment: string): Promise<string | null> => {
    const t = await statusTexts();
    console.log(
      `[e2e] status at ${moment}: strip "${t.strip}"; list "${t.itemText}"; row "${t.jobText}"; totals "${t.totals}"`,
    );
    const chunks = t.docs.reduce((sum, d) => sum + d.chunks, 0);
    const vectors = t.docs.reduce((sum, d) => sum + Math.min(d.chunks, d.vectors), 0);
    expect(t.totals, moment).toContain(`${n(t.docs.length)} document`);
    expect(t.totals, moment).toContain(`${n(chunks)} chunk`);
    if (vectors < chunks) expect(t.totals, moment).toContain(`${n(vectors)} with meaning vectors`);
    if (t.docId === null) return null;
    expect(t.strip, moment).toContain(`computing meaning vectors ${n(t.stripVectors)} / ${n(t.stripChunks)}`);
    expect(t.itemVectors, moment).toBe(t.stripVectors);
    expect(t.itemText, moment).toContain(`${n(t.stripVectors)} / ${n(t.stripChunks)} with meaning vectors`);
    if (t.jobText !== null)
      expect(t.jobText, moment).toMatch(new RegExp(`^${n(t.stripVectors)} of ${n(t.stripChunks)} `));
    return t.strip;
  };
  /** The strip is in view on `tab`, at the top of the page and scrolled to its end. */
  const stripInView = async (name: string): Promise<void> => {
    await tab(name).click();
    for (const y of [0, 1e6]) {
      await page.evaluate((to) => window.scrollTo(0, to), y);
      const box = await page.getByTestId('status-strip').locator('ul').boundingBox();
      const viewport = page.viewportSize()!;
      expect(box, `${name} at scroll ${y}`).not.toBeNull();
      expect(box!.y, `${name} at scroll ${y}`).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height, `${name} at scroll ${y}`).toBeLessThanOrEqual(viewport.height);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
  };

  /** Adds `file`; seconds until it is listed and a search for `query` ranks one of its passages. */
  const searchableAfter = async (file: string, query: string): Promise<number> => {
    const t0 = Date.now();
    await addFiles(page, [file]);
    const docId = fileDocId(file);
    await tab('Library').click();
    await page.getByLabel('Search your documents').fill(query);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByTestId('results').locator(`li[data-doc-id="${docId}"]`).first().waitFor({ timeout: 60_000 });
    return (Date.now() - t0) / 1000;
  };

  it.skipIf(ctx.skip !== null)(
    'the second filing is searchable while the first embeds; the status texts agree; Settings opens; Remove asks, then acts',
    async () => {
      const firstSearchable = await searchableAfter(sharedPath(FIRST), FIRST_QUERY);

      // Its meaning vectors are being computed (the first batch has landed, many remain).
      await expect
        .poll(async () => (await vectors(FIRST_ID))?.vectors ?? 0, { timeout: 300_000, interval: 250 })
        .toBeGreaterThan(0);
      const secondSearchable = await searchableAfter(sharedPath(SECOND), SECOND_QUERY);
      const first = await vectors(FIRST_ID);
      const second = await vectors(SECOND_ID);
      console.log(
        `[e2e] pipeline: ${FIRST_ID} searchable ${firstSearchable.toFixed(1)} s after adding; ${SECOND_ID} ` +
          `searchable ${secondSearchable.toFixed(1)} s after adding, while the first had ${first?.vectors} of ` +
          `${first?.chunks} vectors (second: ${second?.vectors} of ${second?.chunks})`,
      );
      // The second did not wait for the first's embedding.
      expect(first).not.toBeNull();
      expect(first!.vectors).toBeLessThan(first!.chunks);
      await saveScreenshot(page, { path: 'test-results/pipeline-two-filings-desktop.png' });

      // A status that tells the truth, read at three moments (the third after the removal, below).
      const atFirst = await consistent('both filings listed');
      expect(atFirst).toMatch(/— searchable · computing meaning vectors [\d,]+ \/ [\d,]+ · 1 more document after it/);
      for (const name of ['Library', 'Ask', 'Settings', 'Benchmark']) await stripInView(name);
      await tab('Library').click();
      await page.waitForTimeout(2_500);
      const atSecond = await consistent('2.5 s later');
      expect(atSecond).toMatch(/min left|under a minute left/);

      // Settings while the embedding runs: the form shows, not "Reading settings…".
      const t3 = Date.now();
      await tab('Settings').click();
      await page.getByRole('heading', { name: 'Model profile' }).waitFor({ timeout: 30_000 });
      const settingsMs = Date.now() - t3;
      console.log(`[e2e] pipeline: Settings shown ${settingsMs} ms after the tab was chosen, while embedding`);
      // Shown while the first filing's vectors were still being computed.
      expect((await vectors(FIRST_ID))!.vectors).toBeLessThan(first!.chunks);

      // Remove the first while it is embedding: asked first, by title; then gone at once.
      await tab('Library').click();
      const title = await listed(FIRST_ID).locator('.doc-title').innerText();
      await listed(FIRST_ID)
        .getByRole('button', { name: /^Remove/ })
        .click();
      const dialog = page.getByTestId('confirm-remove');
      await dialog.waitFor();
      expect(await dialog.getByRole('heading').innerText()).toBe(`Remove “${title}”?`);
      await saveScreenshot(page, { path: 'test-results/pipeline-confirm-remove-desktop.png' });
      // "Keep it" keeps it.
      await dialog.getByRole('button', { name: 'Keep it' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await listed(FIRST_ID).count()).toBe(1);
      await listed(FIRST_ID)
        .getByRole('button', { name: /^Remove/ })
        .click();
      // Timed in the page (a click through the test driver takes long on a loaded machine): from the
      // confirming click to the row leaving the list, and to the file's row saying it was removed
      // (the worker took it out of storage and its embedding call ended).
      const atRemoval = (await vectors(FIRST_ID))!;
      expect(atRemoval.vectors).toBeLessThan(atRemoval.chunks);
      const { goneMs, cancelledMs } = await page.evaluate(async (docId) => {
        const frame = () => new Promise((r) => requestAnimationFrame(r));
        const button = document.querySelector<HTMLButtonElement>('[data-testid="confirm-remove"] button.danger');
        const t0 = performance.now();
        button!.click();
        while (document.querySelector(`[data-testid="library"] li[data-doc-id="${docId}"]`)) await frame();
        const gone = performance.now() - t0;
        const job = () => document.querySelector(`ul.jobs > li[data-doc-id="${docId}"]`)?.textContent ?? '';
        while (!job().includes('Removed from the library.') && performance.now() - t0 < 30_000) await frame();
        return { goneMs: Math.round(gone), cancelledMs: Math.round(performance.now() - t0) };
      }, FIRST_ID);
      const t4 = Date.now();
      await page.getByLabel('Search your documents').fill(FIRST_QUERY);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.getByTestId('search-results').locator('[data-testid="result"], p').first().waitFor();
      await expect
        .poll(() => page.getByTestId('results').locator(`li[data-doc-id="${FIRST_ID}"]`).count(), { timeout: 10_000 })
        .toBe(0);
      const searchMs = Date.now() - t4;
      console.log(
        `[e2e] pipeline: Remove confirmed → gone from the list ${goneMs} ms, out of storage with its embedding ` +
          `cancelled (its row says removed) ${cancelledMs} ms; a search typed after that finds none of it (${searchMs} ms)`,
      );
      // Its embedding was cancelled, not finished: the worker reported the removal long before
      // 3,045 chunks could have been embedded (timings are printed above, not asserted).
      expect(await page.locator('ul.jobs > li[data-file-name="3M_2022_10K.pdf"]').innerText()).toContain(
        'Removed from the library.',
      );
      // The second filing now gets its vectors (it was queued behind the removed one).
      await expect
        .poll(async () => (await vectors(SECOND_ID))?.vectors ?? 0, { timeout: 300_000, interval: 500 })
        .toBeGreaterThan(0);
      const atThird = await consistent('after the removal');
      expect(atThird).toContain('MGM');
      expect(atThird).not.toContain('more document');
      await saveScreenshot(page, { path: 'test-results/pipeline-after-remove-desktop.png' });
      await page.setViewportSize(PHONE);
      await saveScreenshot(page, { path: 'test-results/pipeline-after-remove-phone.png' });
      await page.setViewportSize(DESKTOP);
      expect(pageErrors).toEqual([]);
    },
    900_000,
  );
});
