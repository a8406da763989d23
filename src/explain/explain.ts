import { operatorLevelFor, RULE_RECORD } from '../invariants/index.js';
import { type Carrier, carriersOf, type MachineConfigDiff } from '../machineconfig/index.js';
import type {
  BudgetLimits,
  CauseStep,
  ClusterHistory,
  Evidence,
  ExplainHook,
  Explanation,
  Finding,
  MachineConfig,
  ReleaseComponent,
  ReleasePayload,
  Signature,
  SourceRef,
} from '../model/index.js';
import { formatClock, gapAfter, MCO, parseTime } from '../model/index.js';
import { ComponentIndex, isOsImageTag, referenceText, releaseName } from '../release/index.js';
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
  let carriers: ReadonlyMap<number, Carrier> = new Map();
  let sourceRefs: ReadonlyMap<string, SourceRef> = new Map();
  if (from && to) {
    configDiff = diffConfigs(from, to, history.releases, opts.diffLimits);
    const changed = configDiff.changes;
    const sources = sourcesOf(history, s.pool, to);
    carriers = carriersOf(
      to.object,
      sources.map((x) => x.object),
      changed,
    );
    sourceRefs = new Map(sources.map((x) => [x.object.metadata.name, x.ref]));
    steps.push({
      title:
        changed.length === 0
          ? `${from.name} and ${to.name} have identical content`
          : `${to.name} differs from ${from.name} in ${changed.length} place${changed.length === 1 ? '' : 's'}: ${changed.map(changeLabel).join(', ')}`,
      evidence: changed.map((c, i) => ({
        statement: describeChange(c, carriers.get(i)),
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
    const components = componentSteps(configDiff, history.releases, carriers, sourceRefs);
    if (components) steps.push(components);
  }

  const signature =
    from && to
      ? matchSignature(from, to, configDiff, history.releases, updateFacts(history, s), carriers)
      : undefined;
  if (signature) {
    steps.push({
      title: `signature: ${signature.title} (${signature.id})`,
      evidence: signatureEvidence(from, to, history.releases),
    });
  }

  const explanation: Explanation = {
    steps,
    ...(configDiff ? { configDiff } : {}),
    ...(configDiff ? { components: changedImages(configDiff, history.releases, carriers).components } : {}),
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

function describeChange(c: MachineConfigDiff['changes'][number], carrier?: Carrier): string {
  const lines = (c.changedLines ?? [])
    .slice(0, 2)
    .map(
      (l) =>
        `${l.before !== undefined ? `-${l.before.trim()}` : ''}${l.before !== undefined && l.after !== undefined ? ' → ' : ''}${l.after !== undefined ? `+${l.after.trim()}` : ''}`,
    );
  const what = changeLabel(c);
  // A line a config the controller did not generate holds is that config's, whatever images it names.
  const from = carrier && !carrier.generated ? ` (carried by MachineConfig ${carrier.name})` : '';
  const detail =
    lines.length > 0
      ? `: ${lines.join('; ')}`
      : c.before !== undefined || c.after !== undefined
        ? `: ${c.before ?? '∅'} → ${c.after ?? '∅'}`
        : '';
  // Only attributes changed (mode, owner, the encoding of a data: URL): say which, and that a
  // file's decoded content is the same, rather than a bare "modified" that reads as new content.
  const attributes =
    c.attributes && c.attributes.length > 0
      ? `${detail === '' ? ': ' : '; '}${c.attributes.join(', ')}${detail === '' && c.part === 'files' ? ' (the decoded content is the same)' : ''}`
      : '';
  return `${what} ${c.change}${from}${detail}${attributes}`;
}

/** The pool's configs the rendered config `to` was merged from (its pool's source list, or its role's). */
function sourcesOf(
  history: ClusterHistory,
  pool: string,
  to: RenderedConfig,
): { object: MachineConfig; ref: SourceRef }[] {
  const named = new Set<string>();
  for (const { object: p } of history.objects.machineConfigPools) {
    if (p.metadata.name !== pool) continue;
    for (const c of [p.status?.configuration, p.spec?.configuration])
      if (c?.name === to.name) for (const s of c.source ?? []) named.add(s.name);
  }
  const out: { object: MachineConfig; ref: SourceRef }[] = [];
  for (const entry of history.objects.machineConfigs) {
    const name = entry.object.metadata.name;
    if (name.startsWith('rendered-')) continue;
    if (named.size > 0 ? named.has(name) : entry.object.metadata.labels?.[MCO_ROLE] === pool) out.push(entry);
  }
  return out;
}

const MCO_ROLE = 'machineconfiguration.openshift.io/role';

/** How one changed image of a rendered config is attributed (componentSteps). */
type Attribution =
  /** The release component(s) the new image (or a removed image) is, changed between the releases. */
  | { readonly kind: 'release'; readonly names: readonly string[]; readonly release: ReleasePayload }
  /** A release component whose image is the same in both releases: the update did not change it. */
  | { readonly kind: 'unchanged'; readonly names: readonly string[]; readonly release: ReleasePayload }
  /** Carried by a config the controller did not generate (a day-2 or installer MachineConfig). */
  | { readonly kind: 'day2'; readonly carrier: string; readonly names: readonly string[] }
  /** The new image is in no release read; `was` names the replaced image's component, when known. */
  | {
      readonly kind: 'unknown';
      readonly was?: { readonly names: readonly string[]; readonly release: ReleasePayload };
      /** The new image is these components' image in the older release, not the target's. */
      readonly older?: { readonly names: readonly string[]; readonly release: ReleasePayload };
    };

interface ChangedImage {
  readonly before?: string;
  readonly after?: string;
  /** The changes that hold it (`file /etc/crio/crio.conf.d/00-default`, `unit kubelet.service`). */
  readonly where: string[];
  readonly attribution: Attribution;
}

/**
 * Each changed image of the diff with what it is attributed to. The new image is named by the target
 * release (or, being the same image, the older one); a removed image by the release that had it. Only
 * a component whose image differs between the two releases is the update's doing; an image no release
 * read names is not known, whatever the image it replaced was; a line a day-2 MachineConfig carries is
 * that config's, never a release component's.
 */
function attributeImages(
  diff: MachineConfigDiff,
  releases: ClusterHistory['releases'],
  carriers: ReadonlyMap<number, Carrier>,
): ChangedImage[] {
  const from = new ComponentIndex([releases.from]);
  const to = new ComponentIndex([releases.to]);
  const names = (index: ComponentIndex, ref: string | undefined) =>
    ref === undefined ? [] : [...new Set(index.lookup(ref).map((m) => m.component.name))].sort();
  const out: ChangedImage[] = [];
  const seen = new Map<string, ChangedImage>();
  diff.changes.forEach((c, i) => {
    const carrier = carriers.get(i);
    for (const img of c.images ?? []) {
      const key = `${img.before ?? ''}\u0000${img.after ?? ''}\u0000${carrier && !carrier.generated ? carrier.name : ''}`;
      const already = seen.get(key);
      if (already) {
        if (!already.where.includes(changeLabel(c))) already.where.push(changeLabel(c));
        continue;
      }
      const where = [changeLabel(c)];
      const base = {
        ...(img.before !== undefined ? { before: img.before } : {}),
        ...(img.after !== undefined ? { after: img.after } : {}),
        where,
      };
      let named: { names: string[]; release: ReleasePayload } | undefined;
      // The new image is the older release's image of a component the target release holds another
      // image of: the line went back, not forward with the update.
      let older: { names: string[]; release: ReleasePayload } | undefined;
      if (img.after !== undefined) {
        const inTo = names(to, img.after);
        const inFrom = names(from, img.after);
        if (inTo.length > 0 && releases.to) named = { names: inTo, release: releases.to };
        else if (inFrom.length > 0 && releases.from) {
          const target = releases.to;
          if (target && inFrom.some((n) => target.components.some((c) => c.name === n)))
            older = { names: inFrom, release: releases.from };
          else named = { names: inFrom, release: releases.from };
        }
      } else {
        const inFrom = names(from, img.before);
        const inTo = names(to, img.before);
        if (inFrom.length > 0 && releases.from) named = { names: inFrom, release: releases.from };
        else if (inTo.length > 0 && releases.to) named = { names: inTo, release: releases.to };
      }
      if (carrier && !carrier.generated) {
        out.push({
          ...base,
          attribution: { kind: 'day2', carrier: carrier.name, names: (named ?? older)?.names ?? [] },
        });
      } else if (older) {
        out.push({ ...base, attribution: { kind: 'unknown', older } });
      } else if (named) {
        const unchanged = named.names.every((n) => sameComponent(releases, [n]) === true);
        out.push({ ...base, attribution: { kind: unchanged ? 'unchanged' : 'release', ...named } });
      } else {
        const wasFrom = names(from, img.before);
        out.push({
          ...base,
          attribution: {
            kind: 'unknown',
            ...(wasFrom.length > 0 && releases.from
              ? { was: { names: wasFrom, release: releases.from } }
              : {}),
          },
        });
      }
      const last = out[out.length - 1];
      if (last) seen.set(key, last);
    }
  });
  return out;
}

/** `pod`, or `machine-os-content and rhel-coreos (one image under 2 tags)`. */
function componentNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} (one image under ${names.length} tags)`;
}

/** Name each changed image by its release component, from the two releases' image references. */
function componentSteps(
  diff: MachineConfigDiff,
  releases: ClusterHistory['releases'],
  carriers: ReadonlyMap<number, Carrier>,
  sourceRefs: ReadonlyMap<string, SourceRef>,
): CauseStep | undefined {
  const images = attributeImages(diff, releases, carriers);
  if (images.length === 0) return undefined;
  const evidence: Evidence[] = [];
  const cited = new Set<string>();
  const cite = (release: ReleasePayload, name: string) => {
    const c = release.components.find((x) => x.name === name);
    const key = `${release.ref.file}\u0000${name}`;
    if (c && !cited.has(key)) {
      cited.add(key);
      evidence.push(releaseEvidence(release, c));
    }
  };
  const released: string[] = [];
  const unchanged: string[] = [];
  const day2: string[] = [];
  let unknown = 0;
  const olderNames: string[] = [];
  for (const img of images) {
    const a = img.attribution;
    const swap = `${shortDigest(img.before)} → ${shortDigest(img.after)}`;
    if (a.kind === 'release' || a.kind === 'unchanged') {
      (a.kind === 'release' ? released : unchanged).push(componentNames(a.names));
      evidence.push({
        statement:
          a.kind === 'release'
            ? `${componentNames(a.names)}: ${swap}`
            : `${componentNames(a.names)}: ${swap} in ${img.where.join(', ')}; ${a.names.length === 1 ? 'its image is' : 'their image is'} the same in both releases: the release did not change the image, so the line changed for another reason (the controller's templates, or a MachineConfig)`,
        ...(a.names.length === 1 ? { object: `ReleaseComponent/${a.names[0]}` } : {}),
        ...(img.after ? { value: img.after } : img.before ? { value: img.before } : {}),
        ref: a.release.ref,
      });
      for (const n of a.names) {
        if (releases.from) cite(releases.from, n);
        if (releases.to) cite(releases.to, n);
      }
    } else if (a.kind === 'day2') {
      day2.push(a.carrier);
      const ref = sourceRefs.get(a.carrier);
      evidence.push({
        statement: `${img.where.join(', ')}: ${swap} is carried by MachineConfig ${a.carrier}, which the machine-config controller did not generate: not a release component's change${a.names.length > 0 ? ` (the image is ${componentNames(a.names)}'s)` : ''}`,
        object: `MachineConfig/${a.carrier}`,
        ...(img.after ? { value: img.after } : {}),
        ...(ref ? { ref } : {}),
      });
    } else {
      if (a.older) olderNames.push(componentNames(a.older.names));
      else unknown++;
      evidence.push({
        statement: `component not known: ${img.where.join(', ')}: ${swap}; the ${img.after === undefined ? 'removed' : 'new'} image is ${a.older ? `${componentNames(a.older.names)}'s in the older ${releaseName({ version: a.older.release.version, file: a.older.release.ref.file })}, not the target release's` : notInReleases(releases, 'its component')}${a.was ? `; the image it replaced was ${componentNames(a.was.names)} in ${releaseName({ version: a.was.release.version, file: a.was.release.ref.file })}` : ''}`,
        ...(img.after ? { value: img.after } : {}),
        ...(a.older
          ? { ref: a.older.release.ref }
          : a.was
            ? { ref: a.was.release.ref }
            : releases.to
              ? { ref: releases.to.ref }
              : releases.from
                ? { ref: releases.from.ref }
                : {}),
      });
      for (const n of [...(a.was?.names ?? []), ...(a.older?.names ?? [])]) {
        if (releases.from) cite(releases.from, n);
        if (a.older && releases.to) cite(releases.to, n);
      }
    }
  }
  const n = images.length;
  const parts: string[] = [];
  const uniq = (xs: string[]) => [...new Set(xs)];
  if (released.length > 0) {
    const u = uniq(released);
    parts.push(`the release component${u.length === 1 ? '' : 's'} ${u.join(', ')}`);
  }
  if (unchanged.length > 0) {
    const u = uniq(unchanged);
    parts.push(`${u.join(', ')}, whose image is the same in both releases (the release did not change it)`);
  }
  if (day2.length > 0) {
    const u = uniq(day2);
    parts.push(
      `carried by the MachineConfig${u.length === 1 ? '' : 's'} ${u.join(', ')}, not by the release`,
    );
  }
  if (olderNames.length > 0)
    parts.push(
      `${[...new Set(olderNames)].join(', ')}'s image${olderNames.length === 1 ? '' : 's'} of the older release, not the target release's`,
    );
  if (unknown > 0)
    parts.push(
      `${unknown === n ? '' : `${unknown} image${unknown === 1 ? '' : 's'} `}${notInReleases(releases, unknown === 1 ? 'its component' : 'their components')}`,
    );
  const head = `the changed image${n === 1 ? ' is' : 's are'}`;
  const title = parts.length === 1 ? `${head} ${parts[0]}` : `${head}: ${parts.join('; ')}`;
  return { title, evidence };
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

function shortDigest(pullSpec: string | undefined): string {
  if (!pullSpec) return '∅';
  const d = /sha256:([0-9a-f]{64})/.exec(pullSpec);
  return d?.[1] ? `sha256:${d[1].slice(0, 12)}…` : pullSpec;
}

const MCO_COMPONENT = 'machine-config-operator';

/**
 * The release tag of the pool's OS image: the tag whose image the configs' osImageURL is (it is
 * `machine-os-content` up to 4.11, a `rhel-coreos` tag from 4.12, whose payload lists both: docs/domain.md
 * 3.2.1). Without a config that names it, the one OS tag both payloads list; none
 * when they list several, rather than compare one release's OS tag with another's.
 */
function osTag(
  from: RenderedConfig,
  to: RenderedConfig,
  releases: ClusterHistory['releases'],
): string | undefined {
  const inBoth = (n: string) =>
    releases.from?.components.some((c) => c.name === n) === true &&
    releases.to?.components.some((c) => c.name === n) === true;
  const named = (r: ReleasePayload | undefined, url: string | undefined) =>
    url === undefined ? [] : new ComponentIndex([r]).lookup(url).map((m) => m.component.name);
  const tags = [...named(releases.to, to.osImageURL), ...named(releases.from, from.osImageURL)].filter(
    (n) => isOsImageTag(n) && !n.endsWith('-extensions'),
  );
  const pick = tags.find(inBoth) ?? tags[0];
  if (pick !== undefined) return pick;
  const listed = (releases.to?.components ?? [])
    .map((c) => c.name)
    .filter((n) => isOsImageTag(n) && !n.endsWith('-extensions') && inBoth(n));
  return listed.length === 1 ? listed[0] : undefined;
}

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
  carriers: ReadonlyMap<number, Carrier>,
): Signature | undefined {
  if (diff?.identical) return undefined;
  const facts = signatureFacts(from, to, releases);
  // A diff whose every change a config the controller did not generate carries is no release race:
  // the races of the catalogue are the release's changes (docs/runs.md, the facts).
  if (diff && diff.changes.length > 0)
    facts.set('day2Only', diff.changes.every((_, i) => carriers.get(i)?.generated === false) ? 'yes' : 'no');
  for (const [k, v] of update) facts.set(k, v);
  const entry = matchCatalogue(signatureCatalogue(), facts);
  // The entry's words name what this diff changed, not what changed in the case that made it known.
  return entry
    ? describeSignature(entry, diff ? changedImages(diff, releases, carriers) : undefined)
    : undefined;
}

/**
 * The release components of the diff's changed images, named as componentSteps names them: only the
 * components the update changed; an image no release names counts as unnamed, a day-2 config's
 * image or an unchanged component's as neither.
 */
function changedImages(
  diff: MachineConfigDiff,
  releases: ClusterHistory['releases'],
  carriers: ReadonlyMap<number, Carrier>,
): ChangedImages {
  const components = new Set<string>();
  let unnamed = 0;
  for (const { attribution: a } of attributeImages(diff, releases, carriers)) {
    if (a.kind === 'release') for (const n of a.names) components.add(n);
    else if (a.kind === 'unknown' && !a.older) unnamed++;
  }
  return { components: [...components], unnamed };
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
  const os = osTag(from, to, releases);
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
    ['release.os', sameOrChanged(os === undefined ? undefined : sameComponent(releases, [os]))],
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
  const os = from && to ? osTag(from, to, releases) : undefined;
  for (const names of [[MCO_COMPONENT], ...(os !== undefined ? [[os]] : [])]) {
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
