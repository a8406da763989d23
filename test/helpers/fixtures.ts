/**
 * The real public data lives outside the project (../shared/fixtures, or $ATLEVEL_FIXTURES) and is never
 * copied in. Tests that need it use `describeFixtures`, which skips with a clear reason when it is absent.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';

export const projectRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export function fixturesDir(): string | undefined {
  const candidates = [process.env.ATLEVEL_FIXTURES, resolve(projectRoot, '../shared/fixtures')];
  return candidates.find((d): d is string => d !== undefined && d !== '' && existsSync(d));
}

/** Path of a file under the shared fixtures; only call inside `describeFixtures`. */
export function fixture(...parts: string[]): string {
  const dir = fixturesDir();
  if (dir === undefined) throw new Error('fixtures not found');
  return join(dir, ...parts);
}

/** Why a test that needs the public fixtures was skipped (test/helpers/skip-summary.ts counts these). */
export const NO_FIXTURES = 'public fixtures not found (set ATLEVEL_FIXTURES to their folder)';

/** `describe` that runs only when the shared fixtures exist, and says why it was skipped otherwise. */
export function describeFixtures(name: string, body: () => void): void {
  if (fixturesDir() === undefined) {
    describe.skip(`${name} (skipped: ${NO_FIXTURES})`, body);
  } else {
    describe(name, body);
  }
}

/** oc's `oc adm upgrade status` example snapshots (openshift/oc pkg/cli/admin/upgrade/status/examples). */
export const OC_STATUS_EXAMPLES = 'openshift__oc/pkg/cli/admin/upgrade/status/examples';

/** The seven cases of those examples, each a `CASE-cv.yaml`, `-co.yaml`, ... set with oc's expected output. */
export const OC_STATUS_CASES = [
  'not-upgrading',
  'no-version-upgrading',
  '4.14.1-degraded',
  '4.14.1-paused-worker-pool',
  '4.15.0-ec2-early',
  '4.16.0-compact',
  '4.16.0-single-node',
] as const;
