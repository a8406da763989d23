import type { ClusterHistory, Evidence, Finding, KindObject, Observed } from '../model/index.js';
import { conditionSince, findCondition, formatClock, parseTime } from '../model/index.js';
import { HOSTED_NEEDS } from './nodepool-rollout.js';
import { checked, defineRule, notApplicable, notChecked } from './rule.js';

type WithCpVersion = KindObject<'HostedCluster'> | KindObject<'HostedControlPlane'>;

/**
 * A controlPlaneVersion history entry is Completed when every ControlPlaneComponent reports the
 * target version with RolloutComplete=True (controlplaneversion_types.go; docs/hosted.md).
 */
export const controlplaneLevelBeforeComponents = defineRule(
  'controlplane-level-before-components',
  "A HostedCluster's or HostedControlPlane's controlPlaneVersion entry is Completed only once every ControlPlaneComponent reports its version with RolloutComplete=True.",
  {
    severityPolicy:
      'failure: the newest controlPlaneVersion entry is Completed while a ControlPlaneComponent reports another version, or was not RolloutComplete=True since before the completion',
    explain: 'controlplane-rollout',
  },
  (history: ClusterHistory, rule) => {
    const { hostedClusters, hostedControlPlanes, controlPlaneComponents } = history.objects;
    // Each control-plane namespace once: the HostedCluster's word, else its HostedControlPlane's.
    const subjects: { o: Observed<WithCpVersion>; key: string; cpNs: string }[] = [];
    const seen = new Set<string>();
    for (const hc of hostedClusters) {
      const ns = hc.object.metadata.namespace;
      if (!ns) continue;
      const cpNs = `${ns}-${hc.object.metadata.name}`;
      // A HostedCluster without the field (an older hypershift-operator) leaves it to its HostedControlPlane.
      if (!hc.object.status?.controlPlaneVersion?.history?.length) continue;
      seen.add(cpNs);
      subjects.push({ o: hc, key: `HostedCluster/${ns}/${hc.object.metadata.name}`, cpNs });
    }
    for (const hcp of hostedControlPlanes) {
      const cpNs = hcp.object.metadata.namespace;
      if (!cpNs || seen.has(cpNs)) continue;
      subjects.push({ o: hcp, key: `HostedControlPlane/${cpNs}/${hcp.object.metadata.name}`, cpNs });
    }
    const findings: Finding[] = [];
    const missing: string[] = [];
    const skipped: string[] = [];
    let held = 0;
    for (const s of subjects) {
      const cpv = s.o.object.status?.controlPlaneVersion;
      const entry = cpv?.history?.[0];
      if (entry?.state !== 'Completed' || !entry.version) {
        skipped.push(
          `${s.key}: ${entry ? `its newest controlPlaneVersion entry is ${entry.state ?? 'without a state'}` : 'no controlPlaneVersion history'}`,
        );
        continue;
      }
      const desired = cpv?.desired?.version;
      if (desired && desired !== entry.version) {
        skipped.push(
          `${s.key}: desired ${desired} is not yet in its history (newest entry ${entry.version})`,
        );
        continue;
      }
      const started = updateRequested(s.o.object, entry.image, hostedControlPlanes, s.cpNs);
      if (started !== undefined) {
        skipped.push(`${s.key}: ${started}, an update starting`);
        continue;
      }
      const components = controlPlaneComponents.filter((c) => c.object.metadata.namespace === s.cpNs);
      if (components.length === 0) {
        missing.push(`${HOSTED_NEEDS.components} (for ${s.key}, namespace ${s.cpNs})`);
        continue;
      }
      const completedAt = parseTime(entry.completionTime);
      const behind: Evidence[] = [];
      let unordered = 0;
      for (const c of components) {
        const ckey = `ControlPlaneComponent/${s.cpNs}/${c.object.metadata.name}`;
        const version = c.object.status?.version;
        const rc = findCondition(c.object, 'RolloutComplete');
        const rcSince = conditionSince(rc);
        if (version !== entry.version) {
          behind.push({
            statement: `${ckey} reports version ${version || 'none'}, not ${entry.version}`,
            object: ckey,
            field: 'status.version',
            value: version ?? '',
            ref: c.ref,
          });
        } else if (rc?.status !== 'True') {
          // At the version and rolling out again since after the completion: a later rollout (a
          // config change), not this entry's.
          if (rcSince !== undefined && completedAt !== undefined && rcSince > completedAt) continue;
          if (rcSince === undefined || completedAt === undefined) {
            unordered++;
            continue;
          }
          behind.push({
            statement: `${ckey} at ${entry.version} but RolloutComplete=${rc?.status ?? 'absent'} since ${formatClock(rcSince)}${rc?.reason ? ` (${rc.reason})` : ''}`,
            at: rcSince,
            object: ckey,
            field: 'status.conditions[RolloutComplete]',
            value: rc?.status ?? '',
            ref: c.ref,
          });
        }
      }
      if (behind.length > 0) {
        const names = behind.flatMap((e) => (e.object ? [e.object.split('/').pop() as string] : []));
        findings.push({
          rule: rule.id,
          severity: 'failure',
          summary: `${s.key}: controlPlaneVersion ${entry.version} is Completed while ControlPlaneComponent${names.length === 1 ? '' : 's'} ${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} not at it with RolloutComplete=True`,
          ...(completedAt !== undefined ? { at: completedAt } : {}),
          evidence: [
            {
              statement: `${s.key} status.controlPlaneVersion.history[0]: ${entry.version} Completed${completedAt !== undefined ? ` at ${formatClock(completedAt)}` : ''}`,
              ...(completedAt !== undefined ? { at: completedAt } : {}),
              object: s.key,
              field: 'status.controlPlaneVersion.history[0]',
              value: 'Completed',
              ref: s.o.ref,
            },
            ...behind,
          ],
          ...(completedAt !== undefined
            ? { moments: [{ label: 'control plane Completed', at: completedAt, objects: [s.key] }] }
            : {}),
          subject: {
            target: entry.version,
            objects: [s.key, ...behind.flatMap((e) => (e.object ? [e.object] : []))],
          },
        });
      } else if (unordered > 0) {
        missing.push(
          `when ${unordered} ControlPlaneComponent${unordered === 1 ? '' : 's'} of ${s.cpNs} left RolloutComplete=True, or when ${s.key} completed (lastTransitionTime, completionTime)`,
        );
      } else held++;
    }
    if (findings.length > 0) return checked(rule, findings);
    if (missing.length > 0) return notChecked(rule, `cannot tell: ${missing.join('; ')}`, missing);
    if (held === 0)
      return notApplicable(
        rule,
        skipped.length > 0 ? skipped.join('; ') : 'no HostedCluster or HostedControlPlane in the inputs',
      );
    return checked(rule, findings);
  },
);

/**
 * A newer release requested than the Completed entry's: the HostedCluster's spec.release.image (or the
 * HostedControlPlane's spec.releaseImage) names another image, or, judging a HostedCluster, its
 * HostedControlPlane's controlPlaneVersion has moved on. The HostedCluster's status is a copy of its
 * HostedControlPlane's that the hypershift-operator refreshes on its own schedule, so in a snapshot
 * taken as an update begins the components already roll to the new release under an entry that is
 * still the previous one's.
 */
function updateRequested(
  o: WithCpVersion,
  image: string | undefined,
  hcps: readonly Observed<KindObject<'HostedControlPlane'>>[],
  cpNs: string,
): string | undefined {
  if (!image) return undefined;
  // The control plane runs spec.controlPlaneRelease when set (the data plane follows spec.release):
  // hypershift's HCControlPlaneReleaseImage / HCPControlPlaneReleaseImage.
  const spec =
    o.kind === 'HostedCluster'
      ? o.spec?.controlPlaneRelease?.image || o.spec?.release?.image
      : o.spec?.controlPlaneReleaseImage || o.spec?.releaseImage;
  if (spec && spec !== image) return `spec names release ${spec}, not the entry's ${image}`;
  if (o.kind !== 'HostedCluster') return undefined;
  for (const hcp of hcps) {
    if (hcp.object.metadata.namespace !== cpNs) continue;
    const cpv = hcp.object.status?.controlPlaneVersion;
    const hcpSpec = hcp.object.spec?.controlPlaneReleaseImage || hcp.object.spec?.releaseImage;
    const newer = [hcpSpec, cpv?.desired?.image, cpv?.history?.[0]?.image].find((i) => i && i !== image);
    if (newer)
      return `its HostedControlPlane ${hcp.object.metadata.name} has moved on to ${newer} (the HostedCluster's copy of its status lags)`;
  }
  return undefined;
}
