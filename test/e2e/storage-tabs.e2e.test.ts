/**
 * Two tabs of the app on one library, in a real Chromium (two pages of one browser context, so
 * one IndexedDB): a document added in one tab is listed in the other, which says the library
 * changed there; two tabs adding files at the same time leave one whole library with both
 * (writes take a Web Lock); a newer version opening the database (`versionchange`) is not blocked
 * by the open tabs, and both tell the user to reload. Every check of "whole" reads IndexedDB.
 */
import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser';
import { openApp, readStored, type Stored } from './storage-helpers';
import { saveScreenshot } from './screenshot';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

function markdown(title: string, words: string): Buffer {
  const para = Array.from({ length: 40 }, (_, i) => `${words} ${i}`).join(' ');
  return Buffer.from(`# ${title}\n\n## One\n\n${para}.\n\n## Two\n\n${para} again.\n`, 'utf8');
}

function addFile(page: Page, name: string, buffer: Buffer): Promise<void> {
  return page.getByLabel('Add documents').setInputFiles({ name, mimeType: 'text/markdown', buffer });
}

function expectWhole(s: Stored): void {
  expect(s.orphans).toBe(0);
  expect(s.orphanVectors).toBe(0);
  for (const d of s.docs) expect(d.chunks, `chunks of ${d.id}`).toBe(d.chunkCount);
}

const listed = (page: Page): Promise<number> => page.getByTestId('library').getByRole('listitem').count();

describe.skipIf(ctx.skip !== null)('two tabs on one library (Chromium)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
    await mkdir('test-results', { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('a change in one tab shows in the other; simultaneous adds stay whole; an upgrade tells both tabs to reload', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 1400 } });
    const pageErrors: string[] = [];
    const a = await context.newPage();
    a.on('pageerror', (e) => pageErrors.push(`A: ${e.message}`));
    await openApp(a, ctx.baseUrl);
    const b = await context.newPage();
    b.on('pageerror', (e) => pageErrors.push(`B: ${e.message}`));
    await openApp(b, ctx.baseUrl);
    const before = await readStored(a);
    const n = before.docs.length;
    expect(n).toBeGreaterThanOrEqual(4);
    expect(await listed(b)).toBe(n);

    // A adds a document: B lists it and says where it came from.
    await addFile(a, 'from-tab-a.md', markdown('From tab A', 'quokka'));
    await a
      .locator('ul.jobs > li[data-file-name="from-tab-a.md"][data-job-status="done"]')
      .waitFor({ timeout: 120_000 });
    await expect.poll(() => listed(b), { timeout: 30_000 }).toBe(n + 1);
    expect(
      await b
        .getByRole('status')
        .filter({ hasText: /changed in another tab/ })
        .count(),
    ).toBe(1);
    // B finds it by its words (its engine read the library again, not only the list).
    const box = b.getByRole('searchbox', { name: /search/i });
    await box.fill('quokka');
    await box.press('Enter');
    await b.getByTestId('result').first().waitFor({ timeout: 60_000 });
    expect(await b.getByTestId('result').first().innerText()).toMatch(/From tab A/);

    // Both tabs add a file at once: one writes at a time, both end up stored whole, both tabs list both.
    await Promise.all([
      addFile(a, 'second-from-a.md', markdown('Second from A', 'wombat')),
      addFile(b, 'from-tab-b.md', markdown('From tab B', 'numbat')),
    ]);
    await a
      .locator('ul.jobs > li[data-file-name="second-from-a.md"][data-job-status="done"]')
      .waitFor({ timeout: 120_000 });
    await b
      .locator('ul.jobs > li[data-file-name="from-tab-b.md"][data-job-status="done"]')
      .waitFor({ timeout: 120_000 });
    const both = await readStored(a);
    expectWhole(both);
    expect(both.docs).toHaveLength(n + 3);
    expect(both.queue).toEqual([]);
    await expect.poll(() => listed(a), { timeout: 30_000 }).toBe(n + 3);
    await expect.poll(() => listed(b), { timeout: 30_000 }).toBe(n + 3);

    // A newer Evident opens the database at the next version (a page of the origin that is not the app).
    const newer = await context.newPage();
    await newer.goto(new URL('favicon.svg', ctx.baseUrl).href);
    const upgraded = await newer.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const probe = indexedDB.open('evident');
          probe.onsuccess = () => {
            const version = probe.result.version;
            probe.result.close();
            const r = indexedDB.open('evident', version + 1);
            r.onblocked = () => resolve('blocked');
            r.onsuccess = () => {
              r.result.close();
              resolve(`upgraded to ${version + 1}`);
            };
            r.onerror = () => resolve(`error ${String(r.error)}`);
          };
        }),
    );
    expect(upgraded).toMatch(/^upgraded to \d+$/);
    for (const page of [a, b]) {
      const told = page.getByRole('alert').filter({ hasText: /Evident was updated in another tab/ });
      await told.waitFor({ timeout: 30_000 });
      expect(await told.innerText()).toMatch(/reload this page \(nothing was changed\)/);
    }
    await saveScreenshot(a, { path: 'test-results/storage-tabs-upgrade.png', fullPage: true });
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
