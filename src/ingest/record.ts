/**
 * One analysed run → the record the store keeps (store/record.ts). Pure: it reads the ClusterHistory
 * and the analysis, never a file. The durations are the ones docs/runs.md defines: the update (CVO
 * start to completion), each ClusterOperator's report of the new version relative to the update's
 * start, each pool's rollout of the config made for the update, and the gap between machine-config's
 * level report and each pool's real finish (the race of bug 2019850 makes it positive).
 */
import { type AnalysisResult, coverageDocument } from '../analyze/index.js';
import type { ClusterHistory, Finding } from '../model/index.js';
import { configEmbedding } from '../release/index.js';
import type {
  FindingRecord,
  OperatorLevelRecord,
  PoolRolloutRecord,
  ReleaseChangeRecord,
  RunRecord,
} from '../store/index.js';
import {
  earliestPrecise,
  finishedRollout,
  poolHistory,
  renderedConfigs,
  versionChanges,
} from '../timeline/index.js';

export interface RunIdentity {
  readonly id: string;
  readonly source: string;
  readonly identity: 'prow' | 'content';
  readonly job?: string;
  readonly buildId?: string;
  /**
   * The id a store made before may hold this run under (a must-gather with one image folder, which
   * was named by that folder then: its hash alone); ingest keeps that id rather than store it twice.
   */
  readonly formerly?: string;
}

/** The platform words of CI job names (`…-e2e-aws-upgrade`, `…-e2e-gcp-ovn-upgrade`). */
const PLATFORMS = [
  'aws',
  'gcp',
  'azure',
  'metal',
  'vsphere',
  'openstack',
  'ovirt',
  'ibmcloud',
  'nutanix',
  'alibaba',
  'powervs',
  'libvirt',
];

function platformOf(job: string | undefined): string | null {
  if (!job) return null;
  const words = new Set(job.toLowerCase().split(/[-_.]/));
  return PLATFORMS.find((p) => words.has(p)) ?? null;
}

/** `4.10.0-0.nightly-2021-11-03-020416` → `4.10`. */
function minorOf(version: string | undefined): string | null {
  const m = version ? /^(\d+)\.(\d+)/.exec(version) : null;
  return m ? `${m[1]}.${m[2]}` : null;
}

function streamOf(from: string | undefined, to: string | undefined): string | null {
  const a = minorOf(from);
  const b = minorOf(to);
  return a && b ? `${a}→${b}` : null;
}

function sameImage(
  a: { digest?: string; pullSpec: string },
  b: { digest?: string; pullSpec: string },
): boolean {
  return (a.digest ?? a.pullSpec) === (b.digest ?? b.pullSpec);
}

function releaseFacts(history: ClusterHistory): {
  changes: ReleaseChangeRecord[];
  configChanged: string | null;
  configUnchanged: string | null;
} {
  const { from, to } = history.releases;
  if (!from || !to) return { changes: [], configChanged: null, configUnchanged: null };
  const before = new Map(from.components.map((c) => [c.name, c]));
  const changes: ReleaseChangeRecord[] = [];
  const changed: string[] = [];
  const unchanged: string[] = [];
  for (const b of to.components) {
    const a = before.get(b.name);
    const reaches = configEmbedding(b.name)?.reach === 'all-platforms';
    if (a && sameImage(a, b)) {
      if (reaches) unchanged.push(b.name);
      continue;
    }
    changes.push({
      component: b.name,
      from: a ? (a.digest ?? a.pullSpec) : null,
      to: b.digest ?? b.pullSpec,
    });
    if (reaches) changed.push(b.name);
  }
  return {
    changes: changes.sort((x, y) => (x.component < y.component ? -1 : 1)),
    configChanged: changed.sort().join('+'),
    configUnchanged: unchanged.sort().join('+'),
  };
}

function findingRecord(f: Finding, ordinal: number): FindingRecord {
  // The components the explanation attributes to the update: an image a day-2 config's line names,
  // or one whose image both releases share, is not a release change (explain/explain.ts).
  const components = new Set<string>(f.explanation?.components ?? []);
  const signature = f.explanation?.signature?.id ?? (f.severity === 'failure' ? 'unknown' : null);
  return {
    ordinal,
    rule: f.rule,
    severity: f.severity,
    summary: f.summary,
    at: f.at ?? null,
    signature,
    subject: { ...(f.subject ?? {}) },
    cause: (f.explanation?.steps ?? []).map((s) => s.title),
    components: [...components].sort(),
  };
}

/** Whether the rendered configs made during the update carry release-image-version (MCO PR #2918). */
function mcoFix(history: ClusterHistory, since: number | undefined): RunRecord['mcoFix'] {
  const configs = renderedConfigs(history, 'master');
  const made = since === undefined ? configs : configs.filter((c) => c.createdAt >= since);
  const pick = made.length > 0 ? made : configs.slice(-1);
  if (pick.length === 0) return 'unknown';
  return pick.some((c) => c.releaseImageVersion !== undefined) ? 'present' : 'absent';
}

function operatorLevels(
  history: ClusterHistory,
  target: string | undefined,
  start: number | undefined,
): OperatorLevelRecord[] {
  if (!target) return [];
  const out: OperatorLevelRecord[] = [];
  for (const { object } of history.objects.clusterOperators) {
    const name = object.metadata.name;
    const reports = versionChanges(history, name).filter((v) => v.name === 'operator' && v.to === target);
    const first = earliestPrecise(reports);
    if (first)
      out.push({ operator: name, at: first.at, sinceStartMs: start === undefined ? null : first.at - start });
  }
  return out.sort((a, b) => (a.operator < b.operator ? -1 : 1));
}

function poolRollouts(
  history: ClusterHistory,
  start: number | undefined,
  mcoLevelAt: number | undefined,
): PoolRolloutRecord[] {
  const names = new Set(history.objects.machineConfigPools.map((p) => p.object.metadata.name));
  const out: PoolRolloutRecord[] = [];
  for (const name of [...names].sort()) {
    const ph = poolHistory(history, name);
    const made = start === undefined ? [] : ph.rendered.filter((c) => c.createdAt >= start);
    const config = made[made.length - 1];
    if (!config) continue;
    const finishedAt = finishedRollout(ph, config)?.at ?? null;
    out.push({
      pool: name,
      config: config.name,
      startedAt: config.createdAt,
      finishedAt,
      rolloutMs: finishedAt === null ? null : finishedAt - config.createdAt,
      levelGapMs: finishedAt === null || mcoLevelAt === undefined ? null : finishedAt - mcoLevelAt,
    });
  }
  return out;
}

/**
 * The version string that names atlevel's analysis in the store (re-ingest with --reanalyze after a
 * change). 3: rule states carry their coverage; a run written by /2 has none (coverage unknown).
 */
const ANALYZER = 'atlevel-analyze/3';

/**
 * A rule state's coverage as the store keeps it: analyze's `coverage` (docs/analyze-json.md) as
 * full, partial or thin, with its detail. A rule not checked has none.
 */
function coverageOf(
  o: AnalysisResult['outcomes'][number],
): Pick<RunRecord['rules'][number], 'coverage' | 'coverageDetail'> {
  if (o.state === 'not-checked') return { coverage: null, coverageDetail: null };
  const detail = coverageDocument(o);
  if (!detail) return { coverage: 'full', coverageDetail: null };
  return { coverage: detail.enough ? 'partial' : 'thin', coverageDetail: detail };
}

export function runRecord(who: RunIdentity, history: ClusterHistory, result: AnalysisResult): RunRecord {
  const update = result.updates[result.updates.length - 1];
  const start = update?.startedAt;
  const end = update?.completedAt;
  const operators = operatorLevels(history, update?.target, start);
  const mcoLevelAt = operators.find((o) => o.operator === 'machine-config')?.at;
  const rel = releaseFacts(history);
  const fromVersion = update?.previous ?? history.releases.from?.version;
  const toVersion = update?.target ?? history.releases.to?.version;
  const outcomes = result.outcomes.map((o) => ({
    rule: o.rule.id,
    state: o.state,
    missing: o.missing,
    failures: o.findings.filter((f) => f.severity === 'failure').length,
    warnings: o.findings.filter((f) => f.severity === 'warning').length,
    ...coverageOf(o),
  }));
  return {
    id: who.id,
    source: who.source,
    identity: who.identity,
    job: who.job ?? null,
    buildId: who.buildId ?? null,
    platform: platformOf(who.job),
    fromVersion: fromVersion || null,
    toVersion: toVersion || null,
    fromImage: history.releases.from?.image ?? null,
    toImage: update?.image ?? history.releases.to?.image ?? null,
    stream: streamOf(fromVersion, toVersion),
    runStart: result.span?.from ?? null,
    runEnd: result.span?.to ?? null,
    updateStart: start ?? null,
    updateEnd: end ?? null,
    updateMs: start !== undefined && end !== undefined ? end - start : null,
    verdict: result.verdict,
    mcoFix: mcoFix(history, start),
    configChanged: rel.configChanged,
    configUnchanged: rel.configUnchanged,
    analyzer: ANALYZER,
    rules: outcomes,
    findings: result.findings.map(findingRecord),
    releaseChanges: rel.changes,
    operators,
    pools: poolRollouts(history, start, mcoLevelAt),
  };
}
