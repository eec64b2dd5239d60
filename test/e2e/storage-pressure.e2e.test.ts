/**
 * Storage pressure in a real Chromium against the production build: the browser did not grant
 * persistent storage, and the site's IndexedDB is cleared between two visits (CDP
 * `Storage.clearDataForOrigin`, as eviction does) — the next visit says the library is gone, how
 * big it was, and how to restore a backup, instead of opening as a new library; a library of
 * which one document was lost says how many are missing.
 */
import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser';
import { openApp, readStored } from './storage-helpers';
import { saveScreenshot } from './screenshot';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

/** The page's library marker (src/ui/library-marker.ts). */
function marker(page: Page): Promise<{ documents: number; chunks: number } | null> {
  return page.evaluate(() => {
    const raw = localStorage.getItem('evident.library-marker');
    return raw === null ? null : (JSON.parse(raw) as { documents: number; chunks: number });
  });
}

/** Deletes one document's record, chunks and vectors straight from IndexedDB (what a partial loss leaves). */
function loseDocument(page: Page, docId: string): Promise<void> {
  return page.evaluate(async (id) => {
    const db = await new Promise<IDBDatabase>((res, rej) => {
      const r = indexedDB.open('evident');
      r.onsuccess = () => res(r.result);
      r.onerror = () => rej(r.error);
    });
    const tx = db.transaction(['documents', 'chunkSets'], 'readwrite');
    tx.objectStore('documents').delete(id);
    tx.objectStore('chunkSets').delete(id);
    await new Promise<void>((res, rej) => {
      tx.oncomplete = () => res();
      tx.onerror = () => rej(tx.error);
    });
    db.close();
  }, docId);
}

describe.skipIf(ctx.skip !== null)('storage pressure: a library cleared between visits (Chromium)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
    await mkdir('test-results', { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('an evicted library is said to be gone with a restore hint; a partly lost one says how many are missing', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 1400 } });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const origin = new URL(ctx.baseUrl).origin;
    await openApp(page, ctx.baseUrl);
    const before = await readStored(page);
    expect(before.docs.length).toBeGreaterThanOrEqual(4);
    await expect.poll(() => marker(page), { timeout: 10_000 }).toMatchObject({ documents: before.docs.length });
    // Persistence was not granted: the page says the browser may clear the library.
    expect(await page.evaluate(() => navigator.storage.persisted())).toBe(false);
    await expect
      .poll(() => page.getByTestId('storage-usage').innerText())
      .toMatch(/may clear it when space runs low: export a copy/);
    expect(await page.getByRole('alert').count()).toBe(0);

    // Between visits, the browser evicts the site's IndexedDB.
    const cdp = await context.newCDPSession(page);
    await page.goto('about:blank');
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'indexeddb' });
    await openApp(page, ctx.baseUrl);
    const gone = page.getByRole('alert').filter({ hasText: /is no longer in this browser/ });
    await gone.waitFor({ timeout: 30_000 });
    expect(await gone.innerText()).toMatch(
      new RegExp(
        `^Your library of ${before.docs.length} documents \\(last seen on .*\\) is no longer in this browser: the browser cleared this site’s storage\\. Restore it from a backup: Library → Backup and storage → Import a library file\\.`,
      ),
    );
    await saveScreenshot(page, { path: 'test-results/storage-evicted.png', fullPage: true });

    // The demo came back as on a first run; now one document of it is lost without the app removing it.
    const now = await readStored(page);
    await expect.poll(() => marker(page), { timeout: 10_000 }).toMatchObject({ documents: now.docs.length });
    await loseDocument(page, now.docs[0]!.id);
    await openApp(page, ctx.baseUrl);
    const partial = page.getByRole('alert').filter({ hasText: /missing from the library/ });
    await partial.waitFor({ timeout: 30_000 });
    expect(await partial.innerText()).toMatch(
      new RegExp(
        `^1 document of the ${now.docs.length} last seen on .* is missing from the library or could not be read`,
      ),
    );
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
