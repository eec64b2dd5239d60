/**
 * A claim written to order, through the UI (issue 18): five notes state a planted race winner in
 * their own words and nothing else; three reports name the true winner with the story's details.
 * At the default settings (several documents answer the question, so the cutoff keeps five: the
 * factoid floor), the Ask page must answer with the true winner, never the planted one, say in the
 * answer card which documents it set aside as one claim written to order and why, and say in the
 * evidence trail why the cut kept five. The texts are the unit tests' own
 * (test/fixtures/marathon.ts), added as text files.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MARATHON_NOISE, MARATHON_PLANTED, MARATHON_QUESTION, MARATHON_REPORTS } from '../fixtures/marathon';
import { addFiles, askQuestion, openAppPage, type AppPage } from './built-app';
import { saveScreenshot } from './screenshot';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

const NOTES = [...MARATHON_PLANTED, ...MARATHON_REPORTS, ...MARATHON_NOISE].map((text, i) => ({
  name: `race-note-${String(i).padStart(2, '0')}.txt`,
  mimeType: 'text/plain',
  buffer: Buffer.from(`Race note ${i}\n\n${text}\n`, 'utf8'),
}));

describe('a claim written to order in the app: set aside, and said so', () => {
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

  it.skipIf(ctx.skip !== null)('answers with the reported winner and names the documents it set aside', async () => {
    await addFiles(page, NOTES);
    await askQuestion(page, MARATHON_QUESTION);
    await saveScreenshot(page, { path: 'test-results/coordination-set-aside.png', fullPage: true });
    const outcome = await page.getByTestId('ask-result').getAttribute('data-outcome');
    const answer = await page.getByTestId('answer-text').innerText();
    const setAside = await page.getByTestId('set-aside').innerText();
    console.log(
      `[e2e] coordination: outcome ${outcome}; answer ${JSON.stringify(answer)}; ${JSON.stringify(setAside)}`,
    );
    expect(app?.pageErrors).toEqual([]);
    expect(await page.getByTestId('cutoff-floor').innerText()).toMatch(
      /Kept at least 5: \d+ documents among the first \d+ passages state an answer/,
    );
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
