/**
 * Passphrase-protected backups in a real Chromium against the production build: an export
 * protected with a passphrase is encrypted (no document text in the file) and imports back into
 * an emptied library as the same library; a wrong passphrase, a tampered copy and a truncated
 * copy are refused in plain words with the library unchanged (read from IndexedDB); an export
 * without a passphrase still works and says it is unprotected.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser';
import { identity, openApp, readStored, removeAll } from './storage-helpers';
import { saveScreenshot } from './screenshot';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

const PASSPHRASE = 'orange tractor violin 42';
const ENCRYPTED_MAGIC = [0x89, 0x45, 0x56, 0x45, 0x4e, 0x43, 0x0d, 0x0a];
const PLAIN_MAGIC = [0x89, 0x45, 0x56, 0x4c, 0x49, 0x42, 0x0d, 0x0a];

/** Chooses `buffer` as the file to import, in `mode`, typing `passphrase` when the form asks for one. */
async function chooseImport(page: Page, name: string, buffer: Buffer, passphrase?: string): Promise<void> {
  const backup = page.getByTestId('backup');
  await backup.getByLabel('Import a library file').setInputFiles({
    name,
    mimeType: 'application/octet-stream',
    buffer,
  });
  if (passphrase !== undefined) await backup.getByLabel('Passphrase of the file').fill(passphrase);
}

describe.skipIf(ctx.skip !== null)('passphrase-protected backups (Chromium)', () => {
  let browser: Browser;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    await mkdir('test-results', { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('protected export → import round trip; wrong passphrase, tampered and truncated copies refused, library unchanged', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 1400 }, acceptDownloads: true });
    const page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await openApp(page, ctx.baseUrl);
    const backup = page.getByTestId('backup');
    const library = page.getByTestId('library');
    const before = await readStored(page);
    expect(before.docs.length).toBeGreaterThanOrEqual(4);

    // Unprotected by default, and the page says what that means.
    expect(await backup.getByTestId('export-unprotected').innerText()).toMatch(/not encrypted/);
    const [plainDownload] = await Promise.all([
      page.waitForEvent('download'),
      backup.getByRole('button', { name: 'Export library' }).click(),
    ]);
    const plain = await readFile((await plainDownload.path())!);
    expect([...plain.subarray(0, 8)]).toEqual(PLAIN_MAGIC);
    const plainResult = backup.getByTestId('export-result');
    await plainResult.waitFor({ timeout: 30_000 });
    expect(await plainResult.innerText()).toMatch(/unprotected: anyone with the file can read it/);
    await plainResult.getByRole('button', { name: 'OK' }).click();

    // Protected: too short a passphrase or two that differ cannot be used.
    await backup.getByLabel('Protect the export with a passphrase').check();
    const exportButton = backup.getByRole('button', { name: 'Export library' });
    await backup.getByLabel('Passphrase', { exact: true }).fill('short');
    expect(await exportButton.isDisabled()).toBe(true);
    expect(await backup.getByTestId('passphrase-check').innerText()).toMatch(/at least 8 characters/);
    await backup.getByLabel('Passphrase', { exact: true }).fill(PASSPHRASE);
    await backup.getByLabel('Repeat the passphrase').fill(`${PASSPHRASE}!`);
    expect(await backup.getByTestId('passphrase-check').innerText()).toMatch(/differ/);
    expect(await exportButton.isDisabled()).toBe(true);
    await backup.getByLabel('Repeat the passphrase').fill(PASSPHRASE);
    const t0 = Date.now();
    const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
    const sealed = await readFile((await download.path())!);
    const exportMs = Date.now() - t0;
    expect([...sealed.subarray(0, 8)]).toEqual(ENCRYPTED_MAGIC);
    // The demo's words are in the plain file and nowhere in the protected one.
    expect(plain.includes('allowance')).toBe(true);
    expect(sealed.includes('allowance')).toBe(false);
    const result = backup.getByTestId('export-result');
    await result.waitFor({ timeout: 30_000 });
    expect(await result.getAttribute('data-encrypted')).toBe('true');
    expect(await result.innerText()).toMatch(/protected with your passphrase/);
    // The passphrase is not left on the page.
    expect(await backup.getByLabel('Passphrase', { exact: true }).inputValue()).toBe('');

    // A wrong passphrase, in replace mode: told so, the file stays chosen, nothing changes.
    await chooseImport(page, 'backup.evlib', sealed, 'orange tractor violin 43');
    await backup.getByLabel(/^Replace the library/).check();
    await backup.getByRole('button', { name: 'Replace the library' }).click();
    const wrong = backup.getByTestId('import-passphrase-error');
    await wrong.waitFor({ timeout: 60_000 });
    expect(await wrong.innerText()).toMatch(
      /^This passphrase does not open the file\. .*Your library was not changed\./,
    );
    expect(identity(await readStored(page))).toEqual(identity(before));
    await saveScreenshot(backup, { path: 'test-results/backup-wrong-passphrase.png' });
    await backup.getByRole('button', { name: 'Cancel' }).click();

    // One byte changed in the middle of the sealed records (same length), the right passphrase.
    const tampered = Buffer.from(sealed);
    tampered[Math.floor(tampered.length * 0.6)]! ^= 0x04;
    await chooseImport(page, 'tampered.evlib', tampered, PASSPHRASE);
    await backup.getByLabel(/^Replace the library/).check();
    await backup.getByRole('button', { name: 'Replace the library' }).click();
    const refused = backup.getByTestId('import-error');
    await refused.waitFor({ timeout: 60_000 });
    expect(await refused.innerText()).toMatch(
      /^“tampered\.evlib” was not imported: This protected library file was changed or damaged after it was saved \(part \d+ of \d+ .*Your library was not changed\./,
    );
    expect(identity(await readStored(page))).toEqual(identity(before));
    await refused.getByRole('button', { name: 'OK' }).click();

    // Cut off (an interrupted download).
    await chooseImport(page, 'cut.evlib', sealed.subarray(0, sealed.length - 1000), PASSPHRASE);
    await backup.getByLabel(/^Replace the library/).check();
    await backup.getByRole('button', { name: 'Replace the library' }).click();
    await refused.waitFor({ timeout: 60_000 });
    expect(await refused.innerText()).toMatch(
      /^“cut\.evlib” was not imported: This protected library file is incomplete/,
    );
    expect(identity(await readStored(page))).toEqual(identity(before));
    expect(await library.getByRole('listitem').count()).toBe(before.docs.length);
    await refused.getByRole('button', { name: 'OK' }).click();

    // Round trip: empty the library, import the protected file with its passphrase.
    await removeAll(
      page,
      before.docs.map((d) => d.id),
    );
    expect((await readStored(page)).docs).toEqual([]);
    await chooseImport(page, download.suggestedFilename(), sealed, PASSPHRASE);
    await backup.getByLabel(/^Add to the library/).check();
    const t1 = Date.now();
    await backup.getByRole('button', { name: 'Import', exact: true }).click();
    const imported = backup.getByTestId('import-result');
    await imported.waitFor({ timeout: 60_000 });
    const importMs = Date.now() - t1;
    expect(await imported.innerText()).toMatch(new RegExp(`Imported “.*”: ${before.docs.length} documents`));
    const restored = await readStored(page);
    expect(restored.orphans).toBe(0);
    expect(identity(restored)).toEqual(identity(before));
    await expect.poll(() => library.getByRole('listitem').count(), { timeout: 10_000 }).toBe(before.docs.length);
    await saveScreenshot(page, { path: 'test-results/backup-encrypted.png', fullPage: true });
    expect(pageErrors).toEqual([]);
    console.log(
      `[e2e] protected export of ${sealed.length} bytes (plain ${plain.length}): export ${exportMs} ms, import ${importMs} ms (PBKDF2 600,000 iterations each)`,
    );
    await context.close();
  });
});
