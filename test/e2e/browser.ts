/**
 * Shared by the e2e suites: launching Debian's Chromium quietly and offline-friendly (the flags
 * live in `src/node/chromium.ts`, shared with the browser benchmarks), and the URL schemes that
 * never reach the network.
 */
export { CHROMIUM_ARGS, launchChromium } from '../../src/node/chromium';

/** Schemes that never reach the network. */
export const LOCAL_SCHEMES = ['data:', 'blob:'];
