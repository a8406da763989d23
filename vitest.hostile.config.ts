import { defineConfig } from 'vitest/config';

// The standing adversarial suite (issue 10): bombs, hangs and properties run as child processes of
// bin/atlevel.js. Slow by design, so kept out of `npm test`; `npm run test:hostile` runs it.
export default defineConfig({
  test: {
    include: ['test/hostile/**/*.hostile.ts'],
    // Scratch folders go under one per-run folder, removed at the end (test/helpers/scratch-tmpdir.ts).
    globalSetup: ['test/helpers/scratch-tmpdir.ts'],
    reporters: ['default', './test/helpers/skip-summary.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Two cores: one file at a time, and children measured one by one so peak memory is the case's own.
    fileParallelism: false,
    maxConcurrency: 2,
  },
});
