import { defineConfig } from 'vitest/config';

// End-to-end tests in a real Chromium (Debian's /usr/bin/chromium through playwright-core).
// The global setup builds the app and serves it with `vite preview`; see test/e2e/global-setup.ts.
// Also a project of vitest.config.ts, so `npm test` runs it; `npm run test:e2e` runs it alone.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['test/e2e/**/*.e2e.test.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    testTimeout: 240_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // One browser at a time: the suite measures load and embedding times.
    fileParallelism: false,
  },
});
