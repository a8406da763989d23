/**
 * The CI clock (build log, interval files) against the cluster's (objects, Events): when the monitor's
 * "cluster reached" is minutes off ClusterVersion history's completionTime, the CI side is moved onto
 * the cluster's clock. Before, two minutes of skew made the fixed example fail both race rules (the
 * completion read on one clock, the master pool on the other), and the race of the bug example must
 * still be found whichever way the clock runs.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { ciClockSkew } from '../../src/sources/clock-skew.js';
import { clusterVersion, monitor } from '../helpers/build.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

const JUNIT = 'artifacts/e2e-aws-upgrade/openshift-e2e-test/artifacts/junit';
const LOG_TIME = /^(Nov {1,2}0?3) (\d\d):(\d\d):(\d\d)\.(\d{3})/;

/** A copy of a bundled example whose CI clock runs `seconds` off (negative: behind the cluster). */
function skewed(example: string, seconds: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'atlevel-skew-'));
  cpSync(join(projectRoot, 'examples', example), dir, { recursive: true });
  const log = join(dir, 'build-log.txt');
  const shifted = readFileSync(log, 'utf8')
    .split('\n')
    .map((line) => {
      const m = LOG_TIME.exec(line);
      if (!m) return line;
      const t = new Date(Date.UTC(2021, 10, 3, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])));
      const at = new Date(t.getTime() + seconds * 1000).toISOString().slice(11, 23);
      return `${m[1]} ${at}${line.slice(m[0].length)}`;
    })
    .join('\n');
  writeFileSync(log, shifted);
  for (const f of readdirSync(join(dir, JUNIT))) {
    const path = join(dir, JUNIT, f);
    const doc = JSON.parse(readFileSync(path, 'utf8')) as { items: { from?: string; to?: string }[] };
    const move = (s: string | undefined) =>
      s ? new Date(Date.parse(s) + seconds * 1000).toISOString().replace('.000Z', 'Z') : s;
    for (const i of doc.items) Object.assign(i, { from: move(i.from), to: move(i.to) });
    writeFileSync(path, JSON.stringify(doc));
  }
  return dir;
}

async function verdict(dir: string) {
  const h = await loadHistory([dir]);
  const r = analyzeHistory(h);
  return {
    verdict: r.verdict,
    race: r.outcomes.find((o) => o.rule.id === 'master-pool-updated-before-cvo-complete')?.state,
    note: h.notes.find((n) => n.includes("the cluster's clock")),
  };
}

describe('a CI clock minutes off the cluster', () => {
  it('the fixed example with the CI clock 2 minutes behind still passes, and a note says the times were moved', async () => {
    const r = await verdict(skewed('bug-2019850-fixed', -120));
    expect(r.verdict).toBe('pass');
    expect(r.note).toContain("behind the cluster's clock");
  });

  it('the bug example still fails with the CI clock 2 minutes behind or ahead', async () => {
    for (const s of [-120, 120]) {
      const r = await verdict(skewed('bug-2019850', s));
      expect(r.verdict).toBe('fail');
      expect(r.race).toBe('violated');
    }
  });

  it('no skew, no note: the fixed example as shipped', async () => {
    const r = await verdict(join(projectRoot, 'examples', 'bug-2019850-fixed'));
    expect(r.verdict).toBe('pass');
    expect(r.note).toBeUndefined();
  });
});

describe('ciClockSkew', () => {
  const reached = (iso: string, v: string) =>
    monitor(Date.parse(iso), 'ClusterVersion', { clusterversion: 'version' }, `cluster reached ${v}`);
  const cv = clusterVersion([
    { state: 'Completed', version: 'A', started: '2024-01-03T10:00:00Z', completed: '2024-01-03T11:00:00Z' },
    { state: 'Completed', version: 'B', started: '2024-01-02T10:00:00Z', completed: '2024-01-02T11:00:00Z' },
    { state: 'Completed', version: 'A', started: '2024-01-01T10:00:00Z', completed: '2024-01-01T11:00:00Z' },
  ]);

  it('an update back to a version is paired with its own completion, not the install of that version', () => {
    expect(ciClockSkew(cv, [reached('2024-01-03T11:00:00.400Z', 'A')])).toBeUndefined();
  });

  it('the median of the pairs; within a watch lag, no skew', () => {
    const skew = ciClockSkew(cv, [
      reached('2024-01-03T10:57:00.100Z', 'A'),
      reached('2024-01-02T10:57:00.300Z', 'B'),
    ]);
    expect(Math.round((skew?.offset ?? 0) / 1000)).toBe(-180);
    expect(ciClockSkew(cv, [reached('2024-01-02T11:00:12Z', 'B')])).toBeUndefined();
  });
});
