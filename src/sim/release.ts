/**
 * Release payloads as the model needs them: the version, the release image, and the component
 * images of the payload's image-references (docs/domain.md 8), including the ones the machine-config
 * operator embeds in rendered configs (`pod`, `machine-config-operator`, `machine-os-content`, ...).
 */
import { sha1Hex, sha256Hex } from './hash.js';

interface Component {
  readonly name: string;
  readonly pullSpec: string;
  readonly digest: string;
  readonly commit: string;
  readonly sourceLocation: string;
  /** `io.openshift.build.versions`, e.g. `machine-os=410.84.202111022303-0`. */
  readonly buildVersions?: string;
  readonly displayNames?: string;
}

export interface Release {
  readonly version: string;
  readonly image: string;
  readonly digest: string;
  readonly components: readonly Component[];
  readonly byName: ReadonlyMap<string, Component>;
  /** The machine-config-operator's source commit: its `version.Hash`, the controller version. */
  readonly mcoCommit: string;
  /** The MCO binary's `version.Raw`, stamped on the ControllerConfig. */
  readonly mcoVersionRaw: string;
  readonly osImageURL: string;
  readonly rhcosVersion: string;
  readonly kubernetesVersion: string;
  readonly previous: readonly string[];
}

const ART = 'quay.io/openshift-release-dev/ocp-v4.0-art-dev';

/** Payload tags and the repository each is built from (a representative 4.10 subset). */
export const CATALOG: ReadonlyArray<readonly [string, string]> = [
  ['aws-ebs-csi-driver', 'aws-ebs-csi-driver'],
  ['aws-machine-controllers', 'cluster-api-provider-aws'],
  ['baremetal-runtimecfg', 'baremetal-runtimecfg'],
  ['cli', 'oc'],
  ['cli-artifacts', 'oc'],
  ['cloud-credential-operator', 'cloud-credential-operator'],
  ['cluster-authentication-operator', 'cluster-authentication-operator'],
  ['cluster-autoscaler-operator', 'cluster-autoscaler-operator'],
  ['cluster-config-operator', 'cluster-config-operator'],
  ['cluster-csi-snapshot-controller-operator', 'cluster-csi-snapshot-controller-operator'],
  ['cluster-dns-operator', 'cluster-dns-operator'],
  ['cluster-etcd-operator', 'cluster-etcd-operator'],
  ['cluster-image-registry-operator', 'cluster-image-registry-operator'],
  ['cluster-ingress-operator', 'cluster-ingress-operator'],
  ['cluster-kube-apiserver-operator', 'cluster-kube-apiserver-operator'],
  ['cluster-kube-controller-manager-operator', 'cluster-kube-controller-manager-operator'],
  ['cluster-kube-scheduler-operator', 'cluster-kube-scheduler-operator'],
  ['cluster-kube-storage-version-migrator-operator', 'cluster-kube-storage-version-migrator-operator'],
  ['cluster-machine-approver', 'cluster-machine-approver'],
  ['cluster-monitoring-operator', 'cluster-monitoring-operator'],
  ['cluster-network-operator', 'cluster-network-operator'],
  ['cluster-node-tuning-operator', 'cluster-node-tuning-operator'],
  ['cluster-openshift-apiserver-operator', 'cluster-openshift-apiserver-operator'],
  ['cluster-openshift-controller-manager-operator', 'cluster-openshift-controller-manager-operator'],
  ['cluster-samples-operator', 'cluster-samples-operator'],
  ['cluster-storage-operator', 'cluster-storage-operator'],
  ['cluster-version-operator', 'cluster-version-operator'],
  ['console', 'console'],
  ['console-operator', 'console-operator'],
  ['coredns', 'coredns'],
  ['etcd', 'etcd'],
  ['haproxy-router', 'router'],
  ['hyperkube', 'kubernetes'],
  ['insights-operator', 'insights-operator'],
  ['keepalived-ipfailover', 'images'],
  ['machine-api-operator', 'machine-api-operator'],
  ['machine-config-operator', 'machine-config-operator'],
  ['machine-os-content', 'os'],
  ['must-gather', 'must-gather'],
  ['oauth-proxy', 'oauth-proxy'],
  ['operator-lifecycle-manager', 'operator-framework-olm'],
  ['pod', 'images'],
  ['service-ca-operator', 'service-ca-operator'],
  ['tests', 'origin'],
];

/** Every component's name, in payload order. */
export const CATALOG_NAMES: readonly string[] = CATALOG.map(([name]) => name);

export interface ReleaseSpec {
  readonly version: string;
  readonly image?: string;
  /** Build revision of each component; components not listed are at revision 0. */
  readonly revisions: Readonly<Record<string, number>>;
  /** Exact digests (64 hex) for some components, e.g. the seed's pause images. */
  readonly digests?: Readonly<Record<string, string>>;
  readonly previous?: readonly string[];
}

function rhcosVersionFor(revision: number): string {
  // 410.84.<build stamp>-0: later revisions, later stamps.
  const stamp = 202111020000 + revision * 1147;
  return `410.84.${stamp}-0`;
}

export function buildRelease(spec: ReleaseSpec): Release {
  const components: Component[] = [];
  for (const [name, repo] of CATALOG) {
    const rev = spec.revisions[name] ?? 0;
    const digest = spec.digests?.[name] ?? sha256Hex(`${name}@${rev}`);
    const base: Component = {
      name,
      pullSpec: `${ART}@sha256:${digest}`,
      digest: `sha256:${digest}`,
      commit: sha1Hex(`${repo}#${name}@${rev}`),
      sourceLocation: `https://github.com/openshift/${repo}`,
    };
    if (name === 'machine-os-content') {
      components.push({
        ...base,
        buildVersions: `machine-os=${rhcosVersionFor(rev)}`,
        displayNames: 'machine-os=Red Hat Enterprise Linux CoreOS',
      });
    } else if (name === 'hyperkube') {
      components.push({ ...base, buildVersions: 'kubernetes=1.22.1' });
    } else {
      components.push(base);
    }
  }
  const byName = new Map(components.map((c) => [c.name, c]));
  const mco = byName.get('machine-config-operator') as Component;
  const os = byName.get('machine-os-content') as Component;
  const digest = sha256Hex(`release:${spec.version}:${components.map((c) => c.digest).join(',')}`);
  return {
    version: spec.version,
    image: spec.image ?? `registry.ci.openshift.org/ocp/release:${spec.version}`,
    digest: `sha256:${digest}`,
    components,
    byName,
    mcoCommit: mco.commit,
    mcoVersionRaw: `v4.10.0-202111020135.p0.git.${mco.commit.slice(0, 7)}.assembly.stream`,
    osImageURL: os.pullSpec,
    rhcosVersion: rhcosVersionFor(spec.revisions['machine-os-content'] ?? 0),
    kubernetesVersion: '1.22.1',
    previous: spec.previous ?? [],
  };
}

function pullSpec(release: Release, component: string): string {
  const c = release.byName.get(component);
  if (!c) throw new Error(`release ${release.version} has no component ${component}`);
  return c.pullSpec;
}

/** The components whose image differs between two releases, by name. */
export function changedComponents(from: Release, to: Release): string[] {
  const out: string[] = [];
  for (const c of to.components) {
    if (from.byName.get(c.name)?.pullSpec !== c.pullSpec) out.push(c.name);
  }
  return out;
}

/** The ControllerConfig `spec.images` map for a release (docs/domain.md 3.5). */
export function controllerConfigImages(release: Release): Record<string, string> {
  return {
    apiServerWatcherKey: pullSpec(release, 'machine-config-operator'),
    baremetalRuntimeCfgImage: pullSpec(release, 'baremetal-runtimecfg'),
    corednsImage: pullSpec(release, 'coredns'),
    haproxyImage: pullSpec(release, 'haproxy-router'),
    infraImageKey: pullSpec(release, 'pod'),
    keepalivedImage: pullSpec(release, 'keepalived-ipfailover'),
    machineConfigOperator: pullSpec(release, 'machine-config-operator'),
  };
}
