/**
 * Component-level diff of two release payloads, and what it means for nodes (docs/domain.md 8.4, 8.6):
 * which changed components are embedded in rendered MachineConfigs (so the update rolls nodes), and
 * whether the update is the bug-1999556 shape — rendered configs change while neither the MCO commit
 * nor the OS image does, which a machine-config operator without the `release-image-version` check
 * (before MCO PR #2918) cannot detect, so it reports level before the master pool has rolled.
 */
import type { ReleaseComponent, ReleasePayload } from '../model/index.js';
import { isPlaceholder } from './parse.js';

/** @public Named in the declarations of the release reporters' inferred types. */
export interface ComponentChange {
  readonly name: string;
  readonly before: ReleaseComponent;
  readonly after: ReleaseComponent;
  /** true/false when both sides carry `io.openshift.build.commit.id`; undefined when unknown. */
  readonly commitChanged?: boolean;
}

export type Reach = 'all-platforms' | 'on-prem';

/** A changed (or added/removed) component that is embedded in rendered MachineConfigs. @public (named in the release reporters' declarations) */
export interface ConfigReach {
  readonly name: string;
  readonly change: 'changed' | 'added' | 'removed';
  readonly reach: Reach;
  /** Where it lands in a rendered config. */
  readonly embeddedIn: string;
}

/**
 * `yes`: the condition holds; `possible`: it holds unless the MCO commit changed (unknown here); `no`;
 * `cannot-tell`: the images it depends on could not be compared (see ReleaseDiff.cannotTell).
 */
type Verdict = 'yes' | 'possible' | 'no' | 'cannot-tell';

/** A component both payloads list whose images cannot be compared. @public (named in the release reporters' declarations) */
export interface IncomparableComponent {
  readonly name: string;
  readonly before: ReleaseComponent;
  readonly after: ReleaseComponent;
  /**
   * `tag-vs-digest`: one side by digest, the other by tag; `tag-vs-tag`: both by tag, different
   * tags; `placeholder`: a placeholder, not an image.
   */
  readonly why: 'tag-vs-digest' | 'tag-vs-tag' | 'placeholder';
}

export interface ReleaseDiff {
  readonly from: ReleaseSide;
  readonly to: ReleaseSide;
  readonly added: readonly ReleaseComponent[];
  readonly removed: readonly ReleaseComponent[];
  readonly changed: readonly ComponentChange[];
  readonly unchanged: number;
  /** Listed by both, neither "changed" nor "unchanged": a tag against a digest or another tag, or a placeholder. */
  readonly incomparable: readonly IncomparableComponent[];
  readonly reachingConfigs: readonly ConfigReach[];
  /**
   * Will rendered configs change, so nodes drain and reboot? `on-prem`: only on on-prem platforms;
   * `cannot-tell`: see `cannotTell`.
   */
  readonly nodesWillRoll: 'yes' | 'on-prem' | 'no' | 'cannot-tell';
  readonly machineConfigOperator: {
    readonly imageChanged: boolean;
    readonly commitChanged?: boolean;
    /** Set when neither payload lists machine-config-operator: nothing can be said about it. */
    readonly unlisted?: true;
    /** Set when both list it but its images cannot be compared (IncomparableComponent). */
    readonly cannotCompare?: true;
  };
  /** true only when an OS image is known to have changed; see `osImage` for "cannot tell". */
  readonly osImageChanged: boolean;
  readonly osImage: 'changed' | 'unchanged' | 'cannot-tell';
  /** Why the effect on nodes cannot be told, in words; empty when it can. */
  readonly cannotTell: readonly string[];
  /** The bug-1999556 condition (see the module comment). */
  readonly levelTooEarly: Verdict;
  readonly warnings: readonly string[];
}

interface ReleaseSide {
  /** Absent when the file carries none. */
  readonly version?: string;
  readonly image?: string;
  readonly file: string;
  readonly components: number;
}

const MCO_TAG = 'machine-config-operator';

/** OS image tags: `machine-os-content` (4.10 era), `rhel-coreos[-N]` (4.12+), and their extensions. */
export function isOsImageTag(name: string): boolean {
  return /^(?:machine-os-content|rhel-coreos(?:-\d+)?)(?:-extensions)?$/.test(name);
}

/** Where each release tag lands in a rendered config (docs/domain.md 3.5, 3.6, 8.6), for 4.10-era templates. */
export function configEmbedding(name: string): { reach: Reach; embeddedIn: string } | undefined {
  if (isOsImageTag(name)) {
    return {
      reach: 'all-platforms',
      embeddedIn: name.endsWith('-extensions')
        ? 'the extensions container (spec.extensions)'
        : 'spec.osImageURL',
    };
  }
  switch (name) {
    case 'pod':
      return {
        reach: 'all-platforms',
        embeddedIn:
          'kubelet.service --pod-infra-container-image and /etc/crio/crio.conf.d/00-default pause_image',
      };
    case MCO_TAG:
      return {
        reach: 'all-platforms',
        embeddedIn: 'machine-config-daemon-pull.service, and the templates (MCO commit)',
      };
    case 'baremetal-runtimecfg':
      return {
        reach: 'all-platforms',
        embeddedIn: 'nodeip-configuration.service (present on every platform)',
      };
    case 'keepalived-ipfailover':
      return { reach: 'on-prem', embeddedIn: 'the keepalived static pod (on-prem platforms)' };
    case 'coredns':
      return { reach: 'on-prem', embeddedIn: 'the coredns static pod (on-prem platforms)' };
    case 'haproxy-router':
      return { reach: 'on-prem', embeddedIn: 'the haproxy static pod (on-prem platforms)' };
    default:
      return undefined;
  }
}

function side(p: ReleasePayload): ReleaseSide {
  return {
    ...(p.version !== undefined ? { version: p.version } : {}),
    ...(p.image ? { image: p.image } : {}),
    file: p.ref.file,
    components: p.components.length,
  };
}

function compareImages(
  a: ReleaseComponent,
  b: ReleaseComponent,
): 'same' | 'changed' | IncomparableComponent['why'] {
  // A placeholder says which image will go there, not which image it is.
  if (isPlaceholder(a) || isPlaceholder(b)) return 'placeholder';
  // A digest names the image wherever it is mirrored.
  if (a.digest && b.digest) return a.digest === b.digest ? 'same' : 'changed';
  // A tag names no content: two different tags may point at one image (a mirror, a tag per
  // release), so they are no change. The same tag is counted unchanged, as the payloads say it,
  // though it may have been moved to another image in between.
  if (!a.digest && !b.digest) return a.pullSpec === b.pullSpec ? 'same' : 'tag-vs-tag';
  // A tag may point at the image of the digest, or at any other: nothing to compare.
  return 'tag-vs-digest';
}

function commitChange(a: ReleaseComponent, b: ReleaseComponent): boolean | undefined {
  if (a.commit && b.commit) return a.commit !== b.commit;
  return undefined;
}

export function diffReleases(a: ReleasePayload, b: ReleasePayload): ReleaseDiff {
  const before = new Map(a.components.map((c) => [c.name, c]));
  const after = new Map(b.components.map((c) => [c.name, c]));
  const added: ReleaseComponent[] = [];
  const removed: ReleaseComponent[] = [];
  const changed: ComponentChange[] = [];
  const incomparable: IncomparableComponent[] = [];
  let unchanged = 0;
  for (const [name, x] of before) {
    const y = after.get(name);
    const compared = y === undefined ? undefined : compareImages(x, y);
    if (y === undefined) removed.push(x);
    else if (compared === 'same') unchanged += 1;
    else if (compared === 'placeholder' || compared === 'tag-vs-digest' || compared === 'tag-vs-tag')
      incomparable.push({ name, before: x, after: y, why: compared });
    else {
      const commitChanged = commitChange(x, y);
      changed.push({ name, before: x, after: y, ...(commitChanged !== undefined ? { commitChanged } : {}) });
    }
  }
  for (const [name, y] of after) if (!before.has(name)) added.push(y);
  const byName = (p: { name: string }, q: { name: string }) => p.name.localeCompare(q.name);
  added.sort(byName);
  removed.sort(byName);
  changed.sort(byName);
  incomparable.sort(byName);

  const reachingConfigs: ConfigReach[] = [];
  const consider = (name: string, change: ConfigReach['change']) => {
    const e = configEmbedding(name);
    if (e) reachingConfigs.push({ name, change, ...e });
  };
  for (const c of changed) consider(c.name, 'changed');
  // A placeholder added or removed is no image landing in, or leaving, a rendered config.
  for (const c of added) if (!isPlaceholder(c)) consider(c.name, 'added');
  for (const c of removed) if (!isPlaceholder(c)) consider(c.name, 'removed');
  reachingConfigs.sort(byName);

  const mco = changed.find((c) => c.name === MCO_TAG);
  const unsureCommit = incomparable.find((c) => c.name === MCO_TAG);
  const mcoUnsure = unsureCommit !== undefined;
  const mcoListed = before.has(MCO_TAG) || after.has(MCO_TAG);
  const mcoCommitChanged: boolean | undefined = unsureCommit
    ? commitChange(unsureCommit.before, unsureCommit.after)
    : mco === undefined
      ? mcoListed && before.has(MCO_TAG) === after.has(MCO_TAG)
        ? false
        : undefined
      : mco.commitChanged;

  // What cannot be told at all: the rollout is then not predicted, whatever the lists say.
  const cannotTell: string[] = [];
  if (a.components.length === 0 && b.components.length === 0) {
    cannotTell.push('neither payload lists any component: nothing to compare');
  } else if (
    a.components.length > 0 &&
    b.components.length > 0 &&
    changed.length + unchanged + incomparable.length === 0
  ) {
    cannotTell.push('the two payloads share no component: they are not two releases of one stream');
  }
  const unsure = incomparable.filter((c) => configEmbedding(c.name) !== undefined);
  if (unsure.length > 0 && cannotTell.length === 0) {
    const placeholders = unsure.some((c) => c.why === 'placeholder');
    const tags = unsure.some((c) => c.why === 'tag-vs-digest');
    const tagPairs = unsure.some((c) => c.why === 'tag-vs-tag');
    const what = [
      ...(tags ? ['one payload names them by tag, the other by digest'] : []),
      ...(tagPairs ? ['the payloads name them by different tags, which say nothing of the images'] : []),
      ...(placeholders ? ['placeholders are not images'] : []),
    ].join('; ');
    cannotTell.push(`the images of ${unsure.map((c) => c.name).join(', ')} cannot be compared (${what})`);
  }
  const unversioned = [a, b].filter((p) => p.version === undefined).map((p) => p.ref.file);
  const osUnsure = unsure.some((c) => isOsImageTag(c.name));

  const whole = cannotTell.length > 0 && unsure.length === 0;
  // Payloads that cannot be compared as a whole predict nothing about rendered configs.
  if (whole) reachingConfigs.length = 0;
  const everywhere = reachingConfigs.some((r) => r.reach === 'all-platforms');
  const nodesWillRoll = whole
    ? 'cannot-tell'
    : everywhere
      ? 'yes'
      : unsure.length > 0
        ? 'cannot-tell'
        : reachingConfigs.length > 0
          ? 'on-prem'
          : 'no';
  const osImageChanged = reachingConfigs.some((r) => isOsImageTag(r.name));
  const osImage = osImageChanged ? 'changed' : whole || osUnsure ? 'cannot-tell' : 'unchanged';

  const warnings: string[] = [];
  for (const file of new Set(unversioned))
    warnings.push(
      `${file} carries no version: it may be an operator's own image-references, not a release payload`,
    );
  for (const why of cannotTell) warnings.push(`cannot tell what this update does to nodes: ${why}`);
  let levelTooEarly: Verdict = 'no';
  if (whole) levelTooEarly = 'cannot-tell';
  else if (reachingConfigs.length === 0) levelTooEarly = unsure.length > 0 ? 'cannot-tell' : 'no';
  // The pre-#2918 guard notices a new rendered config only through a new MCO commit or a new OS image.
  else if (!osImageChanged && mcoCommitChanged !== true) {
    if (osImage === 'cannot-tell') levelTooEarly = 'cannot-tell';
    else {
      levelTooEarly = mcoCommitChanged === false ? 'yes' : 'possible';
      const names = reachingConfigs.map((r) => r.name).join(', ');
      const scope = everywhere ? '' : ' on on-prem platforms';
      const mcoWords =
        mcoCommitChanged === false
          ? mco
            ? 'the machine-config-operator commit is unchanged (its image was rebuilt)'
            : 'the machine-config-operator image is unchanged'
          : mcoUnsure
            ? 'the machine-config-operator image cannot be compared and its commit is not recorded here'
            : mcoListed
              ? 'the machine-config-operator image changed but its commit is not recorded here'
              : 'neither payload lists the machine-config-operator image';
      warnings.push(
        `rendered MachineConfigs will change${scope} (${names}) while ${mcoWords} and the OS image is unchanged: ` +
          'a machine-config operator without the release-image-version check (before MCO PR #2918, bug 1999556) ' +
          'reports level before the master pool has rolled out the new config',
      );
    }
  }
  return {
    from: side(a),
    to: side(b),
    added,
    removed,
    changed,
    unchanged,
    incomparable,
    reachingConfigs,
    nodesWillRoll,
    machineConfigOperator: {
      imageChanged: mco !== undefined,
      ...(mcoCommitChanged !== undefined ? { commitChanged: mcoCommitChanged } : {}),
      ...(mcoListed ? {} : { unlisted: true as const }),
      ...(mcoUnsure ? { cannotCompare: true as const } : {}),
    },
    osImageChanged,
    osImage,
    cannotTell,
    levelTooEarly,
    warnings,
  };
}
