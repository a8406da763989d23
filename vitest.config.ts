import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { E2E_SUITES } from './vitest.suites.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The end-to-end suites run with `npm run test:e2e` (vitest.e2e.config.ts).
    exclude: ['dist/**', 'node_modules/**', ...E2E_SUITES],
    // Scratch folders go under one per-run folder, removed at the end (test/helpers/scratch-tmpdir.ts).
    globalSetup: ['test/helpers/scratch-tmpdir.ts'],
    // After the summary, one line per reason tests were skipped (test/helpers/skip-summary.ts).
    reporters: ['default', './test/helpers/skip-summary.ts'],
    // One module graph per worker, not per file: the suite's files share no mutable module state, and
    // re-importing the code for each of ~150 files was a third of npm test's CPU time (issue 42).
    isolate: false,
    // Vitest's default is one worker fewer than the cores: a single worker on the 2-core machines the
    // suite runs on, whose second core then idled while a test waited on a child process, a server or
    // PGlite (issue 42). Two workers keep both cores busy; more cores keep vitest's default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
