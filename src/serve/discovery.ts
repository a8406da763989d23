/**
 * Discovery documents (`/api`, `/apis`, `/api/v1`, `/apis/GROUP/VERSION`) built from the resource
 * types present. Verbs are get, list and watch only, so clients know the server is read-only before
 * they try a write; the one exception is authorization.k8s.io/v1's self reviews (create), which
 * answer what the asker may do and store nothing (reviews.ts), and which kubectl auth can-i finds
 * here. The legacy (unaggregated) documents are served; clients that ask for aggregated discovery
 * fall back to them.
 */
import { AUTHORIZATION_GROUP, SELF_ACCESS_REVIEWS, SELF_RULES_REVIEWS } from './access.js';
import type { ResourceType } from './resources.js';

const VERBS = ['get', 'list', 'watch'] as const;

const REVIEWS_VERSION = 'v1';

/**
 * The self reviews, as the API server lists them in authorization.k8s.io/v1 (which also has
 * subjectaccessreviews and localsubjectaccessreviews: questions about another user, not served).
 */
const REVIEWS: readonly Record<string, unknown>[] = [
  {
    name: SELF_ACCESS_REVIEWS,
    singularName: 'selfsubjectaccessreview',
    namespaced: false,
    kind: 'SelfSubjectAccessReview',
    verbs: ['create'],
  },
  {
    name: SELF_RULES_REVIEWS,
    singularName: 'selfsubjectrulesreview',
    namespaced: false,
    kind: 'SelfSubjectRulesReview',
    verbs: ['create'],
  },
];

function isReviewsVersion(group: string, version: string): boolean {
  return group === AUTHORIZATION_GROUP && version === REVIEWS_VERSION;
}

export function apiVersions(): Record<string, unknown> {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] };
}

function groupsOf(types: readonly ResourceType[]): Map<string, string[]> {
  const groups = new Map<string, string[]>([[AUTHORIZATION_GROUP, [REVIEWS_VERSION]]]);
  for (const t of types) {
    if (t.group === '') continue;
    const versions = groups.get(t.group) ?? [];
    if (!versions.includes(t.version)) versions.push(t.version);
    groups.set(t.group, versions);
  }
  return groups;
}

function groupDoc(name: string, versions: readonly string[]): Record<string, unknown> {
  const sorted = [...versions].sort();
  const preferred = sorted.includes('v1') ? 'v1' : (sorted[sorted.length - 1] ?? 'v1');
  return {
    name,
    versions: sorted.map((v) => ({ groupVersion: `${name}/${v}`, version: v })),
    preferredVersion: { groupVersion: `${name}/${preferred}`, version: preferred },
  };
}

export function apiGroupList(types: readonly ResourceType[]): Record<string, unknown> {
  const groups = [...groupsOf(types).entries()].sort((a, b) => a[0].localeCompare(b[0]));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map(([n, v]) => groupDoc(n, v)) };
}

export function apiGroup(types: readonly ResourceType[], group: string): Record<string, unknown> | undefined {
  const versions = groupsOf(types).get(group);
  return versions ? { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc(group, versions) } : undefined;
}

export function apiResourceList(
  types: readonly ResourceType[],
  group: string,
  version: string,
  hasLogs: boolean,
): Record<string, unknown> | undefined {
  const mine = types.filter((t) => t.group === group && t.version === version);
  if (mine.length === 0 && !(group === '' && version === 'v1') && !isReviewsVersion(group, version))
    return undefined;
  const resources: Record<string, unknown>[] = [];
  for (const t of [...mine].sort((a, b) => a.plural.localeCompare(b.plural))) {
    resources.push({
      name: t.plural,
      singularName: t.singular,
      namespaced: t.namespaced,
      kind: t.kind,
      verbs: [...VERBS],
      ...(t.shortNames.length > 0 ? { shortNames: [...t.shortNames] } : {}),
      ...(t.categories.length > 0 ? { categories: [...t.categories] } : {}),
    });
    if (t.kind === 'Pod' && group === '' && hasLogs) {
      resources.push({ name: 'pods/log', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] });
    }
  }
  if (isReviewsVersion(group, version)) resources.push(...REVIEWS);
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group === '' ? version : `${group}/${version}`,
    resources,
  };
}
