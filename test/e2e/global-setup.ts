/**
 * E2E global setup: builds the app into a temporary folder with the real `vite.config.ts`,
 * serves it with `vite preview` (so the COOP/COEP headers under test are the shipped ones) on
 * 127.0.0.1 and a free port, and hands the URL to the tests through `provide`.
 *
 * Without /usr/bin/chromium the suite is skipped with a printed notice, unless CI or
 * REQUIRE_BROWSER=1 is set: then the missing browser fails the run.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview } from 'vite';
import type { TestProject } from 'vitest/node';
import { copyAssets } from '../../scripts/copy-assets.ts';
import { ensureTinyModels } from '../../scripts/make-tiny-models.ts';
import { CHROMIUM_PATH } from '../../src/node/chromium';

export interface E2eContext {
  /** Set when the suite must skip: the reason, printed by the test file. */
  readonly skip: string | null;
  readonly baseUrl: string;
  readonly buildMs: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: E2eContext;
  }
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function browserRequired(): boolean {
  return Boolean(process.env.CI) || process.env.REQUIRE_BROWSER === '1';
}

/** A port the OS reports free right now (the preview server binds it with strictPort). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolvePort(addr.port) : reject(new Error('no port'))));
    });
  });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM_PATH)) {
    const reason = `${CHROMIUM_PATH} is missing: the Chromium e2e suite is SKIPPED (install Debian's chromium to run it).`;
    if (browserRequired()) throw new Error(`${reason} CI / REQUIRE_BROWSER=1 is set, so this is a failure.`);
    console.warn(`\n[e2e] ${reason}\n`);
    project.provide('e2e', { skip: reason, baseUrl: '', buildMs: 0 });
    return async () => {};
  }

  // The tiny test models ship in the test build (models.e2e.test.ts loads them through Settings).
  await ensureTinyModels(join(root, 'models'));
  await copyAssets(root);
  const outDir = await mkdtemp(join(tmpdir(), 'evident-e2e-'));
  const configFile = join(root, 'vite.config.ts');
  const t0 = performance.now();
  await build({ root, configFile, mode: 'production', logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const buildMs = Math.round(performance.now() - t0);
  const port = await freePort();
  const server = await preview({
    root,
    configFile,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port, strictPort: true, open: false },
  });
  const baseUrl = `http://127.0.0.1:${port}${server.config.base}`;
  project.provide('e2e', { skip: null, baseUrl, buildMs });

  return async () => {
    await server.close();
    await rm(outDir, { recursive: true, force: true });
  };
}
