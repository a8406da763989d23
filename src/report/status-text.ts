/**
 * `atlevel status` for a terminal. The layout and words follow `oc adm upgrade status` (sections,
 * tables, assessments) so its users read it at once; tables fit the given width by wrapping the
 * message column, and when even the fixed columns do not fit, by putting each row's first column on
 * a line of its own. Durations are printed as oc prints them (`1h0m17s`, `28m`, `now`).
 */

import { formatTime, type Millis, plural, printable } from '../model/index.js';
import type {
  ControlPlaneStatus,
  Insight,
  NodeStatus,
  PoolStatus,
  RollingOperand,
  UpdateRequest,
  UpdateStatus,
} from '../status/index.js';
import type { StatusDetails } from './results.js';
import { type Colours, colours } from './text.js';

export type { StatusDetails } from './results.js';

export interface StatusTextOptions {
  /** Columns to fit; tables and long messages wrap to it. */
  readonly width: number;
  readonly details: StatusDetails;
  readonly colour: boolean;
}

/** Nodes listed per pool before the rest are summarised (oc's limit), unless --details shows them all. */
const NODES_SHOWN = 10;
const GAP = 3;
const MIN_WIDTH = 40;

export function renderStatusText(status: UpdateStatus, opts: StatusTextOptions): string {
  const width = Math.max(MIN_WIDTH, Math.floor(opts.width));
  const c = colours(opts.colour);
  const ctx: Ctx = { width, c, details: opts.details, now: status.evaluatedAt };
  const out: string[] = [];
  const when =
    status.evaluatedAtSource === 'rewound'
      ? `Evaluated at ${formatTime(Math.floor(status.evaluatedAt))} (--at): the cluster as the timeline says it was then`
      : status.evaluatedAtSource === 'flag'
        ? `Evaluated at ${formatTime(Math.floor(status.evaluatedAt))} (--now)`
        : `Evaluated at ${formatTime(Math.floor(status.evaluatedAt))}, the latest condition change in the snapshot (--at to change)`;
  out.push(...wrap(when, width).map((l) => c.dim(l)), '');

  if (status.state === 'idle') out.push(...idle(status, ctx));
  else if (status.state === 'installing') out.push(...installing(status, ctx));
  else if (status.state === 'requested') out.push(...requested(status, ctx));
  else out.push(...updating(status, ctx));

  if (status.notes.length > 0) {
    out.push('', 'Notes:');
    for (const note of status.notes) out.push(...hanging(`- ${safe(note)}`, width, 2));
  }
  if (status.unrewound.length > 0) {
    out.push(
      '',
      `Not rewound to ${formatTime(Math.floor(status.evaluatedAt))} (the inputs do not say what these were then):`,
    );
    for (const u of status.unrewound)
      out.push(...hanging(`- ${safe(u.object)} ${safe(u.field)}: ${safe(u.why)}`, width, 2));
  }
  return `${out.join('\n')}\n`;
}

interface Ctx {
  readonly width: number;
  readonly c: Colours;
  readonly details: StatusDetails;
  readonly now: Millis;
}

function wants(ctx: Ctx, what: Exclude<StatusDetails, 'none' | 'all'>): boolean {
  return ctx.details === 'all' || ctx.details === what;
}

// ---------------------------------------------------------------------------------------------
// States

function idle(status: UpdateStatus, ctx: Ctx): string[] {
  const cp = status.controlPlane;
  const out = ['The cluster is not updating.', ''];
  const version = status.currentVersion ?? cp.targetVersion;
  // The only history entry is the installation, never an update.
  const what = cp.newInstall ? 'installed' : 'update completed';
  const done =
    cp.completedAt !== undefined
      ? ` (${what} at ${formatTime(cp.completedAt)}${cp.duration !== undefined ? `, took ${shortDuration(cp.duration)}` : ''})`
      : '';
  out.push(...field('Version:', `${safe(version)}${done}`, ctx.width));
  // "Completed" is oc's word for nodes at the cluster's version; a pool rolling out a config with no
  // version change is at version but not done, and the line says so (the note gives the config).
  const pools = status.pools.map((p) =>
    p.nodesOffTargetConfig > 0 && p.total > 0
      ? `${safe(p.name)} ${p.updated}/${p.total} at version, rolling out a new config (${p.nodesOnTargetConfig}/${p.total})`
      : `${safe(p.name)} ${p.updated}/${p.total} ${p.assessment}`,
  );
  if (pools.length > 0) out.push(...field('Pools:', pools.join(', '), ctx.width));
  if (status.insights.length > 0) out.push('', ...health(status, ctx));
  return out;
}

/** The installation has not completed: no update to report, only how far the install has come. */
function installing(status: UpdateStatus, ctx: Ctx): string[] {
  const cp = status.controlPlane;
  const ops = cp.operators;
  const out = ['The cluster is being installed; no update is in progress.', ''];
  const started = cp.startedAt !== undefined ? ` (started at ${formatTime(cp.startedAt)})` : '';
  out.push(...field('Installing:', `${safe(cp.targetVersion)}${started}`, ctx.width));
  if (cp.duration !== undefined) out.push(...field('Duration:', shortDuration(cp.duration), ctx.width));
  out.push(
    ...field(
      'Operators:',
      `${ops.updated} of ${ops.total} at ${safe(cp.targetVersion)}, ${ops.updating} progressing, ${ops.waiting} waiting${ops.unknown > 0 ? `, ${ops.unknown} unknown` : ''}`,
      ctx.width,
    ),
  );
  if (status.insights.length > 0) out.push('', ...health(status, ctx));
  return out;
}

function requested(status: UpdateStatus, ctx: Ctx): string[] {
  const req = status.request as UpdateRequest;
  const out = ['An update was requested but has not started.', ''];
  out.push(...field('Requested:', safe(req.version ?? req.image ?? '?'), ctx.width));
  if (req.version && req.image) out.push(...field('Image:', safe(req.image), ctx.width));
  out.push(...field('Current:', safe(status.currentVersion ?? status.controlPlane.targetVersion), ctx.width));
  const verdict =
    req.accepted === false
      ? `not accepted${req.reason ? ` (${safe(req.reason)})` : ''}${req.since !== undefined ? ` since ${formatTime(req.since)}` : ''}`
      : 'the cluster-version operator has not loaded it yet';
  out.push(...field('Status:', verdict, ctx.width));
  if (req.message) out.push(...field('Message:', safe(req.message, 2000), ctx.width));
  out.push('', ...health(status, ctx));
  return out;
}

function updating(status: UpdateStatus, ctx: Ctx): string[] {
  const out = ['= Control Plane =', ...controlPlane(status.controlPlane, ctx)];
  const master = status.pools.find((p) => p.controlPlane);
  if (master && master.total > 0) {
    out.push('');
    if (master.updated === master.total) {
      out.push(`All control plane nodes successfully updated to ${safe(master.nodes[0]?.version ?? '?')}`);
    } else {
      out.push('Control Plane Nodes', ...nodeTable(master, ctx));
    }
  }
  const workers = status.pools.filter((p) => !p.controlPlane);
  if (workers.some((p) => p.total > 0)) {
    out.push('', '= Worker Upgrade =', '', ...poolTable(workers, ctx));
    for (const pool of workers) {
      if (pool.total === 0) continue;
      out.push('', `Worker Pool Nodes: ${safe(pool.name)}`, ...nodeTable(pool, ctx));
    }
  }
  out.push('', ...health(status, ctx));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Control plane

function controlPlane(cp: ControlPlaneStatus, ctx: Ctx): string[] {
  const { c, width } = ctx;
  if (cp.assessment === 'Completed') {
    const at = cp.completedAt !== undefined ? ` at ${formatTime(cp.completedAt)}` : '';
    const took = cp.duration !== undefined ? ` (duration: ${shortDuration(cp.duration)})` : '';
    return wrap(`Update to ${safe(cp.targetVersion)} successfully completed${at}${took}`, width);
  }
  const out: string[] = [];
  out.push(...field('Assessment:', paintAssessment(c, cp.assessment), width));
  const from = cp.newInstall
    ? ' (a new install)'
    : cp.multiArchMigration
      ? ' to Multi-Architecture'
      : cp.previousVersion !== undefined
        ? ` (from ${cp.previousPartial ? 'incomplete ' : ''}${safe(cp.previousVersion)})`
        : '';
  out.push(...field('Target Version:', `${safe(cp.targetVersion)}${from}`, width));
  const ops = cp.operators;
  if (ops.updatingOperators.length > 0) {
    out.push(...field('Updating:', ops.updatingOperators.map((o) => safe(o.name)).join(', '), width));
  }
  ops.rollingOperands.forEach((o, i) => {
    out.push(...field(i === 0 ? 'Waiting on:' : '', operandText(o), width));
  });
  out.push(
    ...field(
      'Completion:',
      `${cp.completionPercent}% (${plural(ops.updated, 'operator')} updated, ${ops.updating} updating, ${ops.waiting} waiting${ops.unknown > 0 ? `, ${ops.unknown} unknown` : ''})`,
      width,
    ),
  );
  if (cp.duration !== undefined) {
    out.push(
      ...field('Duration:', `${shortDuration(cp.duration)} (Est. Time Remaining: ${timeLeft(cp)})`, width),
    );
  }
  if (cp.blockers.length > 0) {
    cp.blockers.forEach((b, i) => {
      out.push(...field(i === 0 ? 'Blocked by:' : '', c.red(safe(b, 400)), width));
    });
  }
  const health = [`${ops.healthy} Healthy`];
  if (ops.unavailable > 0) health.push(`${ops.unavailable} Unavailable`);
  if (ops.degraded > 0) health.push(`${ops.degraded} Available but degraded`);
  if (ops.healthUnknown > 0) health.push(`${ops.healthUnknown} unknown`);
  out.push(...field('Operator Health:', health.join(', '), width));
  if (wants(ctx, 'operators') && ops.updatingOperators.length > 0) {
    out.push('', 'Updating Cluster Operators');
    out.push(
      ...table(
        [
          { header: 'NAME', values: ops.updatingOperators.map((o) => safe(o.name)) },
          {
            header: 'SINCE',
            values: ops.updatingOperators.map((o) => (o.since === undefined ? '-' : since(ctx.now, o.since))),
          },
          { header: 'REASON', values: ops.updatingOperators.map((o) => ellipsis(safe(o.reason) || '-', 20)) },
          {
            header: 'MESSAGE',
            values: ops.updatingOperators.map((o) => safeLines(o.message, 2000).join('\n')),
            flex: true,
          },
        ],
        width,
      ),
    );
  }
  return out;
}

/**
 * The operand holding an operator back, worded as the cluster-network-operator words its own
 * (`Deployment "ns/name" update is rolling out (2 out of 3 updated)`), with the available count when known.
 */
/** One operand still rolling out, as oc's status words it (also a hosted guest's, hosted-status-text.ts). */
export function operandText(o: RollingOperand): string {
  const available = o.available === undefined ? '' : `, ${o.available} out of ${o.desired} available`;
  return `${safe(o.operator)}: ${o.kind} "${safe(o.namespace)}/${safe(o.name)}" update is rolling out (${o.updated} out of ${o.desired} updated${available})`;
}

/** oc's "Est. Time Remaining" (controlplane.go vagueUnder): "<10m" up to 10 minutes past the estimate. */
function timeLeft(cp: ControlPlaneStatus): string {
  const est = cp.estimate;
  if (cp.multiArchMigration && est.withheldBecause !== undefined)
    return 'N/A for Multi-Architecture Migration';
  const left = est.timeLeft;
  if (left === undefined) return '?';
  const total = est.totalDuration !== undefined ? shortDuration(est.totalDuration) : '?';
  if (left < -10 * 60_000) return `N/A; estimate duration was ${total}`;
  if (left < 10 * 60_000) return '<10m';
  return shortDuration(left);
}

// ---------------------------------------------------------------------------------------------
// Pools and nodes

function poolTable(pools: readonly PoolStatus[], ctx: Ctx): string[] {
  return table(
    [
      { header: 'WORKER POOL', values: pools.map((p) => safe(p.name)) },
      {
        header: 'ASSESSMENT',
        values: pools.map((p) => p.assessment),
        paint: (v) => paintAssessment(ctx.c, v),
      },
      {
        header: 'COMPLETION',
        values: pools.map((p) =>
          p.total === 0
            ? ''
            : p.counts.unknown > 0
              ? `? (${p.updated}/${p.total}, ${p.counts.unknown} unknown)`
              : `${p.completionPercent}% (${p.updated}/${p.total})`,
        ),
      },
      {
        header: 'STATUS',
        values: pools.map((p) => {
          if (p.total === 0) return '0 Total';
          const n = p.counts;
          let s = `${n.available} Available, ${n.progressing} Progressing, ${n.draining} Draining`;
          if (n.excluded > 0) s += `, ${n.excluded} Excluded`;
          if (n.unknown > 0) s += `, ${n.unknown} Unknown`;
          if (n.degraded > 0) s += `, ${n.degraded} Degraded`;
          return s;
        }),
        flex: true,
      },
    ],
    ctx.width,
  );
}

function nodeTable(pool: PoolStatus, ctx: Ctx): string[] {
  const all = wants(ctx, 'nodes');
  const shown: NodeStatus[] = [];
  const omitted: NodeStatus[] = [];
  pool.nodes.forEach((n, i) => {
    const troubled = n.degraded || (n.unavailable && !n.updating);
    if (all || i < NODES_SHOWN || troubled) shown.push(n);
    else omitted.push(n);
  });
  const out = table(
    [
      { header: 'NAME', values: shown.map((n) => safe(n.name)) },
      {
        header: 'ASSESSMENT',
        values: shown.map((n) => n.assessment),
        paint: (v) => paintAssessment(ctx.c, v),
      },
      { header: 'PHASE', values: shown.map((n) => n.phase) },
      { header: 'VERSION', values: shown.map((n) => safe(n.version ?? '?')) },
      {
        header: 'EST',
        values: shown.map((n) =>
          n.timeLeft === undefined ? '?' : n.timeLeft === 0 ? '-' : `+${shortDuration(n.timeLeft)}`,
        ),
        droppable: true,
      },
      { header: 'MESSAGE', values: shown.map((n) => nodeMessage(n)), flex: true },
    ],
    ctx.width,
  );
  if (omitted.length > 0) {
    const count = (f: (n: NodeStatus) => boolean) => omitted.filter(f).length;
    const summary =
      `Omitted additional ${omitted.length} Total, ${count((n) => n.updated)} Completed, ` +
      `${count((n) => !n.unavailable)} Available, ${count((n) => n.assessment === 'Progressing')} Progressing, ` +
      `${count((n) => !n.updated)} Outdated, ${count((n) => n.phase === 'Draining')} Draining, ` +
      `${count((n) => n.phase === 'Paused')} Excluded, and 0 Degraded nodes.`;
    out.push('...', ...wrap(summary, ctx.width), 'Pass along --details=nodes to see all information.');
  }
  return out;
}

/** oc shortens a node's own name inside its message to `<node>`; the row already names it. */
function nodeMessage(n: NodeStatus): string {
  const message = safe(n.message, 400);
  return n.name.length >= 8 ? message.split(n.name).join('<node>') : message;
}

// ---------------------------------------------------------------------------------------------
// Health

function health(status: UpdateStatus, ctx: Ctx): string[] {
  const out = ['= Update Health ='];
  const insights = status.insights;
  if (insights.length === 0) {
    out.push('Update is proceeding well: no problem found.');
    return out;
  }
  if (wants(ctx, 'health')) {
    insights.forEach((i, n) => {
      if (n > 0) out.push('');
      out.push(...insightLong(i, ctx));
    });
    return out;
  }
  out.push(
    ...table(
      [
        {
          header: 'SINCE',
          values: insights.map((i) => (i.since === undefined ? '-' : since(ctx.now, i.since))),
        },
        { header: 'LEVEL', values: insights.map((i) => i.level), paint: (v) => paintLevel(ctx.c, v) },
        { header: 'IMPACT', values: insights.map((i) => i.impact) },
        { header: 'MESSAGE', values: insights.map((i) => safe(i.message, 400)), flex: true },
      ],
      ctx.width,
    ),
  );
  out.push(
    '',
    ...wrap(
      'Run with --details=health for additional description and links to related online documentation',
      ctx.width,
    ),
  );
  return out;
}

function insightLong(i: Insight, ctx: Ctx): string[] {
  const { width, c } = ctx;
  const out = hanging(`Message: ${safe(i.message, 1000)}`, width, 'Message: '.length);
  const pad = 'Description: '.length;
  const item = (label: string, value: string): string[] =>
    hanging(`  ${label.padEnd(pad)}${value}`, width, pad + 2);
  out.push(...item('Since:', i.since === undefined ? '-' : since(ctx.now, i.since)));
  out.push(...item('Level:', paintLevel(c, i.level)));
  out.push(...item('Impact:', i.impact));
  // A link is never wrapped: a broken URL cannot be clicked.
  if (i.reference) out.push(`  ${'Reference:'.padEnd(pad)}${safe(i.reference, 1000)}`);
  if (i.objects.length > 0) {
    out.push('  Resources:');
    const byKind = new Map<string, string[]>();
    for (const o of i.objects) {
      const list = byKind.get(o.kind) ?? [];
      list.push(o.namespace ? `${o.namespace}/${o.name}` : o.name);
      byKind.set(o.kind, list);
    }
    const kindPad = Math.max(...[...byKind.keys()].map((k) => k.length)) + 2;
    for (const [kind, names] of [...byKind].sort(([a], [b]) => (a < b ? -1 : 1))) {
      out.push(
        ...hanging(
          `    ${`${kind}:`.padEnd(kindPad)}${names.map((n) => safe(n)).join(', ')}`,
          width,
          4 + kindPad,
        ),
      );
    }
  }
  const description = safeLines(i.description, 4000);
  description.forEach((line, n) => {
    out.push(
      ...(n === 0 ? item('Description:', line) : hanging(`${' '.repeat(pad + 2)}${line}`, width, pad + 2)),
    );
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Layout helpers

interface Column {
  readonly header: string;
  readonly values: readonly string[];
  /** The column that wraps when the table is too wide (the last one). */
  readonly flex?: boolean;
  /** Colour for a value; applied after padding, so widths stay right. */
  readonly paint?: (value: string) => string;
  /** May be left out when the table does not fit (oc's fixed per-node EST guesses). */
  readonly droppable?: boolean;
}

interface Layout {
  readonly header: string[];
  readonly rows: string[][];
}

function table(columns: readonly Column[], width: number): string[] {
  const { header, rows } = layout(columns, width);
  return [...header, ...rows.flat()].map((l) => l.trimEnd());
}

/**
 * Fit columns into `width`: as they are; else wrap the flex column into what is left; else put the
 * first column on a line of its own and lay out the others, indented, beneath it.
 */
function layout(columns: readonly Column[], width: number): Layout {
  const widths = columns.map((col) => Math.max(visible(col.header), ...col.values.map((v) => visibleMax(v))));
  const rowCount = columns[0]?.values.length ?? 0;
  const natural = widths.reduce((a, b) => a + b, 0) + GAP * (columns.length - 1);
  const last = columns.length - 1;
  const flex = columns[last]?.flex === true;
  const fixed = natural - (widths[last] ?? 0);
  const flexRoom = width - fixed;
  if (natural <= width || (flex && flexRoom >= 20) || columns.length === 1) {
    const room = natural <= width || !flex ? Number.POSITIVE_INFINITY : flexRoom;
    const line = (cells: readonly string[], paint: boolean): string[] => {
      const cellLines = cells.map((cell, i) => {
        const w = i === last ? room : Number.POSITIVE_INFINITY;
        return cell.split('\n').flatMap((part) => (Number.isFinite(w) ? wrap(part, w) : [part]));
      });
      const height = Math.max(...cellLines.map((l) => l.length));
      const lines: string[] = [];
      for (let h = 0; h < height; h++) {
        lines.push(
          cellLines
            .map((parts, i) => {
              const text = parts[h] ?? '';
              const padded =
                i === last ? text : text + ' '.repeat(Math.max(0, (widths[i] ?? 0) - visible(text)));
              const col = columns[i];
              const painted =
                paint && h === 0 && col?.paint && text !== ''
                  ? col.paint(text) + padded.slice(text.length)
                  : padded;
              return i === last ? painted : painted + ' '.repeat(GAP);
            })
            .join(''),
        );
      }
      return lines;
    };
    const rows: string[][] = [];
    for (let r = 0; r < rowCount; r++)
      rows.push(
        line(
          columns.map((col) => col.values[r] ?? ''),
          true,
        ),
      );
    return {
      header: line(
        columns.map((col) => col.header),
        false,
      ),
      rows,
    };
  }
  const drop = columns.findIndex((col) => col.droppable || (col.flex && col.values.every((v) => v === '')));
  if (drop >= 0)
    return layout(
      columns.filter((_, i) => i !== drop),
      width,
    );
  // Stacked: the first column alone, the rest indented under it.
  const indent = '  ';
  const rest = layout(columns.slice(1), width - indent.length);
  const first = columns[0] as Column;
  return {
    header: [first.header, ...rest.header.map((l) => indent + l)],
    rows: rest.rows.map((lines, r) => [first.values[r] ?? '', ...lines.map((l) => indent + l)]),
  };
}

/** `Label:          value`, the value wrapped under itself; a one-word value stays beside its label. */
function field(label: string, value: string, width: number): string[] {
  const pad = 17;
  if (!value.includes(' ')) return [`${label.padEnd(pad)}${value}`];
  return hanging(`${label.padEnd(pad)}${value}`, width, pad);
}

/** Wrap `text` to `width`, continuation lines indented by `indent` spaces. */
function hanging(text: string, width: number, indent: number): string[] {
  return wrapWords(text, width, Math.max(10, width - indent)).map((l, i) =>
    i === 0 ? l : ' '.repeat(indent) + l,
  );
}

/** Word-wrap to `width` visible columns; a word longer than a line stays whole. ANSI colour codes are kept. */
export function wrap(text: string, width: number): string[] {
  return wrapWords(text, width, width);
}

/**
 * Word-wrap with a first-line width and a width for the rest. Leading spaces of the text stay on the
 * first line; runs of spaces inside a line are kept.
 */
function wrapWords(text: string, firstWidth: number, restWidth: number): string[] {
  if (visible(text) <= firstWidth) return [text];
  const lead = /^ */.exec(text)?.[0] ?? '';
  const lines: string[] = [];
  let line = lead;
  let hasWord = false;
  const limit = (): number => (lines.length === 0 ? firstWidth : restWidth);
  const place = (word: string, glued: boolean): void => {
    const sep = hasWord && !glued ? ' ' : '';
    if (visible(line) + sep.length + visible(word) <= limit()) {
      line += sep + word;
      hasWord = true;
      return;
    }
    if (hasWord) {
      lines.push(line);
      line = '';
      hasWord = false;
      place(word, false);
      return;
    }
    // Longer than a whole line (a pull spec, a URL): keep it whole on a line of its own, since a
    // cut name can be neither copied nor clicked.
    lines.push(line + word);
    line = '';
  };
  for (const word of text.slice(lead.length).split(' ')) {
    // Operator reasons join several reasons with `::`; those joints are fair places to break.
    const parts = visible(word) > restWidth && word.includes('::') ? word.split(/(?<=::)/) : [word];
    parts.forEach((part, i) => {
      place(part, i > 0);
    });
  }
  if (hasWord) lines.push(line);
  return lines;
}

const ANSI = /\u001b\[[0-9;]*m/g;

function visible(s: string): number {
  return s.replace(ANSI, '').length;
}

function visibleMax(s: string): number {
  return Math.max(...s.split('\n').map(visible));
}

function ellipsis(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
}

/** Input text made safe for a terminal; newlines are kept as line breaks by safeLines only. */
function safe(s: string, max = 200): string {
  return printable(s.replace(/\s*\n\s*/g, ' '), max);
}

function safeLines(s: string, max: number): string[] {
  return s.split('\n').map((line) => printable(line, max));
}

function since(now: Millis, at: Millis): string {
  return shortDuration(Math.trunc((now - at) / 1000) * 1000);
}

/**
 * Durations as oc prints them (Go's Duration.String, trailing zero units dropped): `now`, `6s`,
 * `1m29s`, `28m`, `1h0m17s`, `1h59m`, `2h`.
 */
export function shortDuration(ms: Millis): string {
  const sign = ms < 0 ? '-' : '';
  const total = Math.trunc(Math.abs(ms) / 1000);
  if (total === 0) return 'now';
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  let out: string;
  if (h > 0) out = s > 0 ? `${h}h${m}m${s}s` : m > 0 ? `${h}h${m}m` : `${h}h`;
  else if (m > 0) out = s > 0 ? `${m}m${s}s` : `${m}m`;
  else out = `${s}s`;
  return sign + out;
}

function paintAssessment(c: Colours, value: string): string {
  switch (value) {
    case 'Completed':
      return c.green(value);
    case 'Progressing':
      return c.cyan(value);
    case 'Degraded':
    case 'Stalled':
    case 'Unavailable':
      return c.red(value);
    case 'Progressing - Slow':
    case 'Excluded':
      return c.yellow(value);
    default:
      return value;
  }
}

function paintLevel(c: Colours, value: string): string {
  if (value === 'Critical' || value === 'Error') return c.red(value);
  if (value === 'Warning') return c.yellow(value);
  return value;
}
