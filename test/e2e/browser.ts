/**
 * Shared by the e2e suites: launching Debian's Chromium quietly and offline-friendly (the flags
 * live in `src/node/chromium.ts`, shared with the browser benchmarks), and the URL schemes that
 * never reach the network.
 */
export { launchChromium } from '../../src/node/chromium';

/** Schemes that never reach the network. */
export const LOCAL_SCHEMES = ['data:', 'blob:'];

/** The requests that left `origin`: URLs of other hosts (the local schemes never reach the network). */
export function offOrigin(requests: Iterable<string>, origin: string): string[] {
  return [...requests].filter((u) => !u.startsWith(`${origin}/`) && !LOCAL_SCHEMES.some((s) => u.startsWith(s)));
}
