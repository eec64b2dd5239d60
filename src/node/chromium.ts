/**
 * Debian's headless Chromium, launched quietly and offline-friendly: one set of flags for the e2e
 * suites (`test/e2e/browser.ts`) and the browser benchmarks (`src/cli/bench-*browser.ts`).
 */
import type { Browser } from 'playwright-core';

/** Debian's Chromium; `EVIDENT_CHROMIUM` overrides it (e.g. to check the skip path). */
export const CHROMIUM_PATH = process.env.EVIDENT_CHROMIUM || '/usr/bin/chromium';

/** Flags for a quiet, offline-friendly headless Chromium (no background calls home). */
export const CHROMIUM_ARGS: readonly string[] = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);

/** Launches `CHROMIUM_PATH` with `CHROMIUM_ARGS` and any extra flags (e.g. `--js-flags=--expose-gc`). */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  // Loaded on demand: the CLIs that never open a browser do not pay for playwright-core.
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs], headless: true });
}
