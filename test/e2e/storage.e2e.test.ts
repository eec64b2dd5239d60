/**
 * The library in IndexedDB, in a real Chromium against the production build:
 * (a) a page reload (which kills the worker) in the middle of adding a document leaves the whole
 *     document or none, and an interrupted batch resumes — a PDF and a DOCX of the batch from
 *     their queued bytes, with their pages and headings;
 * (b) after a reload the library is read back from storage, not ingested again (the demo is
 *     added once, and stays removed once the user removes it);
 * (c) with the origin's quota made small (CDP `Storage.overrideQuotaForOrigin`), adding a file
 *     gives the plain "storage full" message and the library stays intact;
 * (d) the library exported to one file, emptied and imported back is the same library, and a
 *     tampered file is refused in plain words with the library untouched.
 * Every check of "whole or none" reads IndexedDB directly from the page.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { onboardingDocx, SAFETY_REPORT_PDF } from '../fixtures/documents';
import { launchChromium } from './browser';
import { readStored, removeAll, type Stored } from './storage-helpers';
import { saveScreenshot } from './screenshot';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

/** Every stored document is whole: all its chunks, no chunk without its document, vector rows within bounds. */
function expectWhole(stored: Stored): void {
  expect(stored.orphans).toBe(0);
  for (const d of stored.docs) {
    expect(d.chunks, `chunks of ${d.id}`).toBe(d.chunkCount);
    expect(d.vectorRows).toBeLessThanOrEqual(d.chunkCount);
  }
}

/**
 * A Markdown file of `sections` sections of three ~90-word paragraphs (about one chunk each).
 * Words are seeded pseudo-random letters: the text must not compress away, since Chromium
 * counts IndexedDB's compressed size against the quota.
 */
function bigMarkdown(title: string, sections: number, seed = 1): Buffer {
  let a = seed >>> 0;
  const rand = (): number => {
    a = (Math.imul(a ^ (a >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return a / 4294967296;
  };
  const word = (): string =>
    Array.from({ length: 3 + Math.floor(rand() * 7) }, () => String.fromCharCode(97 + Math.floor(rand() * 26))).join(
      '',
    );
  let md = `# ${title}\n\n`;
  for (let s = 0; s < sections; s++) {
    md += `## Section ${s}\n\n`;
    for (let p = 0; p < 3; p++) md += `${Array.from({ length: 90 }, word).join(' ')} clause ${s}.${p}.\n\n`;
  }
  return Buffer.from(md, 'utf8');
}

/** Polls the stored library until `check` holds (the session's steps after a reload are asynchronous). */
async function storedWhen(page: Page, check: (s: Stored) => boolean, timeoutMs: number): Promise<Stored> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const stored = await readStored(page);
    if (check(stored) || Date.now() > end) return stored;
    await page.waitForTimeout(250);
  }
}

async function openApp(page: Page): Promise<void> {
  await page.goto(ctx.baseUrl);
  await page.locator('[data-testid="model-status"][data-state="ready"]').waitFor({ timeout: 180_000 });
  await page.locator('[data-testid="library"][data-state="ready"]').waitFor({ timeout: 180_000 });
}

function addFile(page: Page, name: string, buffer: Buffer): Promise<void> {
  return page.getByLabel('Add documents').setInputFiles({ name, mimeType: 'text/markdown', buffer });
}

interface StoredChunk {
  readonly id: string;
  readonly ordinal: number;
  readonly text: string;
  readonly page: number | null;
  readonly headings: string[];
}

/** A document's record and its chunks in order, read from IndexedDB. */
function readDocument(
  page: Page,
  docId: string,
): Promise<{ format: string; pageCount: number | null; title: string; chunks: StoredChunk[] } | null> {
  return page.evaluate(async (id) => {
    const db = await new Promise<IDBDatabase>((res, rej) => {
      const r = indexedDB.open('evident');
      r.onsuccess = () => res(r.result);
      r.onerror = () => rej(r.error);
    });
    const tx = db.transaction(['documents', 'chunkSets'], 'readonly');
    const get = <T>(req: IDBRequest): Promise<T> =>
      new Promise((res, rej) => {
        req.onsuccess = () => res(req.result as T);
        req.onerror = () => rej(req.error);
      });
    const doc = await get<{ format: string; pageCount: number | null; title: string } | undefined>(
      tx.objectStore('documents').get(id),
    );
    type C = { id: string; ordinal: number; text: string; page?: number; headings: string[] };
    const set = await get<{ chunks: C[] } | undefined>(tx.objectStore('chunkSets').get(id));
    const chunks = set?.chunks ?? [];
    db.close();
    if (!doc) return null;
    return {
      format: doc.format,
      pageCount: doc.pageCount,
      title: doc.title,
      chunks: chunks
        .sort((a, b) => a.ordinal - b.ordinal)
        .map((c) => ({ id: c.id, ordinal: c.ordinal, text: c.text, page: c.page ?? null, headings: c.headings })),
    };
  }, docId);
}

/** What each ingest-queue entry holds: its document id and whether it is text or the file's bytes. */
function readQueueKinds(page: Page): Promise<{ docId: string; kind: string; bytes: number }[]> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((res, rej) => {
      const r = indexedDB.open('evident');
      r.onsuccess = () => res(r.result);
      r.onerror = () => rej(r.error);
    });
    const entries = await new Promise<{ docId: string; source: { kind: string; bytes?: ArrayBuffer } }[]>(
      (res, rej) => {
        const r = db.transaction('ingestQueue', 'readonly').objectStore('ingestQueue').getAll();
        r.onsuccess = () => res(r.result as never);
        r.onerror = () => rej(r.error);
      },
    );
    db.close();
    return entries.map((e) => ({ docId: e.docId, kind: e.source.kind, bytes: e.source.bytes?.byteLength ?? 0 }));
  });
}

/** The resume fixtures: a two-page PDF with headings and a DOCX with headings and a table. */
const REPORT_PDF = Buffer.from(SAFETY_REPORT_PDF);

/** Searches the library and reads the dense score of the first result (0 when it has none). */
async function topDenseScore(page: Page, query: string): Promise<number> {
  const box = page.getByRole('searchbox', { name: /search/i });
  await box.fill(query);
  await box.press('Enter');
  await page.getByTestId('results').waitFor({ timeout: 60_000 });
  const dense = await page
    .getByTestId('result')
    .first()
    .locator('tr[data-signal="dense"] td[data-value]')
    .getAttribute('data-value');
  return Number(dense);
}

/** Ids, versions, chunk counts and vector rows: what must survive an export and an import. */
const identity = (s: Stored) =>
  s.docs.map((d) => [d.id, d.addedAt, d.chunkCount, d.chunks, d.vectorRows, d.vectorState]).sort();

describe.skipIf(ctx.skip !== null)('the library in IndexedDB (Chromium)', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  /** A fresh profile (empty IndexedDB) per test. */
  async function freshPage(): Promise<{ page: Page; context: BrowserContext }> {
    const context = await browser.newContext({ viewport: { width: 1100, height: 1400 } });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    return { page, context };
  }

  beforeAll(async () => {
    browser = await launchChromium();
    await mkdir('test-results', { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('reload: the library is read back from storage, not ingested again; a removed demo stays removed', async () => {
    const { page } = await freshPage();
    await openApp(page);
    const library = page.getByTestId('library');
    expect(await library.getAttribute('data-source')).toBe('ingested');
    const first = await readStored(page);
    expect(first.docs.length).toBeGreaterThanOrEqual(4);
    expect(first.demoInstalled).toBe(true);
    expectWhole(first);
    expect(first.docs.every((d) => d.vectorState === 'complete' && d.vectorRows === d.chunkCount)).toBe(true);

    await page.reload();
    // Searchable by its words as soon as it is read, before the model is loaded.
    await page
      .locator('[data-testid="library"][data-state="ready"][data-source="stored"]')
      .waitFor({ timeout: 60_000 });
    const loadMs = Number(await library.getAttribute('data-load-ms'));
    await page.locator('[data-testid="model-status"][data-state="ready"]').waitFor({ timeout: 180_000 });
    await page.locator('[data-testid="library"][data-state="ready"]').waitFor({ timeout: 60_000 });
    expect(await library.getAttribute('data-source')).toBe('stored');
    expect(await library.getByRole('listitem').count()).toBe(first.docs.length);
    const second = await readStored(page);
    // Same versions: nothing was ingested again.
    expect(second.docs.map((d) => [d.id, d.addedAt])).toEqual(first.docs.map((d) => [d.id, d.addedAt]));

    // Dense scores come from the stored vectors.
    expect(await topDenseScore(page, 'home office allowance')).toBeGreaterThan(0);

    // Remove a demo document; after a reload it is still gone (the demo is added on the first run only).
    const removed = first.docs[0]!.id;
    await removeAll(page, [removed]);
    await page.reload();
    await page.locator('[data-testid="model-status"][data-state="ready"]').waitFor({ timeout: 180_000 });
    await page.locator('[data-testid="library"][data-state="ready"]').waitFor({ timeout: 60_000 });
    const third = await readStored(page);
    expect(third.docs.map((d) => d.id)).toEqual(first.docs.map((d) => d.id).filter((id) => id !== removed));
    expect(await library.getByRole('listitem').count()).toBe(first.docs.length - 1);
    await saveScreenshot(page, { path: 'test-results/storage-reload.png', fullPage: true });
    console.log(`[e2e] stored demo library searchable lexically ${loadMs} ms after the worker started`);
  });

  it('a reload while a document is being added leaves it whole or absent, and the batch resumes', async () => {
    const { page } = await freshPage();
    await openApp(page);
    const library = page.getByTestId('library');

    // 1. Killed while embedding: the document is already stored whole; its vectors resume.
    await addFile(page, 'retention-policy.md', bigMarkdown('Retention policy', 25));
    await page.getByRole('progressbar', { name: 'Meaning vectors' }).waitFor({ timeout: 60_000 });
    const during = await readStored(page);
    expectWhole(during);
    await page.reload();
    const afterKill = await readStored(page);
    expectWhole(afterKill);
    const big = afterKill.docs.find((d) => d.id === 'file:retention-policy.md');
    expect(big, 'stored before the embedding started').toBeDefined();
    expect(big!.chunkCount).toBeGreaterThan(64);
    expect(big!.vectorRows).toBeLessThan(big!.chunkCount);
    await page.locator('[data-testid="model-status"][data-state="ready"]').waitFor({ timeout: 180_000 });
    await library
      .locator('li[data-doc-id="file:retention-policy.md"][data-vector-state="complete"]')
      .waitFor({ timeout: 240_000 });
    const filled = await readStored(page);
    expectWhole(filled);
    expect(filled.docs.find((d) => d.id === 'file:retention-policy.md')).toMatchObject({
      vectorState: 'complete',
      vectorRows: big!.chunkCount,
    });

    // 2. Killed right away: whatever the moment, the document is whole or absent, and once the
    //    page is back the queued batch finishes.
    await addFile(page, 'records-schedule.md', bigMarkdown('Records schedule', 300, 2));
    await page.reload();
    const early = await readStored(page);
    expectWhole(early);
    const queued = early.queue.includes('file:records-schedule.md');
    const present = early.docs.some((d) => d.id === 'file:records-schedule.md');
    console.log(`[e2e] reload right after choosing the file: queued=${queued}, stored=${present}`);
    await page.locator('[data-testid="model-status"][data-state="ready"]').waitFor({ timeout: 180_000 });
    const final = await storedWhen(
      page,
      (st) =>
        st.queue.length === 0 && (!(queued || present) || st.docs.some((d) => d.id === 'file:records-schedule.md')),
      240_000,
    );
    expectWhole(final);
    expect(final.queue).toEqual([]);
    if (queued || present) {
      expect(final.docs.some((d) => d.id === 'file:records-schedule.md')).toBe(true);
      await library.locator('li[data-doc-id="file:records-schedule.md"]').waitFor({ timeout: 60_000 });
    }
    await saveScreenshot(page, { path: 'test-results/storage-killed-ingest.png', fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it('a PDF and a DOCX left in the queue by a reload resume from their bytes, with pages and headings; stopping a batch drops the rest', async () => {
    const { page } = await freshPage();
    await openApp(page);
    const library = page.getByTestId('library');
    // The Markdown file takes long enough to embed that the other two are still queued when the page reloads.
    await page.getByLabel('Add documents').setInputFiles([
      { name: 'retention-policy.md', mimeType: 'text/markdown', buffer: bigMarkdown('Retention policy', 40, 4) },
      { name: 'safety-report.pdf', mimeType: 'application/pdf', buffer: REPORT_PDF },
      {
        name: 'onboarding.docx',
        mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        buffer: Buffer.from(await onboardingDocx()),
      },
    ]);
    await page.getByRole('progressbar', { name: 'Meaning vectors' }).waitFor({ timeout: 60_000 });
    const queue = await readQueueKinds(page);
    expect(queue).toEqual([
      { docId: 'file:safety-report.pdf', kind: 'bytes', bytes: REPORT_PDF.length },
      { docId: 'file:onboarding.docx', kind: 'bytes', bytes: expect.any(Number) },
    ]);
    await page.reload();
    expectWhole(await readStored(page));
    await page.locator('[data-testid="model-status"][data-state="ready"]').waitFor({ timeout: 180_000 });
    const final = await storedWhen(
      page,
      (st) =>
        st.queue.length === 0 &&
        ['file:safety-report.pdf', 'file:onboarding.docx'].every((id) => st.docs.some((d) => d.id === id)),
      240_000,
    );
    expectWhole(final);
    const report = await readDocument(page, 'file:safety-report.pdf');
    expect(report).toMatchObject({ format: 'pdf', pageCount: 2, title: 'Quarterly Safety Report' });
    expect(report!.chunks.every((c) => c.page === 1 || c.page === 2)).toBe(true);
    expect(report!.chunks.find((c) => c.text.includes('ladder inspections'))?.page).toBe(2);
    expect(report!.chunks.find((c) => c.text.includes('forklift course'))?.page).toBe(1);
    const notes = await readDocument(page, 'file:onboarding.docx');
    expect(notes).toMatchObject({ format: 'docx', title: 'Onboarding notes' });
    expect(notes!.chunks.find((c) => c.text.includes('Laptop'))?.headings).toEqual(['Onboarding notes', 'Equipment']);
    const item = library.locator('li[data-doc-id="file:safety-report.pdf"][data-vector-state="complete"]');
    await item.waitFor({ timeout: 240_000 });
    await page.locator('[data-testid="library"][data-state="ready"]').waitFor({ timeout: 240_000 });
    expect(await item.innerText()).toMatch(/PDF · 2 pages/);
    await saveScreenshot(page, { path: 'test-results/storage-resumed-files.png', fullPage: true });

    // Stopping a batch instead: the file being embedded stays (stored whole), the next one is dropped from the queue.
    await page.getByLabel('Add documents').setInputFiles([
      { name: 'archive-policy.md', mimeType: 'text/markdown', buffer: bigMarkdown('Archive policy', 40, 5) },
      { name: 'second-report.pdf', mimeType: 'application/pdf', buffer: REPORT_PDF },
    ]);
    await page.getByRole('progressbar', { name: 'Meaning vectors' }).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Stop adding files' }).click();
    const jobs = page.locator('ul.jobs > li[data-job-status="cancelled"]');
    await expect.poll(() => jobs.count(), { timeout: 30_000 }).toBe(2);
    expect(await jobs.first().innerText()).toMatch(/Cancelled after it was stored/);
    expect(await jobs.nth(1).innerText()).toMatch(/Cancelled: not added/);
    const stopped = await storedWhen(page, (st) => st.queue.length === 0, 30_000);
    expect(stopped.queue).toEqual([]);
    expectWhole(stopped);
    expect(stopped.docs.some((d) => d.id === 'file:archive-policy.md')).toBe(true);
    expect(stopped.docs.some((d) => d.id === 'file:second-report.pdf')).toBe(false);
    expect(pageErrors).toEqual([]);
  });

  it('exports the library to one file, imports it back into an emptied library, and refuses a tampered copy', async () => {
    const { page } = await freshPage();
    await openApp(page);
    const library = page.getByTestId('library');
    const backup = page.getByTestId('backup');
    await expect.poll(() => backup.getByTestId('storage-usage').innerText()).toMatch(/The library uses \d/);
    const before = await readStored(page);
    expect(before.docs.length).toBeGreaterThanOrEqual(4);

    // Export: one file, starting with the format's signature.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      backup.getByRole('button', { name: 'Export library' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^evident-library-\d{4}-\d{2}-\d{2}\.evlib$/);
    const file = await readFile((await download.path())!);
    expect([...file.subarray(0, 8)]).toEqual([0x89, 0x45, 0x56, 0x4c, 0x49, 0x42, 0x0d, 0x0a]);
    await backup
      .getByRole('status')
      .filter({ hasText: /^Saved “evident-library-/ })
      .waitFor({ timeout: 10_000 });

    // Empty the library.
    await removeAll(
      page,
      before.docs.map((d) => d.id),
    );
    expect((await readStored(page)).docs).toEqual([]);

    // Import it back (merge, the default), after confirming.
    await backup.getByLabel('Import a library file').setInputFiles({
      name: download.suggestedFilename(),
      mimeType: 'application/octet-stream',
      buffer: file,
    });
    await backup.getByRole('button', { name: 'Import', exact: true }).click();
    const result = backup.getByTestId('import-result');
    await result.waitFor({ timeout: 60_000 });
    expect(await result.innerText()).toMatch(new RegExp(`Imported “.*”: ${before.docs.length} documents`));
    const restored = await readStored(page);
    expectWhole(restored);
    expect(identity(restored)).toEqual(identity(before));
    await expect.poll(() => library.getByRole('listitem').count(), { timeout: 10_000 }).toBe(before.docs.length);
    // Searchable again, with the imported vectors.
    expect(await topDenseScore(page, 'home office allowance')).toBeGreaterThan(0);

    // A copy with one letter of a passage changed (same length: only the content check can tell),
    // even in "replace" mode, changes nothing.
    const tampered = Buffer.from(file);
    const at = tampered.indexOf('allowance');
    expect(at).toBeGreaterThan(12);
    tampered[at] = 'A'.charCodeAt(0);
    await backup.getByLabel('Import a library file').setInputFiles({
      name: 'tampered.evlib',
      mimeType: 'application/octet-stream',
      buffer: tampered,
    });
    await backup.getByLabel(/^Replace the library/).check();
    await saveScreenshot(backup, { path: 'test-results/storage-import-confirm.png' });
    await backup.getByRole('button', { name: 'Replace the library' }).click();
    const refused = backup.getByTestId('import-error');
    await refused.waitFor({ timeout: 60_000 });
    expect(await refused.innerText()).toMatch(
      /^“tampered\.evlib” was not imported: This is not a valid Evident library file|^“tampered\.evlib” was not imported: library file: .* does not match its text\. Your library was not changed\./,
    );
    expect(identity(await readStored(page))).toEqual(identity(before));
    expect(await library.getByRole('listitem').count()).toBe(before.docs.length);
    await saveScreenshot(page, { path: 'test-results/storage-export-import.png', fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it('a small quota gives a plain "storage full" message and leaves the library intact', async () => {
    const { page, context } = await freshPage();
    const cdp = await context.newCDPSession(page);
    const origin = new URL(ctx.baseUrl).origin;
    // 1 MB for this origin, set before the first visit: Chromium checks writes against an
    // overridden quota only on database connections opened after the override (measured here:
    // overridden later, a 0.75 MB text went in and only the vectors that followed were refused).
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 1024 * 1024 });
    try {
      await openApp(page);
      const before = await readStored(page);
      expect(before.docs.length).toBeGreaterThanOrEqual(4);
      const { usage, quota } = await cdp.send('Storage.getUsageAndQuota', { origin });
      expect(quota).toBe(1024 * 1024);
      // ~2.2 MB of text that does not compress away: it cannot fit in what is left.
      await addFile(page, 'annual-report.md', bigMarkdown('Annual report', 1200, 3));
      const alert = page.getByRole('alert').filter({ hasText: /Storage is full/ });
      await alert.waitFor({ timeout: 120_000 });
      expect(await alert.innerText()).toMatch(
        /Storage is full: remove documents or free space\. Nothing was saved for "Annual report"\./,
      );
      await page.locator('[data-testid="library"][data-state="ready"]').waitFor({ timeout: 60_000 });
      const after = await readStored(page);
      expectWhole(after);
      expect(after.docs.map((d) => [d.id, d.addedAt, d.vectorRows])).toEqual(
        before.docs.map((d) => [d.id, d.addedAt, d.vectorRows]),
      );
      expect(after.queue).toEqual([]);
      expect(await page.getByTestId('library').getByRole('listitem').count()).toBe(before.docs.length);
      // The library still answers.
      const box = page.getByRole('searchbox', { name: /search/i });
      await box.fill('home office allowance');
      await box.press('Enter');
      await page.getByTestId('results').waitFor({ timeout: 60_000 });
      await saveScreenshot(page, { path: 'test-results/storage-full.png', fullPage: true });
      console.log(`[e2e] quota 1 MiB, ${usage} bytes used before the 2.2 MB file`);
    } finally {
      await cdp.send('Storage.overrideQuotaForOrigin', { origin });
    }
  });
});
