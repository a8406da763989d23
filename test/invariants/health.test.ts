/**
 * operator-degraded-during-update's warning says why it is a warning in words that stay true: the CVO
 * waits up to 40 minutes on a Degraded operator (UpdateEffectFailAfterInterval) and reports the update
 * Failing at once for one that is not Available (UpdateEffectFail); docs/domain.md 5.3.
 */
import { describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { buildHistory } from '../../src/timeline/build.js';
import { clusterVersion, monitor, parts, ref, T } from '../helpers/build.js';

const DAY = '2023-11-03';

/** An update 16:00–(17:30 or still Partial), one operator's condition flips as given, inputs to 17:30. */
function shape(flips: readonly [clock: string, type: string, status: string][], completed = false) {
  const p = parts();
  p.objects.clusterVersions.push({
    object: clusterVersion([
      {
        state: completed ? 'Completed' : 'Partial',
        version: '4.14.1',
        started: `${DAY}T16:00:00Z`,
        ...(completed ? { completed: `${DAY}T17:30:00Z` } : {}),
      },
      {
        state: 'Completed',
        version: '4.14.0',
        started: '2023-10-01T10:00:00Z',
        completed: '2023-10-01T11:00:00Z',
      },
    ]),
    ref: ref('cv.yaml'),
  });
  p.monitorIntervals.push(
    ...flips.map(([clock, type, status]) =>
      monitor(T(clock, DAY), 'ClusterOperator', { clusteroperator: 'etcd' }, `changed to ${type}=${status}`, {
        condition: type,
        status,
        reason: 'R',
      }),
    ),
    // Another operator's quiet line that ends the inputs at 17:30.
    monitor(
      T('17:30:00', DAY),
      'ClusterOperator',
      { clusteroperator: 'dns' },
      'changed to Progressing=False',
      {
        condition: 'Progressing',
        status: 'False',
        reason: 'AsExpected',
      },
    ),
  );
  const o = analyzeHistory(buildHistory(p)).outcomes.find(
    (x) => x.rule.id === 'operator-degraded-during-update',
  );
  return o?.findings.map((f) => f.summary) ?? [];
}

describe('operator-degraded-during-update: why a break is a warning', () => {
  it('Degraded for 10 minutes: within the CVO’s 40-minute wait', () => {
    const [s] = shape([
      ['16:10:00', 'Degraded', 'True'],
      ['16:20:00', 'Degraded', 'False'],
    ]);
    expect(s).toContain('recovered 10m00s later');
    expect(s).toContain('the CVO waits up to 40 minutes on a Degraded operator');
  });

  it('Degraded for 50 minutes, then recovered: past the wait, and says so', () => {
    const [s] = shape([
      ['16:10:00', 'Degraded', 'True'],
      ['17:00:00', 'Degraded', 'False'],
    ]);
    expect(s).toContain('stayed Degraded longer than the 40 minutes');
    expect(s).toContain('the update went on once it recovered');
    expect(s).not.toContain('waits up to 40 minutes');
  });

  it('Degraded to the end of the inputs, 80 minutes: past the wait, left to no-serious-insight', () => {
    const [s] = shape([['16:10:00', 'Degraded', 'True']]);
    expect(s).toContain('had not recovered by the end of the inputs (1h20m later)');
    expect(s).toContain('stayed Degraded longer than the 40 minutes');
    expect(s).toContain('no-serious-insight');
  });

  it('not Available for 5 minutes: the CVO has no 40-minute wait for that', () => {
    const [s] = shape([
      ['16:10:00', 'Available', 'False'],
      ['16:15:00', 'Available', 'True'],
    ]);
    expect(s).toContain('went Available=False');
    expect(s).toContain('reports the update Failing (ClusterOperatorNotAvailable)');
    expect(s).not.toContain('40 minutes');
  });
});
