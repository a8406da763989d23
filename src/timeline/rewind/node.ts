/**
 * A Node at the moment: its MCO config annotations from the recorded MachineConfigChange,
 * MachineConfigReached, Drain and Reboot events, and its conditions (Ready from NodeReady and
 * NodeNotReady events as well).
 */
import type { Node, Observed } from '../../model/index.js';
import { MCO } from '../../model/index.js';
import { intervalsOf } from '../query.js';
import type { RewindContext } from './context.js';
import type { KindRewinder } from './kind.js';
import { configCreatedAt, previousConfig } from './rendered.js';

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
  if (changed?.message.annotations.config) desired = changed.message.annotations.config;
  else if (laterChange) {
    // Before its first recorded change, the node wanted what it ran.
    desired =
      reached?.message.annotations.config ?? previousConfig(r, laterChange.message.annotations.config);
    if (desired === undefined) known = false;
  } else if (!r.watched && a[MCO.desiredConfig] !== undefined) known = false;
  if (reached?.message.annotations.config && (!changed || reached.from >= changed.from)) {
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
  } else {
    if (current !== undefined) a[MCO.currentConfig] = current;
    if (desired !== undefined) a[MCO.desiredConfig] = desired;
    if (current !== undefined && desired !== undefined) {
      const rebooting = lastOf(before, 'Reboot');
      a[MCO.state] =
        current === desired
          ? 'Done'
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
