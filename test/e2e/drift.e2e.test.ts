/**
 * Answers that do not drift (issue 28): the demo question asked in the fresh demo library, then
 * again after two shared filings of unrelated companies are added (3M's and MGM Resorts' 2022
 * 10-Ks), keeps its outcome and both of its parts — the three remote days a week and the EUR 600
 * allowance, from the current policy — and the second answer cites no passage of a filing.
 *
 * Reads the filings from ../shared at run time (`describeShared`). Screenshots of both answers at
 * desktop width and of the second at 360 px go to test-results/.
 */
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { describeShared, sharedPath } from '../../src/node/shared-data';
import { DEMO_QUESTION } from '../../src/ui/demo';
import { launchChromium } from './browser';
import { addFiles, appReady, askQuestion } from './built-app';
import { saveScreenshot } from './screenshot';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

const FILINGS = [
  'datasets/financebench-dev/docs/3M_2022_10K.pdf',
  'datasets/financebench-dev/docs/MGMRESORTS_2022_10K.pdf',
];

describeShared('the demo answer after two unrelated filings are added', FILINGS, () => {
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

  /** The outcome, the answer's text and the documents its sources come from. */
  async function answer(): Promise<{ outcome: string | null; text: string; sources: string[] }> {
    await askQuestion(page, DEMO_QUESTION);
    return {
      outcome: await page.getByTestId('ask-result').getAttribute('data-outcome'),
      text: await page.getByTestId('answer-text').innerText(),
      sources: await page
        .getByTestId('sources')
        .locator('li.source')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-doc-id') ?? e.textContent ?? '')),
    };
  }

  it.skipIf(ctx.skip !== null)(
    'keeps the supported outcome and both parts, from the current policy',
    async () => {
      const before = await answer();
      await saveScreenshot(page, { path: 'test-results/drift-before-desktop.png', fullPage: true });
      await addFiles(
        page,
        FILINGS.map((f) => sharedPath(f)),
        { timeout: 300_000 },
      );
      const after = await answer();
      await saveScreenshot(page, { path: 'test-results/drift-after-desktop.png', fullPage: true });
      await page.setViewportSize({ width: 360, height: 740 });
      await saveScreenshot(page, { path: 'test-results/drift-after-phone.png' });
      console.log(`[e2e] drift: before ${before.outcome} ${JSON.stringify(before.text)}`);
      console.log(
        `[e2e] drift: after ${after.outcome} ${JSON.stringify(after.text)}; sources ${after.sources.join(', ')}`,
      );

      expect(before.outcome).toBe('supported');
      expect(before.text).toMatch(/three days per week/);
      expect(before.text).toMatch(/EUR 600/);
      expect(after.outcome).toBe(before.outcome);
      expect(after.text).toMatch(/three days per week/);
      expect(after.text).toMatch(/EUR 600/);
      expect(after.sources.join(' ')).not.toMatch(/10K|10-K|3M|MGM/);
      // The filings' passages the search found leave at the pool (past its size) or at the subject
      // stage (the question names neither company): none reaches the cutoff.
      const filingStages = await page
        .getByTestId('candidates')
        .locator('tr[data-doc-id^="file:"]')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-stage')));
      console.log(
        `[e2e] drift: filing candidates ${filingStages.length}, stages ${[...new Set(filingStages)].join(', ')}`,
      );
      expect(filingStages.length).toBeGreaterThan(0);
      expect(filingStages.every((stage) => stage === 'pool' || stage === 'subject')).toBe(true);
      expect(pageErrors).toEqual([]);
    },
    600_000,
  );
});
