/**
 * Readable sources (issue 28): a table in a document is shown as a table — in a search result and
 * in the passage dialog — with its header once and no Markdown pipes, and at 360 px it scrolls
 * inside its own box while the page does not scroll sideways. Screenshots at desktop and phone
 * width go to test-results/.
 */
import { mkdir } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from './browser';
import { addFiles, appReady } from './built-app';
import { saveScreenshot } from './screenshot';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

const RATES = [
  '# Per diem rates 2025',
  '',
  '## Daily allowances',
  '',
  'Allowances per day of travel, in euros.',
  '',
  '| City | Lodging | Meals and incidentals | Total per diem allowance | Local transport | Airport transfer | Currency |',
  '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
  ...['Amsterdam', 'Berlin', 'Copenhagen', 'Dublin', 'Edinburgh', 'Florence'].map(
    (city, i) => `| ${city} | ${180 + 10 * i} | ${60 + i} | ${240 + 11 * i} | ${12 + i}.50 | ${45 + i}.00 | EUR |`,
  ),
  '',
].join('\n');

describe('tables in sources', () => {
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (ctx.skip) return;
    await mkdir('test-results', { recursive: true });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(ctx.baseUrl);
    await appReady(page);
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** The tables inside `where`: each with its header row once, the rows whole, no pipes anywhere in the text. */
  async function readableTable(where: Locator): Promise<void> {
    const tables = where.locator('table.chunk-table');
    await tables.first().waitFor({ timeout: 30_000 });
    const heads: string[] = [];
    const rows: string[] = [];
    for (const table of await tables.all()) {
      const head = await table.locator('thead tr').allInnerTexts();
      expect(head, 'one header row per table').toHaveLength(1);
      heads.push(head[0] as string);
      rows.push(...(await table.locator('tbody tr').allInnerTexts()));
    }
    console.log(`[e2e] tables: ${heads.length} table(s); rows:\n  ${rows.join('\n  ')}`);
    for (const head of heads) {
      expect(head).toMatch(/City\s+Lodging\s+Meals and incidentals\s+Total per diem allowance\s+Local transport/);
    }
    expect(rows.some((r) => /Copenhagen\s+200\s+62\s+262\s+14\.50\s+47\.00\s+EUR/.test(r))).toBe(true);
    expect(await where.innerText()).not.toContain('|');
    expect(await where.innerText()).not.toMatch(/---/);
  }

  it.skipIf(ctx.skip !== null)(
    'a result and the passage dialog show the table as a table; at 360 px it scrolls in its own box',
    async () => {
      await addFiles(page, [{ name: 'per-diem.md', mimeType: 'text/markdown', buffer: Buffer.from(RATES) }]);
      await page.getByLabel('Search your documents').fill('Copenhagen lodging per diem');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      const result = page
        .getByTestId('results')
        .locator('li[data-doc-id="file:per-diem.md"]', { hasText: 'Copenhagen' })
        .first();
      await result.waitFor({ timeout: 60_000 });
      await readableTable(result.locator('.result-text'));
      await result.scrollIntoViewIfNeeded();
      await saveScreenshot(page, { path: 'test-results/table-result-desktop.png' });

      await page
        .getByTestId('library')
        .locator('li[data-doc-id="file:per-diem.md"]')
        .getByRole('button', { name: /^Preview/ })
        .click();
      const dialog = page.getByTestId('passage-dialog');
      await readableTable(dialog.locator('.dialog-body'));
      await saveScreenshot(page, { path: 'test-results/table-passage-desktop.png' });

      await page.setViewportSize({ width: 360, height: 740 });
      const box = dialog.locator('.chunk-table-box').first();
      const widths = await box.evaluate((el) => ({ box: el.clientWidth, table: el.scrollWidth }));
      expect(widths.table, 'the table is wider than the phone').toBeGreaterThan(widths.box);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        await page.evaluate(() => document.documentElement.clientWidth),
      );
      await saveScreenshot(page, { path: 'test-results/table-passage-phone.png' });
      await page.keyboard.press('Escape');
      expect(pageErrors).toEqual([]);
    },
  );
});
