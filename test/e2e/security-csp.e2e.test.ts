/**
 * The Content Security Policy in Chromium (issue 17, part 5): the built app served by `vite
 * preview` under the shipped policy (src/security/csp.ts), one whole session — every format
 * added (PDF, a scanned PDF read by OCR, DOCX, HTML, Markdown, text), questions asked, a PDF
 * citation opened on its page and a passage opened, the library exported and imported back, the
 * tiny test profile loaded in Settings (onnxruntime-web) and the Embedded profile chosen again —
 * with every CSP violation counted and every request recorded:
 * - the document's violations through a `securitypolicyviolation` listener (page.addInitScript);
 * - the workers' and the service worker's through the policy's `report-uri`, which the preview
 *   server adds only when the test asks (scripts/csp-reports.ts);
 * - two canaries prove both channels hear a violation: an `innerHTML` in the page (refused by
 *   Trusted Types) and a fetch to another origin from a worker (refused by connect-src).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withReportUri } from '../../scripts/csp-reports';
import { documentMetaPolicies, serializeCsp } from '../../src/security/csp';
import { onboardingDocx, pdf } from '../fixtures/documents';
import { cleanPage, scannedPdf } from '../fixtures/scanned-pdf';
import { offOrigin } from './browser';
import { addFiles, appReady, askQuestion, openBuiltApp, serviceWorkerControls, type AppInBrowser } from './built-app';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

/** What the page's listener records of one violation. */
interface Violation {
  readonly directive: string;
  readonly blocked: string;
  readonly source: string;
  readonly sample: string;
}

declare global {
  interface Window {
    __cspViolations?: Violation[];
  }
}

const HARBOUR_PDF = pdf([
  [
    { text: 'Harbour operations report', size: 18, y: 730 },
    { text: 'Pilot boats meet every tanker at the outer buoy, two miles offshore.', y: 690 },
    { text: 'A second pilot boards any vessel longer than three hundred metres.', y: 672 },
  ],
]);

const FILES = async () => [
  { name: 'harbour.pdf', mimeType: 'application/pdf', buffer: Buffer.from(HARBOUR_PDF) },
  { name: 'breakwater-scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from(scannedPdf([cleanPage()])) },
  {
    name: 'onboarding.docx',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    buffer: Buffer.from(await onboardingDocx()),
  },
  {
    name: 'cranes.html',
    mimeType: 'text/html',
    buffer: Buffer.from(
      '<!doctype html><title>Crane schedule</title><h1>Cranes</h1><p>Each crane is inspected every nine weeks, at night.</p>',
    ),
  },
  {
    name: 'dredging.md',
    mimeType: 'text/markdown',
    buffer: Buffer.from('# Dredging\n\nThe northern channel was dredged to sixteen metres in March.\n'),
  },
  { name: 'fees.txt', mimeType: 'text/plain', buffer: Buffer.from('Berth fees rise by four percent next year.\n') },
];

describe.skipIf(ctx.skip !== null)('Content Security Policy: a whole session in Chromium', () => {
  let app: AppInBrowser;
  let reportDir: string;
  let reportFile: string;
  const requests: string[] = [];

  beforeAll(async () => {
    reportDir = await mkdtemp(join(tmpdir(), 'evident-csp-'));
    reportFile = join(reportDir, 'reports.jsonl');
    // Read by vite.config.ts when openBuiltApp starts the preview server (this process).
    process.env.EVIDENT_CSP_REPORT_FILE = reportFile;
    app = await openBuiltApp('evident-e2e-csp-', { viewport: { width: 1280, height: 1000 } });
    app.context.on('request', (r) => requests.push(r.url()));
    await app.context.addInitScript(() => {
      window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => {
        window.__cspViolations?.push({
          directive: e.effectiveDirective,
          blocked: e.blockedURI,
          source: `${e.sourceFile}:${e.lineNumber}`,
          sample: e.sample,
        });
      });
    });
  });

  afterAll(async () => {
    delete process.env.EVIDENT_CSP_REPORT_FILE;
    await app?.close();
    await rm(reportDir, { recursive: true, force: true });
  });

  const tab = (page: Page, name: string) => page.getByRole('tab', { name });

  /** The reports the preview server received, parsed (one JSON document a line). */
  async function reports(): Promise<{ 'csp-report'?: Record<string, unknown> }[]> {
    if (!existsSync(reportFile)) return [];
    const text = await readFile(reportFile, 'utf8');
    return text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { 'csp-report'?: Record<string, unknown> });
  }

  const violations = (page: Page): Promise<Violation[]> => page.evaluate(() => window.__cspViolations ?? []);

  it('serves the shipped policy: the header and the two <meta> policies of src/security/csp.ts', async () => {
    const { page, url } = app;
    const response = await page.goto(new URL('./?test-models', url).href);
    const base = new URL(url).pathname;
    expect(response?.headers()['content-security-policy']).toBe(withReportUri(serializeCsp(), base));
    const metas = await page.evaluate(() =>
      [...document.querySelectorAll('meta[http-equiv="Content-Security-Policy"]')].map(
        (m) => m.getAttribute('content') ?? '',
      ),
    );
    expect(metas).toEqual(documentMetaPolicies());
    // The policy is first in <head>: nothing before it escapes it.
    expect(await page.evaluate(() => document.head.firstElementChild?.getAttribute('http-equiv'))).toBe(
      'Content-Security-Policy',
    );
  });

  it('runs a whole session with zero CSP violations and no request outside the origin', async () => {
    const { page, url } = app;
    const origin = new URL(url).origin;
    await appReady(page);
    await serviceWorkerControls(page);

    // Every format, OCR included (tesseract.js loads from the origin).
    await addFiles(page, await FILES(), { timeout: 240_000 });

    // A PDF citation on its page (pdf.js draws it), then the passage view of the same source.
    await askQuestion(page, 'Where do pilot boats meet tankers?');
    const dialog = page.getByTestId('passage-dialog');
    const pdfSource = page.getByTestId('sources').locator('li.source[data-doc-id="file:harbour.pdf"]').first();
    await pdfSource.getByRole('button', { name: 'Open in document' }).click();
    await dialog.getByTestId('pdf-page-view').locator('mark.pdf-hit').first().waitFor({ timeout: 30_000 });
    await dialog.getByTestId('show-passage').click();
    await dialog.locator('.passage-cited').waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    // A citation of a text format opens the passage view.
    await askQuestion(page, 'How often is each crane inspected?');
    const htmlSource = page.getByTestId('sources').locator('li.source[data-doc-id="file:cranes.html"]').first();
    await htmlSource.getByRole('button', { name: 'Open in document' }).click();
    await dialog.locator('.passage-cited').waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');

    // Export, then import the file back (merge).
    await tab(page, 'Library').click();
    const backup = page.getByTestId('backup');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      backup.getByRole('button', { name: 'Export library' }).click(),
    ]);
    const exported = await readFile((await download.path())!);
    await backup.getByLabel('Import a library file').setInputFiles({
      name: download.suggestedFilename(),
      mimeType: 'application/octet-stream',
      buffer: exported,
    });
    await backup.getByRole('button', { name: 'Import', exact: true }).click();
    await backup.getByTestId('import-result').waitFor({ timeout: 60_000 });

    // Another profile: the tiny test models on onnxruntime-web, asked once, then Embedded again.
    await page.goto(new URL('./?test-models#settings', url).href);
    await appReady(page, 'attached');
    await page.getByTestId('test-models').getByRole('button', { name: 'Load the tiny test models' }).click();
    await page.locator('[data-testid="profile-load"][data-state="ready"]').waitFor({ timeout: 120_000 });
    await askQuestion(page, 'How deep is the northern channel?');
    await page.goto(new URL('./#settings', url).href);
    await appReady(page, 'attached');
    const embedded = page.getByTestId('profile-embedded');
    await embedded.getByRole('radio').click();
    await expect.poll(() => embedded.getByRole('radio').isChecked(), { timeout: 10_000 }).toBe(true);
    await askQuestion(page, 'How much do berth fees rise?');

    // Reports travel asynchronously: give the last ones a moment to arrive.
    await page.waitForTimeout(2000);
    const found = await violations(page);
    const reported = await reports();
    const outside = offOrigin(requests, origin);
    console.log(
      `[e2e] CSP session: ${found.length} violations in the document, ${reported.length} reported by workers; ${requests.length} requests, ${outside.length} outside ${origin}`,
    );
    expect(found).toEqual([]);
    expect(reported).toEqual([]);
    expect(outside).toEqual([]);
    expect(app.pageErrors).toEqual([]);
  });

  it('hears a violation on both channels (canaries): Trusted Types in the page, connect-src in a worker', async () => {
    const { page } = app;
    const before = (await violations(page)).length;
    const refused = await page.evaluate(() => {
      try {
        document.createElement('div').innerHTML = '<b>not trusted</b>';
        return false;
      } catch {
        return true;
      }
    });
    expect(refused).toBe(true);
    await page.evaluate(() => {
      const code = "fetch('https://canary.invalid/csp').catch(() => postMessage('blocked'));";
      const worker = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
      return new Promise((resolve) => worker.addEventListener('message', resolve, { once: true }));
    });
    await expect
      .poll(async () => (await reports()).map((r) => String(r['csp-report']?.['blocked-uri'] ?? '')), {
        timeout: 15_000,
      })
      .toContainEqual(expect.stringContaining('canary.invalid'));
    const found = await violations(page);
    expect(found.slice(before).map((v) => v.directive)).toEqual(['require-trusted-types-for']);
  });
});
