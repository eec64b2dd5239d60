/**
 * Offline, under a base path, in a real Chromium: the app is built here with `base: '/evident/'`
 * (the real vite.config.ts otherwise) and served by its own `vite preview`. After a first visit
 * the service worker controls the page; then the browser context goes offline AND the server is
 * shut down, the page reloads, and the app still starts (model, runtimes and shell from the
 * service worker's cache, still cross-origin isolated), adds a Markdown file and answers a
 * question about it with a citation. Every response after going offline came from the service
 * worker.
 *
 * The same build on a plain static server that sends no COOP/COEP headers: the first visit
 * works single-threaded (not cross-origin isolated); once the service worker serves the page,
 * it adds the headers and the reloaded page is isolated.
 */
import { createServer, type Server } from 'node:http';
import { mkdir, readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LOCAL_SCHEMES } from './browser';
import { FIELD_EQUIPMENT_POLICY } from '../fixtures/field-equipment';
import { appReady, openBuiltApp, serviceWorkerControls, type AppInBrowser } from './built-app';
import { CSP_DIRECTIVES, serializeCsp } from '../../src/security/csp';
import { saveScreenshot } from './screenshot';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

const BASE = '/evident/';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

/** A static host that sends no cross-origin-isolation headers: `dir` served under `base`. */
async function plainStaticServer(dir: string, base: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (!path.startsWith(base)) {
      res.writeHead(404).end();
      return;
    }
    const rel = path.slice(base.length) || 'index.html';
    const file = normalize(join(dir, rel));
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) => res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { server, url: `http://127.0.0.1:${port}${base}` };
}

describe.skipIf(ctx.skip !== null)('offline after a first visit, under a base path (Chromium)', () => {
  let app: AppInBrowser;

  beforeAll(async () => {
    app = await openBuiltApp('evident-offline-e2e-', { base: BASE, viewport: { width: 1100, height: 1200 } });
    const { page, context } = app;
    expect(new URL(app.url).pathname).toBe(BASE);
    if (process.env.DEBUG_OFFLINE_E2E) {
      const t0 = Date.now();
      const log = (m: string) => console.log(`[offline ${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);
      page.on('console', (m) => log(`console ${m.type()}: ${m.text()}`));
      context.on('request', (r) => log(`request ${r.url()}${r.serviceWorker() ? ' (by the service worker)' : ''}`));
      context.on('requestfailed', (r) => log(`failed ${r.url()} ${r.failure()?.errorText}`));
      context.on('response', (r) => log(`response ${r.status()} ${r.url()} fromSW=${r.fromServiceWorker()}`));
    }
    await mkdir('test-results', { recursive: true });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('starts, adds a Markdown file and answers with a citation with no network at all', async () => {
    const { page, context, pageErrors } = app;
    await page.goto(app.url);
    await appReady(page);
    // The service worker installs (precaching everything), activates and claims the page.
    await serviceWorkerControls(page);
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(new URL(scope).pathname).toBe(BASE);
    await page.getByTestId('offline-ready').waitFor({ timeout: 10_000 });
    const cached = await page.evaluate(async () => {
      const names = await caches.keys();
      const name = names.find((n) => n.startsWith('evident-precache:'));
      const keys = name ? await (await caches.open(name)).keys() : [];
      return { names, urls: keys.map((r) => new URL(r.url).pathname) };
    });
    expect(cached.names.filter((n) => n.startsWith('evident-precache:/evident/:'))).toHaveLength(1);
    for (const path of ['index.html', 'models/use-lite/group1-shard1of7', 'vendor/tfjs/tfjs-backend-wasm-simd.wasm'])
      expect(cached.urls).toContain(`${BASE}${path}`);
    expect(cached.urls.some((u) => /\/assets\/worker-[^/]+\.js$/.test(u))).toBe(true);

    // No network: the context is offline and the server is gone.
    await context.setOffline(true);
    await app.stopServer();
    const responses: { url: string; fromServiceWorker: boolean }[] = [];
    context.on('response', (r) => responses.push({ url: r.url(), fromServiceWorker: r.fromServiceWorker() }));
    await page.reload();
    await appReady(page);
    expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);
    expect(await page.getByTestId('model-status').getAttribute('data-isolated')).toBe('yes');
    expect(await page.getByTestId('library').getAttribute('data-source')).toBe('stored');

    await page.getByLabel('Add documents').setInputFiles({
      name: 'field-equipment.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(FIELD_EQUIPMENT_POLICY, 'utf8'),
    });
    await page
      .locator('ul.jobs > li[data-file-name="field-equipment.md"][data-job-status="done"]')
      .waitFor({ timeout: 120_000 });
    await page.getByTestId('library').locator('li[data-doc-id="file:field-equipment.md"]').waitFor();

    await page.getByRole('tab', { name: 'Ask' }).click();
    await page.getByLabel('Your question').fill('For how many calendar days may staff borrow a field laptop?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page
      .getByTestId('ask-status')
      .getByText(/Answered in/)
      .waitFor({ timeout: 120_000 });
    // A fact stated by this one document: answered, not withheld for want of corroboration.
    const outcome = await page.getByTestId('ask-result').getAttribute('data-outcome');
    console.log(`[e2e] offline: the question's outcome is ${outcome}`);
    expect(outcome).toBe('supported');
    expect(await page.getByTestId('answer-text').innerText()).toMatch(/14 calendar days/);
    const mdSources = await page
      .getByTestId('sources')
      .locator('li.source[data-doc-id="file:field-equipment.md"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-citation')));
    const cites = await page
      .getByTestId('answer-text')
      .locator('button.cite')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-citation')));
    expect(
      cites.some((c) => mdSources.includes(c)),
      `cites ${cites.join(',')}; Markdown sources ${mdSources.join(',')}`,
    ).toBe(true);
    await saveScreenshot(page, { path: 'test-results/offline-ask-desktop.png', fullPage: true });

    // Everything the page and its workers received after going offline came from the service worker.
    const served = responses.filter((r) => !LOCAL_SCHEMES.some((s) => r.url.startsWith(s)));
    expect(served.length).toBeGreaterThan(10);
    expect(served.filter((r) => !r.fromServiceWorker)).toEqual([]);
    expect(served.some((r) => r.url.endsWith(`${BASE}models/use-lite/group1-shard1of7`))).toBe(true);
    expect(pageErrors).toEqual([]);
    console.log(
      `[e2e offline] outcome ${outcome}; ${served.length} responses after going offline, all from the service worker`,
    );
  });
  it('on a host without COOP/COEP: single-threaded at first, cross-origin isolated once the service worker serves it', async () => {
    const { browser, pageErrors } = app;
    const { server: plain, url: plainUrl } = await plainStaticServer(app.outDir, BASE);
    const other = await browser.newContext({ viewport: { width: 1100, height: 1200 } });
    try {
      const p = await other.newPage();
      p.on('pageerror', (e) => pageErrors.push(e.message));
      await p.goto(plainUrl);
      await appReady(p);
      expect(await p.evaluate(() => self.crossOriginIsolated)).toBe(false);
      const model = p.getByTestId('model-status');
      expect(await model.getAttribute('data-isolated')).toBe('no');
      expect(await model.getAttribute('data-threads')).toBe('1');
      // Still correct: the demo library answers a search with dense scores.
      await p.getByRole('searchbox', { name: /search/i }).fill('home office allowance');
      await p.getByRole('searchbox', { name: /search/i }).press('Enter');
      const dense = p.getByTestId('result').first().locator('tr[data-signal="dense"] td[data-value]');
      await dense.waitFor({ timeout: 60_000 });
      expect(Number(await dense.getAttribute('data-value'))).toBeGreaterThan(0);

      await p.getByTestId('offline-ready').waitFor({ timeout: 120_000 });
      // The host sends no policy either: the page's is the <meta> one, which cannot say frame-ancestors.
      const reloaded = await p.reload();
      await p.locator('[data-testid="model-status"][data-state="ready"]').waitFor({ timeout: 180_000 });
      expect(await p.evaluate(() => self.crossOriginIsolated)).toBe(true);
      // Served by the service worker, the page carries the header policy (src/sw/precache.ts SERVED_HEADERS).
      expect(reloaded?.fromServiceWorker()).toBe(true);
      expect(reloaded?.headers()['content-security-policy']).toBe(serializeCsp(CSP_DIRECTIVES));
      expect(await model.getAttribute('data-isolated')).toBe('yes');
      console.log(
        `[e2e offline] no headers from the host: threads 1 on the first visit, ${await model.getAttribute('data-threads')} once served by the service worker`,
      );
      expect(pageErrors).toEqual([]);
    } finally {
      await other.close();
      plain.closeAllConnections();
      await new Promise((r) => plain.close(r));
    }
  });
});
