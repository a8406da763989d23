/**
 * test/fixtures/analyze/day2-kubeletconfig-after-update shifted so that its KubeletConfig's render lands
 * 3 s after the completion (03:29:14), with origin's upgrade test log
 * (test/fixtures/analyze/origin-violation-after-day2/build-log.txt): its first poll after the
 * completion sees the master pool rolling out that render and logs an invariant violation, while
 * atlevel's own evidence says the master pool had finished the update's config.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from './fixtures.js';

export function dayTwoRightAfterCompletion(): string {
  const dir = mkdtempSync(join(tmpdir(), 'atlevel-origin-'));
  cpSync(join(projectRoot, 'test/fixtures/analyze/day2-kubeletconfig-after-update'), dir, {
    recursive: true,
  });
  for (const f of ['machineconfigs.json', 'events.json']) {
    const p = join(dir, f);
    writeFileSync(
      p,
      readFileSync(p, 'utf8')
        .replaceAll('2021-11-03T03:33:00Z', '2021-11-03T03:29:13Z')
        .replaceAll('2021-11-03T03:33:05Z', '2021-11-03T03:29:14Z'),
    );
  }
  cpSync(
    join(projectRoot, 'test/fixtures/analyze/origin-violation-after-day2/build-log.txt'),
    join(dir, 'build-log.txt'),
  );
  return dir;
}
