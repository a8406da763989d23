/**
 * The resource types a served input holds: group, version, plural, scope, short names and
 * categories, as discovery announces them. Well-known kinds carry what the real server says of them
 * (Kubernetes core types; OpenShift's CRDs in openshift/api and the MCO's install manifests); any
 * other kind found in an input gets a lower-case plural and a scope from its objects.
 */
import { type ApiFacts, KINDS, KNOWN_KINDS, type KnownKind } from '../model/index.js';

export interface ResourceType {
  /** '' for the core group. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
}

/**
 * Keyed by kind. Only the facts clients rely on (scope, names); the values follow the upstream types.
 * The kinds atlevel models carry theirs in their descriptors (model/kinds/); these are the others an
 * input may hold.
 */
const OTHERS: ReadonlyMap<string, ApiFacts> = new Map<string, ApiFacts>([
  ['Namespace', { group: '', version: 'v1', plural: 'namespaces', namespaced: false, shortNames: ['ns'] }],
  [
    'Service',
    {
      group: '',
      version: 'v1',
      plural: 'services',
      namespaced: true,
      shortNames: ['svc'],
      categories: ['all'],
    },
  ],
  ['ConfigMap', { group: '', version: 'v1', plural: 'configmaps', namespaced: true, shortNames: ['cm'] }],
  ['Secret', { group: '', version: 'v1', plural: 'secrets', namespaced: true }],
  ['Endpoints', { group: '', version: 'v1', plural: 'endpoints', namespaced: true, shortNames: ['ep'] }],
  [
    'ServiceAccount',
    { group: '', version: 'v1', plural: 'serviceaccounts', namespaced: true, shortNames: ['sa'] },
  ],
  [
    'PersistentVolume',
    { group: '', version: 'v1', plural: 'persistentvolumes', namespaced: false, shortNames: ['pv'] },
  ],
  [
    'PersistentVolumeClaim',
    { group: '', version: 'v1', plural: 'persistentvolumeclaims', namespaced: true, shortNames: ['pvc'] },
  ],
  [
    'ReplicationController',
    {
      group: '',
      version: 'v1',
      plural: 'replicationcontrollers',
      namespaced: true,
      shortNames: ['rc'],
      categories: ['all'],
    },
  ],
  [
    'ReplicaSet',
    {
      group: 'apps',
      version: 'v1',
      plural: 'replicasets',
      namespaced: true,
      shortNames: ['rs'],
      categories: ['all'],
    },
  ],
  [
    'StatefulSet',
    {
      group: 'apps',
      version: 'v1',
      plural: 'statefulsets',
      namespaced: true,
      shortNames: ['sts'],
      categories: ['all'],
    },
  ],
  [
    'KubeletConfig',
    {
      group: 'machineconfiguration.openshift.io',
      version: 'v1',
      plural: 'kubeletconfigs',
      namespaced: false,
    },
  ],
  [
    'ContainerRuntimeConfig',
    {
      group: 'machineconfiguration.openshift.io',
      version: 'v1',
      plural: 'containerruntimeconfigs',
      namespaced: false,
      shortNames: ['ctrcfg'],
    },
  ],
  [
    'MachineConfigNode',
    {
      group: 'machineconfiguration.openshift.io',
      version: 'v1',
      plural: 'machineconfignodes',
      namespaced: false,
    },
  ],
]);

const KNOWN: ReadonlyMap<string, ApiFacts> = new Map<string, ApiFacts>([
  ...OTHERS,
  ...KNOWN_KINDS.map((k): [string, ApiFacts] => [k, KINDS[k].api]),
]);

/** The resource type of a kind atlevel models, as discovery announces it whether or not the inputs hold any. */
export function knownResourceType(kind: KnownKind): ResourceType {
  return resourceTypeFor(undefined, kind, KINDS[kind].api.namespaced);
}

/** A kind's plural as the API server names CRDs by default: lower case, English plural. */
function pluralOf(kind: string): string {
  const lower = kind.toLowerCase();
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${lower}es`;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

/** `apps/v1` → ['apps', 'v1']; `v1` → ['', 'v1']. */
function splitApiVersion(apiVersion: string): readonly [string, string] {
  const i = apiVersion.indexOf('/');
  return i === -1 ? ['', apiVersion] : [apiVersion.slice(0, i), apiVersion.slice(i + 1)];
}

export function apiVersionOf(t: Pick<ResourceType, 'group' | 'version'>): string {
  return t.group === '' ? t.version : `${t.group}/${t.version}`;
}

/**
 * The resource type of an object read from an input. A known kind keeps its real group and scope
 * whatever the file said; an unknown one takes its apiVersion from the object and its scope from
 * whether the object has a namespace.
 */
export function resourceTypeFor(
  apiVersion: string | undefined,
  kind: string,
  hasNamespace: boolean,
): ResourceType {
  const known = KNOWN.get(kind);
  const [fileGroup, fileVersion] = splitApiVersion(apiVersion ?? '');
  if (known && (apiVersion === undefined || fileGroup === known.group)) {
    return {
      group: known.group,
      version: fileVersion || known.version,
      kind,
      plural: known.plural,
      singular: kind.toLowerCase(),
      namespaced: known.namespaced,
      shortNames: known.shortNames ?? [],
      categories: known.categories ?? [],
    };
  }
  return {
    group: fileGroup,
    version: fileVersion || 'v1',
    kind,
    plural: pluralOf(kind),
    singular: kind.toLowerCase(),
    namespaced: hasNamespace,
    shortNames: [],
    categories: [],
  };
}

/** The type's key in maps: `group/version/plural`. */
export function typeKey(t: Pick<ResourceType, 'group' | 'version' | 'plural'>): string {
  return `${t.group}/${t.version}/${t.plural}`;
}
