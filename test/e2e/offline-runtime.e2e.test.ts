/**
 * The service worker's runtime cache, in a real Chromium: onnxruntime-web and the models other
 * than the embedded one are not precached (Embedded-profile users never load them), they are
 * cached on first use, once, and load with no network afterwards.
 *
 * The app is built here (the real vite.config.ts) and served by its own `vite preview`. A first
 * visit installs the service worker; the page is reloaded so that the app's worker, too, is
 * served by it; the tiny test profile (onnxruntime-web + generated ONNX models, `?test-models`)
 * is loaded through Settings. Then the context goes offline and the server is shut down, the page
 * reloads and the worker restores the remembered tiny profile by itself: every onnxruntime-web
 * and model file comes from Cache Storage.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FILE_HASH_HEADER, MODEL_CACHE } from '../../src/sw/precache';
import { LOCAL_SCHEMES } from './browser';
import { appReady, openBuiltApp, serviceWorkerControls, type AppInBrowser } from './built-app';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

/** What Cache Storage holds: per cache, each entry's path and its file-hash header. */
function cachedEntries(page: Page, header: string): Promise<Record<string, { path: string; hash: string | null }[]>> {
  return page.evaluate(async (h) => {
    const out: Record<string, { path: string; hash: string | null }[]> = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      out[name] = await Promise.all(
        (await cache.keys()).map(async (r) => ({
          path: new URL(r.url).pathname,
          hash: (await cache.match(r))?.headers.get(h) ?? null,
        })),
      );
    }
    return out;
  }, header);
}

describe.skipIf(ctx.skip !== null)('onnxruntime-web and test models: cached on first use (Chromium)', () => {
  let app: AppInBrowser;

  beforeAll(async () => {
    app = await openBuiltApp('evident-offline-runtime-e2e-', { viewport: { width: 1100, height: 1400 } });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('on a very first visit, a profile loaded before the service worker took over still gets onnxruntime-web cached', async () => {
    // A context of its own: nothing installed, nothing cached. The app's worker starts before the
    // service worker exists, so it fetches onnxruntime-web itself; the page then asks the
    // service worker to store it.
    const context = await app.browser.newContext({ viewport: { width: 1100, height: 1400 } });
    try {
      // The service worker's script is held back until the profile has loaded: whatever the
      // timing of a real first visit, onnxruntime-web is then fetched with no service worker.
      let releaseServiceWorker = (): void => {};
      const held = new Promise<void>((resolve) => (releaseServiceWorker = resolve));
      await context.route(/\/sw\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(new URL('./?test-models#settings', app.url).href);
      await appReady(page, 'attached');
      await page.getByTestId('test-models').getByRole('button', { name: 'Load the tiny test models' }).click();
      await page.locator('[data-testid="profile-load"][data-state="ready"]').waitFor({ timeout: 120_000 });
      expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
      releaseServiceWorker();
      const ortStamped = async (): Promise<string[]> =>
        ((await cachedEntries(page, FILE_HASH_HEADER))[MODEL_CACHE] ?? [])
          .filter((e) => e.path.startsWith('/vendor/ort/') && e.hash !== null)
          .map((e) => e.path)
          .sort();
      await expect
        .poll(ortStamped, { timeout: 60_000 })
        .toEqual([
          '/vendor/ort/ort-wasm-simd-threaded.asyncify.mjs',
          '/vendor/ort/ort-wasm-simd-threaded.asyncify.wasm',
        ]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('precaches no onnxruntime-web file; caches it and the models once on first use; loads them offline', async () => {
    const { page, context, pageErrors } = app;
    await page.goto(new URL('./?test-models#settings', app.url).href);
    await appReady(page, 'attached');
    await serviceWorkerControls(page);
    // Reloaded: the app's worker is now started by a page the service worker serves.
    await page.reload();
    await appReady(page, 'attached');
    const before = await cachedEntries(page, FILE_HASH_HEADER);
    const precache = Object.entries(before).find(([name]) => name.startsWith('evident-precache:'));
    expect(precache, Object.keys(before).join(', ')).toBeDefined();
    const precached = precache![1].map((e) => e.path);
    expect(precached).toContain('/models/use-lite/group1-shard1of7');
    expect(precached.filter((p) => p.startsWith('/vendor/ort/') || p.startsWith('/models/tiny/'))).toEqual([]);

    await page.getByTestId('test-models').getByRole('button', { name: 'Load the tiny test models' }).click();
    await page.locator('[data-testid="profile-load"][data-state="ready"]').waitFor({ timeout: 120_000 });
    await page.locator('[data-testid="reembed"][data-state="done"]').waitFor({ timeout: 120_000 });

    const after = await cachedEntries(page, FILE_HASH_HEADER);
    const runtime = after[MODEL_CACHE] ?? [];
    const ort = runtime.filter((e) => e.path.startsWith('/vendor/ort/'));
    const tiny = runtime.filter((e) => e.path.startsWith('/models/tiny/'));
    // Both onnxruntime-web files, stored by the service worker (the build's hash on each).
    expect(ort.map((e) => e.path).sort()).toEqual([
      '/vendor/ort/ort-wasm-simd-threaded.asyncify.mjs',
      '/vendor/ort/ort-wasm-simd-threaded.asyncify.wasm',
    ]);
    for (const e of [...ort, ...tiny]) expect(e.hash, e.path).toMatch(/^[0-9a-f]{16}$/);
    expect(tiny.length).toBeGreaterThan(4);
    // One copy: no other cache holds them.
    for (const [name, entries] of Object.entries(after)) {
      if (name === MODEL_CACHE) continue;
      expect(entries.filter((e) => e.path.startsWith('/vendor/ort/') || e.path.startsWith('/models/tiny/'))).toEqual(
        [],
      );
    }

    // No network: the context is offline and the server is gone.
    await context.setOffline(true);
    await app.stopServer();
    const responses: { url: string; fromServiceWorker: boolean; status: number }[] = [];
    const failed: string[] = [];
    context.on('response', (r) =>
      responses.push({ url: r.url(), fromServiceWorker: r.fromServiceWorker(), status: r.status() }),
    );
    context.on('requestfailed', (r) => failed.push(r.url()));
    await page.reload();
    await appReady(page, 'attached');
    // The worker restores the remembered tiny profile by itself, from Cache Storage.
    const load = page.locator('[data-testid="profile-load"][data-state="ready"][data-profile="tiny"]');
    await load.waitFor({ timeout: 120_000 });
    expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);
    const served = responses.filter((r) => !LOCAL_SCHEMES.some((s) => r.url.startsWith(s)));
    expect(served.filter((r) => !r.fromServiceWorker)).toEqual([]);
    expect(failed.filter((u) => u.includes('/vendor/ort/') || u.includes('/models/'))).toEqual([]);
    expect(pageErrors).toEqual([]);
    console.log(
      `[e2e offline-runtime] cached on first use: ${ort.length} onnxruntime-web + ${tiny.length} tiny model files; ` +
        `offline reload restored the tiny profile (${served.length} responses, all from the service worker)`,
    );
  });
});
