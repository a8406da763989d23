/**
 * `atlevel status` of a hosted cluster for a terminal, laid out as the ordinary status is (sections,
 * an oc-style pool table and node table, insights), with the control plane counted in
 * ControlPlaneComponents and each NodePool's Machines as its nodes.
 */
import { formatTime, plural, printable } from '../model/index.js';
import type { HostedStatus, HostedUpdateRequest, Insight, NodePoolStatus } from '../status/index.js';
import type { StatusTextOptions } from './status-text.js';
import { operandText, shortDuration } from './status-text.js';
import { type Colours, colours, fittedTable, wrap } from './text.js';

/** Machines listed per NodePool before the rest are summarised, unless --details shows them all. */
const MACHINES_SHOWN = 10;

export function renderHostedStatusText(s: HostedStatus, opts: StatusTextOptions): string {
  const width = Math.max(40, Math.floor(opts.width));
  const c = colours(opts.colour);
  const out: string[] = [];
  const at = formatTime(Math.floor(s.evaluatedAt));
  const when =
    s.evaluatedAtSource === 'rewound'
      ? `Evaluated at ${at} (--at): the hosted cluster as the timeline says it was then`
      : s.evaluatedAtSource === 'flag'
        ? `Evaluated at ${at} (--now)`
        : `Evaluated at ${at}, the latest condition change in the snapshot (--at to change)`;
  out.push(...wrap(when, width).map((l) => c.dim(l)), '');
  const hc = s.hostedCluster;
  out.push(
    `Hosted cluster ${safe(hc.namespace)}/${safe(hc.name)} (control plane namespace ${safe(hc.controlPlaneNamespace)})`,
  );
  out.push(
    s.state === 'idle' && s.dataPlaneUnread
      ? `The control plane is not updating${s.currentVersion ? `: it runs ${safe(s.currentVersion)}` : ''}; NodePools are missing from the inputs, so whether the data plane updates is not known.`
      : s.state === 'idle'
        ? `The hosted cluster is not updating${s.currentVersion ? `: it runs ${safe(s.currentVersion)}` : ''}.`
        : s.state === 'installing'
          ? 'The hosted cluster is installing.'
          : 'An update is in progress.',
    '',
  );
  if (s.request) out.push(...requestSection(s.request, width), '');

  const cp = s.controlPlane;
  out.push(`= Control Plane =`);
  const source =
    cp.versionSource === 'controlPlaneVersion'
      ? 'status.controlPlaneVersion'
      : cp.versionSource === 'version'
        ? 'status.version (no controlPlaneVersion)'
        : 'no version history';
  out.push(
    ...fittedTable(
      [
        ['Assessment:', paint(c, cp.assessment)],
        [
          'Target Version:',
          `${safe(cp.targetVersion ?? '(unknown)')}${cp.previousVersion ? ` (from ${cp.previousPartial ? 'incomplete ' : ''}${safe(cp.previousVersion)})` : ''}`,
        ],
        ['Read from:', source],
        ...(cp.startedAt !== undefined ? [['Started:', formatTime(Math.floor(cp.startedAt))]] : []),
        ...(cp.completedAt !== undefined ? [['Completed:', formatTime(Math.floor(cp.completedAt))]] : []),
        ...(cp.duration !== undefined ? [['Duration:', shortDuration(cp.duration)]] : []),
        [
          'Components:',
          `${cp.components.updated} of ${cp.components.total} updated (${cp.completionPercent}%), ${cp.components.updating} updating, ${cp.components.waiting} waiting` +
            (cp.components.unknown > 0 ? `, ${cp.components.unknown} unknown` : '') +
            (cp.components.unavailable > 0 ? `, ${cp.components.unavailable} unavailable` : ''),
        ],
      ],
      width,
    ),
  );
  if (cp.components.updatingComponents.length > 0 && wants(opts, 'operators')) {
    out.push('', 'Updating components:');
    out.push(
      ...fittedTable(
        [
          ['NAME', 'VERSION', 'SINCE', 'REASON', 'MESSAGE'],
          ...cp.components.updatingComponents.map((u) => [
            safe(u.name),
            safe(u.version ?? '-'),
            u.since !== undefined ? shortDuration(Math.max(0, s.evaluatedAt - u.since)) : '-',
            safe(u.reason),
            safe(u.message),
          ]),
        ],
        width,
      ),
    );
  } else if (cp.components.updatingComponents.length > 0) {
    out.push(
      ...wrap(`Updating: ${cp.components.updatingComponents.map((u) => safe(u.name)).join(', ')}`, width, 2),
    );
  }

  const g = s.guest;
  out.push('', '= Guest Cluster Version (the guest CVO, as the HostedCluster copies it) =');
  out.push(
    ...fittedTable(
      [
        ['Desired:', safe(g.desiredVersion ?? '(unknown)')],
        ['State:', safe(g.state ?? '(no history)')],
        ...(g.failing === true ? [['Failing:', c.red('True')]] : []),
        [
          'Operators:',
          g.operators
            ? `${g.operators.updated} of ${g.operators.total} updated, ${g.operators.updating} updating, ${g.operators.unavailable} unavailable, ${g.operators.degraded} degraded`
            : g.read
              ? '(no ClusterOperators read)'
              : '(guest not read)',
        ],
        // What holds a guest operator back, as the ordinary status names it.
        ...(g.operators?.rollingOperands ?? []).map((o, i) => [i === 0 ? 'Waiting on:' : '', operandText(o)]),
      ],
      width,
    ),
  );

  out.push('', '= Node Pools =');
  if (s.nodePools.length === 0)
    out.push(
      s.dataPlaneUnread
        ? 'No NodePool of this hosted cluster is in the inputs (see the notes).'
        : 'No NodePools found for this hosted cluster.',
    );
  else out.push(...poolTable(s.nodePools, c, width));
  for (const p of s.nodePools) {
    if (!p.waiting) continue;
    out.push('', `NodePool ${safe(p.namespace)}/${safe(p.name)} has not begun its rollout:`);
    const ip = p.waiting.inPlace;
    if (ip) {
      out.push(
        ...wrap(
          `- MachineSet ${safe(ip.machineSet)} targets config ${safe(ip.targetConfigVersion)} and is on ${safe(ip.currentConfigVersion)}; the in-place upgrader has not taken it up (no nodePoolUpgradeInProgress annotation, no Node given the target config)`,
          width,
          2,
        ),
      );
    }
    for (const w of p.waiting.conditions) {
      const since = w.since !== undefined ? ` since ${formatTime(Math.floor(w.since))}` : '';
      out.push(
        ...wrap(
          `- ${safe(w.type)}=${safe(w.status)}${w.reason ? ` (${safe(w.reason)})` : ''}${since}${w.message ? `: ${safe(w.message, 600)}` : ''}`,
          width,
          2,
        ),
      );
    }
  }
  if (wants(opts, 'nodes') || s.nodePools.some((p) => p.assessment !== 'Completed')) {
    for (const p of s.nodePools) {
      if (p.machines.length === 0) continue;
      out.push('', `Machines of NodePool ${safe(p.namespace)}/${safe(p.name)}:`);
      out.push(...machineTable(p, opts, c, width));
    }
  }

  out.push('', '= Update Health =');
  if (s.insights.length === 0) out.push('No problems found.');
  else {
    out.push(
      ...fittedTable(
        [
          ['SINCE', 'LEVEL', 'IMPACT', 'MESSAGE'],
          ...s.insights.map((i) => [
            i.since !== undefined ? shortDuration(Math.max(0, s.evaluatedAt - i.since)) : '-',
            paintLevel(c, i.level),
            i.impact,
            safe(i.message),
          ]),
        ],
        width,
      ),
    );
    if (wants(opts, 'health')) for (const i of s.insights) out.push('', ...insightLong(i, width));
  }

  if (s.notes.length > 0) {
    out.push('', 'Notes:');
    for (const n of s.notes) out.push(...wrap(`- ${safe(n, 400)}`, width, 2));
  }
  if (s.unrewound.length > 0) {
    out.push('', `Not rewound to ${at} (the inputs do not say what these were then):`);
    for (const u of s.unrewound)
      out.push(...wrap(`- ${safe(u.object)} ${safe(u.field)}: ${safe(u.why)}`, width, 2));
  }
  return `${out.join('\n')}\n`;
}

/** What spec.release.image asks for that the histories do not hold yet, and the conditions that say why. */
function requestSection(r: HostedUpdateRequest, width: number): string[] {
  const what = r.version ?? r.image;
  const begun = r.componentsAtRequest.length > 0;
  const source =
    r.versionSource === 'tag'
      ? ' (from the image tag)'
      : r.versionSource === 'nodePool'
        ? " (a NodePool's UpdatingVersion target for this image)"
        : '';
  const rows: string[][] = [
    ['Requested:', `${safe(r.version ?? '(version not known)')}${r.version ? source : ''}`],
    ['Image:', safe(r.image, 400)],
    ['Current:', safe(r.fromVersion ?? '(unknown)')],
  ];
  if (begun) {
    rows.push([
      'Begun:',
      `ControlPlaneComponents already at ${safe(what)}: ${r.componentsAtRequest.map((n) => safe(n)).join(', ')}`,
    ]);
  }
  r.conditions.forEach((c, i) => {
    const since = c.since !== undefined ? ` since ${formatTime(Math.floor(c.since))}` : '';
    rows.push([
      i === 0 ? 'Blocked by:' : '',
      `${safe(c.type)}=${safe(c.status)}${c.reason ? ` (${safe(c.reason)})` : ''}${since}${c.message ? `: ${safe(c.message, 600)}` : ''}`,
    ]);
  });
  if (r.conditions.length === 0 && !begun) {
    rows.push([
      'Why:',
      'no condition says why: the HostedCluster controller or the guest cluster-version operator has not taken it up yet',
    ]);
  }
  return [
    begun
      ? `An update to ${safe(what)} was requested (${r.field}): the version histories have no entry for it yet, but the control plane has begun it.`
      : `An update to ${safe(what)} was requested (${r.field}) and has not started.`,
    '',
    '= Requested Update =',
    ...fittedTable(rows, width),
  ];
}

function wants(opts: StatusTextOptions, what: 'nodes' | 'health' | 'operators'): boolean {
  return opts.details === 'all' || opts.details === what;
}

function poolTable(pools: readonly NodePoolStatus[], c: Colours, width: number): string[] {
  return fittedTable(
    [
      ['NAME', 'TYPE', 'ASSESSMENT', 'COMPLETION', 'TARGET', 'REPORTED', 'UPDATING', 'STATUS'],
      ...pools.map((p) => [
        safe(p.name),
        safe(p.upgradeType ?? '-'),
        paint(c, p.assessment),
        `${p.completionPercent}% (${p.updated}/${p.total})`,
        safe(p.targetVersion ?? '?'),
        safe(p.reportedVersion ?? '-'),
        [p.updatingVersion ? 'version' : '', p.updatingConfig ? 'config' : ''].filter(Boolean).join(',') ||
          '-',
        [
          `${p.counts.available} Available`,
          `${p.counts.progressing} Progressing`,
          ...(p.counts.draining > 0 ? [`${p.counts.draining} Draining`] : []),
          ...(p.counts.excluded > 0 ? [`${p.counts.excluded} Excluded`] : []),
          ...(p.counts.degraded > 0 ? [`${p.counts.degraded} Degraded`] : []),
          ...(p.oldMachines > 0 ? [`${plural(p.oldMachines, 'old machine')}`] : []),
        ].join(', '),
      ]),
    ],
    width,
  );
}

function machineTable(p: NodePoolStatus, opts: StatusTextOptions, c: Colours, width: number): string[] {
  const all = opts.details === 'all' || opts.details === 'nodes';
  const shown = all ? p.machines : p.machines.slice(0, MACHINES_SHOWN);
  const rows = fittedTable(
    [
      ['MACHINE', 'NODE', 'ASSESSMENT', 'PHASE', 'VERSION', 'MACHINESET', 'MESSAGE'],
      ...shown.map((m) => [
        safe(m.name),
        safe(m.node ?? '-'),
        paint(c, m.assessment),
        m.phase,
        safe(m.version ?? '?'),
        `${safe(m.machineSet ?? '-')}${m.currentMachineSet ? '' : ' (old)'}`,
        safe(m.message),
      ]),
    ],
    width,
  );
  if (shown.length < p.machines.length) {
    rows.push(`...and ${p.machines.length - shown.length} more (--details nodes lists them all)`);
  }
  return rows;
}

function insightLong(i: Insight, width: number): string[] {
  const out = [`Message: ${safe(i.message)}`];
  out.push(...wrap(`  Description: ${safe(i.description, 1000)}`, width, 4));
  if (i.objects.length > 0) {
    out.push(
      ...wrap(
        `  Resources: ${i.objects.map((o) => `${o.kind}/${o.namespace ? `${safe(o.namespace)}/` : ''}${safe(o.name)}`).join(', ')}`,
        width,
        4,
      ),
    );
  }
  if (i.reference) out.push(`  Reference: ${safe(i.reference)}`);
  return out;
}

function paint(c: Colours, value: string): string {
  if (value === 'Completed') return c.green(value);
  if (value === 'Progressing') return c.cyan(value);
  if (value === 'Degraded' || value === 'Unavailable') return c.red(value);
  if (value === 'Excluded' || value === 'Outdated') return c.yellow(value);
  return value;
}

function paintLevel(c: Colours, value: string): string {
  if (value === 'Critical' || value === 'Error') return c.red(value);
  if (value === 'Warning') return c.yellow(value);
  return value;
}

function safe(s: string, max = 200): string {
  return printable(s.replace(/\s*\n\s*/g, ' '), max);
}
