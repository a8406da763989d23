/**
 * A status document never contradicts itself (issue 37, item 10): the state and the control plane's
 * assessment agree, at every moment status --at can rebuild. Before, `status --at` during the
 * installation of oc's `not-upgrading` cluster said `state: idle` with `controlPlane.assessment:
 * Progressing` at 99% in one document.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterHistory } from '../../src/model/history.js';
import { renderStatusText } from '../../src/report/status-text.js';
import { assessStatus, assessStatusAt, statusPrerequisites } from '../../src/status/index.js';
import type { UpdateStatus } from '../../src/status/types.js';
import { historyAt } from '../../src/timeline/index.js';
import {
  describeFixtures,
  fixture,
  OC_STATUS_CASES,
  OC_STATUS_EXAMPLES,
  projectRoot,
} from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

/** What one status document may not say at once; empty when it is coherent. */
function contradictions(s: UpdateStatus): string[] {
  const cp = s.controlPlane;
  const out: string[] = [];
  if (s.updating !== (s.state === 'updating')) out.push(`updating=${s.updating} with state ${s.state}`);
  if ((s.state === 'idle' || s.state === 'requested') && cp.assessment !== 'Completed') {
    out.push(`state ${s.state} with control plane ${cp.assessment} at ${cp.completionPercent}%`);
  }
  if (s.state === 'installing' && !cp.newInstall) out.push('installing, yet the history holds an update');
  if (s.state === 'installing' && cp.assessment === 'Completed') out.push('installing, yet Completed');
  if (cp.assessment === 'Completed' && cp.completionPercent !== 100 && cp.operators.unknown === 0) {
    out.push(`Completed at ${cp.completionPercent}%`);
  }
  return out;
}

/** `count` moments spread over the history's span, both ends included. */
function moments(history: ClusterHistory, count: number): number[] {
  const span = history.span;
  if (!span) return [];
  return Array.from({ length: count }, (_, i) =>
    Math.round(span.from + ((span.to - span.from) * i) / (count - 1)),
  );
}

function atEveryMoment(name: string, path: () => string): void {
  describe(name, () => {
    let history: ClusterHistory;
    beforeAll(async () => {
      history = await loadHistory([path()]);
    });

    it('the snapshot as it is', () => {
      expect(contradictions(assessStatus(history))).toEqual([]);
    });

    it('at 25 moments across the inputs (status --at)', () => {
      const found: string[] = [];
      for (const at of moments(history, 25)) {
        // Before the first ClusterOperator there is nothing to assess: status says so (exit 2).
        if (statusPrerequisites(historyAt(history, at).history, { now: at }) !== undefined) continue;
        for (const c of contradictions(assessStatusAt(history, at))) {
          found.push(`${new Date(at).toISOString()}: ${c}`);
        }
      }
      expect(found).toEqual([]);
    });
  });
}

describe('a status document agrees with itself', () => {
  atEveryMoment('examples/bug-2019850', () => join(projectRoot, 'examples/bug-2019850'));
  atEveryMoment('to-multi-arch (test/fixtures/status)', () =>
    join(projectRoot, 'test/fixtures/status/to-multi-arch/to-multi-arch'),
  );
});

describeFixtures('a status document agrees with itself on the oc examples', () => {
  for (const name of OC_STATUS_CASES) atEveryMoment(name, () => fixture(OC_STATUS_EXAMPLES, name));

  it('during the installation it says installing, not idle, and no update', async () => {
    const history = await loadHistory([fixture(OC_STATUS_EXAMPLES, 'not-upgrading')]);
    const s = assessStatusAt(history, Date.parse('2023-11-02T13:05:00Z'));
    expect(s.state).toBe('installing');
    expect(s.updating).toBe(false);
    expect(s.controlPlane.newInstall).toBe(true);
    expect(s.controlPlane.assessment).not.toBe('Completed');
    const text = renderStatusText(s, { width: 200, details: 'none', colour: false });
    expect(text).toContain('The cluster is being installed; no update is in progress.');
    expect(text).toContain('Installing:      4.14.1 (started at 2023-11-02T12:48:56Z)');
    expect(text).not.toContain('The cluster is not updating.');
  });

  it('once the installation completed, it is idle and Completed', async () => {
    const history = await loadHistory([fixture(OC_STATUS_EXAMPLES, 'not-upgrading')]);
    const s = assessStatusAt(history, Date.parse('2023-11-02T13:10:00Z'));
    expect([s.state, s.controlPlane.assessment]).toEqual(['idle', 'Completed']);
  });
});
