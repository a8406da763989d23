/**
 * Component-level diff of two release payloads, and what it means for nodes (docs/domain.md 8.4, 8.6):
 * which changed components are embedded in rendered MachineConfigs (so the update rolls nodes), and
 * whether the update is the bug-1999556 shape — rendered configs change while neither the MCO commit
 * nor the OS image does, which a machine-config operator without the `release-image-version` check
 * (before MCO PR #2918) cannot detect, so it reports level before the master pool has rolled.
 */
import type { ReleaseComponent, ReleasePayload } from '../model/index.js';

export interface ComponentChange {
  readonly name: string;
  readonly before: ReleaseComponent;
  readonly after: ReleaseComponent;
  /** true/false when both sides carry `io.openshift.build.commit.id`; undefined when unknown. */
  readonly commitChanged?: boolean;
}

export type Reach = 'all-platforms' | 'on-prem';

/** A changed (or added/removed) component that is embedded in rendered MachineConfigs. */
export interface ConfigReach {
  readonly name: string;
  readonly change: 'changed' | 'added' | 'removed';
  readonly reach: Reach;
  /** Where it lands in a rendered config. */
  readonly embeddedIn: string;
}

/** `yes`: the condition holds; `possible`: it holds unless the MCO commit changed (unknown here); `no`. */
export type Verdict = 'yes' | 'possible' | 'no';

export interface ReleaseDiff {
  readonly from: ReleaseSide;
  readonly to: ReleaseSide;
  readonly added: readonly ReleaseComponent[];
  readonly removed: readonly ReleaseComponent[];
  readonly changed: readonly ComponentChange[];
  readonly unchanged: number;
  readonly reachingConfigs: readonly ConfigReach[];
  /** Will rendered configs change, so nodes drain and reboot? `on-prem`: only on on-prem platforms. */
  readonly nodesWillRoll: 'yes' | 'on-prem' | 'no';
  readonly machineConfigOperator: {
    readonly imageChanged: boolean;
    readonly commitChanged?: boolean;
    /** Set when neither payload lists machine-config-operator: nothing can be said about it. */
    readonly unlisted?: true;
  };
  readonly osImageChanged: boolean;
  /** The bug-1999556 condition (see the module comment). */
  readonly levelTooEarly: Verdict;
  readonly warnings: readonly string[];
}

export interface ReleaseSide {
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

function sameImage(a: ReleaseComponent, b: ReleaseComponent): boolean {
  // A digest names the image wherever it is mirrored; without digests compare the pull specs.
  if (a.digest && b.digest) return a.digest === b.digest;
  return a.pullSpec === b.pullSpec;
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
  let unchanged = 0;
  for (const [name, x] of before) {
    const y = after.get(name);
    if (y === undefined) removed.push(x);
    else if (sameImage(x, y)) unchanged += 1;
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

  const reachingConfigs: ConfigReach[] = [];
  const consider = (name: string, change: ConfigReach['change']) => {
    const e = configEmbedding(name);
    if (e) reachingConfigs.push({ name, change, ...e });
  };
  for (const c of changed) consider(c.name, 'changed');
  for (const c of added) consider(c.name, 'added');
  for (const c of removed) consider(c.name, 'removed');
  reachingConfigs.sort(byName);

  const everywhere = reachingConfigs.some((r) => r.reach === 'all-platforms');
  const nodesWillRoll = everywhere ? 'yes' : reachingConfigs.length > 0 ? 'on-prem' : 'no';

  const mco = changed.find((c) => c.name === MCO_TAG);
  const mcoListed = before.has(MCO_TAG) || after.has(MCO_TAG);
  const mcoCommitChanged: boolean | undefined =
    mco === undefined
      ? mcoListed && before.has(MCO_TAG) === after.has(MCO_TAG)
        ? false
        : undefined
      : mco.commitChanged;
  const osImageChanged = reachingConfigs.some((r) => isOsImageTag(r.name));

  const warnings: string[] = [];
  let levelTooEarly: Verdict = 'no';
  // The pre-#2918 guard notices a new rendered config only through a new MCO commit or a new OS image.
  if (reachingConfigs.length > 0 && !osImageChanged && mcoCommitChanged !== true) {
    levelTooEarly = mcoCommitChanged === false ? 'yes' : 'possible';
    const names = reachingConfigs.map((r) => r.name).join(', ');
    const scope = everywhere ? '' : ' on on-prem platforms';
    const mcoWords =
      mcoCommitChanged === false
        ? mco
          ? 'the machine-config-operator commit is unchanged (its image was rebuilt)'
          : 'the machine-config-operator image is unchanged'
        : mcoListed
          ? 'the machine-config-operator image changed but its commit is not recorded here'
          : 'neither payload lists the machine-config-operator image';
    warnings.push(
      `rendered MachineConfigs will change${scope} (${names}) while ${mcoWords} and the OS image is unchanged: ` +
        'a machine-config operator without the release-image-version check (before MCO PR #2918, bug 1999556) ' +
        'reports level before the master pool has rolled out the new config',
    );
  }
  return {
    from: side(a),
    to: side(b),
    added,
    removed,
    changed,
    unchanged,
    reachingConfigs,
    nodesWillRoll,
    machineConfigOperator: {
      imageChanged: mco !== undefined,
      ...(mcoCommitChanged !== undefined ? { commitChanged: mcoCommitChanged } : {}),
      ...(mcoListed ? {} : { unlisted: true as const }),
    },
    osImageChanged,
    levelTooEarly,
    warnings,
  };
}
