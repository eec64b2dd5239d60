/**
 * Start smoke: runs the README's start command (`npm start`, the Vite dev server) on a free port,
 * opens the page in Debian's Chromium and measures how long it takes until the demo library is
 * listed and searchable, and until the embedded model is ready. Prints one line of figures.
 *
 *   npx tsx scripts/start-smoke.ts            # used by .ci/run
 *
 * It fails (exit 1) only when the app does not get there at all within the hard limit
 * (`--limit-s`, default 180 s) or the page reports an error: the figures are a measurement,
 * reported in BENCHMARKS.md, not an assertion (timings on a shared machine vary).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../test/e2e/browser.ts';
import { freePort } from '../test/e2e/global-setup.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

async function waitForHttp(url: string, deadline: number, server: ChildProcess): Promise<void> {
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`npm start exited with code ${server.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`npm start did not serve ${url} in time`);
}

async function main(): Promise<void> {
  const limitArg = process.argv.indexOf('--limit-s');
  const limitS = limitArg > 0 ? Number(process.argv[limitArg + 1]) : 180;
  if (!Number.isFinite(limitS) || limitS <= 0) throw new Error('--limit-s takes a positive number of seconds');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const t0 = Date.now();
  const deadline = t0 + limitS * 1000;
  // Exactly the README's command, with the port pinned so parallel runs cannot collide.
  const server = spawn('npm', ['start', '--', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let serverLog = '';
  server.stdout?.on('data', (d: Buffer) => (serverLog += d.toString()));
  server.stderr?.on('data', (d: Buffer) => (serverLog += d.toString()));
  const browser = await launchChromium();
  try {
    await waitForHttp(url, deadline, server);
    const servedMs = Date.now() - t0;
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const tPage = Date.now();
    await page.goto(url);
    const remaining = () => Math.max(1000, deadline - Date.now());
    const library = page.getByTestId('library');
    await library.and(page.locator('[data-state="ready"], [data-state="error"]')).waitFor({ timeout: remaining() });
    if ((await library.getAttribute('data-state')) !== 'ready') {
      throw new Error(`the library did not load: ${await library.innerText()}`);
    }
    const documents = await library.getByRole('listitem').count();
    if (documents < 3) throw new Error(`the demo library lists ${documents} documents, expected at least 3`);
    const libraryMs = Date.now() - tPage;
    const model = page.getByTestId('model-status');
    await model.and(page.locator('[data-state="ready"], [data-state="error"]')).waitFor({ timeout: remaining() });
    if ((await model.getAttribute('data-state')) !== 'ready') {
      throw new Error(`the embedded model did not load: ${await model.innerText()}`);
    }
    const modelMs = Date.now() - tPage;
    if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
    console.log(
      `[start-smoke] npm start served in ${servedMs} ms; page → demo library (${documents} documents) ` +
        `${libraryMs} ms; page → embedded model ready ${modelMs} ms; command → demo library ${servedMs + libraryMs} ms`,
    );
  } catch (e) {
    console.error(serverLog.slice(-4000));
    throw e;
  } finally {
    await browser.close();
    if (server.pid !== undefined) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  }
}

main().catch((e: unknown) => {
  console.error(`[start-smoke] FAILED: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
