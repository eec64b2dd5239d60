/**
 * Fuzzed files in the Chromium worker (issue 17, part 1, the browser sample): 20 seeded mutations
 * of the project's fixtures (`src/cli/fuzz.ts`: byte flips, truncations, ZIP entries corrupted or
 * resized, PDF lengths and xref offsets altered, nested HTML/DOCX, a 1-byte file) added through the
 * app's file input in one batch. Each must end added or refused with a plain message (the
 * fuzzer's own test of a message), the worker must survive (no page error, the library still
 * answers a search), and every file reported added is in the library list.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fixtureSeeds, makeCase, plainMessage } from '../../src/cli/fuzz';
import { launchChromium } from './browser';
import { appReady } from './built-app';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

const CASES = 20;
const SEED = 5;

describe.skipIf(ctx.skip !== null)('fuzzed files through the app (Chromium worker)', () => {
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(ctx.baseUrl);
    await appReady(page);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it(`ends each of ${CASES} fuzzed files added or refused in plain words, with the library intact`, async () => {
    const seeds = await fixtureSeeds();
    const files = [];
    for (let i = 0; i < CASES; i++) {
      const c = await makeCase(seeds, SEED, i);
      files.push({ name: `fuzz-${i}-${c.fileName}`, mimeType: '', buffer: Buffer.from(c.bytes) });
    }
    await page.getByRole('tab', { name: 'Library' }).click();
    await page.getByLabel('Add documents').setInputFiles(files);
    const job = (name: string) => page.locator(`li.job[data-file-name="${name}"]`);
    const outcomes: { name: string; status: string | null; message: string }[] = [];
    for (const f of files) {
      await job(f.name)
        .and(page.locator('[data-job-status="done"], [data-job-status="failed"], [data-job-status="password"]'))
        .waitFor({ timeout: 120_000 });
      const status = await job(f.name).getAttribute('data-job-status');
      const message = status === 'done' ? '' : await job(f.name).locator('[role="alert"]').innerText();
      outcomes.push({ name: f.name, status, message });
    }
    const unclear = outcomes.filter(
      (o) => o.status !== 'done' && !plainMessage(o.message.replace(/^“[^”]*” was not added: /, '')),
    );
    expect(unclear).toEqual([]);
    const added = outcomes.filter((o) => o.status === 'done').map((o) => `file:${o.name}`);
    expect(added.length).toBeGreaterThan(0);
    expect(outcomes.some((o) => o.status !== 'done')).toBe(true);
    const listed = await page
      .getByTestId('library')
      .locator('li[data-doc-id]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-doc-id')));
    for (const id of added) expect(listed).toContain(id);
    expect(pageErrors).toEqual([]);
    console.log(
      `[fuzz e2e] ${outcomes.length} files: ${added.length} added, ${outcomes.length - added.length} refused (${[
        ...new Set(outcomes.filter((o) => o.status !== 'done').map((o) => o.status)),
      ].join(', ')})`,
    );
  });
});
