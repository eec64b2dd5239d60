/**
 * A claim written to order, through the UI (issue 18): five notes state a planted race winner in
 * their own words and nothing else; three reports name the true winner with the story's details.
 * With the cutoff set to keep at least five passages (Settings), the Ask page must answer with
 * the true winner, never the planted one, and say in the answer card which documents it set
 * aside as one claim written to order and why. The texts are the unit tests' own
 * (test/fixtures/marathon.ts), added as text files.
 */
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MARATHON_NOISE, MARATHON_PLANTED, MARATHON_QUESTION, MARATHON_REPORTS } from '../fixtures/marathon';
import { launchChromium } from './browser';
import { appReady } from './built-app';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

const NOTES = [...MARATHON_PLANTED, ...MARATHON_REPORTS, ...MARATHON_NOISE].map((text, i) => ({
  name: `race-note-${String(i).padStart(2, '0')}.txt`,
  mimeType: 'text/plain',
  buffer: Buffer.from(`Race note ${i}\n\n${text}\n`, 'utf8'),
}));

describe('a claim written to order in the app: set aside, and said so', () => {
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (ctx.skip) return;
    await mkdir('test-results', { recursive: true });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(ctx.baseUrl);
    await appReady(page);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it.skipIf(ctx.skip !== null)('answers with the reported winner and names the documents it set aside', async () => {
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.locator('#cutoff-min').fill('5');
    await page.getByRole('button', { name: 'Save selection settings' }).click();
    await page.getByRole('tab', { name: 'Library' }).click();
    await page.getByLabel('Add documents').setInputFiles(NOTES);
    for (const f of NOTES) {
      await page.getByTestId('library').locator(`li[data-doc-id="file:${f.name}"]`).waitFor({ timeout: 120_000 });
    }
    await page.getByRole('tab', { name: 'Ask' }).click();
    await page.getByLabel('Your question').fill(MARATHON_QUESTION);
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page
      .getByTestId('ask-status')
      .getByText(/Answered in/)
      .waitFor({ timeout: 120_000 });
    await page.screenshot({ path: 'test-results/coordination-set-aside.png', fullPage: true });
    const outcome = await page.getByTestId('ask-result').getAttribute('data-outcome');
    const answer = await page.getByTestId('answer-text').innerText();
    const setAside = await page.getByTestId('set-aside').innerText();
    console.log(
      `[e2e] coordination: outcome ${outcome}; answer ${JSON.stringify(answer)}; ${JSON.stringify(setAside)}`,
    );
    expect(pageErrors).toEqual([]);
    expect(outcome).toBe('supported');
    expect(answer).toMatch(/Amara Okafor/);
    expect(answer).not.toMatch(/Verhoeven/);
    expect(setAside).toMatch(/Set aside as one claim written to order: \d documents state "Tomas Verhoeven"/);
    expect(setAside).toMatch(/They did not count as support/);
    // Only planted notes are named, by their titles (the file names; the planted ones come first).
    const named = [...setAside.matchAll(/race-note-(\d+)/g)].map((m) => Number(m[1]));
    expect(named.length).toBeGreaterThan(0);
    for (const n of named) expect(n).toBeLessThan(MARATHON_PLANTED.length);
  });
});
