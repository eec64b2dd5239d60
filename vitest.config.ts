import { defineConfig } from 'vitest/config';

// Unit and integration tests (Node). Shared-data suites read ../shared at run time and skip
// with a printed notice when it is missing, unless REQUIRE_SHARED=1.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
