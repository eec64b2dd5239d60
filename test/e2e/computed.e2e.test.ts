/**
 * Computed answers with the work shown (issue 27), in Chromium through the built app: over a
 * shared 10-K (Kraft Heinz 2019, 140 pages), a growth-rate question and a ratio the question
 * defines itself are answered as calculations — the formula, the result, every operand quoted with
 * its cell, page and citation — and "Open in document" on an operand shows the cited passage with
 * that operand's row label and value marked.
 *
 * Reads the filing from ../shared at run time (`describeShared`). Screenshots of both answers and
 * of the opened operand go to test-results/.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { describeShared, sharedPath } from '../../src/node/shared-data';
import { addFiles, askQuestion, openAppPage } from './built-app';
import { saveScreenshot } from './screenshot';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

const FILING = 'datasets/financebench-dev/docs/KRAFTHEINZ_2019_10K.pdf';

const QUESTIONS = [
  {
    name: 'growth-rate',
    question: 'What was the growth rate of net sales from 2018 to 2019?',
    // Net sales 24,977 (2019) against 26,268 (2018), in millions: −4.91 %.
    result: /^[−-]4\.91\s?%$/u,
  },
  {
    name: 'defined-ratio',
    question:
      "What is Kraft Heinz's FY2019 inventory turnover ratio? Inventory turnover ratio is defined as: (FY2019 COGS) / (average inventory between FY2018 and FY2019). Round your answer to two decimal places.",
    // Cost of products sold 16,830 over the mean of inventories 2,667 and 2,721: 6.25.
    result: /^6\.25$/u,
  },
] as const;

describeShared('computed answers over a filing, with the work shown', [FILING], () => {
  let browser: Browser;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    if (ctx.skip) return;
    ({ browser, page, pageErrors } = await openAppPage(ctx.baseUrl));
    await addFiles(page, [sharedPath(FILING)], { timeout: 300_000 });
  }, 400_000);

  afterAll(async () => {
    await browser?.close();
  });

  it.skipIf(ctx.skip !== null).each(QUESTIONS)(
    '$name: answered as a calculation, every operand cited, the operand marked in its passage',
    async ({ name, question, result }) => {
      await askQuestion(page, question);
      const work = page.getByTestId('computed-work');
      await work.waitFor();
      await saveScreenshot(page, { path: `test-results/computed-${name}.png`, fullPage: true });
      await saveScreenshot(page.getByTestId('answer'), { path: `test-results/computed-${name}-answer.png` });
      expect(await page.getByTestId('ask-result').getAttribute('data-outcome')).toBe('supported');
      expect(await work.getAttribute('data-status')).toBe('complete');
      expect((await work.getByTestId('computed-result').innerText()).trim()).toMatch(result);
      // It reads first as its result, cited; the work below holds the formula and the operands.
      const headline = page.getByTestId('answer-text');
      expect((await headline.innerText()).trim()).toMatch(new RegExp(result.source.replace(/\$$/u, ''), 'u'));
      expect(await headline.locator('button.cite').count()).toBeGreaterThan(0);

      // Every operand: a value, its page and citation, a way to open it.
      const operands = work.getByTestId('computed-operand');
      const n = await operands.count();
      expect(n).toBeGreaterThanOrEqual(2);
      for (let i = 0; i < n; i++) {
        const row = operands.nth(i);
        expect(await row.locator('td').first().innerText()).toMatch(/\d/u);
        expect(await row.locator('td').nth(1).innerText()).toMatch(/p\. \d+ \[S\d+\]/u);
      }

      // "Open in document" on the first operand: its passage, with the row label marked.
      const label = (await operands.first().locator('th').innerText()).trim();
      await operands.first().getByTestId('computed-open').click();
      const dialog = page.getByTestId('passage-dialog');
      await dialog.waitFor();
      const marked = await dialog.locator('mark').allInnerTexts();
      await saveScreenshot(page, { path: `test-results/computed-${name}-operand.png` });
      console.log(`[e2e] computed ${name}: operand "${label}", marked ${JSON.stringify(marked.slice(0, 4))}`);
      expect(marked.join(' ')).toContain(label);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect(pageErrors).toEqual([]);
    },
    300_000,
  );
});
