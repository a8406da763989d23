/**
 * The cause chains of the HyperShift rules (docs/hosted.md): which counts of the NodePool's
 * MachineDeployment said its rollout was done and which said it was not (OCPBUGS-77922), which stale
 * annotation kept it updating (OCPBUGS-92013), which ControlPlaneComponent was not at the version a
 * Completed controlPlaneVersion entry claims. Each chain ends with the catalogue entry its facts match.
 * The facts always carry the finding's rule, so an entry can never match a finding of another rule
 * whose hosted facts are all `unknown`.
 */
import { nodePoolRollouts } from '../invariants/index.js';
import type { CauseStep, ClusterHistory, Evidence, Finding, KindObject } from '../model/index.js';
import { formatClock } from '../model/index.js';
import { describeSignature, matchCatalogue, signatureCatalogue } from '../signatures/index.js';

type MachineDeployment = KindObject<'MachineDeployment'>;

const CONVERSION_DATA = 'cluster.x-k8s.io/conversion-data';

function n(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

/** The v1beta2 counts that the conversion-data annotation keeps, when it keeps any. */
function conversionCounts(
  md: MachineDeployment,
): { upToDate?: number; available?: number; replicas?: number } | 'absent' | 'unreadable' {
  const raw = md.metadata.annotations?.[CONVERSION_DATA];
  if (raw === undefined || raw === null) return 'absent';
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return 'unreadable';
  }
  const v2 = (parsed as { status?: { v1beta2?: Record<string, unknown> } } | null)?.status?.v1beta2;
  if (!v2 || typeof v2 !== 'object') return 'absent';
  const upToDate = n(v2.upToDateReplicas);
  const available = n(v2.availableReplicas);
  const replicas = n(v2.replicas);
  return {
    ...(upToDate !== undefined ? { upToDate } : {}),
    ...(available !== undefined ? { available } : {}),
    ...(replicas !== undefined ? { replicas } : {}),
  };
}

/** The facts of a NodePool finding (docs/runs.md lists them): each `unknown` when the inputs do not tell. */
function nodePoolFacts(rule: string, md: MachineDeployment | undefined, upgradeType: string, older: boolean) {
  const facts = new Map<string, string>([
    ['rule', rule],
    ['upgradeType', upgradeType],
    ['olderMachines', older ? 'present' : 'absent'],
  ]);
  if (!md) return facts;
  const desired = n(md.spec?.replicas);
  const updated = n(md.status?.updatedReplicas);
  const v2 = md.status?.v1beta2;
  const upToDate = n(v2?.upToDateReplicas);
  const replicas = n(v2?.replicas) ?? n(md.status?.replicas);
  if (desired !== undefined && updated !== undefined)
    facts.set('v1beta1UpdatedReplicas', updated >= desired ? 'at-desired' : 'short');
  if (desired !== undefined && upToDate !== undefined)
    facts.set(
      'v1beta2UpToDateReplicas',
      upToDate >= desired && (replicas === undefined || upToDate >= replicas) ? 'all' : 'short',
    );
  const kept = conversionCounts(md);
  if (kept === 'absent') facts.set('conversionData', 'absent');
  else if (
    kept !== 'unreadable' &&
    desired !== undefined &&
    kept.upToDate !== undefined &&
    upToDate !== undefined
  )
    // Stale: the annotation still says a Machine is not up to date while the status says all are.
    facts.set('conversionData', kept.upToDate < desired && upToDate >= desired ? 'stale' : 'agrees');
  return facts;
}

function signatureStep(facts: Map<string, string>, steps: CauseStep[], evidence: Evidence[] = []) {
  const entry = matchCatalogue(signatureCatalogue(), facts);
  const signature = entry ? describeSignature(entry, undefined) : undefined;
  if (signature) steps.push({ title: `signature: ${signature.title} (${signature.id})`, evidence });
  return signature;
}

/** nodepool-level-before-rollout and nodepool-stuck-updating: the NodePool, its counts, its Machines. */
export function explainNodePool(history: ClusterHistory, finding: Finding): Finding {
  const key = finding.subject?.objects?.[0];
  const r = key ? nodePoolRollouts(history).find((x) => x.key === key) : undefined;
  if (!r) return finding;
  const steps: CauseStep[] = [];
  const own = finding.evidence.filter((e) => e.object === r.key);
  const stuck = finding.rule === 'nodepool-stuck-updating';
  steps.push({
    title: stuck
      ? `${r.key} still says it is updating more than 30 minutes after its rollout ended`
      : `${r.key} reported ${finding.subject?.target ?? 'its version'} and stopped updating${finding.at !== undefined ? ` at ${formatClock(finding.at)}` : ''}`,
    ...(finding.at !== undefined ? { at: finding.at } : {}),
    evidence: own,
  });
  const md = r.owner?.object.kind === 'MachineDeployment' ? (r.owner.object as MachineDeployment) : undefined;
  const mdKey = md ? `MachineDeployment/${md.metadata.namespace ?? ''}/${md.metadata.name}` : undefined;
  if (md && r.owner) {
    const desired = md.spec?.replicas;
    const v2 = md.status?.v1beta2;
    const v1 = `v1beta1 updatedReplicas ${md.status?.updatedReplicas ?? 'absent'} of spec.replicas ${desired ?? 'absent'}`;
    const v2w = `v1beta2 upToDateReplicas ${v2?.upToDateReplicas ?? 'absent'}, availableReplicas ${v2?.availableReplicas ?? 'absent'}, replicas ${v2?.replicas ?? 'absent'}`;
    steps.push({
      title: `${mdKey} counts ${v1}; ${v2w}`,
      evidence: [
        {
          statement: v1,
          object: mdKey as string,
          field: 'status.updatedReplicas',
          value: String(md.status?.updatedReplicas ?? ''),
          ref: r.owner.ref,
        },
        {
          statement: v2w,
          object: mdKey as string,
          field: 'status.v1beta2.upToDateReplicas',
          value: String(v2?.upToDateReplicas ?? ''),
          ref: r.owner.ref,
        },
      ],
    });
  }
  const older = r.behind.filter((e) => e.field === 'metadata.ownerReferences[MachineSet]');
  const sets = [...new Set(older.map((e) => e.value ?? '?'))];
  if (older.length > 0) {
    steps.push({
      title: `the older MachineSet${sets.length === 1 ? '' : 's'} ${sets.join(', ')} still ${sets.length === 1 ? 'has' : 'have'} Machine${older.length === 1 ? '' : 's'} ${older.map((e) => e.object?.split('/').pop() ?? '?').join(', ')}`,
      evidence: older,
    });
  }
  const others = r.behind.filter((e) => !older.includes(e) && e.object !== mdKey);
  if (others.length > 0)
    steps.push({
      title: `also not rolled out: ${others.map((e) => e.statement).join('; ')}`,
      evidence: others,
    });
  const facts = nodePoolFacts(finding.rule, md, r.upgradeType, older.length > 0);
  const sigEvidence: Evidence[] = [];
  if (md && r.owner && facts.get('conversionData') === 'stale') {
    const kept = conversionCounts(md);
    const words =
      typeof kept === 'object'
        ? `upToDateReplicas ${kept.upToDate ?? 'absent'}, availableReplicas ${kept.available ?? 'absent'}, replicas ${kept.replicas ?? 'absent'}`
        : '';
    const e: Evidence = {
      statement: `${mdKey} keeps a ${CONVERSION_DATA} annotation with old v1beta2 counts (${words}) while its status.v1beta2 says every Machine is up to date`,
      object: mdKey as string,
      field: `metadata.annotations[${CONVERSION_DATA}]`,
      ref: r.owner.ref,
    };
    steps.push({ title: e.statement, evidence: [e] });
    sigEvidence.push(e);
  }
  const signature = signatureStep(facts, steps, sigEvidence);
  return { ...finding, explanation: { steps, ...(signature ? { signature } : {}) } };
}

/** controlplane-level-before-components: the Completed entry, then each component not at it. */
export function explainControlPlane(_history: ClusterHistory, finding: Finding): Finding {
  const entry = finding.evidence.find((e) => e.field === 'status.controlPlaneVersion.history[0]');
  if (!entry) return finding;
  const steps: CauseStep[] = [
    { title: entry.statement, ...(entry.at !== undefined ? { at: entry.at } : {}), evidence: [entry] },
  ];
  let version = false;
  let rollout = false;
  for (const e of finding.evidence) {
    if (!e.object?.startsWith('ControlPlaneComponent/')) continue;
    if (e.field === 'status.version') version = true;
    else rollout = true;
    steps.push({ title: e.statement, ...(e.at !== undefined ? { at: e.at } : {}), evidence: [e] });
  }
  const facts = new Map([
    ['rule', finding.rule],
    ['componentBehind', version && rollout ? 'both' : version ? 'version' : rollout ? 'rollout' : 'unknown'],
  ]);
  const signature = signatureStep(facts, steps);
  return { ...finding, explanation: { steps, ...(signature ? { signature } : {}) } };
}
