/**
 * The phone and the first screen, in Chromium on the production build (issue 28):
 * - "Add files" with its drop zone and button is above the fold at 1280×800 and at 360×740;
 * - the runtime's developer details (WebGPU adapter messages, threads) are not on the Library
 *   page but in Settings → Device, under a "Details" disclosure;
 * - at 360 px no page scrolls sideways (the document element has no horizontal scrollbar): every
 *   tab, with a search result on the Library, an answer with its sources and evidence trail on
 *   Ask, and a cited passage open; the four tabs fit the width.
 *
 * Where a page is too wide, the elements that stick out are named in the failure. Screenshots of
 * every tab at 360 px and of the first screens go to test-results/.
 */
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_QUESTION } from '../../src/ui/demo';
import { launchChromium } from './browser';
import { appReady, askQuestion } from './built-app';
import { saveScreenshot } from './screenshot';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 740 };
const TABS = ['Library', 'Ask', 'Settings', 'Benchmark'] as const;

/** The page's horizontal overflow: the document's scroll width, and the elements past the right edge. */
function overflow(page: Page) {
  return page.evaluate(() => {
    const root = document.documentElement;
    const width = root.clientWidth;
    const wide: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right <= width + 0.5) continue;
      // Inside a box that scrolls or clips on its own: it does not widen the page.
      let clipped = false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (
          (o === 'auto' || o === 'scroll' || o === 'hidden' || o === 'clip') &&
          p.getBoundingClientRect().right <= width + 0.5
        ) {
          clipped = true;
          break;
        }
      }
      if (clipped) continue;
      const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
      wide.push(`${name} → ${Math.round(r.right)} px`);
    }
    return { scrollWidth: root.scrollWidth, clientWidth: width, wide: wide.slice(0, 12) };
  });
}

/** The element's box lies within the viewport as first shown (no scrolling). */
async function aboveTheFold(page: Page, selector: string): Promise<{ top: number; bottom: number }> {
  const box = await page.locator(selector).first().boundingBox();
  expect(box, selector).not.toBeNull();
  const viewport = page.viewportSize()!;
  expect(box!.y, selector).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${selector} ends within the first ${viewport.height} px`).toBeLessThanOrEqual(
    viewport.height,
  );
  return { top: Math.round(box!.y), bottom: Math.round(box!.y + box!.height) };
}

describe('phone width and the first screen', () => {
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (ctx.skip) return;
    await mkdir('test-results', { recursive: true });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(ctx.baseUrl);
    await appReady(page);
  });

  afterAll(async () => {
    await browser?.close();
  });

  const tab = (name: string) => page.getByRole('tab', { name });

  it.skipIf(ctx.skip !== null)(
    '"Add files" is above the fold at 1280×800 and 360×740; runtime details live in Settings → Device → Details',
    async () => {
      for (const viewport of [DESKTOP, PHONE]) {
        await page.setViewportSize(viewport);
        await tab('Library').click();
        await page.evaluate(() => window.scrollTo(0, 0));
        const heading = await aboveTheFold(page, '.add-documents h2');
        const drop = await aboveTheFold(page, '[data-testid="dropzone"]');
        console.log(
          `[e2e] first screen ${viewport.width}×${viewport.height}: "Add files" at ${heading.top}–${heading.bottom} px, drop zone ${drop.top}–${drop.bottom} px`,
        );
        await saveScreenshot(page, { path: `test-results/first-screen-${viewport.width}.png` });
      }
      await page.setViewportSize(DESKTOP);
      // No developer details on the Library page; they are one disclosure away in Settings.
      const libraryText = await page.locator('#panel-library').innerText();
      expect(libraryText).not.toMatch(/requestAdapter|--enable-unsafe-webgpu|cross-origin isolated|SIMD/i);
      await tab('Settings').click();
      const device = page.getByTestId('device');
      const details = device.locator('details.runtime-details');
      expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
      expect(await device.getByTestId('device-summary').innerText()).toMatch(/runs in this tab on/);
      await details.locator('summary', { hasText: 'Details' }).click();
      expect(await device.getByTestId('device-backend').isVisible()).toBe(true);
      expect(await device.innerText()).toMatch(/Why this backend/);
      await saveScreenshot(page, { path: 'test-results/settings-device-details-desktop.png' });
      expect(pageErrors).toEqual([]);
    },
  );

  it.skipIf(ctx.skip !== null)(
    'at 360 px no page scrolls sideways: every tab, with a result, an answer, its trail and an open passage; tabs fit',
    async () => {
      await page.setViewportSize(PHONE);
      // A search result on the Library page.
      await tab('Library').click();
      await page.getByLabel('Search your documents').fill('home office allowance');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.getByTestId('results').getByTestId('result').first().waitFor({ timeout: 60_000 });
      // An answer on the Ask page, its trail and candidates opened where they can be.
      await askQuestion(page, DEMO_QUESTION);
      // The trail says where the models ran only behind a disclosure.
      expect(await page.locator('#panel-ask').innerText()).not.toMatch(/requestAdapter|--enable-unsafe-webgpu/);
      // Every disclosure of the answer open (the trail, the candidates): the widest the page gets.
      await page.evaluate(() => {
        for (const d of document.querySelectorAll<HTMLDetailsElement>('#panel-ask details')) d.open = true;
      });

      const tablist = await page.getByRole('tablist', { name: 'Pages' }).evaluate((el) => ({
        scroll: el.scrollWidth,
        client: el.clientWidth,
        tabs: [...el.querySelectorAll('[role="tab"]')].map((t) => {
          const r = t.getBoundingClientRect();
          return { left: r.left, right: r.right };
        }),
      }));
      expect(tablist.scroll, 'the tab row does not scroll').toBeLessThanOrEqual(tablist.client);
      expect(tablist.tabs.every((t) => t.left >= 0 && t.right <= PHONE.width)).toBe(true);

      const report: string[] = [];
      for (const name of TABS) {
        await tab(name).click();
        if (name === 'Settings') {
          await page.evaluate(() => {
            for (const d of document.querySelectorAll<HTMLDetailsElement>('#panel-settings details')) d.open = true;
          });
        }
        const o = await overflow(page);
        report.push(`${name}: ${o.scrollWidth}/${o.clientWidth}${o.wide.length ? ` (${o.wide.join('; ')})` : ''}`);
        await saveScreenshot(page, { path: `test-results/phone-${name.toLowerCase()}.png`, fullPage: true });
        // The first screens of the page, one by one, for a person to look at.
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        for (let y = 0, i = 0; y < Math.min(height, 4 * PHONE.height); y += PHONE.height, i++) {
          await page.evaluate((to) => window.scrollTo(0, to), y);
          await saveScreenshot(page, { path: `test-results/phone-${name.toLowerCase()}-${i}.png` });
        }
        await page.evaluate(() => window.scrollTo(0, 0));
      }
      // A cited passage open, from the answer.
      await tab('Ask').click();
      await page.getByTestId('answer-text').locator('button.cite').first().click();
      const dialog = page.getByTestId('passage-dialog');
      await dialog.locator('.passage-cited, .pdf-page-view').first().waitFor({ timeout: 30_000 });
      const o = await overflow(page);
      report.push(`passage: ${o.scrollWidth}/${o.clientWidth}${o.wide.length ? ` (${o.wide.join('; ')})` : ''}`);
      await saveScreenshot(page, { path: 'test-results/phone-passage.png' });
      console.log(`[e2e] 360 px, document scroll width / client width per page:\n  ${report.join('\n  ')}`);
      for (const line of report) {
        const [, scroll, client] = /: (\d+)\/(\d+)/.exec(line) ?? [];
        expect(Number(scroll), line).toBeLessThanOrEqual(Number(client));
      }
      expect(pageErrors).toEqual([]);
    },
  );
});
