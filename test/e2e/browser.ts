/**
 * Shared by the e2e suites: launching Debian's Chromium quietly and offline-friendly, and the
 * URL schemes that never reach the network.
 */
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_PATH } from './global-setup';

/** Flags for a quiet, offline-friendly headless Chromium (no background calls home). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Schemes that never reach the network. */
export const LOCAL_SCHEMES = ['data:', 'blob:'];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}
