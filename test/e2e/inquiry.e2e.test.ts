/**
 * Premise-directed inquiry through the UI (issue 15): a library where the first retrieval finds
 * a memo and two look-alike trade-blog pages (a false answer), and the records that settle the
 * question — an executed agreement that defers the currency to a schedule, and the schedule — are
 * reachable only by following the premise. The Ask page must answer from those records, cited,
 * say that a follow-up search settled it, and keep what the first passages gave behind a
 * disclosure. The world is the unit tests' own (src/core/inquiry/testing.ts), added as text files.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CONTRACT_CORPUS, CONTRACT_QUESTION } from '../../src/core/inquiry/testing';
import { addFiles, askQuestion, openAppPage, type AppPage } from './built-app';
import { saveScreenshot } from './screenshot';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

describe('inquiry in the app: a follow-up search settles the question', () => {
  let app: AppPage | undefined;
  let page: Page;

  beforeAll(async () => {
    if (ctx.skip) return;
    app = await openAppPage(ctx.baseUrl);
    page = app.page;
  });

  afterAll(async () => {
    await app?.browser.close();
  });

  it.skipIf(ctx.skip !== null)('answers from the binding records, cited, and says how it got there', async () => {
    await addFiles(
      page,
      CONTRACT_CORPUS.map((r) => ({
        name: `${r.id}.txt`,
        mimeType: 'text/plain',
        buffer: Buffer.from(`${r.title}\n\n${r.text}\n`, 'utf8'),
      })),
    );
    await askQuestion(page, CONTRACT_QUESTION);
    await saveScreenshot(page, { path: 'test-results/inquiry-settled.png', fullPage: true });
    const outcome = await page.getByTestId('ask-result').getAttribute('data-outcome');
    const note = page.getByTestId('settled-by-inquiry');
    const answer = await page.getByTestId('answer-text').innerText();
    console.log(`[e2e] inquiry: outcome ${outcome}; answer ${JSON.stringify(answer)}`);
    expect(app?.pageErrors).toEqual([]);
    expect(outcome).toBe('supported');
    expect(await note.innerText()).toMatch(/Settled by .*follow-up search/);
    expect(answer).toMatch(/net 30 days/);
    expect(answer).toMatch(/euros/);
    expect(answer).not.toMatch(/90 days|dollars/);
    // Each follow-up search is shown as the words it searched, labelled so, never as a sentence.
    const trail = page.locator('.trail-card.inquiry');
    expect(await trail.innerText()).toMatch(/Searched:/);
    expect(await trail.innerText()).not.toMatch(/Query:/);
    const words = await trail.getByTestId('searched-words').first().locator('code').allInnerTexts();
    console.log(`[e2e] inquiry: first follow-up searched ${JSON.stringify(words)}`);
    expect(words.length).toBeGreaterThan(0);
    await saveScreenshot(trail, { path: 'test-results/inquiry-trail.png' });
    // Title lines head the records; they are not sentences of the answer.
    expect(answer).not.toMatch(/^Agreement\b/);
    // The first pass is kept behind a disclosure, and each citation opens its record.
    await note.locator('summary').click();
    expect(await note.innerText()).toMatch(/What the first passages gave/);
    const cites = await page
      .getByTestId('answer-text')
      .locator('button.cite')
      .evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-citation') ?? ''))]);
    expect(cites.length).toBeGreaterThanOrEqual(2);
    const dialog = page.getByTestId('passage-dialog');
    const opened: string[] = [];
    for (const c of cites) {
      await page.getByTestId('answer-text').locator(`button.cite[data-citation="${c}"]`).first().click();
      await dialog.locator('.passage-cited').waitFor({ timeout: 15_000 });
      opened.push(await dialog.locator('.passage-cited').innerText());
      await page.keyboard.press('Escape');
    }
    expect(opened.some((t) => /MA-2231/.test(t) && /net 30 days/.test(t))).toBe(true);
    expect(opened.some((t) => /Schedule 4/.test(t) && /euros/.test(t))).toBe(true);
  });
});
