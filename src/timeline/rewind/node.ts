/**
 * A Node at the moment: its MCO config annotations from the recorded MachineConfigChange,
 * MachineConfigReached, Drain and Reboot events (or, without those, from the daemon's NodeDone, Drain
 * and Reboot Events), and its conditions (Ready from NodeReady and NodeNotReady events as well).
 */
import type { Interval, Node, Observed } from '../../model/index.js';
import { MCO } from '../../model/index.js';
import { eventsWithReason, intervalsOf } from '../query.js';
import type { RewindContext } from './context.js';
import type { KindRewinder } from './kind.js';
import { configCreatedAt, previousConfig } from './rendered.js';

/** The daemon's Events (docs/domain.md 4.2), with the configs their messages name. */
const NODE_DONE_RE = /^Setting node (\S+), currentConfig (\S+) to Done/;
const REBOOT_RE = /^Node will reboot into config (\S+)/;
const DAEMON_REASONS = ['NodeDone', 'Drain', 'Reboot'];

/** The node's daemon Events in time order (the history's: moved onto the API server's clock). */
function daemonEvents(r: RewindContext, name: string): Interval[] {
  const out: Interval[] = [];
  for (const reason of DAEMON_REASONS) {
    for (const i of eventsWithReason(r.history, reason)) {
      if (i.message.annotations.kind === 'Node' && i.message.annotations.name === name) out.push(i);
    }
  }
  return out.sort((x, y) => x.from - y.from);
}

interface DaemonAt {
  readonly current: string;
  /** Absent while the node drains toward a config its Events do not name. */
  readonly desired: string | undefined;
  readonly state: 'Done' | 'Working' | 'Rebooting';
}

/**
 * The node's config at the moment from its daemon's Events alone (their times are on the API server's
 * clock in the history). The daemon sets currentConfig = desiredConfig and state Done when it finishes
 * an update and then records NodeDone naming that config; it records Drain and Reboot ("into config X")
 * on the way. So after its latest NodeDone the node is on that config, and between a later Drain or
 * Reboot and the next NodeDone it still runs it while it works toward the Reboot's config (or one not
 * named, before the Reboot). Undefined when the Events do not say: no daemon Event by then, a message
 * naming another node, or a Drain after a Reboot with no NodeDone between (a boot whose config is not
 * recorded). Without any NodeDone before the update under way, the snapshot's currentConfig stands
 * only when the daemon recorded nothing after the moment and the snapshot shows the node still
 * mid-update (desired not current): it had not finished that update by the snapshot, so it still ran
 * what it ran then.
 */
function daemonAt(
  r: RewindContext,
  name: string,
  last: { current: string | undefined; desired: string | undefined },
): DaemonAt | undefined {
  const daemon = daemonEvents(r, name);
  const before = daemon.filter((i) => i.from <= r.at);
  const latest = before.at(-1);
  if (!latest) return undefined;
  const doneAt = before.findLastIndex((i) => i.message.reason === 'NodeDone');
  let current: string | undefined;
  if (doneAt >= 0) {
    const m = NODE_DONE_RE.exec(before[doneAt]?.message.humanMessage ?? '');
    if (m?.[1] !== name || !m[2]) return undefined;
    current = m[2];
  }
  if (latest.message.reason === 'NodeDone') {
    return current === undefined ? undefined : { current, desired: current, state: 'Done' };
  }
  const cycle = before.slice(doneAt + 1);
  const firstReboot = cycle.findIndex((i) => i.message.reason === 'Reboot');
  if (firstReboot >= 0 && cycle.slice(firstReboot).some((i) => i.message.reason === 'Drain'))
    return undefined;
  const targets = new Set(
    cycle
      .filter((i) => i.message.reason === 'Reboot')
      .map((i) => REBOOT_RE.exec(i.message.humanMessage)?.[1]),
  );
  if (targets.size > 1 || targets.has(undefined)) return undefined;
  const desired = [...targets][0];
  // The snapshot says what the node ran at the end only if it was still mid-update then (desired not
  // current): a node Done there finished an update whose NodeDone is not recorded, so when is unknown.
  const unfinished =
    last.current !== undefined && last.desired !== undefined && last.current !== last.desired;
  if (current === undefined && unfinished && !daemon.some((i) => i.from > r.at) && last.current !== desired)
    current = last.current;
  if (current === undefined) return undefined;
  return { current, desired, state: latest.message.reason === 'Reboot' ? 'Rebooting' : 'Working' };
}

function node(r: RewindContext, seen: Observed<Node>): Observed<Node> {
  const node = seen.object;
  const name = node.metadata.name;
  const key = `Node/${name}`;
  const events = intervalsOf(r.history, key).filter((i) => !i.source.startsWith('derived:'));
  const before = events.filter((i) => i.from <= r.at);
  const after = events.filter((i) => i.from > r.at);
  const a = { ...(node.metadata.annotations ?? {}) };
  const lastOf = (list: typeof events, reason: string) =>
    list.filter((i) => i.message.reason === reason).pop();
  const firstOf = (list: typeof events, reason: string) => list.find((i) => i.message.reason === reason);

  const changed = lastOf(before, 'MachineConfigChange');
  const reached = lastOf(before, 'MachineConfigReached');
  const laterChange = firstOf(after, 'MachineConfigChange');
  const laterReach = firstOf(after, 'MachineConfigReached');
  let desired = a[MCO.desiredConfig];
  let current = a[MCO.currentConfig];
  let known = true;
  // Without the monitor's MachineConfigChange/Reached, the daemon's own Events place the config.
  const daemon =
    changed || reached || laterChange || laterReach
      ? undefined
      : daemonAt(r, name, { current: a[MCO.currentConfig], desired: a[MCO.desiredConfig] });
  if (daemon) {
    current = daemon.current;
    desired = daemon.desired;
  } else if (changed?.message.annotations.config) desired = changed.message.annotations.config;
  else if (laterChange) {
    // Before its first recorded change, the node wanted what it ran.
    desired =
      reached?.message.annotations.config ?? previousConfig(r, laterChange.message.annotations.config);
    if (desired === undefined) known = false;
  } else if (!r.watched && a[MCO.desiredConfig] !== undefined) known = false;
  if (daemon) {
    // placed above
  } else if (reached?.message.annotations.config && (!changed || reached.from >= changed.from)) {
    current = reached.message.annotations.config;
  } else if (laterReach) {
    current = previousConfig(r, laterReach.message.annotations.config) ?? reached?.message.annotations.config;
    if (current === undefined) known = false;
  } else if (reached?.message.annotations.config) current = reached.message.annotations.config;
  else if (!r.watched && a[MCO.currentConfig] !== undefined) known = false;
  // A config that did not exist yet cannot have been on the node.
  for (const value of [current, desired]) {
    const created = configCreatedAt(r, value);
    if (created !== undefined && created > r.at) known = false;
  }
  if (!known) {
    for (const field of [MCO.currentConfig, MCO.desiredConfig, MCO.state]) {
      r.note(
        key,
        `metadata.annotations[${field}]`,
        'the inputs do not record when the node changed config: removed',
      );
      delete a[field];
    }
  } else if (daemon && daemon.desired === undefined) {
    // Draining toward a config the Events do not name: only what the node ran is known.
    a[MCO.currentConfig] = daemon.current;
    a[MCO.state] = daemon.state;
    for (const field of [MCO.desiredConfig, MCO.desiredDrain, MCO.lastAppliedDrain]) {
      if (a[field] === undefined) continue;
      r.note(
        key,
        `metadata.annotations[${field}]`,
        'the daemon drained the node for an update its Events do not name: removed',
      );
      delete a[field];
    }
  } else {
    if (current !== undefined) a[MCO.currentConfig] = current;
    if (desired !== undefined) a[MCO.desiredConfig] = desired;
    if (current !== undefined && desired !== undefined) {
      const rebooting = lastOf(before, 'Reboot');
      a[MCO.state] =
        current === desired
          ? 'Done'
          : daemon
            ? daemon.state
            : rebooting && changed && rebooting.from >= changed.from
              ? 'Rebooting'
              : 'Working';
      // The drain annotations as they were then (status/nodes.ts reads them as oc does): the daemon
      // asks for a drain (desiredDrain `drain-…`) and the controller records it done
      // (lastAppliedDrain) when the drain ends, which is when the daemon moves on to its reboot.
      // Between its Drain event and its Reboot event, a node was draining.
      const drain = lastOf(before, 'Drain');
      const draining =
        current !== desired &&
        drain !== undefined &&
        (!changed || drain.from >= changed.from) &&
        !(rebooting && rebooting.from >= drain.from);
      const asked = current !== desired ? `drain-${desired}` : `uncordon-${current}`;
      a[MCO.desiredDrain] = asked;
      a[MCO.lastAppliedDrain] = draining ? `uncordon-${current}` : asked;
    }
  }
  const ready = events
    .filter((i) => i.message.reason === 'NodeReady' || i.message.reason === 'NodeNotReady')
    .map((i) => ({
      at: i.from,
      status: i.message.reason === 'NodeReady' ? 'True' : 'False',
      reason: i.message.reason === 'NodeReady' ? 'KubeletReady' : 'NodeStatusUnknown',
      message: i.message.humanMessage,
    }));
  const conditions = node.status?.conditions?.map((c) =>
    r.condition(key, c, c.type === 'Ready' ? ready : []),
  );
  // A node that booted again after the moment (its recorded Reboot, or a config it reached later)
  // may have run another OS image, kubelet and boot then: the snapshot's nodeInfo is of its last boot.
  const lastCurrent = node.metadata.annotations?.[MCO.currentConfig];
  const rebooted = after.some((i) => i.message.reason === 'Reboot') || a[MCO.currentConfig] !== lastCurrent;
  if (!r.final && node.status?.nodeInfo && rebooted)
    r.note(
      key,
      'status.nodeInfo',
      'the node booted again later and its earlier boot is not recorded: as last seen',
    );
  const unschedulable = node.spec?.unschedulable;
  if (unschedulable !== undefined && (after.length > 0 || !r.watched)) {
    r.note(key, 'spec.unschedulable', 'cordons are not recorded: kept as last seen');
  }
  return {
    object: {
      ...node,
      metadata: { ...node.metadata, annotations: a },
      status: { ...node.status, ...(conditions ? { conditions } : {}) },
    },
    ref: seen.ref,
  };
}

export const nodeRewinder: KindRewinder<'Node'> = {
  create: (r) => ({ rewind: (list) => list.filter(r.existed).map((o) => node(r, o)) }),
};
