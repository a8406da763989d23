/**
 * Where a NodePool's rollout stands, from the Cluster API objects of its control-plane namespace as
 * last seen (docs/hosted.md "The rules"): the facts that say it has not ended (a Machine of an older
 * MachineSet, a Machine at another release, an InPlace MachineSet whose target config is not its
 * current one, v1beta2 counts short of the desired replicas), the data that is missing to tell, and
 * when it ended when it has. Shared by nodepool-level-before-rollout and nodepool-stuck-updating.
 */
import type { ClusterHistory, Evidence, KindObject, Millis, Observed } from '../model/index.js';
import { parseTime } from '../model/index.js';

type NodePool = KindObject<'NodePool'>;
type MachineDeployment = KindObject<'MachineDeployment'>;
type MachineSet = KindObject<'MachineSet'>;
type Machine = KindObject<'Machine'>;

const NODEPOOL_ANNOTATION = 'hypershift.openshift.io/nodePool';
const RELEASE_VERSION = 'hypershift.openshift.io/release-version';
const TARGET_CONFIG = 'hypershift.openshift.io/nodePoolTargetConfigVersion';
const CURRENT_CONFIG = 'hypershift.openshift.io/nodePoolCurrentConfigVersion';

export const HOSTED_NEEDS = {
  capi: "the NodePool's Cluster API objects: the MachineDeployment (Replace) or MachineSet (InPlace), MachineSets and Machines of its control-plane namespace NS-NAME (a hypershift dump's namespaces/NS-NAME/cluster.x-k8s.io/, or oc get machinedeployments,machinesets,machines -n NS-NAME -o yaml)",
  machines:
    "the Machines of the NodePool (a hypershift dump's namespaces/NS-NAME/cluster.x-k8s.io/machines.yaml)",
  v1beta2:
    "the MachineDeployment's status.v1beta2 counts (Cluster API 1.9 or later writes them; a dump from an older management cluster has none)",
  components:
    'the ControlPlaneComponents of the control-plane namespace (a hypershift dump of a management cluster that serves them: namespaces/NS-NAME/hypershift.openshift.io/controlplanecomponents.yaml)',
} as const;

export interface NodePoolRollout {
  readonly pool: Observed<NodePool>;
  readonly key: string;
  /** `Replace` or `InPlace` (Replace when the spec does not say). */
  readonly upgradeType: string;
  /** The version the NodePool's Cluster API template is at: the rollout's target. */
  readonly target?: string;
  /** The MachineDeployment (Replace) or MachineSet (InPlace) that carries the template. */
  readonly owner?: Observed<MachineDeployment> | Observed<MachineSet>;
  /** Facts that say the rollout has not ended, each naming the object. */
  readonly behind: Evidence[];
  /** Data needed to tell whether it ended, in words (HOSTED_NEEDS). */
  readonly missing: string[];
  /** What else the objects say (availability short of desired with every Machine up to date). */
  readonly context: Evidence[];
  /** When it ended, as the objects date it, when it has ended and they do. */
  readonly endedAt?: Millis;
  /**
   * Replace: when the MachineDeployment's current template got its MachineSet (the latest creation of
   * a MachineSet whose template is the MachineDeployment's): the template has not changed since.
   */
  readonly templateSince?: Millis;
  /**
   * Replace: how many of the desired replicas are up to date and not yet available. The NodePool
   * controller completes a rollout only once availableReplicas is the desired replicas too
   * (MachineDeploymentComplete), so it is rightly still updating while this is above 0.
   */
  readonly notAvailable?: number;
}

function objectKey(kind: string, o: { metadata: { name: string; namespace?: string | undefined } }): string {
  return `${kind}/${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;
}

function nodePoolKey(np: Observed<NodePool>): string {
  return objectKey('NodePool', np.object);
}

function owners(
  o: { metadata: { ownerReferences?: { kind: string; name: string }[] | null | undefined } },
  kind: string,
): string[] {
  return (o.metadata.ownerReferences ?? []).filter((r) => r.kind === kind).map((r) => r.name);
}

function label(
  o: { metadata: { labels?: Record<string, string> | null | undefined } },
  key: string,
): string | undefined {
  return o.metadata.labels?.[key] ?? undefined;
}

/** A NodePool's control-plane namespace: `<namespace>-<clusterName>` (manifests.HostedControlPlaneNamespace). */
function controlPlaneNamespace(np: NodePool): string | undefined {
  const ns = np.metadata.namespace;
  const cluster = np.spec?.clusterName;
  return ns && cluster ? `${ns}-${cluster}` : undefined;
}

/** Whether an object of the control-plane namespace belongs to the NodePool, by its annotation or its name. */
function ofPool(
  o: {
    metadata: {
      name: string;
      namespace?: string | undefined;
      annotations?: Record<string, string> | null | undefined;
    };
  },
  np: NodePool,
  cpNs: string,
): boolean {
  if (o.metadata.namespace !== undefined && o.metadata.namespace !== cpNs) return false;
  const annotated = o.metadata.annotations?.[NODEPOOL_ANNOTATION];
  if (annotated !== undefined) return annotated === `${np.metadata.namespace}/${np.metadata.name}`;
  return o.metadata.name === np.metadata.name;
}

function templateOf(o: MachineDeployment | MachineSet): { version?: string; userData?: string } {
  const spec = o.spec?.template?.spec;
  return {
    ...(spec?.version ? { version: spec.version } : {}),
    ...(spec?.bootstrap?.dataSecretName ? { userData: spec.bootstrap.dataSecretName } : {}),
  };
}

function releaseOf(m: Machine): string | undefined {
  return m.metadata.annotations?.[RELEASE_VERSION] || m.spec?.version || undefined;
}

function n(v: number | null | undefined): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

function latest(times: readonly (Millis | undefined)[]): Millis | undefined {
  let best: Millis | undefined;
  for (const t of times) if (t !== undefined && (best === undefined || t > best)) best = t;
  return best;
}

/**
 * NodePools the inputs do not hold although their Cluster API objects are there: a MachineDeployment
 * or MachineSet annotated `hypershift.openshift.io/nodePool: NS/NAME` (the NodePool controller's
 * annotation) naming no NodePool of the inputs, and not being deleted with it. A dump that lost its
 * NodePool files leaves the NodePool rules unable to check that pool: said as missing, never as
 * "no NodePool".
 */
export function nodePoolsMissing(history: ClusterHistory): string[] {
  const { nodePools, machineDeployments, machineSets } = history.objects;
  const have = new Set(
    nodePools.map((p) => `${p.object.metadata.namespace ?? ''}/${p.object.metadata.name}`),
  );
  const out = new Map<string, string>();
  for (const o of [...machineDeployments, ...machineSets]) {
    const meta = o.object.metadata;
    const named = meta.annotations?.[NODEPOOL_ANNOTATION];
    if (!named || have.has(named) || out.has(named) || meta.deletionTimestamp) continue;
    out.set(
      named,
      `the NodePool ${named}, which ${objectKey(o.object.kind, o.object)}'s ${NODEPOOL_ANNOTATION} annotation names (a hypershift dump's namespaces/NS/hypershift.openshift.io/nodepools/NAME.yaml, or oc get nodepools -A -o yaml)`,
    );
  }
  return [...out.values()];
}

/** The rollout of every NodePool in the inputs (the management side), as last seen. */
export function nodePoolRollouts(history: ClusterHistory): NodePoolRollout[] {
  const { nodePools, machineDeployments, machineSets, machines } = history.objects;
  return nodePools.map((pool) => {
    const np = pool.object;
    const key = nodePoolKey(pool);
    const upgradeType = np.spec?.management?.upgradeType || 'Replace';
    const behind: Evidence[] = [];
    const missing: string[] = [];
    const context: Evidence[] = [];
    const cpNs = controlPlaneNamespace(np);
    if (cpNs === undefined) {
      return {
        pool,
        key,
        upgradeType,
        behind,
        missing: [`${HOSTED_NEEDS.capi} (the NodePool names no namespace or spec.clusterName)`],
        context,
      };
    }
    const sets = machineSets.filter(
      (s) => s.object.metadata.namespace === undefined || s.object.metadata.namespace === cpNs,
    );
    const ms = machines.filter(
      (m) => m.object.metadata.namespace === undefined || m.object.metadata.namespace === cpNs,
    );
    if (upgradeType === 'InPlace') return inPlace(pool, key, cpNs, sets, ms);

    const md = machineDeployments.find((d) => ofPool(d.object, np, cpNs));
    if (!md) return { pool, key, upgradeType, behind, missing: [HOSTED_NEEDS.capi], context };
    const mdName = md.object.metadata.name;
    const want = templateOf(md.object);
    const target = want.version;
    // Without a template version, the Machines are held to the version the NodePool reports.
    const release = target ?? np.status?.version;
    const desired = n(md.object.spec?.replicas);
    const own = sets.filter(
      (s) =>
        owners(s.object, 'MachineDeployment').includes(mdName) ||
        label(s.object, 'cluster.x-k8s.io/deployment-name') === mdName,
    );
    const setNames = new Set(own.map((s) => s.object.metadata.name));
    const mine = ms.filter(
      (m) =>
        owners(m.object, 'MachineSet').some((o) => setNames.has(o)) ||
        label(m.object, 'cluster.x-k8s.io/deployment-name') === mdName,
    );
    const mdKey = objectKey('MachineDeployment', md.object);
    // The MachineDeployment observed its template.
    const gen = md.object.metadata.generation;
    const observed = md.object.status?.observedGeneration;
    if (gen !== undefined && observed !== undefined && observed < gen)
      behind.push({
        statement: `${mdKey} has not observed its latest spec (observedGeneration ${observed} < generation ${gen})`,
        object: mdKey,
        field: 'status.observedGeneration',
        value: String(observed),
        ref: md.ref,
      });
    // Old MachineSets: a template other than the MachineDeployment's.
    const old = new Set<string>();
    for (const s of own) {
      const t = templateOf(s.object);
      const differs =
        (t.version !== undefined && want.version !== undefined && t.version !== want.version) ||
        (t.userData !== undefined && want.userData !== undefined && t.userData !== want.userData);
      if (differs) old.add(s.object.metadata.name);
    }
    const templateSince = latest(
      own
        .filter((s) => !old.has(s.object.metadata.name))
        .map((s) => parseTime(s.object.metadata.creationTimestamp)),
    );
    const oldMachines = mine.filter((m) => owners(m.object, 'MachineSet').some((o) => old.has(o)));
    for (const m of oldMachines) {
      const set = owners(m.object, 'MachineSet').find((o) => old.has(o)) ?? '';
      const setObj = own.find((s) => s.object.metadata.name === set);
      const t = setObj ? templateOf(setObj.object) : {};
      behind.push({
        statement: `Machine ${m.object.metadata.name} of the older MachineSet ${set} (template ${t.version ?? '?'}, ${t.userData ?? 'no user-data named'}) remains, phase ${m.object.status?.phase ?? 'unknown'}${m.object.metadata.deletionTimestamp ? ', being deleted' : ''}, release ${releaseOf(m.object) ?? 'not annotated'}`,
        object: objectKey('Machine', m.object),
        field: 'metadata.ownerReferences[MachineSet]',
        value: set,
        ref: m.ref,
      });
    }
    // Every Machine at the target release (the annotation, else spec.version as Replace mirrors it).
    for (const m of mine) {
      if (oldMachines.includes(m)) continue;
      const r = releaseOf(m.object);
      if (release && r !== undefined && r !== release)
        behind.push({
          statement: `Machine ${m.object.metadata.name} is at release ${r}, not ${release}`,
          object: objectKey('Machine', m.object),
          field: `metadata.annotations[${RELEASE_VERSION}]`,
          value: r,
          ref: m.ref,
        });
    }
    // v1beta2 counts against the desired replicas.
    const v2 = md.object.status?.v1beta2;
    const upToDate = n(v2?.upToDateReplicas);
    const available = n(v2?.availableReplicas);
    const replicas = n(v2?.replicas) ?? n(md.object.status?.replicas);
    let notAvailable: number | undefined;
    const counts = `v1beta2 upToDateReplicas ${upToDate ?? 'absent'}, availableReplicas ${available ?? 'absent'}, replicas ${replicas ?? 'absent'}, spec.replicas ${desired ?? 'absent'} (v1beta1 updatedReplicas ${md.object.status?.updatedReplicas ?? 'absent'})`;
    if (upToDate === undefined || desired === undefined) {
      if (!(desired === 0 && replicas === 0)) missing.push(`${HOSTED_NEEDS.v1beta2}: ${mdKey} has ${counts}`);
    } else if (upToDate < desired || (replicas !== undefined && upToDate < replicas)) {
      behind.push({
        statement: `${mdKey}: ${counts}: not every Machine is up to date`,
        object: mdKey,
        field: 'status.v1beta2.upToDateReplicas',
        value: String(upToDate),
        ref: md.ref,
      });
    } else if (available !== undefined && available < desired) {
      notAvailable = desired - available;
      // Every Machine up to date and some not yet available: a scale-up (autoscaling) or a repair, not
      // a rollout left unfinished; said, not held against the NodePool.
      context.push({
        statement: `${mdKey}: ${counts}: every Machine up to date, ${desired - available} not yet available`,
        object: mdKey,
        ref: md.ref,
      });
    }
    // A partial dump: Machines the counts speak of and the inputs do not hold.
    const said = replicas ?? n(md.object.status?.replicas) ?? 0;
    if (mine.length === 0 && said > 0)
      missing.push(`${HOSTED_NEEDS.machines}: ${mdKey} counts ${said} and the inputs hold none of them`);
    const endedAt =
      behind.length === 0 && missing.length === 0
        ? // Only the MachineDeployment's own v1beta2 conditions date the end: the last old Machine's
          // deletion, which ends a Replace rollout, is recorded nowhere, and a Machine's creation
          // comes before it.
          latest([
            ...(v2?.conditions ?? [])
              .filter(
                (c) =>
                  (c.type === 'RollingOut' && c.status === 'False') ||
                  (c.type === 'MachinesUpToDate' && c.status === 'True'),
              )
              .map((c) => parseTime(c.lastTransitionTime)),
          ])
        : undefined;
    return {
      pool,
      key,
      upgradeType,
      ...(target !== undefined ? { target } : {}),
      owner: md,
      behind,
      missing,
      context,
      ...(endedAt !== undefined ? { endedAt } : {}),
      ...(templateSince !== undefined ? { templateSince } : {}),
      ...(notAvailable !== undefined ? { notAvailable } : {}),
    };
  });
}

/** InPlace: the NodePool's own MachineSet and its config-version annotations; the Machines' releases. */
function inPlace(
  pool: Observed<NodePool>,
  key: string,
  cpNs: string,
  sets: readonly Observed<MachineSet>[],
  machines: readonly Observed<Machine>[],
): NodePoolRollout {
  const np = pool.object;
  const behind: Evidence[] = [];
  const missing: string[] = [];
  const context: Evidence[] = [];
  const set = sets.find((s) => ofPool(s.object, np, cpNs));
  if (!set) return { pool, key, upgradeType: 'InPlace', behind, missing: [HOSTED_NEEDS.capi], context };
  const setName = set.object.metadata.name;
  const setKey = objectKey('MachineSet', set.object);
  const target = templateOf(set.object).version;
  const release = target ?? np.status?.version;
  const a = set.object.metadata.annotations ?? {};
  const wantConfig = a[TARGET_CONFIG];
  const haveConfig = a[CURRENT_CONFIG];
  if (wantConfig === undefined || haveConfig === undefined) {
    missing.push(
      `the InPlace MachineSet's ${TARGET_CONFIG} and ${CURRENT_CONFIG} annotations (${setKey} lacks them)`,
    );
  } else if (wantConfig !== haveConfig) {
    behind.push({
      statement: `${setKey}: target config ${wantConfig} is not its current config ${haveConfig}: the in-place upgrade has not finished`,
      object: setKey,
      field: `metadata.annotations[${TARGET_CONFIG}]`,
      value: wantConfig,
      ref: set.ref,
    });
  }
  const mine = machines.filter(
    (m) =>
      owners(m.object, 'MachineSet').includes(setName) ||
      label(m.object, 'cluster.x-k8s.io/set-name') === setName,
  );
  let unannotated = 0;
  for (const m of mine) {
    // InPlace: the upgrader sets the annotation as each node finishes; spec.version says nothing.
    const r = m.object.metadata.annotations?.[RELEASE_VERSION];
    if (r === undefined) unannotated++;
    else if (release && r !== release)
      behind.push({
        statement: `Machine ${m.object.metadata.name} is at release ${r}, not ${release}`,
        object: objectKey('Machine', m.object),
        field: `metadata.annotations[${RELEASE_VERSION}]`,
        value: r,
        ref: m.ref,
      });
  }
  if (unannotated > 0)
    missing.push(
      `the ${RELEASE_VERSION} annotation of ${unannotated} Machine${unannotated === 1 ? '' : 's'} of ${setKey}`,
    );
  const said = n(set.object.status?.replicas) ?? n(set.object.spec?.replicas) ?? 0;
  if (mine.length === 0 && said > 0)
    missing.push(`${HOSTED_NEEDS.machines}: ${setKey} counts ${said} and the inputs hold none of them`);
  // When the last node finished is recorded nowhere (the annotations carry no time): no end date.
  return {
    pool,
    key,
    upgradeType: 'InPlace',
    ...(target !== undefined ? { target } : {}),
    owner: set,
    behind,
    missing,
    context,
  };
}
