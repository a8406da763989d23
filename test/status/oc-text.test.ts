/**
 * atlevel status's text, whole, against oc's expected `.output` and `.detailed-output` of the same
 * case. Both sides go through `comparable`, which removes only the presentation differences listed
 * there (each argued in docs/status.md, "Where atlevel and oc differ"); everything else must be the
 * same, line for line: assessment, versions, completion, duration and time left, operator health,
 * every node row, the worker pools, every insight with its since, level, impact, message, reference,
 * objects and description.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderStatusText } from '../../src/report/status-text.js';
import { assessStatus } from '../../src/status/index.js';
import { describeFixtures, fixture, OC_STATUS_CASES, OC_STATUS_EXAMPLES } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';
import { REBUILT_OC_CASES } from './oc-output.js';

/** oc names an insight's objects by resource; atlevel by kind. */
const RESOURCES: ReadonlyMap<string, string> = new Map([
  ['clusteroperators.config.openshift.io', 'ClusterOperator'],
  ['clusterversions.config.openshift.io', 'ClusterVersion'],
  ['nodes', 'Node'],
  ['machineconfigpools.machineconfiguration.openshift.io', 'MachineConfigPool'],
]);

/**
 * Facts oc printed that do not come from the case's files: 4.15.0-ec2-early's "Updating Cluster
 * Operators" SINCE came from a mock UpdateStatus (`-us.yaml`, synthetic times); in `-co.yaml`
 * kube-apiserver's Progressing change is the latest one, "now" (docs/status.md).
 */
const NOT_FROM_THE_FILES: Record<string, [string, string]> = {
  '4.15.0-ec2-early': ['kube-apiserver   6m8s    NodeInstaller', 'kube-apiserver   now     NodeInstaller'],
};

/** oc's tables are tab-written, so their columns' padding differs as soon as one cell does. */
const CELL_GAP = / {3,}/g;
/** How much of a node's message both show in the table (atlevel cuts a long one; oc prints it whole). */
const NODE_MESSAGE = 60;

/**
 * Node rows with their columns one gap apart and their message cut to its start; the lines of a
 * multi-line message that oc prints inside the table (a daemon's reason) are left out: atlevel shows
 * the whole message in the node's insight, as oc does.
 */
function nodeRows(lines: readonly string[]): string[] {
  const out: string[] = [];
  let inTable = false;
  for (const line of lines) {
    if (/^NAME +ASSESSMENT +PHASE +VERSION +EST +MESSAGE$/.test(line)) inTable = true;
    else if (line === '') inTable = false;
    if (!inTable) {
      out.push(line);
      continue;
    }
    const cells = line.split(CELL_GAP);
    if (cells.length < 5) continue;
    const message = (cells[5] ?? '').slice(0, NODE_MESSAGE);
    out.push([...cells.slice(0, 5), ...(message ? [message] : [])].join('   '));
  }
  return out;
}

function comparable(text: string, side: 'oc' | 'atlevel'): string {
  let lines = text.replace(/\r/g, '').split('\n');
  if (side === 'atlevel') {
    // atlevel's first line says which moment it assessed; oc's "now" is implicit.
    if (lines[0]?.startsWith('Evaluated at ')) lines = lines.slice(2);
    // atlevel's extra sections: notes, what --at could not rewind.
    const extra = lines.findIndex((l) => l === 'Notes:' || l.startsWith('Not rewound to '));
    if (extra >= 0) lines = lines.slice(0, extra);
    // atlevel lists what blocks the update; oc has no such line.
    const out: string[] = [];
    let blocked = false;
    for (const l of lines) {
      if (l.startsWith('Blocked by:')) blocked = true;
      else if (blocked && l.startsWith(' '.repeat(17))) continue;
      else blocked = false;
      if (!blocked) out.push(l);
    }
    lines = out;
    // "The cluster is not updating." is all oc says; atlevel adds the version and the pools.
    if (lines[0] === 'The cluster is not updating.') lines = [lines[0]];
  }
  const joined = nodeRows(lines.map((l) => l.trimEnd()))
    .join('\n')
    // oc's placeholder row when nothing is wrong; atlevel says it in a sentence.
    .replace(/SINCE +LEVEL +IMPACT +MESSAGE\n\S+ +Info +None +Update is proceeding well/, 'PROCEEDING WELL')
    .replace('Update is proceeding well: no problem found.', 'PROCEEDING WELL')
    .replace(/^(WORKER POOL|worker|NAME|\S+ +(Completed|Progressing|Pending|Degraded|Excluded)) .*$/gm, (l) =>
      l.replace(CELL_GAP, '   '),
    )
    // oc pluralises "operators" after 1.
    .replace(/\((1) operator updated,/, '($1 operators updated,')
    // A description's further lines: oc starts them with ", " (a line of the message), atlevel wraps
    // long ones; either way they are one text.
    .replace(/\n {15}(, )?/g, ' ')
    .replace(/^( {4})(\S+): /gm, (m, indent: string, resource: string) =>
      RESOURCES.has(resource) ? `${indent}${RESOURCES.get(resource)}: ` : m,
    );
  return `${joined.trimEnd()}\n`;
}

/**
 * atlevel's text cuts a description at 4000 characters with "…" (the JSON keeps it whole): where it
 * did, oc's line counts as the same when it starts with what atlevel shows.
 */
function capped(ours: string, theirs: string): string {
  const mine = ours.split('\n');
  return theirs
    .split('\n')
    .map((line, i) => {
      const shown = mine[i] ?? '';
      const cut = shown.startsWith('  Description: ') && shown.endsWith('…');
      return cut && line.startsWith(shown.slice(0, -1)) ? shown : line;
    })
    .join('\n');
}

function textAgrees(name: string, prefix: () => string): void {
  describe(name, () => {
    for (const [details, suffix] of [
      ['none', 'output'],
      ['all', 'detailed-output'],
    ] as const) {
      it(`--details=${details} reads as oc's .${suffix}`, async (ctx) => {
        const path = `${prefix()}.${suffix}`;
        if (!existsSync(path)) {
          ctx.skip(`oc's expected .${suffix} is not among this case's files`);
          return;
        }
        const status = assessStatus(await loadHistory([prefix()]));
        // Wide enough that nothing wraps, as oc never wraps.
        const ours = comparable(renderStatusText(status, { width: 1000, details, colour: false }), 'atlevel');
        let theirs = comparable(readFileSync(path, 'utf8'), 'oc');
        const known = NOT_FROM_THE_FILES[name];
        if (known && details === 'all') theirs = theirs.replace(known[0], known[1]);
        expect(ours).toBe(capped(ours, theirs));
      });
    }
  });
}

describeFixtures("atlevel status's text is oc's expected output on its examples", () => {
  for (const name of OC_STATUS_CASES) textAgrees(name, () => fixture(OC_STATUS_EXAMPLES, name));
});

describe("atlevel status's text is oc's expected output on the cases rebuilt here", () => {
  for (const c of REBUILT_OC_CASES) textAgrees(c.name, () => c.prefix);
});
