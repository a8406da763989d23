/**
 * Which test files are end-to-end suites, run by `npm run test:e2e` (vitest.e2e.config.ts) and left
 * out of `npm test` (vitest.config.ts): one list, so a file is in exactly one of the two.
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
  'test/runs/stats-html.test.ts',
] as const;
