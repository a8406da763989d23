/** The upgrade test's log (docs/domain.md 6): CVO polls every 10 s, then pool polls every 10 s. */
import { MASTER_INVARIANT, TARGET_IMAGE, UPGRADE_REQUESTED } from './facts.js';
import type { PoolRun, TestLine, Variant } from './types.js';
import { at, rng, SECOND } from './util.js';

const CV_POLL_BASE = at('02:53:15.742');
const POLL = 10 * SECOND;

export function testLog(
  variant: Variant,
  progress: { steps: [number, string][]; completedAt: number },
  poolRuns: readonly PoolRun[],
): { lines: TestLine[]; completedLogAt: number; allPoolsAt: number; end: number; violationAt?: number } {
  const r = rng(`test-log:${variant}`);
  const lines: TestLine[] = [
    { at: UPGRADE_REQUESTED, text: `Starting upgrade to version= image=${TARGET_IMAGE}` },
  ];
  const messageAt = (t: number) => {
    let msg = '';
    for (const [from, m] of progress.steps) if (from <= t) msg = m;
    return msg;
  };
  let tick = CV_POLL_BASE;
  while (tick < progress.completedAt) {
    lines.push({ at: tick + r.int(58, 141), text: `cluster upgrade is Progressing: ${messageAt(tick)}` });
    tick += POLL;
  }
  const completedLogAt = tick + 116;
  lines.push({ at: completedLogAt, text: `Completed upgrade to ${TARGET_IMAGE}` });
  const waitingAt = completedLogAt + 73;
  lines.push({ at: waitingAt, text: 'Waiting on pools to be upgraded' });
  let violationAt: number | undefined;
  let poll = waitingAt;
  for (let k = 0; ; k += 1) {
    const pending = poolRuns.filter((p) => p.updatedAt > poll);
    if (pending.length === 0) break;
    let t = poll + (k === 0 ? 132 : r.int(64, 151));
    for (const p of pending) {
      lines.push({
        at: t,
        text: `Pool ${p.name} is still reporting (Updated: false, Updating: true, Degraded: false)`,
      });
      if (p.name === 'master' && violationAt === undefined) {
        violationAt = t;
        lines.push({ at: t, text: `Invariant violation detected: ${MASTER_INVARIANT}` });
      }
      t += k === 0 ? 65 : r.int(38, 83);
    }
    poll += POLL;
  }
  const allPoolsAt = poll + 393;
  lines.push({ at: allPoolsAt, text: 'All pools completed upgrade' });
  const end = violationAt !== undefined ? allPoolsAt + 1_884 : allPoolsAt + 21_206;
  return { lines, completedLogAt, allPoolsAt, end, ...(violationAt !== undefined ? { violationAt } : {}) };
}
