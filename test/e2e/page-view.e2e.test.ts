/**
 * The page view of PDF citations in Chromium (issue 16, part 1): PDFs the test writes are added
 * through the Library's file input, a question is asked, and the source's "Open in document"
 * opens the original page drawn by pdf.js with the cited span marked in its text layer:
 * - the marked text equals the cited passage (as the passage view shows it), on one page;
 * - a passage across a page break is marked on both pages (→ / PageDown goes to the next one);
 * - the view works offline: the service worker serves pdf.js and its worker from the cache;
 * - with MGM Resorts' 2018 10-K from ../shared (read at run time, when present) a screenshot of
 *   a real filing's cited page goes to test-results/page-view-filing.png for a person to check.
 */
import { mkdir } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { existsSync } from 'node:fs';
import { sharedPath } from '../../src/node/shared-data';
import { pdf, type PdfLine } from '../fixtures/documents';
import { launchChromium } from './browser';
import { addFiles, appReady, serviceWorkerControls } from './built-app';
import { saveScreenshot } from './screenshot';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

/** Lines 14 pt apart from `y` down. */
function lines(y: number, texts: readonly string[]): PdfLine[] {
  return texts.map((text, i) => ({ text, y: y - 14 * i }));
}

// One page, several topics: the cited chunk is a part of the page, not all of it.
const HARBOUR = pdf([
  [
    ...lines(740, [
      'The harbour authority publishes this report every spring for the port users.',
      'It covers the shipping lanes, the cranes, the pilots and the tide tables.',
      'Readers who need the old tables can ask the records office for a copy.',
    ]),
    ...lines(680, [
      'Crane maintenance moved to a night schedule so that container ships load',
      'without delay during the day, and each crane is inspected every nine weeks.',
      'The inspection covers the brakes, the cables and the control cabin.',
    ]),
    ...lines(620, [
      'Pilot boats now meet every tanker at the outer buoy, two miles offshore,',
      'and a second pilot boards any vessel longer than three hundred metres.',
      'Pilots rest at least ten hours between two assignments.',
    ]),
    ...lines(560, [
      'Dredging of the northern channel finished in March at a depth of sixteen',
      'metres, which lets the largest bulk carriers enter at any tide.',
      'Sediment from the dredging was placed on the salt marsh restoration site.',
    ]),
    ...lines(500, [
      'Berth fees rise by four percent next year; fishing boats pay no berth fee.',
      'Fees are billed monthly and can be paid at the harbour office.',
    ]),
  ],
]);

// A passage that runs from the bottom of page 1 onto the top of page 2.
const GLACIER = pdf([
  [
    ...lines(740, ['Field notes from the glacier station, written by the winter crew.']),
    ...lines(120, [
      'The meltwater gauge on the eastern tongue recorded a peak flow of',
      'forty two cubic metres per second on the ninth of August, the',
    ]),
  ],
  [
    ...lines(740, [
      'highest reading since the gauge was installed by the survey team',
      'in the year the station opened, well above the summer average.',
    ]),
  ],
]);

const flat = (s: string): string => s.replace(/\s+/g, ' ').trim();

describe.skipIf(ctx.skip !== null)('page view of PDF citations in Chromium', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await mkdir('test-results', { recursive: true });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
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
    if (await dialog().isVisible()) await page.keyboard.press('Escape');
  });

  const tab = (name: string) => page.getByRole('tab', { name });
  const dialog = () => page.getByTestId('passage-dialog');
  const view = () => dialog().getByTestId('pdf-page-view');

  async function addPdf(name: string, bytes: Uint8Array, timeout = 120_000): Promise<void> {
    await addFiles(page, [{ name, mimeType: 'application/pdf', buffer: Buffer.from(bytes) }], { timeout });
  }

  async function ask(question: string, timeout = 120_000): Promise<void> {
    await tab('Ask').click();
    await page.getByLabel('Your question').fill(question);
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page
      .getByTestId('ask-status')
      .getByText(/Answered in/)
      .waitFor({ timeout });
  }

  /** Opens the first source of `docId` in the page view; resolves with its citation id. */
  async function openOnPage(docId: string): Promise<string> {
    const source = page.getByTestId('sources').locator(`li.source[data-doc-id="${docId}"]`).first();
    await source.waitFor({ timeout: 10_000 });
    const citation = (await source.getAttribute('data-citation')) ?? '';
    await source.getByRole('button', { name: 'Open in document' }).click();
    await view().locator('mark.pdf-hit').first().waitFor({ timeout: 30_000 });
    return citation;
  }

  /** What the text layer marks on the page shown now. */
  const marked = async (): Promise<string> => flat((await view().locator('mark.pdf-hit').allTextContents()).join(' '));

  /** The cited passage's text as the passage view shows it (its "where" line left out). */
  async function citedPassageText(): Promise<string> {
    await view().getByTestId('show-passage').click();
    const cited = dialog().locator('.passage-cited');
    await cited.waitFor({ timeout: 10_000 });
    const text = await cited.locator(':scope > p:not(.passage-where)').allInnerTexts();
    await dialog().getByTestId('show-page').click();
    await view().locator('mark.pdf-hit').first().waitFor({ timeout: 30_000 });
    return flat(text.join(' '));
  }

  it('marks exactly the cited passage on its page, with page controls, zoom and keys', async () => {
    await addPdf('harbour-report.pdf', HARBOUR);
    await ask('How often is each crane inspected?');
    const citation = await openOnPage('file:harbour-report.pdf');
    expect(await view().getAttribute('data-page')).toBe('1');
    expect(await view().getByTestId('pdf-page-number').innerText()).toBe('Page 1 of 1');
    expect(
      await view()
        .locator('canvas')
        .evaluate((c: HTMLCanvasElement) => c.width > 0 && c.height > 0),
    ).toBe(true);
    const shown = await marked();
    const expected = await citedPassageText();
    console.log(`[e2e] page view: ${citation} marks ${JSON.stringify(shown)}`);
    expect(shown).toBe(expected);
    expect(shown).toMatch(/inspected every nine weeks/);
    // A part of the page, not all of it.
    expect(shown).not.toMatch(/Berth fees/);
    // The marks lie over the drawn page (the text layer has the canvas's size).
    const [layer, canvas] = await Promise.all([
      view().locator('.pdf-text-layer').boundingBox(),
      view().locator('canvas').boundingBox(),
    ]);
    expect(Math.abs((layer?.width ?? 0) - (canvas?.width ?? 0))).toBeLessThan(2);
    const mark = await view().locator('mark.pdf-hit').first().boundingBox();
    expect(mark && canvas && mark.y >= canvas.y && mark.y + mark.height <= canvas.y + canvas.height).toBe(true);

    // Zoom: + makes the page larger, 0 fits it again; the marks follow.
    const before = (await view().locator('canvas').boundingBox())?.width ?? 0;
    await view().getByRole('button', { name: 'Zoom in' }).click();
    await expect
      .poll(async () => (await view().locator('canvas').boundingBox())?.width ?? 0, { timeout: 15_000 })
      .toBeGreaterThan(before);
    await view().locator('mark.pdf-hit').first().waitFor();
    expect(await marked()).toBe(shown);
    await page.keyboard.press('0');
    await expect.poll(() => view().getAttribute('data-zoom'), { timeout: 10_000 }).toBe('1');
    await expect
      .poll(async () => Math.round((await view().locator('canvas').boundingBox())?.width ?? 0), { timeout: 15_000 })
      .toBe(Math.round(before));
    // One page: "Next" is disabled and PageDown stays on it.
    expect(await view().getByRole('button', { name: 'Next ›' }).isDisabled()).toBe(true);
    await page.keyboard.press('PageDown');
    expect(await view().getAttribute('data-page')).toBe('1');
    await saveScreenshot(page, { path: 'test-results/page-view-desktop.png' });
    // Focus stays in the modal dialog, and Esc closes it.
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
    expect(pageErrors).toEqual([]);
  });

  it('marks a passage across a page break on both pages', async () => {
    await addPdf('glacier-notes.pdf', GLACIER);
    await ask('What peak flow did the meltwater gauge record on the ninth of August?');
    await openOnPage('file:glacier-notes.pdf');
    expect(await view().getAttribute('data-page')).toBe('1');
    expect(await view().getByTestId('pdf-where').innerText()).toMatch(/pages 1 and 2/);
    const first = await marked();
    const expected = await citedPassageText();
    await page.keyboard.press('PageDown');
    await expect.poll(() => view().getAttribute('data-page'), { timeout: 10_000 }).toBe('2');
    // Page 1's marks stay in the layer until page 2 is drawn: wait for the drawn page, not for any mark.
    await expect.poll(() => view().getAttribute('data-rendered'), { timeout: 30_000 }).toBe('2');
    await view().locator('mark.pdf-hit').first().waitFor({ timeout: 30_000 });
    const second = await marked();
    console.log(`[e2e] page view across pages: ${JSON.stringify(first)} | ${JSON.stringify(second)}`);
    expect(first).toMatch(/meltwater gauge/);
    expect(second).toMatch(/highest reading/);
    // The two pages' marks together are the cited passage (which may start earlier on page 1).
    expect(flat(`${first} ${second}`)).toBe(expected);
    await saveScreenshot(page, { path: 'test-results/page-view-page-2.png' });
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => view().getAttribute('data-page'), { timeout: 10_000 }).toBe('1');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });

    // On a phone the view fills the screen, the page fits its width and nothing overflows it.
    await page.setViewportSize({ width: 360, height: 740 });
    try {
      await openOnPage('file:glacier-notes.pdf');
      const canvas = await view().locator('canvas').boundingBox();
      expect(canvas && canvas.x >= 0 && canvas.x + canvas.width <= 360).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      expect(await marked()).toBe(first);
      // It opens fitted to the width of its box (not a thumbnail); zoom makes it larger inside the box.
      // The box's width for the page: inside its padding and its scrollbar gutter.
      const inner = await view()
        .locator('.pdf-scroller')
        .evaluate((el) => {
          const style = getComputedStyle(el);
          return el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        });
      expect(canvas!.width).toBeGreaterThan(inner * 0.9);
      await saveScreenshot(page, { path: 'test-results/page-view-phone.png' });
      await view().getByRole('button', { name: 'Zoom in' }).click();
      await expect.poll(() => view().getAttribute('data-zoom'), { timeout: 10_000 }).toBe('1.25');
      await expect
        .poll(async () => (await view().locator('canvas').boundingBox())?.width ?? 0, { timeout: 30_000 })
        .toBeGreaterThan(canvas!.width * 1.2);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await saveScreenshot(page, { path: 'test-results/page-view-phone-zoom.png' });
      await page.keyboard.press('Escape');
      await dialog().waitFor({ state: 'hidden' });
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    expect(pageErrors).toEqual([]);
  });

  it('works offline: pdf.js and its worker come from the service worker’s cache', async () => {
    await serviceWorkerControls(page);
    await context.setOffline(true);
    try {
      // A fresh page: nothing of pdf.js is in memory, every file must come from the cache.
      await page.reload();
      await appReady(page, 'attached');
      await ask('How often is each crane inspected?');
      await openOnPage('file:harbour-report.pdf');
      expect(await marked()).toMatch(/inspected every nine weeks/);
      await page.keyboard.press('Escape');
    } finally {
      await context.setOffline(false);
    }
  });

  const FILING = 'datasets/financebench-dev/docs/MGMRESORTS_2018_10K.pdf';
  it.skipIf(!existsSync(sharedPath(FILING)))(
    'a real filing: the cited page of MGM Resorts’ 10-K, screenshot for a person to check',
    async () => {
      await addFiles(page, [sharedPath(FILING)], { timeout: 400_000 });
      await ask(
        'Basing your judgments off of the balance sheet, what is the year end FY2018 amount of accounts payable for MGM Resorts?',
        300_000,
      );
      await openOnPage('file:MGMRESORTS_2018_10K.pdf');
      const shownPage = await view().getAttribute('data-page');
      const shown = await marked();
      const number = await view().getByTestId('pdf-page-number').innerText();
      console.log(
        `[e2e] filing page view: ${JSON.stringify(number)}; page ${shownPage}; marked ${JSON.stringify(shown.slice(0, 400))}`,
      );
      // A 10-K prints its own page numbers: the view names both ("Page 49 of 188 · printed 47").
      expect(number).toMatch(/^Page \d+ of 188 · printed \S+$/);
      expect(shown.length).toBeGreaterThan(20);
      await saveScreenshot(page, { path: 'test-results/page-view-filing.png' });
      await view().getByRole('button', { name: 'Zoom in' }).click();
      await view().locator('mark.pdf-hit').first().waitFor({ timeout: 30_000 });
      await saveScreenshot(page, { path: 'test-results/page-view-filing-zoom.png' });
    },
    900_000,
  );
});
