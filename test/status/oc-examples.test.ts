/**
 * atlevel status against `oc adm upgrade status` on oc's own example snapshots: the facts oc prints
 * in `.output` and `.detailed-output` must be the facts in atlevel's JSON. Where atlevel deliberately
 * differs (docs/status.md, "Where atlevel and oc differ"), the test says so and checks the difference.
 */
import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type StatusJson, statusToJson } from '../../src/report/status-json.js';
import { renderStatusText, shortDuration } from '../../src/report/status-text.js';
import { assessStatus } from '../../src/status/index.js';
import { describeFixtures, fixture, OC_STATUS_CASES } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';
import { type OcStatus, parseOcStatus, REBUILT_OC_CASES } from './oc-output.js';

const EXAMPLES = 'openshift__oc/pkg/cli/admin/upgrade/status/examples';
const CASES = OC_STATUS_CASES;

/**
 * Facts oc printed that do not come from the snapshot: oc's 4.15.0-ec2-early.detailed-output took
 * the "Updating Cluster Operators" SINCE column from a mock UpdateStatus (`-us.yaml`, synthetic
 * 2025 times) that is not part of the snapshot. In `-co.yaml`, kube-apiserver's Progressing=True is
 * the snapshot's latest condition change, i.e. "now" (docs/status.md).
 */
const KNOWN_SINCE: Record<string, Record<string, { oc: string; atlevel: string }>> = {
  '4.15.0-ec2-early': { 'kube-apiserver': { oc: '6m8s', atlevel: 'now' } },
};

function sinceText(json: StatusJson, since: string | null): string {
  if (since === null) return '-';
  const evaluated = Date.parse(json.evaluatedAt ?? '');
  return shortDuration(Math.trunc((evaluated - Date.parse(since)) / 1000) * 1000);
}

/** Every fact oc printed for one case, against atlevel's status of the same files. */
function agreesWithOc(name: string, prefix: () => string): void {
  describe(name, () => {
    let json: StatusJson;
    let oc: OcStatus;
    let ocDetailed: OcStatus;
    let ours: OcStatus;

    beforeAll(async () => {
      // `DIR/CASE` is how atlevel reads oc's examples layout (CASE-cv.yaml, CASE-co.yaml, ...).
      const path = prefix();
      const status = assessStatus(await loadHistory([path]));
      json = statusToJson(status);
      ours = parseOcStatus(renderStatusText(status, { width: 1000, details: 'all', colour: false }));
      ocDetailed = parseOcStatus(readFileSync(`${path}.detailed-output`, 'utf8'));
      // A rebuilt case may hold oc's detailed output only; its short output is the same facts.
      oc = existsSync(`${path}.output`) ? parseOcStatus(readFileSync(`${path}.output`, 'utf8')) : ocDetailed;
    });

    it('agrees whether an update is in progress', () => {
      expect(json.updating).toBe(oc.updating);
      expect(json.state).toBe(oc.updating ? 'updating' : 'idle');
    });

    it('control plane: assessment, versions, completion and operator counts', () => {
      if (!oc.updating) {
        expect(json.controlPlane.assessment).toBe('Completed');
        expect(json.insights).toEqual([]);
        return;
      }
      const cp = json.controlPlane;
      expect(cp.assessment).toBe(oc.assessment);
      expect(cp.targetVersion).toBe(oc.targetVersion);
      expect(cp.multiArchMigration).toBe(oc.multiArchMigration);
      if (!oc.multiArchMigration) {
        expect(cp.previousVersion).toBe(oc.previousVersion);
        expect(cp.previousPartial).toBe(oc.previousPartial);
      }
      expect(cp.completionPercent).toBe(oc.completion?.percent);
      expect(cp.operators.updated).toBe(oc.completion?.updated);
      expect(cp.operators.updating).toBe(oc.completion?.updating);
      expect(cp.operators.waiting).toBe(oc.completion?.waiting);
      expect(cp.operators.updatingOperators.map((o) => o.name)).toEqual(oc.updatingNames);
      expect({
        healthy: cp.operators.healthy,
        unavailable: cp.operators.unavailable,
        degraded: cp.operators.degraded,
      }).toEqual(oc.health);
    });

    it('duration and time left, in oc words (Est. Time Remaining)', () => {
      if (!oc.updating) return;
      const cp = json.controlPlane;
      expect(shortDuration((cp.durationSeconds ?? Number.NaN) * 1000)).toBe(oc.duration);
      // atlevel's own text, read back as oc's is: the same words for the same estimate.
      expect(ours.timeRemaining).toBe(oc.timeRemaining);
      const overdue = /^N\/A; estimate duration was (\S+)$/.exec(oc.timeRemaining ?? '');
      if (overdue) {
        expect(cp.assessment).toBe('Stalled');
        expect(shortDuration((cp.estimate.totalDurationSeconds ?? Number.NaN) * 1000)).toBe(overdue[1]);
      } else if (oc.timeRemaining === 'N/A for Multi-Architecture Migration') {
        expect(cp.multiArchMigration).toBe(true);
        expect(cp.estimate.timeLeftSeconds).toBeNull();
        expect(cp.estimate.withheldBecause).toMatch(/multi-architecture/);
      } else {
        expect(cp.estimate.withheldBecause).toBeNull();
      }
    });

    it('updating operators with their reason and since (--details=operators)', () => {
      const ops = json.controlPlane.operators.updatingOperators;
      expect(ops.map((o) => o.name)).toEqual(ocDetailed.updatingOperators.map((o) => o.name));
      ocDetailed.updatingOperators.forEach((o, i) => {
        const known = KNOWN_SINCE[name]?.[o.name];
        if (known) expect(o.since).toBe(known.oc);
        expect(sinceText(json, ops[i]?.since ?? null)).toBe(known ? known.atlevel : o.since);
        const reason = ops[i]?.reason || '-';
        expect(
          o.reason.endsWith('...') ? reason.startsWith(o.reason.slice(0, -3)) : reason === o.reason,
        ).toBe(true);
      });
    });

    it('worker pools: assessment and updated/total', () => {
      const workers = json.pools.filter((p) => !p.controlPlane);
      if (!oc.updating) {
        // oc prints nothing; atlevel still counts the pools, and every node is at the version.
        for (const p of json.pools) expect(p.updated).toBe(p.total);
        return;
      }
      // oc hides the worker section when no worker pool has nodes (compact, single node).
      expect(oc.hasWorkerSection).toBe(workers.some((p) => p.total > 0));
      for (const ocPool of oc.workerPools) {
        const pool = workers.find((p) => p.name === ocPool.name);
        expect(pool, ocPool.name).toBeDefined();
        expect(pool?.assessment).toBe(ocPool.assessment);
        expect(pool?.updated).toBe(ocPool.updated);
        expect(pool?.total).toBe(ocPool.total);
        expect(pool?.completionPercent).toBe(ocPool.percent);
      }
      for (const p of workers) {
        if (p.total === 0) expect(p.assessment).toBe('Empty');
        else expect(oc.workerPools.map((x) => x.name)).toContain(p.name);
      }
    });

    it('every node: assessment, phase, version and EST, in oc order', () => {
      if (!oc.updating) return;
      for (const [poolName, rows] of ocDetailed.nodes) {
        const pool = json.pools.find((p) => p.name === poolName);
        expect(pool, poolName).toBeDefined();
        expect(pool?.nodes.map((n) => n.name)).toEqual(rows.map((r) => r.name));
        rows.forEach((row, i) => {
          const node = pool?.nodes[i];
          expect(node?.assessment).toBe(row.assessment);
          expect(node?.phase).toBe(row.phase);
          expect(node?.version).toBe(row.version);
          const est =
            node?.timeLeftSeconds === null
              ? '?'
              : node?.timeLeftSeconds === 0
                ? '-'
                : `+${shortDuration((node?.timeLeftSeconds ?? 0) * 1000)}`;
          expect(est).toBe(row.est);
        });
        // The master pool's completion oc does not print; it follows from the rows.
        expect(pool?.updated).toBe(rows.filter((r) => r.phase === 'Updated').length);
        expect(pool?.total).toBe(rows.length);
      }
    });

    it('insights: since, level, impact and message, in oc order', () => {
      const ours = json.insights.map((i) => ({
        since: sinceText(json, i.since),
        level: i.level,
        impact: i.impact,
        message: i.message,
      }));
      expect(ours).toEqual(
        oc.insights.map(({ since, level, impact, message }) => ({ since, level, impact, message })),
      );
    });

    it('insights in long form: reference and description (--details=health)', () => {
      expect(json.insights).toHaveLength(ocDetailed.insights.length);
      const flat = (s: string | null | undefined): string => (s ?? '').replace(/\s+/g, ' ').trim();
      ocDetailed.insights.forEach((o, i) => {
        const ours = json.insights[i];
        expect(ours?.level).toBe(o.level);
        expect(ours?.impact).toBe(o.impact);
        if (o.reference !== undefined) expect(ours?.reference).toBe(o.reference);
        if (o.description !== undefined) expect(flat(ours?.description)).toBe(flat(o.description));
      });
    });
  });
}

describeFixtures('atlevel status agrees with oc adm upgrade status on its examples', () => {
  for (const name of CASES) agreesWithOc(name, () => fixture(EXAMPLES, name));
});

describe('atlevel status agrees with oc adm upgrade status on the cases rebuilt here', () => {
  for (const c of REBUILT_OC_CASES) agreesWithOc(c.name, () => c.prefix);
});
