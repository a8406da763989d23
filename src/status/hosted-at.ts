/**
 * Status of a hosted cluster at any moment (`status --at` on a hosted dump): the management objects
 * rebuilt through their descriptors (timeline/rewind), then what carries its own times is rewound
 * here too, as the ClusterVersion rewinder does for its history: a version history entry started
 * after the moment is dropped and one completed after it is Partial; a Machine whose deletion began
 * after the moment was not being deleted. The guest, when read, is rewound as any cluster is.
 */
import type { ClusterHistory, Millis, Observed } from '../model/index.js';
import { parseTime } from '../model/index.js';
import { historyAt, OutsideSpanError, operandsByOperator, type Unrewound } from '../timeline/index.js';
import {
  assessHostedStatus,
  type HostedClusterShape,
  type HostedObjects,
  hostedSnapshotNow,
  type MachineShape,
} from './hosted.js';
import type { HostedStatus } from './hosted-types.js';
import { operandsAt } from './operands.js';
import type { Insight } from './types.js';

type VersionStatus = NonNullable<NonNullable<HostedClusterShape['status']>['version']>;

function versionAt(v: VersionStatus | null | undefined, at: Millis): VersionStatus | null | undefined {
  if (!v?.history) return v;
  const history = v.history
    .filter((e) => {
      const started = parseTime(e.startedTime);
      return started === undefined || started <= at;
    })
    .map((e) => {
      const done = parseTime(e.completionTime);
      return done !== undefined && done > at ? { ...e, state: 'Partial', completionTime: null } : e;
    });
  const first = history[0];
  return {
    ...v,
    history,
    ...(first
      ? {
          desired: {
            ...(first.version ? { version: first.version } : {}),
            ...(first.image ? { image: first.image } : {}),
          },
        }
      : {}),
  };
}

function hostedClusterAt(seen: Observed<HostedClusterShape>, at: Millis): Observed<HostedClusterShape> {
  const o = seen.object;
  if (!o.status) return seen;
  return {
    object: {
      ...o,
      status: {
        ...o.status,
        version: versionAt(o.status.version, at),
        controlPlaneVersion: versionAt(o.status.controlPlaneVersion, at),
      },
    },
    ref: seen.ref,
  };
}

function machineAt(seen: Observed<MachineShape>, at: Millis): Observed<MachineShape> {
  const o = seen.object;
  const deleting = parseTime(o.metadata.deletionTimestamp);
  if (deleting === undefined || deleting <= at) return seen;
  const { deletionTimestamp: _gone, ...metadata } = o.metadata;
  return {
    object: {
      ...o,
      metadata,
      status: o.status
        ? { ...o.status, ...(o.status.phase === 'Deleting' ? { phase: 'Running' } : {}) }
        : o.status,
    },
    ref: seen.ref,
  };
}

/** The fields this module rewinds itself: the descriptors' "as last seen" notes about them no longer hold. */
const REWOUND_HERE = new Set([
  'HostedCluster status.version',
  'HostedCluster status.controlPlaneVersion',
  'Machine metadata.deletionTimestamp',
]);

export interface HostedAtInputs {
  readonly management: ClusterHistory;
  readonly pick: (objects: HostedObjects) => Observed<HostedClusterShape>;
  readonly guest?: ClusterHistory;
  /** The guest's operators and insights at the moment, from the ordinary status of the rewound guest. */
  readonly guestStatus?: (guest: ClusterHistory) => { insights: readonly Insight[] };
}

/** Throws OutsideSpanError (timeline/) when `at` is outside the management inputs' span. */
export function assessHostedStatusAt(inputs: HostedAtInputs, at: Millis): HostedStatus {
  const { history: then, unrewound } = historyAt(inputs.management, at);
  const objects: HostedObjects = {
    ...then.objects,
    hostedClusters: then.objects.hostedClusters.map((h) => hostedClusterAt(h, at)),
    machines: then.objects.machines.map((m) => machineAt(m, at)),
  };
  const notes: Unrewound[] = unrewound.filter((u) => !REWOUND_HERE.has(`${u.object} ${u.field}`));
  let guest: ClusterHistory | undefined;
  const extraNotes: string[] = [];
  if (inputs.guest) {
    try {
      const g = historyAt(inputs.guest, at);
      guest = g.history;
      notes.push(...g.unrewound.map((u) => ({ ...u, object: `guest ${u.object}` })));
    } catch (err) {
      if (!(err instanceof OutsideSpanError)) throw err;
      extraNotes.push(
        `The guest cluster's inputs do not reach back to this moment: ${err.message}; the guest is left out.`,
      );
    }
  }
  const hc = inputs.pick(objects);
  // spec.release.image is as last seen: before the snapshot's own moment, when it was set is not known.
  const lastSeen = hostedSnapshotNow(inputs.management.objects);
  const specAsLastSeen = lastSeen === undefined || at < lastSeen;
  const g = guest && inputs.guestStatus ? inputs.guestStatus(guest) : undefined;
  const status = assessHostedStatus(objects, hc, {
    now: at,
    specAsLastSeen,
    ...(guest ? { guest } : {}),
    // The guest's rollouts as the whole guest inputs place them in time, as status --at does (at.ts).
    ...(guest && inputs.guest
      ? { guestOperands: operandsAt(inputs.guest, operandsByOperator(inputs.guest), at) }
      : {}),
    ...(g ? { guestInsights: g.insights } : {}),
  });
  return {
    ...status,
    evaluatedAtSource: 'rewound',
    // In one order whatever order the inputs listed the objects in.
    unrewound: notes.sort((a, b) =>
      a.object !== b.object
        ? a.object < b.object
          ? -1
          : 1
        : a.field < b.field
          ? -1
          : a.field > b.field
            ? 1
            : 0,
    ),
    notes: [...status.notes, ...extraNotes],
  };
}
