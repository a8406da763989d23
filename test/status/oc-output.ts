import { join } from 'node:path';
import { projectRoot } from '../helpers/fixtures.js';

/**
 * Reads the facts out of `oc adm upgrade status` text (`.output`, `.detailed-output`), so tests can
 * compare atlevel's JSON with what oc printed for the same snapshot.
 */

export interface OcNode {
  readonly name: string;
  readonly assessment: string;
  readonly phase: string;
  /** null when oc printed `?`. */
  readonly version: string | null;
  readonly est: string;
  readonly message: string;
}

export interface OcPool {
  readonly name: string;
  readonly assessment: string;
  readonly updated: number;
  readonly total: number;
  readonly percent: number;
}

export interface OcInsight {
  readonly since: string;
  readonly level: string;
  readonly impact: string;
  readonly message: string;
  readonly reference?: string;
  readonly description?: string;
}

export interface OcUpdatingOperator {
  readonly name: string;
  readonly since: string;
  readonly reason: string;
}

/**
 * oc example cases rebuilt under test/fixtures/status (test/fixtures/README.md says from what): each a
 * `DIR/CASE` prefix with `CASE-cv.yaml`, ... and oc's `CASE.detailed-output`.
 */
export const REBUILT_OC_CASES: readonly { readonly name: string; readonly prefix: string }[] = [
  'to-multi-arch',
  'ocpbugs-60768',
].map((name) => ({ name, prefix: join(projectRoot, 'test/fixtures/status', name, name) }));

export interface OcStatus {
  readonly updating: boolean;
  /** "Target Version: X to Multi-Architecture". */
  readonly multiArchMigration?: boolean;
  readonly assessment?: string;
  readonly targetVersion?: string;
  readonly previousVersion?: string;
  readonly previousPartial?: boolean;
  readonly updatingNames: readonly string[];
  readonly completion?: { percent: number; updated: number; updating: number; waiting: number };
  readonly duration?: string;
  readonly timeRemaining?: string;
  readonly health?: { healthy: number; unavailable: number; degraded: number };
  readonly updatingOperators: readonly OcUpdatingOperator[];
  /** Pool name (`master` for "Control Plane Nodes") → its node rows. */
  readonly nodes: ReadonlyMap<string, readonly OcNode[]>;
  readonly workerPools: readonly OcPool[];
  readonly hasWorkerSection: boolean;
  /** Without oc's placeholder "Update is proceeding well" row. */
  readonly insights: readonly OcInsight[];
}

/** oc's columns are tab-written with at least 3 spaces between them. */
function cells(line: string): string[] {
  return line.trimEnd().split(/ {3,}/);
}

function field(lines: readonly string[], label: string): string | undefined {
  const line = lines.find((l) => l.startsWith(`${label}:`));
  return line?.slice(label.length + 1).trim();
}

export function parseOcStatus(text: string): OcStatus {
  const lines = text.replace(/\r/g, '').split('\n');
  const empty: OcStatus = {
    updating: false,
    updatingNames: [],
    updatingOperators: [],
    nodes: new Map(),
    workerPools: [],
    hasWorkerSection: false,
    insights: [],
  };
  if (text.trim() === 'The cluster is not updating.') return empty;

  const target = field(lines, 'Target Version');
  const targetMatch = target ? /^(\S+)(?: \(from (incomplete )?(\S+)\))?/.exec(target) : null;
  const completion = /^(\d+)% \((\d+) operators updated, (\d+) updating, (\d+) waiting\)$/.exec(
    field(lines, 'Completion') ?? '',
  );
  const duration = /^(\S+) \(Est\. Time Remaining: (.+)\)$/.exec(field(lines, 'Duration') ?? '');
  const healthText = field(lines, 'Operator Health') ?? '';
  const count = (re: RegExp): number => Number(re.exec(healthText)?.[1] ?? 0);

  const nodes = new Map<string, OcNode[]>();
  const workerPools: OcPool[] = [];
  const updatingOperators: OcUpdatingOperator[] = [];
  let section: 'nodes' | 'pools' | 'operators' | undefined;
  let pool = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line === 'Control Plane Nodes') {
      pool = 'master';
      section = undefined;
    } else if (line.startsWith('Worker Pool Nodes: ')) {
      pool = line.slice('Worker Pool Nodes: '.length);
      section = undefined;
    } else if (/^NAME\s+ASSESSMENT\s+PHASE\s+VERSION\s+EST\s+MESSAGE/.test(line)) {
      section = 'nodes';
      nodes.set(pool, []);
    } else if (/^WORKER POOL\s+ASSESSMENT\s+COMPLETION\s+STATUS/.test(line)) {
      section = 'pools';
    } else if (/^NAME\s+SINCE\s+REASON\s+MESSAGE/.test(line)) {
      section = 'operators';
    } else if (line.trim() === '' || line.startsWith('=')) {
      section = undefined;
    } else if (section === 'nodes' && cells(line).length < 5) {
      // oc writes a multi-line message (a daemon's reason) as it is: a line of it is no node row.
      const rows = nodes.get(pool);
      const last = rows?.pop();
      if (last && rows) rows.push({ ...last, message: `${last.message}\n${line}` });
    } else if (section === 'nodes') {
      const [name = '', assessment = '', phase = '', version = '', est = '', message = ''] = cells(line);
      nodes
        .get(pool)
        ?.push({ name, assessment, phase, version: version === '?' ? null : version, est, message });
    } else if (section === 'pools') {
      const [name = '', assessment = '', completionCell = ''] = cells(line);
      const m = /^(\d+)% \((\d+)\/(\d+)\)$/.exec(completionCell);
      workerPools.push({
        name,
        assessment,
        percent: Number(m?.[1] ?? Number.NaN),
        updated: Number(m?.[2] ?? Number.NaN),
        total: Number(m?.[3] ?? Number.NaN),
      });
    } else if (section === 'operators' && !line.startsWith(' ')) {
      const [name = '', since = '', reason = ''] = cells(line);
      updatingOperators.push({ name, since, reason });
    }
  }

  return {
    updating: true,
    ...(completion || target ? { assessment: field(lines, 'Assessment') ?? '' } : {}),
    ...(target ? { multiArchMigration: / to Multi-Architecture$/.test(target) } : {}),
    ...(targetMatch?.[1] ? { targetVersion: targetMatch[1] } : {}),
    ...(targetMatch?.[3]
      ? { previousVersion: targetMatch[3], previousPartial: targetMatch[2] !== undefined }
      : {}),
    updatingNames: (field(lines, 'Updating') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
    ...(completion
      ? {
          completion: {
            percent: Number(completion[1]),
            updated: Number(completion[2]),
            updating: Number(completion[3]),
            waiting: Number(completion[4]),
          },
        }
      : {}),
    ...(duration ? { duration: duration[1] as string, timeRemaining: duration[2] as string } : {}),
    health: {
      healthy: count(/(\d+) Healthy/),
      unavailable: count(/(\d+) Unavailable/),
      degraded: count(/(\d+) Available but degraded/),
    },
    updatingOperators,
    nodes,
    workerPools,
    hasWorkerSection: lines.includes('= Worker Upgrade ='),
    insights: parseHealth(lines),
  };
}

function parseHealth(lines: readonly string[]): OcInsight[] {
  const start = lines.indexOf('= Update Health =');
  if (start < 0) return [];
  const body = lines.slice(start + 1);
  const out: OcInsight[] = [];
  if (body[0]?.startsWith('Message: ')) {
    // --details=health: blocks of "Message:", "  Since:", "  Level:", ..., "  Description:".
    let current: Record<string, string> | undefined;
    let inDescription = false;
    const flush = (): void => {
      if (current) {
        out.push({
          since: current.Since ?? '',
          level: current.Level ?? '',
          impact: current.Impact ?? '',
          message: current.Message ?? '',
          ...(current.Reference ? { reference: current.Reference } : {}),
          ...(current.Description !== undefined ? { description: current.Description } : {}),
        });
      }
    };
    for (const line of body) {
      if (line.startsWith('Message: ')) {
        flush();
        current = { Message: line.slice('Message: '.length) };
        inDescription = false;
        continue;
      }
      if (!current) continue;
      const m = /^ {2}(Since|Level|Impact|Reference|Description):\s+(.*)$/.exec(line);
      if (m) {
        current[m[1] as string] = m[2] as string;
        inDescription = m[1] === 'Description';
      } else if (inDescription && line.trim() !== '') {
        // oc indents continuation lines of a description and starts them with ", ".
        current.Description = `${current.Description}\n${line.trim().replace(/^, /, '')}`;
      } else if (line.trim() === '') {
        inDescription = false;
      }
    }
    flush();
    return out;
  }
  for (const line of body.slice(1)) {
    if (line.trim() === '') break;
    const [since = '', level = '', impact = '', message = ''] = cells(line);
    if (level === 'Info' && message === 'Update is proceeding well') continue;
    out.push({ since, level, impact, message });
  }
  return out;
}
