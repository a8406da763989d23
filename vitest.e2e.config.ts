import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { E2E_SUITES } from './vitest.suites.js';

// The long end-to-end suites (issue 42): the served API driven by a real kubectl, live clusters with
// faults, CI URLs with faults, PostgreSQL and the HTML report in chromium. They start real processes
// and servers and wait on them, so they have a script of their own, `npm run test:e2e`; .ci/run runs
// them after `npm test`. Each skips, saying why, when its tool (kubectl, chromium, a server) is absent.
export default defineConfig({
  test: {
    include: [...E2E_SUITES],
    // Scratch folders go under one per-run folder, removed at the end (test/helpers/scratch-tmpdir.ts).
    globalSetup: ['test/helpers/scratch-tmpdir.ts'],
    reporters: ['default', './test/helpers/skip-summary.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Two workers on two cores, as `npm test` (vitest.config.ts): these files mostly wait on the
    // processes and servers they start, and one worker (vitest's default there) left the second core
    // idle for most of the suite's 9 minutes. The simulator's ground truth, the longest file, then runs
    // beside the others instead of after them.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
