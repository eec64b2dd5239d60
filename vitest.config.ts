import { configDefaults, defineConfig } from 'vitest/config';

// `npm test` runs two projects:
// - unit: unit and integration tests (Node). Shared-data suites read ../shared at run time and
//   skip with a printed notice when it is missing, unless REQUIRE_SHARED=1. The quality suites
//   (`*.quality.test.ts`: whole-corpus thresholds that need a filled embedding cache) are not
//   here but in vitest.quality.config.ts (`npm run test:quality`; `.ci/run` runs both).
// - e2e: the app in a real Chromium (vitest.e2e.config.ts; `npm run test:e2e` runs it alone).
//   Skips with a printed notice when /usr/bin/chromium is missing, unless CI or REQUIRE_BROWSER=1.
export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/e2e/**', '**/*.quality.test.ts'],
        },
      },
      './vitest.e2e.config.ts',
    ],
  },
});
