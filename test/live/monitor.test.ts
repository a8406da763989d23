/**
 * The times and lines watch makes of what it sees (src/watch/monitor.ts), and how the rules pick the
 * most precise of several witnesses of one report (timeline/query.ts earliestPrecise): watch's own
 * records are stamped to the millisecond, as origin's monitor lines are, so watch and analyze of its
 * --record name the same moment (docs/live.md).
 */
import { describe, expect, it } from 'vitest';
import { parseMessageText } from '../../src/sources/index.js';
import { earliestPrecise } from '../../src/timeline/index.js';
import { dated, toInterval, transitions } from '../../src/watch/monitor.js';

const T = (clock: string) => Date.parse(`2021-11-03T${clock}Z`);

describe('watch times', () => {
  it("keeps the millisecond of the moment seen when the object's stamp is whole seconds of the same second", () => {
    // machine-config's Progressing=False: lastTransitionTime 03:23:10Z, seen (replayedAt) 03:23:10.428.
    expect(dated('2021-11-03T03:23:10Z', T('03:23:10.428'))).toBe(T('03:23:10.428'));
    // A stamp with its milliseconds is the change's own time.
    expect(dated('2021-11-03T03:23:10.100Z', T('03:23:10.428'))).toBe(T('03:23:10.100'));
    // Seen in a later second: the stamp's second is the better witness.
    expect(dated('2021-11-03T03:23:10Z', T('03:23:11.200'))).toBe(T('03:23:10'));
    // A stamp that does not agree with when it was seen is not used.
    expect(dated('2021-11-03T02:00:00Z', T('03:23:10.428'))).toBe(T('03:23:10.428'));
  });

  it("prefers watch's millisecond record of a level report to the Event's whole second", () => {
    const event = { at: T('03:23:09'), source: 'derived:event' };
    const watched = { at: T('03:23:09.856'), source: 'live-watch' };
    expect(earliestPrecise([event, watched])).toBe(watched);
    expect(earliestPrecise([watched, event])).toBe(watched);
    // Seen only through a relist after 410 Gone (test/live/faults.test.ts): stamped when the relist
    // saw it, a minute later; the Event's second is then the better witness.
    const record = {
      from: T('03:24:15.123'),
      to: T('03:24:15.123'),
      level: 'Info' as const,
      locator: 'clusteroperator/machine-config',
      message: 'versions: operator a -> b',
    };
    const relisted = toInterval(record, 'watch', true);
    expect(relisted.source).toBe('live-relist');
    expect(toInterval(record, 'watch').source).toBe('live-watch');
    expect(earliestPrecise([event, { at: relisted.from, source: relisted.source }])).toBe(event);
  });
});

describe('watch lines', () => {
  const pool = (status: string, message: string) => ({
    metadata: { name: 'master' },
    spec: { configuration: { name: 'rendered-master-b' } },
    status: {
      conditions: [{ type: 'Updating', status, message, lastTransitionTime: '2021-11-03T03:35:52Z' }],
    },
  });

  it('a pool condition with no message ends at its status, not in an empty "changed: "', () => {
    const [line] = transitions('MachineConfigPool', pool('True', 'x'), pool('False', ''), T('03:35:52'));
    expect(line?.message).toBe('condition/Updating status/False');
    // Read back (a --record build log) as the same transition.
    expect(parseMessageText(line?.message ?? '', false)).toEqual({
      reason: '',
      humanMessage: '',
      annotations: { condition: 'Updating', status: 'False' },
    });
    const [said] = transitions(
      'MachineConfigPool',
      pool('False', ''),
      pool('True', 'All nodes are updated'),
      0,
    );
    expect(said?.message).toBe('condition/Updating status/True changed: All nodes are updated');
  });

  const cv = (status: string, reason: string, message: string) => ({
    metadata: { name: 'version' },
    status: {
      conditions: [
        { type: 'Progressing', status, reason, message, lastTransitionTime: '2021-11-03T03:22:05Z' },
      ],
      history: [],
    },
  });

  it("a ClusterVersion condition in origin's three forms, said once, without a dangling ': '", () => {
    const line = (status: string, reason: string, message: string) =>
      transitions('ClusterVersion', cv('True', 'X', 'y'), cv(status, reason, message), T('03:22:05'))[0]
        ?.message;
    expect(line('False', '', 'Cluster version is 4.10.0')).toBe(
      'changed Progressing to False: Cluster version is 4.10.0',
    );
    expect(line('False', 'Done', 'Cluster version is 4.10.0')).toBe(
      'changed Progressing to False: Done: Cluster version is 4.10.0',
    );
    expect(line('False', 'Done', '')).toBe('changed Progressing to False');
    // Read back from a --record build log: the condition's own message, reason apart.
    expect(parseMessageText('changed Progressing to False: Done: Cluster version is 4.10.0', false)).toEqual({
      reason: 'Done',
      humanMessage: 'Cluster version is 4.10.0',
      annotations: { condition: 'Progressing', status: 'False', reason: 'Done' },
    });
  });
});
