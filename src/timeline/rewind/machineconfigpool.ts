/**
 * A MachineConfigPool at the moment: its target and current configs and its Updated and Updating
 * conditions from its rollouts (timeline/pools.ts), its counts from its nodes as rewound, its other
 * conditions as every rewinder rewinds them.
 */
import type { Condition, MachineConfigPool, Node, Observed } from '../../model/index.js';
import { formatTime, MCO } from '../../model/index.js';
import { poolHistory, poolStateAt } from '../pools.js';
import { NOT_REWOUND, type RewindContext } from './context.js';
import type { KindRewinder } from './kind.js';
import { configIfExisted, configurationAt } from './rendered.js';

function pool(
  r: RewindContext,
  seen: Observed<MachineConfigPool>,
  nodes: readonly Observed<Node>[],
): Observed<MachineConfigPool> {
  const pool = seen.object;
  const name = pool.metadata.name;
  const key = `MachineConfigPool/${name}`;
  const ph = poolHistory(r.history, name);
  const state = poolStateAt(ph, r.at);
  const conditions = pool.status?.conditions?.map((c) => {
    const inferred =
      c.type === 'Updated' ? state.updated : c.type === 'Updating' ? state.updating : undefined;
    const rewound = r.rewindCondition(key, c, []);
    const status = inferred === undefined ? undefined : inferred ? 'True' : 'False';
    if (status === undefined || rewound.condition.status === status) {
      r.commit(key, c.type, rewound);
      return rewound.condition;
    }
    // The pool's own record beats an Unknown: poolStateAt reasons from renders and observations.
    // That gives the status alone; the message says so, and gives the reasoning.
    const condition: Condition = {
      type: c.type,
      status,
      lastTransitionTime: null,
      reason: NOT_REWOUND,
      message: `inferred by atlevel (the condition's own message at ${formatTime(r.at)} is not known): ${state.reasoning.join('; ')}`,
    };
    r.commit(key, c.type, {
      condition,
      unrewound: {
        object: key,
        field: `status.conditions[${c.type}].lastTransitionTime`,
        why: "the status is inferred from the pool's rollouts, not when it began: reads null",
      },
      unknown: ['reason', 'message'],
    });
    return condition;
  });
  const target =
    state.target?.name ?? configIfExisted(r, pool.spec?.configuration?.name, key, 'spec.configuration.name');
  const current =
    state.current?.name ??
    (state.updated === true
      ? target
      : configIfExisted(r, pool.status?.configuration?.name, key, 'status.configuration.name'));
  const prefix = `rendered-${name}-`;
  const members = nodes.filter((n) => {
    const a = n.object.metadata.annotations ?? {};
    return (a[MCO.currentConfig] ?? a[MCO.desiredConfig] ?? '').startsWith(prefix);
  });
  // A node whose configs could not be rewound cannot be counted, nor placed in a pool.
  const lost = nodes.some(
    (n) =>
      n.object.metadata.annotations?.[MCO.currentConfig] === undefined &&
      r.history.objects.nodes.some(
        (o) =>
          o.object.metadata.name === n.object.metadata.name &&
          o.object.metadata.annotations?.[MCO.currentConfig] !== undefined,
      ),
  );
  const countsKnown = !lost;
  const status: NonNullable<MachineConfigPool['status']> = { ...pool.status };
  if (current !== undefined)
    status.configuration = configurationAt(
      r,
      key,
      'status.configuration',
      pool.status?.configuration,
      current,
    );
  if (conditions) status.conditions = conditions;
  if (countsKnown) {
    const on = (n: Observed<Node>, cfg: string | undefined) =>
      n.object.metadata.annotations?.[MCO.currentConfig] === cfg;
    const done = (n: Observed<Node>) => {
      const a = n.object.metadata.annotations ?? {};
      return a[MCO.currentConfig] === a[MCO.desiredConfig] && a[MCO.state] === 'Done';
    };
    status.machineCount = members.length;
    status.updatedMachineCount = members.filter((n) => on(n, target) && done(n)).length;
    status.readyMachineCount = members.filter((n) => on(n, target) && done(n)).length;
    status.unavailableMachineCount = members.filter((n) => !done(n)).length;
    status.degradedMachineCount = members.filter(
      (n) => n.object.metadata.annotations?.[MCO.state] === 'Degraded',
    ).length;
  } else {
    r.note(key, 'status.*MachineCount', "the pool's nodes cannot all be rewound: counts kept as last seen");
  }
  return {
    object: {
      ...pool,
      spec: {
        ...pool.spec,
        ...(target !== undefined
          ? {
              configuration: configurationAt(r, key, 'spec.configuration', pool.spec?.configuration, target),
            }
          : {}),
      },
      status,
    },
    ref: seen.ref,
  };
}

export const machineConfigPoolRewinder: KindRewinder<'MachineConfigPool'> = {
  // A pool's counts are its nodes' as rewound.
  needs: ['Node'],
  create: (r) => ({
    rewind: (list, done) => list.filter(r.existed).map((o) => pool(r, o, done.nodes ?? [])),
  }),
};
