/**
 * The two release payloads as `oc adm release info -o json` prints them (docs/domain.md 8.2-8.4): a
 * representative subset of the image-references tags. The seed fixes three things: `pod` changed
 * (ef66… → 0ada…), `machine-config-operator` and `machine-os-content` did not. Everything embedded
 * in a rendered MachineConfig besides `pod` (the MCO image, baremetal-runtimecfg) is unchanged too,
 * so the rendered configs differ only in the pause image. Other components changed as an
 * openshift/kubernetes merge (hyperkube, pod, tests) and a few unrelated merges would make them.
 */

import { releaseInfoJson as writeReleaseInfo } from '../../src/artifacts/index.js';
import { ART_REPO, FROM, KUBERNETES_VERSION, POD_FROM, POD_TO, RHCOS_VERSION, TO } from './facts.js';
import { at, commitId, digest } from './util.js';

export type Side = 'from' | 'to';

interface TagDef {
  readonly name: string;
  readonly repo: string;
  /** Rebuilt between the two nightlies (new digest and, usually, a new commit). */
  readonly changed: boolean;
  readonly versions?: string;
  readonly displayNames?: string;
}

const TAGS: readonly TagDef[] = [
  { name: 'aws-machine-controllers', repo: 'openshift/cluster-api-provider-aws', changed: false },
  { name: 'baremetal-runtimecfg', repo: 'openshift/baremetal-runtimecfg', changed: false },
  { name: 'cli', repo: 'openshift/oc', changed: false },
  { name: 'cluster-ingress-operator', repo: 'openshift/cluster-ingress-operator', changed: false },
  {
    name: 'cluster-kube-apiserver-operator',
    repo: 'openshift/cluster-kube-apiserver-operator',
    changed: false,
  },
  { name: 'cluster-monitoring-operator', repo: 'openshift/cluster-monitoring-operator', changed: true },
  { name: 'cluster-network-operator', repo: 'openshift/cluster-network-operator', changed: true },
  { name: 'cluster-version-operator', repo: 'openshift/cluster-version-operator', changed: false },
  { name: 'console', repo: 'openshift/console', changed: true },
  { name: 'coredns', repo: 'openshift/coredns', changed: false },
  { name: 'etcd', repo: 'openshift/etcd', changed: false },
  { name: 'haproxy-router', repo: 'openshift/router', changed: true },
  {
    name: 'hyperkube',
    repo: 'openshift/kubernetes',
    changed: true,
    versions: `kubernetes=${KUBERNETES_VERSION}`,
  },
  { name: 'installer', repo: 'openshift/installer', changed: false },
  { name: 'keepalived-ipfailover', repo: 'openshift/images', changed: false },
  { name: 'kube-rbac-proxy', repo: 'openshift/kube-rbac-proxy', changed: false },
  { name: 'machine-config-operator', repo: 'openshift/machine-config-operator', changed: false },
  {
    name: 'machine-os-content',
    repo: 'openshift/os',
    changed: false,
    versions: `machine-os=${RHCOS_VERSION}`,
    displayNames: 'machine-os=Red Hat Enterprise Linux CoreOS',
  },
  { name: 'oauth-proxy', repo: 'openshift/oauth-proxy', changed: false },
  { name: 'ovn-kubernetes', repo: 'openshift/ovn-kubernetes', changed: true },
  { name: 'pod', repo: 'openshift/kubernetes', changed: true },
  { name: 'sdn', repo: 'openshift/sdn', changed: false },
  { name: 'tests', repo: 'openshift/origin', changed: true },
];

/** The pull spec of a release tag on one side of the update. */
export function image(tag: string, side: Side): string {
  const def = TAGS.find((t) => t.name === tag);
  if (!def) throw new Error(`no release tag ${tag}`);
  if (tag === 'pod') return side === 'from' ? POD_FROM : POD_TO;
  const label = def.changed ? `${tag}@${side === 'from' ? FROM : TO}` : `${tag}@base`;
  return `${ART_REPO}@sha256:${digest(label)}`;
}

function commit(tag: string, side: Side): string {
  const def = TAGS.find((t) => t.name === tag);
  if (!def) throw new Error(`no release tag ${tag}`);
  return commitId(def.changed ? `${def.repo}@${side === 'from' ? FROM : TO}` : `${def.repo}@base`);
}

export const CHANGED_TAGS: readonly string[] = TAGS.filter((t) => t.changed).map((t) => t.name);

/** Nightly names carry the tag time; the release image is assembled a minute or so later. */
const RELEASE_CREATED: Record<Side, number> = {
  from: Date.UTC(2021, 10, 2, 19, 17, 41),
  to: at('02:05:49'),
};
const RELEASE_DIGEST: Record<Side, string> = {
  from: `sha256:${digest(`release:${FROM}`)}`,
  to: 'sha256:51f2f24726c8153cae4bf9978a5d04088e88479ab4f5618c1111e0e69176ad2f',
};

/** `oc adm release info -o json registry.ci.openshift.org/ocp/release:<version>`. */
export function releaseInfoJson(side: Side): string {
  const version = side === 'from' ? FROM : TO;
  const created = RELEASE_CREATED[side];
  return writeReleaseInfo({
    image: `registry.ci.openshift.org/ocp/release:${version}`,
    version,
    digest: RELEASE_DIGEST[side],
    created,
    referencesCreated: created - 40_000,
    baseImageDigest: `sha256:${digest('cluster-version-operator-base')}`,
    previous: [],
    fromImageStream: 'ocp/4.10-art-latest',
    generation: null,
    tags: TAGS.map((def) => ({
      name: def.name,
      pullSpec: image(def.name, side),
      commit: commit(def.name, side),
      sourceLocation: `https://github.com/${def.repo}`,
      ...(def.versions ? { versions: def.versions } : {}),
      ...(def.displayNames ? { displayNames: def.displayNames } : {}),
    })),
  });
}
