import { defineConfig } from 'vitest/config';

// The quality suites: thresholds that hold only on whole shared-data corpora (`*.quality.test.ts`),
// apart from `npm test` because they take minutes: with dense vectors a cold embedding cache must
// embed each corpus first (SciFact: ~29k chunks, ~12 min with two processes on 2 cores); the
// financebench dev half (keywords only) parses 38 filings and asks 60 questions (~2 min); the USE tokenizer
// meets its quadratic reference on every SciFact document (~3 min; `npm test` checks a seeded 200). `npm run test:quality`
// runs them; `.ci/run` runs them after `npm test`, before the SciFact `eval --check` that reads the
// same vectors. They skip with a notice without ../shared, unless REQUIRE_SHARED=1.
export default defineConfig({
  test: {
    name: 'quality',
    include: ['src/**/*.quality.test.ts', 'test/**/*.quality.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60 * 60_000,
    pool: 'forks',
    // One suite at a time: each fills the embedding cache with every core (fillProcesses()).
    fileParallelism: false,
  },
});
