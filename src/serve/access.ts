/**
 * What a client may do here, as authorization rules: get, list and watch on every resource the
 * recording holds, get on pod logs when the input has them, get on the discovery, version and health
 * paths, and create on the two self-review resources (which create nothing: they only answer). The
 * same rules answer `kubectl auth can-i VERB RESOURCE` (a SelfSubjectAccessReview) and
 * `kubectl auth can-i --list` (a SelfSubjectRulesReview), and are matched as RBAC matches its policy
 * rules (kubernetes pkg/apis/rbac/v1/evaluation_helpers.go: VerbMatches, APIGroupMatches,
 * ResourceMatches, NonResourceURLMatches), so the two answers always agree with each other and with
 * what the server then does. One exception: Secrets served with their values emptied (secrets.ts,
 * without --serve-secrets) are listed, but the rules leave them out and a review says no, since what a
 * client asking wants to know is whether it can read them.
 */
import { apiVersionOf, type ResourceType } from './resources.js';

export const AUTHORIZATION_GROUP = 'authorization.k8s.io';
export const SELF_ACCESS_REVIEWS = 'selfsubjectaccessreviews';
export const SELF_RULES_REVIEWS = 'selfsubjectrulesreviews';

const READ_VERBS: readonly string[] = ['get', 'list', 'watch'];

/** authorization/v1 ResourceRule, as SelfSubjectRulesReview returns it. */
export interface ResourceRule {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
}

/** authorization/v1 NonResourceRule. */
export interface NonResourceRule {
  readonly verbs: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

/** What the server serves: the recording's resource types, and whether pod logs and `/atlevel/` are. */
export interface Served {
  readonly types: readonly ResourceType[];
  readonly hasLogs: boolean;
  readonly hasExtras: boolean;
  /** Secrets are served with their values emptied (no --serve-secrets). */
  readonly secretsRedacted: boolean;
}

/** authorization/v1 ResourceAttributes, the fields a decision reads (selectors never change one here). */
export interface ResourceAttributes {
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
}

export interface NonResourceAttributes {
  readonly verb: string;
  readonly path: string;
}

/** SubjectAccessReviewStatus. `denied` is set: the server refuses the request whoever asks. */
export interface Decision {
  readonly allowed: boolean;
  readonly denied?: true;
  readonly reason: string;
}

const READ_ONLY = 'atlevel serve is a read-only replay of recorded data';

export function resourceRules(served: Served): ResourceRule[] {
  const byGroup = new Map<string, Set<string>>();
  for (const t of served.types) {
    if (served.secretsRedacted && isSecrets(t.group, t.plural)) continue;
    const plurals = byGroup.get(t.group) ?? new Set<string>();
    plurals.add(t.plural);
    byGroup.set(t.group, plurals);
  }
  const rules: ResourceRule[] = [...byGroup.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([group, plurals]) => ({ verbs: READ_VERBS, apiGroups: [group], resources: [...plurals].sort() }));
  // The same condition as discovery's pods/log (discovery.ts).
  if (served.hasLogs && served.types.some((t) => t.group === '' && t.kind === 'Pod'))
    rules.push({ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] });
  rules.push({
    verbs: ['create'],
    apiGroups: [AUTHORIZATION_GROUP],
    resources: [SELF_ACCESS_REVIEWS, SELF_RULES_REVIEWS],
  });
  return rules;
}

/** The paths server.ts answers a GET on outside the resources: discovery, version, health, extras. */
export function nonResourceRules(served: Served): NonResourceRule[] {
  const groups = new Set<string>([AUTHORIZATION_GROUP]);
  const groupVersions = new Set<string>([`${AUTHORIZATION_GROUP}/v1`]);
  for (const t of served.types) {
    if (t.group === '') continue;
    groups.add(t.group);
    groupVersions.add(apiVersionOf(t));
  }
  const urls = [
    '/api',
    '/api/v1',
    '/apis',
    ...[...groups].map((g) => `/apis/${g}`),
    ...[...groupVersions].map((gv) => `/apis/${gv}`),
    '/healthz',
    '/livez',
    '/readyz',
    '/version',
    ...(served.hasExtras ? ['/atlevel/*'] : []),
  ].sort();
  return [{ verbs: ['get'], nonResourceURLs: urls }];
}

function isSecrets(group: string, resource: string): boolean {
  return group === '' && resource === 'secrets';
}

const ALLOWED: Decision = { allowed: true, reason: 'served read-only from the recorded data' };

function deny(reason: string): Decision {
  return { allowed: false, denied: true, reason: `${READ_ONLY}: ${reason}` };
}

/** `pods`, `pods/log`, `clusteroperators.config.openshift.io`: how kubectl names a resource. */
function resourceName(group: string, combined: string): string {
  return group === '' ? combined : `${combined}.${group}`;
}

export function decideResource(served: Served, a: ResourceAttributes): Decision {
  const combined = a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`;
  // rbac ResourceMatches: a rule's resource matches the request's exactly; a request for "*" is
  // matched only by a rule for "*", which this server has not.
  const rules = resourceRules(served).filter(
    (r) => r.apiGroups.includes(a.group) && r.resources.includes(combined),
  );
  if (rules.length === 0) {
    if (
      served.secretsRedacted &&
      isSecrets(a.group, a.resource) &&
      served.types.some((t) => isSecrets(t.group, t.plural))
    )
      return deny('it serves secrets with their values emptied (atlevel serve --serve-secrets serves them)');
    if (a.resource === '*' || a.group === '*')
      return deny(
        'it answers for each resource it holds, not for "*" (kubectl auth can-i --list lists them)',
      );
    return deny(`it holds no ${resourceName(a.group, combined)}`);
  }
  if (rules.some((r) => r.verbs.includes(a.verb))) return ALLOWED;
  const verbs = [...new Set(rules.flatMap((r) => r.verbs))];
  return deny(`it serves only ${verbs.join(', ')} on ${resourceName(a.group, combined)}`);
}

export function decideNonResource(served: Served, a: NonResourceAttributes): Decision {
  const rules = nonResourceRules(served).filter((r) =>
    r.nonResourceURLs.some((u) => u === a.path || (u.endsWith('*') && a.path.startsWith(u.slice(0, -1)))),
  );
  if (rules.length === 0) return deny(`it serves nothing at ${a.path}`);
  if (rules.some((r) => r.verbs.includes(a.verb))) return ALLOWED;
  return deny(`it serves only get on ${a.path}`);
}
