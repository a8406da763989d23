/**
 * Which test files are end-to-end suites, run by `npm run test:e2e` (vitest.e2e.config.ts) and left
 * out of `npm test` (vitest.config.ts): one list, so a file is in exactly one of the two. These start
 * real processes, servers and stores and wait on them; together they were most of `npm test`'s time
 * (issue 42: 466 s on 2 cores), and `.ci/run` runs them after it.
 */
export const E2E_SUITES = [
  // kubectl against the served API
  'test/serve/kubectl.test.ts',
  'test/serve/oc-examples.test.ts',
  'test/serve/reviews.test.ts',
  'test/runs/deploy-manifests.test.ts',
  'test/cli/usage.test.ts',
  // live clusters: faults, plugins, kubeconfigs
  'test/live/faults.test.ts',
  'test/live/plugin.test.ts',
  'test/live/exec-plugin.test.ts',
  'test/live/kubeconfig-paths.test.ts',
  // CI URLs with faults
  'test/cli/urls.test.ts',
  'test/sources/url-fetch.test.ts',
  // PostgreSQL
  'test/store/postgres-concurrency.test.ts',
  // the HTML report and the stats page in chromium
  'test/report-html/browser.test.ts',
  'test/report-html/hosted-browser.test.ts',
  'test/runs/stats-html.test.ts',
  // the docs' console examples, each run as a shell command against the built CLI
  'test/docs/console-examples.test.ts',
  // many runs ingested by worker pools into a run store, killed and resumed; stats over a corpus
  'test/runs/ingest.test.ts',
  'test/runs/ingest-timeout.test.ts',
  'test/runs/corpus-stats.test.ts',
  'test/runs/hosted-stats.test.ts',
  'test/store/stats-summaries.test.ts',
  // serve replaying an update in real time, and stopped by signals; watch against a fake API server
  'test/serve/replay.test.ts',
  'test/serve/kubeconfig-cleanup.test.ts',
  'test/live/watch.test.ts',
  // the simulator's realistic scenarios against analyze: 7 scenarios x 3 policies x 50 seeds, each run
  // written to disk and read back (about 4 minutes on 2 cores)
  'test/analyze/simulate-ground-truth.property.test.ts',
  // simulate's verdict against analyze's on 5 more seeds per scenario × policy than npm test's one
  'test/analyze/simulate-verdict-seeds.property.test.ts',
  // the hosted model against analyze: 2 NodePool scenarios x 2 policies x 50 seeds, dumps read back
  'test/analyze/simulate-hosted-ground-truth.property.test.ts',
  // the model checker over every state of the 3-master + 3-worker scenario (tens of thousands)
  'test/sim/check-three-plus-three.test.ts',
] as const;
