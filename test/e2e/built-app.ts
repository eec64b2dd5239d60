/**
 * Shared by the e2e suites that need a server of their own (one they shut down to go offline, or
 * one under another base path): the app built with the real vite.config.ts into a temporary
 * folder and served by `vite preview` on 127.0.0.1 and a free port, and the waits on the page
 * those suites share. The e2e global setup has already copied the public assets and generated
 * the tiny models.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build, preview, type PreviewServer } from 'vite';
import { launchChromium } from './browser';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface BuiltApp {
  readonly outDir: string;
  readonly server: PreviewServer;
  /** The app's URL: the server's origin and `base`. */
  readonly url: string;
}

/** Builds the app into a new temporary folder named `prefix…` and serves it. */
async function buildAndPreview(prefix: string, base?: string): Promise<BuiltApp> {
  const outDir = await mkdtemp(join(tmpdir(), prefix));
  const configFile = join(ROOT, 'vite.config.ts');
  const at = base === undefined ? {} : { base };
  try {
    await build({
      root: ROOT,
      configFile,
      ...at,
      mode: 'production',
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
    const server = await preview({
      root: ROOT,
      configFile,
      ...at,
      logLevel: 'warn',
      build: { outDir },
      preview: { host: '127.0.0.1', port: 0, open: false },
    });
    return { outDir, server, url: server.resolvedUrls?.local[0] ?? '' };
  } catch (err) {
    await rm(outDir, { recursive: true, force: true });
    throw err;
  }
}

/** A built app, served, open in a page of a fresh Chromium. */
export interface AppInBrowser {
  readonly outDir: string;
  readonly url: string;
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  /** Uncaught errors of the page (tests add those of other pages they open). */
  readonly pageErrors: string[];
  /** Shuts the server down (with the context offline, no network is left). */
  stopServer(): Promise<void>;
  /** Closes the browser and the server and removes the build. */
  close(): Promise<void>;
}

/**
 * The app built and served (`base` as in vite's config), then Chromium with one context of
 * `viewport` and one page, not yet navigated.
 */
export async function openBuiltApp(
  prefix: string,
  options: { readonly base?: string; readonly viewport: { readonly width: number; readonly height: number } },
): Promise<AppInBrowser> {
  const { outDir, server, url } = await buildAndPreview(prefix, options.base);
  let running: PreviewServer | null = server;
  const stopServer = async (): Promise<void> => {
    const s = running;
    running = null;
    await s?.close();
  };
  let browser: Browser | null = null;
  const close = async (): Promise<void> => {
    await browser?.close();
    await stopServer();
    await rm(outDir, { recursive: true, force: true });
  };
  try {
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { ...options.viewport } });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    return { outDir, url, browser, context, page, pageErrors, stopServer, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Waits until the embedding model and the library are ready (the app has started). `attached`
 * where the status may sit on a page not shown (e.g. under Settings).
 */
export async function appReady(page: Page, state: 'visible' | 'attached' = 'visible'): Promise<void> {
  const wait = { state, timeout: 180_000 } as const;
  await page.locator('[data-testid="model-status"][data-state="ready"]').waitFor(wait);
  await page.locator('[data-testid="library"][data-state="ready"]').waitFor(wait);
}

/** Waits until the service worker is active and controls the page (it claims it once installed). */
export async function serviceWorkerControls(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
    }
  });
}

/** A text file as `setInputFiles` takes it. */
export interface TextFile {
  readonly name: string;
  readonly mimeType: string;
  readonly buffer: Buffer;
}

/** A file to add: a path on disk (its base name names it), or a name and bytes as `setInputFiles` takes them. */
export type FileToAdd = string | TextFile;

/** The document id the app gives an added file. */
export function fileDocId(file: FileToAdd): string {
  return `file:${typeof file === 'string' ? basename(file) : file.name}`;
}

/**
 * Adds `files` through the Library tab in one pick and waits until each is searchable by its words:
 * listed in the Library (stored and BM25-indexed; its meaning vectors may still be coming).
 * Resolves with the milliseconds from the pick to each file's listing, in the order given.
 */
export async function addFiles(
  page: Page,
  files: readonly FileToAdd[],
  options: { readonly timeout?: number } = {},
): Promise<number[]> {
  const timeout = options.timeout ?? 120_000;
  await page.getByRole('tab', { name: 'Library' }).click();
  const t0 = Date.now();
  const paths = files.filter((f): f is string => typeof f === 'string');
  const payloads = files.filter((f): f is TextFile => typeof f !== 'string');
  // One pick holds paths or payloads, not both (as a file dialog gives one or the other).
  if (paths.length > 0 && payloads.length > 0) throw new Error('addFiles: pass paths or payloads, not both');
  await page.getByLabel('Add documents').setInputFiles(paths.length > 0 ? paths : payloads);
  const took: number[] = [];
  for (const f of files) {
    await page
      .getByTestId('library')
      .locator(`li[data-doc-id="${fileDocId(f)}"]`)
      .waitFor({ timeout });
    took.push(Date.now() - t0);
  }
  return took;
}

/** Asks `question` on the Ask tab and waits for the answer. */
export async function askQuestion(page: Page, question: string): Promise<void> {
  await page.getByRole('tab', { name: 'Ask' }).click();
  await page.getByLabel('Your question').fill(question);
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await page
    .getByTestId('ask-status')
    .getByText(/Answered in/)
    .waitFor({ timeout: 120_000 });
}

/** A browser with one page on the app, started, and the page's uncaught errors as they come. */
export interface AppPage {
  readonly browser: Browser;
  readonly page: Page;
  readonly pageErrors: string[];
}

/** Launches Chromium, opens the app at `baseUrl` and waits until it has started. */
export async function openAppPage(
  baseUrl: string,
  viewport: { readonly width: number; readonly height: number } = { width: 1280, height: 900 },
): Promise<AppPage> {
  await mkdir('test-results', { recursive: true });
  const browser = await launchChromium();
  const page = await (await browser.newContext({ viewport: { ...viewport } })).newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(baseUrl);
  await appReady(page);
  return { browser, page, pageErrors };
}
