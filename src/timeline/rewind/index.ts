/**
 * The cluster as the timeline says it was at one moment: the last snapshot of every object, wound
 * back through the transitions the inputs recorded, kind by kind, each by its rewinder: its own
 * (this folder, one file per kind, for the kinds whose descriptor says `rewinder`) or the one its
 * descriptor's `changes` names (generic.ts). Pure, so `status --at`, the Kubernetes API server that
 * serves a past moment, and the tests all rebuild the same cluster. context.ts says what is rewound
 * from which evidence.
 */
import {
  type ClusterHistory,
  KINDS,
  KNOWN_KINDS,
  type KnownKind,
  kindFacts,
  MCO,
  type Millis,
  type ObjectSnapshot,
  type Observed,
  orderedAfter,
  type RewoundKind,
} from '../../model/index.js';
import { clusterOperatorRewinder } from './clusteroperator.js';
import { clusterVersionRewinder } from './clusterversion.js';
import { OutsideSpanError, RewindContext, type Rewound, rewindSpan, type Unrewound } from './context.js';
import { genericRewinder } from './generic.js';
import type { KindRewinder } from './kind.js';
import { machineConfigPoolRewinder } from './machineconfigpool.js';
import { nodeRewinder } from './node.js';

export {
  conditionStatusKnown,
  conditionTextKnown,
  OutsideSpanError,
  type Rewound,
  type Unrewound,
} from './context.js';

/** The rewinders of the kinds rewound field by field: a kind whose descriptor says so and has none is a compile error. */
const REWINDERS = {
  ClusterVersion: clusterVersionRewinder,
  ClusterOperator: clusterOperatorRewinder,
  MachineConfigPool: machineConfigPoolRewinder,
  Node: nodeRewinder,
} satisfies { [K in RewoundKind]: KindRewinder<K> };

function rewinderOf(kind: KnownKind): KindRewinder<KnownKind> {
  return kindFacts(kind).changes.by === 'rewinder'
    ? (REWINDERS[kind as RewoundKind] as unknown as KindRewinder<KnownKind>)
    : genericRewinder(kind);
}

/** The order a rewind goes through the kinds: KINDS order, each after the kinds its rewinder needs. */
export const REWIND_ORDER: readonly KnownKind[] = orderedAfter(KNOWN_KINDS, (k) => rewinderOf(k).needs);

/**
 * The ClusterOperators whose own (`operator`) version at the moment could not be placed: it is left
 * out of the rewound object, and status counts their progress as unknown, not as not updated.
 */
export function operatorVersionUnknown(unrewound: readonly Unrewound[]): ReadonlySet<string> {
  return namesWithout(unrewound, 'ClusterOperator', OPERATOR_VERSION_FIELD);
}

const OPERATOR_VERSION_FIELD = 'status.versions[operator]';

/** The Nodes whose MCO config annotations the rewind removed (it could not tell their config then). */
export function nodeConfigUnknown(unrewound: readonly Unrewound[]): ReadonlySet<string> {
  return namesWithout(unrewound, 'Node', `metadata.annotations[${MCO.currentConfig}]`);
}

/** The names of the objects of `kind` whose `field` is among the unrewound. */
function namesWithout(unrewound: readonly Unrewound[], kind: string, field: string): ReadonlySet<string> {
  const prefix = `${kind}/`;
  const out = new Set<string>();
  for (const u of unrewound) {
    if (u.field === field && u.object.startsWith(prefix)) out.add(u.object.slice(prefix.length));
  }
  return out;
}

export function objectsAt(history: ClusterHistory, at: Millis): Rewound {
  const span = rewindSpan(history);
  if (!span || at < span.from || at > span.to) throw new OutsideSpanError(at, span);
  const r = new RewindContext(history, at);
  const done: Partial<Record<string, Observed<unknown>[]>> = {};
  for (const kind of REWIND_ORDER) {
    const field = KINDS[kind].field;
    const rewinding = rewinderOf(kind).create(r);
    done[field] = rewinding.rewind(
      history.objects[field] as Parameters<typeof rewinding.rewind>[0],
      done as Partial<ObjectSnapshot>,
    );
    if (rewinding.finish) r.finishers.push(rewinding.finish);
  }
  r.finish();
  const objects = {} as Record<string, Observed<unknown>[]>;
  for (const kind of KNOWN_KINDS) objects[KINDS[kind].field] = done[KINDS[kind].field] ?? [];
  return { at, objects: objects as unknown as ObjectSnapshot, unrewound: r.unrewound };
}

/**
 * The history as it stood at `at`: rewound objects, and only the intervals and test lines that had
 * begun by then. Analyses that take a history (status) run on it unchanged.
 */
export function historyAt(
  history: ClusterHistory,
  at: Millis,
): { history: ClusterHistory; unrewound: readonly Unrewound[] } {
  const { objects, unrewound } = objectsAt(history, at);
  const notes = [...history.notes];
  const { alerts: _alerts, mcoImage: _mcoImage, ...rest } = history;
  const extra: Unrewound[] = [];
  if (history.mcoImage) {
    extra.push({
      object: 'Deployment/openshift-machine-config-operator/machine-config-operator',
      field: 'spec.template.spec.containers[machine-config-operator].image',
      why: 'known only as the inputs were taken: left out',
    });
  }
  if (history.alerts && history.alerts.length > 0) {
    extra.push({
      object: 'Alert',
      field: '*',
      why: 'alerts are known only as firing when the inputs were taken: left out',
    });
  }
  return {
    history: {
      ...rest,
      objects,
      intervals: history.intervals.filter((i) => i.from <= at),
      testLog: history.testLog.filter((e) => e.at <= at),
      span: { from: history.span?.from ?? at, to: at },
      notes,
    },
    unrewound: [...unrewound, ...extra],
  };
}
