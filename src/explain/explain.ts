import { operatorLevelFor, RULE_RECORD } from '../invariants/index.js';
import type { MachineConfigDiff } from '../machineconfig/index.js';
import type {
  BudgetLimits,
  CauseStep,
  ClusterHistory,
  Evidence,
  ExplainHook,
  Explanation,
  Finding,
  ReleaseComponent,
  ReleasePayload,
  Signature,
} from '../model/index.js';
import { formatClock, gapAfter, MCO, parseTime } from '../model/index.js';
import { referenceText, releaseName } from '../release/index.js';
import {
  type ChangedImages,
  describeSignature,
  matchCatalogue,
  signatureCatalogue,
} from '../signatures/index.js';
import { findUpdates, type RenderedConfig, renderedConfigs } from '../timeline/index.js';
import { diffConfigs } from './config-diff.js';
import { explainControlPlane, explainNodePool } from './hosted.js';

/** Each explain hook a rule may name (model/finding.ts ExplainHook), and the cause chain it builds. */
const HOOKS: Readonly<
  Record<ExplainHook, (history: ClusterHistory, finding: Finding, limits: Partial<BudgetLimits>) => Finding>
> = {
  'pool-rollout': (history, finding, diffLimits) => explainFinding(history, finding, { diffLimits }),
  'pool-rollout-at-completion': (history, finding, diffLimits) =>
    explainFinding(history, finding, { completion: true, diffLimits }),
  'operand-rollout': (history, finding) => explainOperands(history, finding),
  'nodepool-rollout': (history, finding) => explainNodePool(history, finding),
  'controlplane-rollout': (history, finding) => explainControlPlane(history, finding),
};

/**
 * Explain each finding through its rule's hook in the rule record (invariants/ RULE_RECORD).
 * `diffLimits` are the command's budget limits (its --max-data-url, --max-diff-time, ... flags).
 */
export function explainFindings(
  history: ClusterHistory,
  findings: readonly Finding[],
  diffLimits: Partial<BudgetLimits> = {},
): Finding[] {
  return findings.map((f) => {
    const hook = RULE_RECORD.get(f.rule)?.info.explain;
    return hook ? HOOKS[hook](history, f, diffLimits) : f;
  });
}

/**
 * The cause chain of a pool-versus-level finding: the operator's level report, the config the pool
 * sat on, the config rendered for the new release and when, what changed between them, which release
 * component changed it, and the known signature it matches.
 */
function explainFinding(
  history: ClusterHistory,
  finding: Finding,
  opts: { readonly completion?: boolean; readonly diffLimits?: Partial<BudgetLimits> } = {},
): Finding {
  const s = finding.subject;
  if (!s?.pool) return finding;
  const configs = renderedConfigs(history, s.pool);
  const to = configs.find((c) => c.name === s.toConfig);
  const from = s.fromConfig
    ? configs.find((c) => c.name === s.fromConfig)
    : to
      ? configs[configs.indexOf(to) - 1]
      : undefined;
  const steps: CauseStep[] = [];

  // The level report is the one the invariants computed (invariants/operator-level.ts), not a second guess.
  const update = s.target ? findUpdates(history).find((u) => u.target === s.target) : undefined;
  const levelChange = update ? operatorLevelFor(history, 'machine-config', update) : undefined;
  const level = s.operatorLevelAt !== undefined ? { at: s.operatorLevelAt } : levelChange;
  if (levelChange) {
    steps.push({
      // In an update that keeps the version string the report is the operator-image (invariants/operator-level.ts).
      title: `machine-config reported level (${levelChange.name} ${levelChange.name === 'operator' ? levelChange.to : shortDigest(levelChange.to)}) at ${formatClock(levelChange.at)}`,
      at: levelChange.at,
      evidence: [
        {
          statement: `versions: ${levelChange.name} ${levelChange.from} -> ${levelChange.to}`,
          at: levelChange.at,
          object: 'ClusterOperator/machine-config',
          field: `status.versions[${levelChange.name}]`,
          ref: levelChange.ref,
        },
      ],
    });
  } else if (level === undefined && s.operator) {
    // A snapshot: the operator's version is there, the moment it was reported is not.
    const reported = finding.evidence.filter((e) => e.object === `ClusterOperator/${s.operator}`);
    if (reported.length > 0)
      steps.push({
        title: `${s.operator} reports operator ${s.target ?? 'the new version'} in the snapshot; since when, the inputs do not say`,
        evidence: reported,
      });
  }

  if (from) {
    // A config stamped for another release than the target fails the fixed operator's check (docs/domain.md 1.2).
    const otherRelease =
      from.releaseImageVersion !== undefined &&
      s.target !== undefined &&
      from.releaseImageVersion !== s.target;
    steps.push({
      title: `the ${s.pool} pool was on ${from.name} (created ${formatClock(from.createdAt)}), ${otherRelease ? `stamped for ${from.releaseImageVersion}: the operator's release check should have refused it` : "which passed the operator's checks"}`,
      at: from.createdAt,
      evidence: configEvidence(from),
    });
  }

  if (to) {
    const gap = level ? gapAfter(to.createdAt, level.at) : undefined;
    const evidence: Evidence[] = [
      {
        statement: `${to.name} created`,
        at: to.createdAt,
        object: `MachineConfig/${to.name}`,
        field: 'metadata.creationTimestamp',
        ref: to.ref,
      },
      ...renderEvents(history, s.pool, to.name),
    ];
    steps.push({
      title: `the render controller created ${to.name} at ${formatClock(to.createdAt)}${gap ? `, ${gap} after the level report` : ''}`,
      at: to.createdAt,
      evidence,
    });
  }

  if (s.cvoCompletedAt !== undefined && opts.completion === true) {
    steps.push({
      // When the pool's new config came after the completion (a same-version update, whose operator
      // version was at level all along), the pool had not begun to roll it out: say that, not "still".
      title: `the CVO saw machine-config at level and completed ${s.target ?? 'the update'} at ${formatClock(s.cvoCompletedAt)} ${to && to.createdAt > s.cvoCompletedAt ? `before the render controller had created the pool's new config ${to.name}: the pool had not begun to roll it out` : 'while the pool was still rolling out'}`,
      at: s.cvoCompletedAt,
      evidence: finding.evidence.filter((e) => e.object === 'ClusterVersion/version'),
    });
  }

  let configDiff: MachineConfigDiff | undefined;
  if (from && to) {
    configDiff = diffConfigs(from, to, history.releases, opts.diffLimits);
    const changed = configDiff.changes;
    steps.push({
      title:
        changed.length === 0
          ? `${from.name} and ${to.name} have identical content`
          : `${to.name} differs from ${from.name} in ${changed.length} place${changed.length === 1 ? '' : 's'}: ${changed.map(changeLabel).join(', ')}`,
      evidence: changed.map((c) => ({
        statement: describeChange(c),
        object: `MachineConfig/${to.name}`,
        field:
          c.part === 'units'
            ? `spec.config.systemd.units[${c.name}]`
            : c.part === 'files'
              ? `spec.config.storage.files[${c.name}]`
              : `spec.${c.part}`,
        ref: to.ref,
      })),
    });
    const components = componentSteps(configDiff, history.releases);
    if (components) steps.push(components);
  }

  const signature =
    from && to ? matchSignature(from, to, configDiff, history.releases, updateFacts(history, s)) : undefined;
  if (signature) {
    steps.push({
      title: `signature: ${signature.title} (${signature.id})`,
      evidence: signatureEvidence(from, to, history.releases),
    });
  }

  const explanation: Explanation = {
    steps,
    ...(configDiff ? { configDiff } : {}),
    ...(signature ? { signature } : {}),
  };
  return { ...finding, explanation };
}

function configEvidence(c: RenderedConfig): Evidence[] {
  const out: Evidence[] = [];
  out.push({
    statement: c.controllerVersion
      ? `generated by controller version ${c.controllerVersion}`
      : 'no generated-by-controller-version annotation',
    object: `MachineConfig/${c.name}`,
    field: `metadata.annotations[${MCO.generatedByControllerVersion}]`,
    ...(c.controllerVersion ? { value: c.controllerVersion } : {}),
    ref: c.ref,
  });
  if (c.osImageURL) {
    out.push({
      statement: `osImageURL ${c.osImageURL}`,
      object: `MachineConfig/${c.name}`,
      field: 'spec.osImageURL',
      value: c.osImageURL,
      ref: c.ref,
    });
  }
  out.push({
    statement: c.releaseImageVersion
      ? `release-image-version ${c.releaseImageVersion}`
      : 'no release-image-version annotation',
    object: `MachineConfig/${c.name}`,
    field: `metadata.annotations[${MCO.releaseImageVersion}]`,
    ...(c.releaseImageVersion ? { value: c.releaseImageVersion } : {}),
    ref: c.ref,
  });
  return out;
}

/** RenderedConfigGenerated events for the pool and config, and the pool's own Updating flip. */
function renderEvents(history: ClusterHistory, pool: string, config: string): Evidence[] {
  const out: Evidence[] = [];
  for (const { object: e, ref } of history.objects.events) {
    const inv = e.involvedObject ?? e.regarding;
    if (inv?.kind !== 'MachineConfigPool' || inv.name !== pool) continue;
    const text = e.message ?? e.note ?? '';
    if (e.reason !== 'RenderedConfigGenerated' && !(e.reason === 'SetDesiredConfig' && text.includes(config)))
      continue;
    if (e.reason === 'RenderedConfigGenerated' && !text.includes(config)) continue;
    const at = parseTime(e.firstTimestamp) ?? parseTime(e.eventTime) ?? parseTime(e.lastTimestamp);
    out.push({
      statement: `event ${e.reason}: ${text}`,
      ...(at !== undefined ? { at } : {}),
      object: `MachineConfigPool/${pool}`,
      ref,
    });
    if (out.length >= 3) break;
  }
  return out;
}

/** `unit kubelet.service`, `file /etc/crio/crio.conf.d/00-default`, `osImageURL`. */
function changeLabel(c: MachineConfigDiff['changes'][number]): string {
  const kind =
    c.part === 'units' ? 'unit' : c.part === 'files' ? 'file' : c.part === 'dropins' ? 'drop-in' : c.part;
  return c.name === c.part ? kind : `${kind} ${c.name}`;
}

function describeChange(c: MachineConfigDiff['changes'][number]): string {
  const lines = (c.changedLines ?? [])
    .slice(0, 2)
    .map(
      (l) =>
        `${l.before !== undefined ? `-${l.before.trim()}` : ''}${l.before !== undefined && l.after !== undefined ? ' → ' : ''}${l.after !== undefined ? `+${l.after.trim()}` : ''}`,
    );
  const what = changeLabel(c);
  return `${what} ${c.change}${lines.length > 0 ? `: ${lines.join('; ')}` : c.before !== undefined || c.after !== undefined ? `: ${c.before ?? '∅'} → ${c.after ?? '∅'}` : ''}`;
}

/** Name each changed image by its release component, from the two releases' image references. */
function componentSteps(
  diff: MachineConfigDiff,
  releases: ClusterHistory['releases'],
): CauseStep | undefined {
  const seen = new Map<string, { component?: string; before?: string; after?: string }>();
  for (const c of diff.changes) {
    for (const img of c.images ?? []) {
      const key = `${img.component ?? '?'} ${img.before ?? ''} ${img.after ?? ''}`;
      if (!seen.has(key)) seen.set(key, img);
    }
  }
  if (seen.size === 0) return undefined;
  const evidence: Evidence[] = [];
  const names: string[] = [];
  for (const img of seen.values()) {
    const component = img.component ?? componentOf(img.after ?? img.before ?? '', releases);
    if (component) names.push(component);
    evidence.push({
      statement: `${component ?? `image in ${releases.from && releases.to ? 'neither release' : 'no release read'}`}: ${shortDigest(img.before)} → ${shortDigest(img.after)}`,
      ...(component ? { object: `ReleaseComponent/${component}` } : {}),
      ...(img.after ? { value: img.after } : {}),
      ...(releases.to ? { ref: releases.to.ref } : releases.from ? { ref: releases.from.ref } : {}),
    });
    const fromC = component ? releases.from?.components.find((x) => x.name === component) : undefined;
    const toC = component ? releases.to?.components.find((x) => x.name === component) : undefined;
    if (fromC && releases.from) evidence.push(releaseEvidence(releases.from, fromC));
    if (toC && releases.to) evidence.push(releaseEvidence(releases.to, toC));
  }
  const unique = [...new Set(names)];
  const unnamed = seen.size - names.length;
  // An image no release names is said so plainly, never as a component called "unknown".
  const title =
    unique.length === 0
      ? `the changed image${seen.size === 1 ? ' is' : 's are'} ${notInReleases(releases, seen.size === 1 ? 'its component' : 'their components')}`
      : `the changed image${seen.size === 1 ? ' is' : 's are'} the release component${unique.length === 1 ? '' : 's'} ${unique.join(', ')}${unnamed > 0 ? `, and ${unnamed} image${unnamed === 1 ? '' : 's'} ${notInReleases(releases, unnamed === 1 ? 'its component' : 'their components')}` : ''}`;
  return {
    title,
    evidence,
  };
}

/**
 * Where an image was not found, in words. Advice to give --release-from/--release-to only for a
 * release that is missing: when both were given or found, giving them again cannot help.
 */
function notInReleases(releases: ClusterHistory['releases'], toName: string): string {
  const name = (p: ReleasePayload) => releaseName({ version: p.version, file: p.ref.file });
  const { from, to } = releases;
  if (from && to) return `in neither release (${name(from)}, ${name(to)})`;
  const advice = (flags: string) => ` (give ${flags} to name ${toName})`;
  if (to) return `not in ${name(to)}, the only release read${advice('--release-from')}`;
  if (from) return `not in ${name(from)}, the only release read${advice('--release-to')}`;
  return `not named: no release payload was given or found${advice('--release-from and --release-to')}`;
}

function releaseEvidence(release: ReleasePayload, c: ReleaseComponent): Evidence {
  return {
    statement: `${releaseName({ version: release.version, file: release.ref.file })} has ${c.name} = ${referenceText(c)}`,
    object: `Release/${release.version ?? release.ref.file}`,
    field: `references.spec.tags[${c.name}].from.name`,
    value: c.pullSpec,
    ref: release.ref,
  };
}

function componentOf(pullSpec: string, releases: ClusterHistory['releases']): string | undefined {
  const digest = /sha256:[0-9a-f]{64}/.exec(pullSpec)?.[0];
  for (const r of [releases.to, releases.from]) {
    const c = r?.components.find(
      (x) => x.pullSpec === pullSpec || (digest !== undefined && x.digest === digest),
    );
    if (c) return c.name;
  }
  return undefined;
}

function shortDigest(pullSpec: string | undefined): string {
  if (!pullSpec) return '∅';
  const d = /sha256:([0-9a-f]{64})/.exec(pullSpec);
  return d?.[1] ? `sha256:${d[1].slice(0, 12)}…` : pullSpec;
}

const MCO_COMPONENT = 'machine-config-operator';
const OS_COMPONENTS = ['machine-os-content', 'rhel-coreos'];

/**
 * Which known failure the pair of configs matches (signatures/*.json, first match in catalogue
 * order). Config annotations come first (they are what the operator itself compared); the releases,
 * when given, confirm it from the payload side.
 */
function matchSignature(
  from: RenderedConfig,
  to: RenderedConfig,
  diff: MachineConfigDiff | undefined,
  releases: ClusterHistory['releases'],
  update: ReadonlyMap<string, string>,
): Signature | undefined {
  if (diff?.identical) return undefined;
  const facts = signatureFacts(from, to, releases);
  for (const [k, v] of update) facts.set(k, v);
  const entry = matchCatalogue(signatureCatalogue(), facts);
  // The entry's words name what this diff changed, not what changed in the case that made it known.
  return entry ? describeSignature(entry, diff ? changedImages(diff, releases) : undefined) : undefined;
}

/** The release components of the diff's changed images, named as componentSteps names them. */
function changedImages(diff: MachineConfigDiff, releases: ClusterHistory['releases']): ChangedImages {
  const components = new Set<string>();
  const unnamed = new Set<string>();
  for (const c of diff.changes) {
    for (const img of c.images ?? []) {
      const component = img.component ?? componentOf(img.after ?? img.before ?? '', releases);
      if (component) components.add(component);
      else unnamed.add(`${img.before ?? ''} ${img.after ?? ''}`);
    }
  }
  return { components: [...components], unnamed: unnamed.size };
}

/**
 * The update's facts (docs/runs.md): `version`, whether the update kept its version string (a move to
 * the multi-architecture payload, a rebuild: docs/domain.md 5.6), and `operatorImage`, whether
 * machine-config's ClusterOperator reports its `operator-image` version, the only witness of level in
 * such an update (MCO PR 4637).
 */
function updateFacts(history: ClusterHistory, s: NonNullable<Finding['subject']>): Map<string, string> {
  const facts = new Map<string, string>();
  if (s.target !== undefined && s.previous !== undefined)
    facts.set('version', s.target === s.previous ? 'same' : 'changed');
  const mco = history.objects.clusterOperators.find((c) => c.object.metadata.name === 'machine-config');
  if (mco)
    facts.set(
      'operatorImage',
      mco.object.status?.versions?.some((v) => v.name === 'operator-image') ? 'present' : 'absent',
    );
  return facts;
}

/** The facts a catalogue entry's `match` can test (docs/runs.md lists them). */
function signatureFacts(
  from: RenderedConfig,
  to: RenderedConfig,
  releases: ClusterHistory['releases'],
): Map<string, string> {
  const sameOrChanged = (b: boolean | undefined): string =>
    b === undefined ? 'unknown' : b ? 'same' : 'changed';
  return new Map([
    ['releaseImageVersion', to.releaseImageVersion !== undefined ? 'present' : 'absent'],
    [
      'controllerVersion',
      from.controllerVersion === undefined || to.controllerVersion === undefined
        ? 'unknown'
        : sameOrChanged(from.controllerVersion === to.controllerVersion),
    ],
    ['osImageURL', sameOrChanged((from.osImageURL ?? '') === (to.osImageURL ?? ''))],
    ['release.machine-config-operator', sameOrChanged(sameComponent(releases, [MCO_COMPONENT]))],
    ['release.os', sameOrChanged(sameComponent(releases, OS_COMPONENTS))],
  ]);
}

function sameComponent(releases: ClusterHistory['releases'], names: readonly string[]): boolean | undefined {
  if (!releases.from || !releases.to) return undefined;
  const a = releases.from.components.find((c) => names.includes(c.name));
  const b = releases.to.components.find((c) => names.includes(c.name));
  if (!a || !b) return undefined;
  return (a.digest ?? a.pullSpec) === (b.digest ?? b.pullSpec);
}

function signatureEvidence(
  from: RenderedConfig | undefined,
  to: RenderedConfig | undefined,
  releases: ClusterHistory['releases'],
): Evidence[] {
  const out: Evidence[] = [];
  if (from && to) {
    out.push({
      statement:
        from.controllerVersion === to.controllerVersion
          ? `both configs generated by controller version ${from.controllerVersion ?? '?'} (same MCO commit)`
          : `controller version ${from.controllerVersion ?? '?'} → ${to.controllerVersion ?? '?'}`,
      object: `MachineConfig/${to.name}`,
      field: `metadata.annotations[${MCO.generatedByControllerVersion}]`,
      ref: to.ref,
    });
    out.push({
      statement:
        from.osImageURL === to.osImageURL
          ? 'osImageURL unchanged'
          : `osImageURL ${from.osImageURL ?? '?'} → ${to.osImageURL ?? '?'}`,
      object: `MachineConfig/${to.name}`,
      field: 'spec.osImageURL',
      ref: to.ref,
    });
    out.push({
      statement: to.releaseImageVersion
        ? `release-image-version ${to.releaseImageVersion}`
        : 'neither config carries release-image-version: the operator predates MCO PR #2918',
      object: `MachineConfig/${to.name}`,
      field: `metadata.annotations[${MCO.releaseImageVersion}]`,
      ref: to.ref,
    });
  }
  for (const names of [[MCO_COMPONENT], OS_COMPONENTS]) {
    const a = releases.from?.components.find((c) => names.includes(c.name));
    const b = releases.to?.components.find((c) => names.includes(c.name));
    if (a && b && releases.to) {
      out.push({
        statement: `${a.name} ${(a.digest ?? a.pullSpec) === (b.digest ?? b.pullSpec) ? 'identical in both releases' : 'changed between the releases'}${b.commit ? ` (commit ${b.commit.slice(0, 12)})` : ''}`,
        object: `ReleaseComponent/${a.name}`,
        value: b.pullSpec,
        ref: releases.to.ref,
      });
    }
  }
  return out;
}

/**
 * The cause chain of an operator-versus-operand finding (invariants/operator-level-before-operands.ts):
 * the operator's level report, then each workload it manages that had not rolled out, with the fact
 * that shows it and when its rollout ended, then the release component whose image it had to roll
 * out, as each payload names it.
 */
function explainOperands(history: ClusterHistory, finding: Finding): Finding {
  const s = finding.subject;
  if (!s?.operator || s.operatorLevelAt === undefined) return finding;
  const operatorKey = `ClusterOperator/${s.operator}`;
  const steps: CauseStep[] = [];
  const level = finding.evidence.find(
    (e) => e.object === operatorKey && e.field === 'status.versions[operator]',
  );
  steps.push({
    title: `${s.operator} reported level${level?.value ? ` (operator ${level.value})` : ''} at ${formatClock(s.operatorLevelAt)}`,
    at: s.operatorLevelAt,
    evidence: finding.evidence.filter((e) => e.object === operatorKey),
  });
  const components = new Set<string>();
  for (const key of s.objects ?? []) {
    if (key === operatorKey) continue;
    const [kind, ns, name] = key.split('/');
    const own = finding.evidence.filter(
      (e) =>
        e.object === key ||
        e.object?.startsWith(`ReplicaSet/${ns}/${name}-`) ||
        e.object?.startsWith(`Pod/${ns}/${name}-`),
    );
    for (const e of own) if (e.statement.startsWith('release component ') && e.value) components.add(e.value);
    const witness = own.find((e) => e.object !== key) ?? own.find((e) => e.field !== undefined);
    const finished = own[own.length - 1];
    steps.push({
      title: `${kind} ${ns}/${name} had not rolled out when ${s.operator} reported level${witness ? `: ${witness.statement}` : ''}${finished && finished !== witness ? `; ${finished.statement.slice(finished.statement.indexOf(': ') + 2)}` : ''}`,
      ...(witness?.at !== undefined ? { at: witness.at } : {}),
      evidence: own.filter((e) => !e.statement.startsWith('release component ')),
    });
  }
  const kinds = [
    ...new Set((s.objects ?? []).filter((k) => k !== operatorKey).map((k) => k.split('/')[0] ?? '')),
  ];
  for (const name of components) {
    const before = history.releases.from?.components.find((c) => c.name === name);
    const after = history.releases.to?.components.find((c) => c.name === name);
    const evidence: Evidence[] = [];
    if (history.releases.from && before) evidence.push(releaseEvidence(history.releases.from, before));
    if (history.releases.to && after) evidence.push(releaseEvidence(history.releases.to, after));
    steps.push({
      title: `the release component ${name} changed its image: ${shortDigest(before?.pullSpec)} → ${shortDigest(after?.pullSpec)}`,
      evidence,
    });
  }
  // The catalogue's entry for this way of failing (signatures/operand-early-level.json).
  const entry = matchCatalogue(
    signatureCatalogue(),
    new Map([
      ['rule', finding.rule],
      ['operandKind', kinds.length === 1 ? (kinds[0] ?? 'unknown') : 'mixed'],
    ]),
  );
  const signature = entry ? describeSignature(entry, { components: [...components], unnamed: 0 }) : undefined;
  if (signature) steps.push({ title: `signature: ${signature.title} (${signature.id})`, evidence: [] });
  return { ...finding, explanation: { steps, ...(signature ? { signature } : {}) } };
}
