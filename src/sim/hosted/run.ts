/**
 * One simulated NodePool rollout on a hosted cluster: the management cluster's API server (objects,
 * watches with lag, deletion through finalizers), the NodePool controller, Cluster API's
 * MachineDeployment, MachineSet and Machine controllers with the infrastructure, the guest's kubelets,
 * and (InPlace) the in-place upgrader. The ground truth is checked at the moment the NodePool
 * controller reports level: had the rollout ended (docs/simulate.md, "Hosted control planes")?
 * Same scenario, policy and seed: the same run, event for event.
 */
import { type Actor, Engine } from '../engine.js';
import { md5Hex } from '../hash.js';
import { type Cond, findCond, setCond } from '../objects.js';
import type { Dist } from '../rng.js';
import {
  type GuestNodeObj,
  type HKind,
  type HObj,
  hmeta,
  type MachineDeploymentObj,
  type MachineObj,
  type MachineSetObj,
  type MachineTemplate,
  type NodePoolObj,
  type ReplicaStatus,
  ZERO_STATUS,
} from './objects.js';
import type { HostedPolicyName, HostedRelease, HostedScenario } from './scenario.js';

/** A run stops at the latest this long after it started (virtual time). */
const RUN_LIMIT_MS = 3 * 60 * 60_000;
/** Time kept after the rollout settled, before the dump. */
const TAIL_MS = 60_000;

export const ANN = {
  releaseVersion: 'hypershift.openshift.io/release-version',
  nodePoolCurrentConfig: 'hypershift.openshift.io/nodePoolCurrentConfig',
  nodePoolCurrentConfigVersion: 'hypershift.openshift.io/nodePoolCurrentConfigVersion',
  targetConfigVersion: 'hypershift.openshift.io/nodePoolTargetConfigVersion',
  currentConfigVersion: 'hypershift.openshift.io/nodePoolCurrentConfigVersion',
  nodePool: 'hypershift.openshift.io/nodePool',
} as const;

interface Revision {
  readonly at: number;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly obj: HObj;
}

interface HostedFacts {
  requestedAt?: number;
  payloadAt?: number;
  /** When the MachineDeployment template (Replace) or the MachineSet's target (InPlace) moved. */
  templateAt?: number;
  /** When the NodePool controller reported level: status.version = target, UpdatingVersion=False. */
  levelAt?: number;
  /** When the rollout really ended (every condition of the rule held in the API server). */
  rolloutEndedAt?: number;
  /** The ground truth: the NodePool reported level before its rollout ended. */
  violation: boolean;
  /** When the e2e test's `hypershift dump` snapshot was taken (it saw the NodePool at level, or the run ended). */
  dumpAt?: number;
  /** The dump shows the violation: the NodePool at level while the rollout had not ended. */
  visibleAtDump: boolean;
  /** What was still rolling out when the NodePool reported level. */
  stillRolling: string[];
  /** Old-release Machines at the level report. */
  oldMachines: string[];
  machinesCreated: { at: number; name: string }[];
  machinesDeleted: { at: number; name: string }[];
  nodesUpdated: { at: number; name: string }[];
  endedAt?: number;
}

export interface HostedRunResult {
  readonly family: 'hosted';
  readonly scenario: HostedScenario;
  readonly policy: HostedPolicyName;
  readonly seed: number;
  readonly facts: HostedFacts;
  readonly store: HStore;
  /** The objects at the dump (the e2e test's snapshot), by kind/name. */
  readonly dump: ReadonlyMap<string, HObj>;
  /** Every write, oldest first (kept only when recording). */
  readonly revisions: readonly Revision[] | undefined;
  /** The objects as the run started (the dump's revisions begin with them). */
  readonly seeded: readonly HObj[];
  readonly endAt: number;
  readonly events: number;
}

const key = (kind: HKind, name: string): string => `${kind}/${name}`;

/** The management and guest API servers of the model (names are unique across the model's kinds). */
class HStore {
  private readonly objs = new Map<string, HObj>();
  private rv = 40_000;
  private readonly watches: {
    actor: Actor;
    kinds: ReadonlySet<HKind>;
    latency: Dist;
    deliver: (obj: HObj, deleted: boolean) => void;
    lastAt: number;
  }[] = [];
  revisions: Revision[] | undefined;

  constructor(private readonly engine: Engine) {}

  get<T extends HObj>(kind: T['kind'], name: string): T | undefined {
    return this.objs.get(key(kind, name)) as T | undefined;
  }

  list<T extends HObj>(kind: T['kind']): T[] {
    const out: T[] = [];
    for (const o of this.objs.values()) if (o.kind === kind) out.push(o as T);
    return out.sort((a, b) => (a.meta.name < b.meta.name ? -1 : a.meta.name > b.meta.name ? 1 : 0));
  }

  /** Every object as it is now (objects are immutable: a copy of the map is a snapshot). */
  snapshot(): Map<string, HObj> {
    return new Map(this.objs);
  }

  seed(obj: HObj): void {
    obj.meta.rv = ++this.rv;
    this.objs.set(key(obj.kind, obj.meta.name), obj);
  }

  write<T extends HObj>(obj: T): T {
    const k = key(obj.kind, obj.meta.name);
    const added = !this.objs.has(k);
    obj.meta.rv = ++this.rv;
    this.objs.set(k, obj);
    this.revisions?.push({ at: this.engine.now, type: added ? 'ADDED' : 'MODIFIED', obj });
    this.notify(obj, false);
    return obj;
  }

  remove(obj: HObj): void {
    const k = key(obj.kind, obj.meta.name);
    const cur = this.objs.get(k);
    if (!cur) return;
    this.objs.delete(k);
    this.revisions?.push({ at: this.engine.now, type: 'DELETED', obj: cur });
    this.notify(cur, true);
  }

  private notify(obj: HObj, deleted: boolean): void {
    const engine = this.engine;
    for (const w of this.watches) {
      if (!w.kinds.has(obj.kind)) continue;
      let at = engine.now + engine.rng.sample(w.latency);
      if (at < w.lastAt) at = w.lastAt;
      w.lastAt = at;
      const deliver = w.deliver;
      engine.scheduleAt(at, w.actor, `watch ${obj.kind}`, () => deliver(obj, deleted));
    }
  }

  /** An informer: a cache of `kinds` (initially listed) kept by watch deliveries; `onEvent` after each. */
  informer(actor: Actor, kinds: readonly HKind[], latency: Dist, onEvent: () => void): Map<string, HObj> {
    const cache = new Map<string, HObj>();
    const set = new Set(kinds);
    for (const [k, o] of this.objs) if (set.has(o.kind)) cache.set(k, o);
    this.watches.push({
      actor,
      kinds: set,
      latency,
      lastAt: 0,
      deliver: (obj, deleted) => {
        const k = key(obj.kind, obj.meta.name);
        if (deleted) cache.delete(k);
        else {
          const old = cache.get(k);
          if (old && old.meta.rv >= obj.meta.rv) return;
          cache.set(k, obj);
        }
        onEvent();
      },
    });
    return cache;
  }
}

function listOf<T extends HObj>(cache: Map<string, HObj>, kind: T['kind']): T[] {
  const out: T[] = [];
  for (const o of cache.values()) if (o.kind === kind) out.push(o as T);
  return out.sort((a, b) => (a.meta.name < b.meta.name ? -1 : a.meta.name > b.meta.name ? 1 : 0));
}

/** A controller's sync: coalesced, run after the queue delay, then the sync's own duration. */
class Syncer {
  private queued = false;
  constructor(
    private readonly engine: Engine,
    private readonly actor: Actor,
    private readonly queue: Dist,
    private readonly work: Dist,
    private readonly sync: () => void,
  ) {}
  kick(): void {
    if (this.queued) return;
    this.queued = true;
    const engine = this.engine;
    engine.schedule(engine.rng.sample(this.queue) + engine.rng.sample(this.work), this.actor, 'sync', () => {
      this.queued = false;
      this.sync();
    });
  }
}

/** `user-data-<np>-<hash>`: the hash of the release and the pool's configuration (hypershift's config hash). */
function configHash(s: HostedScenario, r: HostedRelease): string {
  return md5Hex(`${s.nodePool}:${r.image}:config`).slice(0, 8);
}

function templateFor(s: HostedScenario, r: HostedRelease): MachineTemplate {
  return {
    release: r.version,
    kubeletVersion: r.kubeletVersion,
    dataSecretName: `user-data-${s.nodePool}-${configHash(s, r)}`,
  };
}

/** A MachineSet's name: the MachineDeployment's plus a hash of its template (as Cluster API names them). */
function machineSetName(md: string, t: MachineTemplate): string {
  return `${md}-${md5Hex(`${t.release}/${t.dataSecretName}`).slice(0, 5)}`;
}

const cond = (type: string, status: 'True' | 'False', reason: string, message: string, at: number): Cond => ({
  type,
  status,
  reason,
  message,
  lastTransitionTime: at,
});

function setConds(
  conds: readonly Cond[],
  now: number,
  ...updates: [string, 'True' | 'False', string, string][]
): readonly Cond[] {
  let out = conds;
  for (const [t, st, r, m] of updates) out = setCond(out, t, st, r, m, now);
  return out;
}

export function runHostedSimulation(
  scenario: HostedScenario,
  policy: HostedPolicyName,
  seed: number,
  options: { readonly record?: boolean } = {},
): HostedRunResult {
  const s = scenario;
  const lat = s.latencies;
  const engine = new Engine(seed);
  const store = new HStore(engine);
  const facts: HostedFacts = {
    violation: false,
    visibleAtDump: false,
    stillRolling: [],
    oldMachines: [],
    machinesCreated: [],
    machinesDeleted: [],
    nodesUpdated: [],
  };
  const ns = `${s.namespace}-${s.hostedCluster}`;
  const mdName = s.nodePool;
  const fromT = templateFor(s, s.from);
  const toT = templateFor(s, s.to);
  const targetHash = configHash(s, s.to);
  const inPlace = s.upgradeType === 'InPlace';
  // A counter of machine names: the suffix Cluster API draws at random, here from the seed.
  const suffix = (): string => md5Hex(`${seed}:${engine.rng.nextU32()}`).slice(0, 5);

  // ---- the installed state: the NodePool at `from`, its MachineDeployment/MachineSet, 3 Machines, 3 Nodes
  const installedAt = -3 * 24 * 3600_000;
  const oldMs = machineSetName(mdName, fromT);
  const np0: NodePoolObj = {
    kind: 'NodePool',
    meta: hmeta(s.nodePool, s.namespace, installedAt, {
      annotations: {
        [ANN.nodePoolCurrentConfig]: configHash(s, s.from),
        [ANN.nodePoolCurrentConfigVersion]: configHash(s, s.from),
      },
      labels: { 'hypershift.openshift.io/hosted-cluster': s.hostedCluster },
    }),
    spec: { replicas: s.replicas, releaseImage: s.from.image, upgradeType: s.upgradeType },
    status: {
      version: s.from.version,
      replicas: s.replicas,
      observedGeneration: 1,
      conditions: [
        cond('ValidGeneratedPayload', 'True', 'AsExpected', 'Payload generated successfully', installedAt),
        cond('UpdatingVersion', 'False', 'AsExpected', '', installedAt),
        cond('UpdatingConfig', 'False', 'AsExpected', '', installedAt),
        cond('AllMachinesReady', 'True', 'AsExpected', 'All is well', installedAt),
        cond('AllNodesHealthy', 'True', 'AsExpected', 'All is well', installedAt),
        cond('Ready', 'True', 'AsExpected', '', installedAt),
      ],
    },
  };
  const full = (n: number, v2avail = n): ReplicaStatus => ({
    replicas: n,
    updatedReplicas: n,
    readyReplicas: n,
    availableReplicas: n,
    v1beta2: { replicas: n, upToDateReplicas: n, readyReplicas: n, availableReplicas: v2avail },
    observedGeneration: 1,
  });
  const seeded: HObj[] = [np0];
  seeded.push({
    kind: 'MachineDeployment',
    meta: hmeta(mdName, ns, installedAt, { annotations: { [ANN.nodePool]: `${s.namespace}/${s.nodePool}` } }),
    spec: { replicas: s.replicas, template: fromT },
    status: full(s.replicas),
    conditions: [
      cond('MachinesUpToDate', 'True', 'UpToDate', '', installedAt),
      cond('RollingOut', 'False', 'NotRollingOut', '', installedAt),
    ],
  } satisfies MachineDeploymentObj);
  const msAnn: Record<string, string> = { [ANN.nodePool]: `${s.namespace}/${s.nodePool}` };
  if (inPlace) {
    msAnn[ANN.targetConfigVersion] = configHash(s, s.from);
    msAnn[ANN.currentConfigVersion] = configHash(s, s.from);
  }
  seeded.push({
    kind: 'MachineSet',
    meta: hmeta(oldMs, ns, installedAt, { owner: mdName, annotations: msAnn }),
    spec: { replicas: s.replicas, template: fromT },
    status: full(s.replicas),
  } satisfies MachineSetObj);
  for (let i = 0; i < s.replicas; i++) {
    const name = `${oldMs}-${md5Hex(`installed:${i}`).slice(0, 5)}`;
    const node = `ip-10-0-${130 + i * 17}-${40 + i * 29}.ec2.internal`;
    const at = installedAt + 60_000 * (i + 1);
    seeded.push({
      kind: 'Machine',
      meta: hmeta(name, ns, at, { owner: oldMs, annotations: { [ANN.releaseVersion]: s.from.version } }),
      spec: fromT,
      status: {
        phase: 'Running',
        nodeName: node,
        conditions: [
          cond('Available', 'True', 'Available', '', at + 240_000),
          cond('Ready', 'True', 'Ready', '', at + 240_000),
          cond('UpToDate', 'True', 'UpToDate', '', at),
        ],
      },
    } satisfies MachineObj);
    seeded.push({
      kind: 'Node',
      meta: hmeta(node, '', at + 180_000, {
        labels: { 'hypershift.openshift.io/nodePool': s.nodePool, 'node-role.kubernetes.io/worker': '' },
      }),
      machine: name,
      ready: true,
      unschedulable: false,
      kubeletVersion: s.from.kubeletVersion,
      release: s.from.version,
      readySince: at + 230_000,
    } satisfies GuestNodeObj);
  }
  for (const o of seeded) store.seed(o);
  if (options.record) store.revisions = [];
  const seededCopy = [...seeded];

  // ---- the truth: has the rollout ended? (read from the API server, not from a cache)
  const rolloutPending = (): string[] => {
    const pending: string[] = [];
    const np = store.get<NodePoolObj>('NodePool', s.nodePool);
    if (np && findCond(np.status.conditions, 'ValidGeneratedPayload')?.status !== 'True')
      pending.push('the payload is not valid');
    const machines = store.list<MachineObj>('Machine');
    if (inPlace) {
      const ms = store.get<MachineSetObj>('MachineSet', oldMs);
      if (ms?.meta.annotations[ANN.targetConfigVersion] !== targetHash)
        pending.push(`MachineSet ${oldMs} does not target config ${targetHash}`);
      for (const n of store.list<GuestNodeObj>('Node'))
        if (n.release !== s.to.version || !n.ready || n.unschedulable)
          pending.push(`Node ${n.meta.name} is not updated in place`);
    } else {
      const md = store.get<MachineDeploymentObj>('MachineDeployment', mdName);
      if (!md || md.spec.template.dataSecretName !== toT.dataSecretName)
        pending.push(`MachineDeployment ${mdName} does not reference ${toT.dataSecretName}`);
      const newMs = machineSetName(mdName, toT);
      const old = machines.filter((m) => m.meta.owner !== newMs);
      if (old.length > 0)
        pending.push(
          `${old.length} Machine(s) of an older MachineSet remain: ${old.map((m) => m.meta.name).join(', ')}`,
        );
      const avail = machines.filter(
        (m) => m.meta.owner === newMs && findCond(m.status.conditions, 'Available')?.status === 'True',
      ).length;
      if (avail !== s.replicas) pending.push(`${avail} of ${s.replicas} new Machines available`);
    }
    for (const m of machines)
      if (m.meta.annotations[ANN.releaseVersion] !== s.to.version)
        pending.push(`Machine ${m.meta.name} runs ${m.meta.annotations[ANN.releaseVersion] ?? 'no release'}`);
    return pending;
  };
  let requested = false;
  const checkEnded = (): void => {
    if (!requested || facts.rolloutEndedAt !== undefined) return;
    if (rolloutPending().length === 0) facts.rolloutEndedAt = engine.now;
  };
  const write = <T extends HObj>(obj: T): T => {
    const out = store.write(obj);
    checkEnded();
    return out;
  };
  const remove = (obj: HObj): void => {
    store.remove(obj);
    checkEnded();
  };
  /** A patch: the change applied to the object as the API server holds it (never to a stale cache). */
  const patch = <T extends HObj>(kind: T['kind'], name: string, f: (cur: T) => T): T | undefined => {
    const cur = store.get<T>(kind, name);
    return cur ? write<T>(f(cur)) : undefined;
  };

  // ---- the NodePool controller (hypershift-operator)
  const npActor = engine.actor('nodepool-controller');
  let payloadState: 'none' | 'generating' | 'done' = 'none';
  const npCache = store.informer(npActor, ['NodePool', 'MachineDeployment', 'MachineSet'], lat.watch, () =>
    npSync.kick(),
  );
  const npSync = new Syncer(engine, npActor, lat.queue, lat.nodePoolSync, () => {
    const np = npCache.get(key('NodePool', s.nodePool)) as NodePoolObj | undefined;
    if (!np || np.spec.releaseImage !== s.to.image) return;
    const now = engine.now;
    if (payloadState === 'none') {
      payloadState = 'generating';
      // A new release: the token and user-data Secrets of the new config hash are generated first.
      patch<NodePoolObj>('NodePool', s.nodePool, (cur) => ({
        ...cur,
        meta: { ...cur.meta },
        status: {
          ...cur.status,
          observedGeneration: cur.meta.generation,
          conditions: setConds(cur.status.conditions, now, [
            'UpdatingVersion',
            'True',
            'AsExpected',
            `Updating version in progress. Target version: ${s.to.version}`,
          ]),
        },
      }));
      engine.schedule(engine.rng.sample(lat.payload), npActor, 'payload generated', () => {
        payloadState = 'done';
        facts.payloadAt = engine.now;
        const cur = store.get<NodePoolObj>('NodePool', s.nodePool) as NodePoolObj;
        write<NodePoolObj>({
          ...cur,
          meta: { ...cur.meta },
          status: {
            ...cur.status,
            conditions: setConds(cur.status.conditions, engine.now, [
              'ValidGeneratedPayload',
              'True',
              'AsExpected',
              `Payload generated successfully (secret ${toT.dataSecretName})`,
            ]),
          },
        });
        if (inPlace) {
          const ms = store.get<MachineSetObj>('MachineSet', oldMs) as MachineSetObj;
          // The template moves too; a MachineSet never replaces its Machines for it.
          write<MachineSetObj>({
            ...ms,
            meta: {
              ...ms.meta,
              generation: ms.meta.generation + 1,
              annotations: { ...ms.meta.annotations, [ANN.targetConfigVersion]: targetHash },
            },
            spec: { ...ms.spec, template: toT },
          });
        } else {
          const md = store.get<MachineDeploymentObj>('MachineDeployment', mdName) as MachineDeploymentObj;
          write<MachineDeploymentObj>({
            ...md,
            meta: { ...md.meta, generation: md.meta.generation + 1 },
            spec: { ...md.spec, template: toT },
          });
        }
        facts.templateAt = engine.now;
        npSync.kick();
      });
      return;
    }
    if (payloadState !== 'done' || facts.levelAt !== undefined) return;
    let complete = false;
    if (inPlace) {
      const ms = npCache.get(key('MachineSet', oldMs)) as MachineSetObj | undefined;
      complete =
        ms !== undefined &&
        ms.meta.annotations[ANN.targetConfigVersion] === targetHash &&
        ms.meta.annotations[ANN.currentConfigVersion] === targetHash;
    } else {
      const md = npCache.get(key('MachineDeployment', mdName)) as MachineDeploymentObj | undefined;
      if (
        md &&
        md.spec.template.dataSecretName === toT.dataSecretName &&
        md.status.observedGeneration >= md.meta.generation
      ) {
        const d = md.spec.replicas;
        const st = md.status;
        complete =
          policy === 'fixed'
            ? st.v1beta2.upToDateReplicas === d &&
              st.v1beta2.replicas === d &&
              st.v1beta2.availableReplicas === d
            : st.updatedReplicas === d && st.replicas === d && st.availableReplicas === d;
      }
    }
    if (!complete) return;
    // Level: status.version, the current-config annotations, UpdatingVersion=False.
    const pending = rolloutPending();
    facts.levelAt = now;
    facts.violation = pending.length > 0;
    facts.stillRolling = pending;
    facts.oldMachines = store
      .list<MachineObj>('Machine')
      .filter((m) => m.meta.annotations[ANN.releaseVersion] !== s.to.version)
      .map((m) => m.meta.name);
    patch<NodePoolObj>('NodePool', s.nodePool, (cur) => ({
      ...cur,
      meta: {
        ...cur.meta,
        annotations: {
          ...cur.meta.annotations,
          [ANN.nodePoolCurrentConfig]: targetHash,
          [ANN.nodePoolCurrentConfigVersion]: targetHash,
        },
      },
      status: {
        ...cur.status,
        version: s.to.version,
        conditions: setConds(cur.status.conditions, now, ['UpdatingVersion', 'False', 'AsExpected', '']),
      },
    }));
  });

  // ---- Cluster API: MachineDeployment controller
  const mdActor = engine.actor('capi-machinedeployment-controller');
  const mdCache = store.informer(mdActor, ['MachineDeployment', 'MachineSet'], lat.watch, () =>
    mdSync.kick(),
  );
  const mdSync = new Syncer(engine, mdActor, lat.queue, lat.capiSync, () => {
    const md = mdCache.get(key('MachineDeployment', mdName)) as MachineDeploymentObj | undefined;
    if (!md || inPlace) return;
    const sets = listOf<MachineSetObj>(mdCache, 'MachineSet').filter((m) => m.meta.owner === mdName);
    const newName = machineSetName(mdName, md.spec.template);
    let newSet = sets.find((m) => m.meta.name === newName);
    const now = engine.now;
    /** The new MachineSet's status as this controller last observed it (not the store's). */
    const newStatus = newSet?.status ?? ZERO_STATUS;
    if (!newSet) {
      newSet = write<MachineSetObj>({
        kind: 'MachineSet',
        meta: hmeta(newName, ns, now, {
          owner: mdName,
          annotations: { [ANN.nodePool]: `${s.namespace}/${s.nodePool}` },
        }),
        spec: { replicas: 0, template: md.spec.template },
        status: ZERO_STATUS,
      });
      sets.push(newSet);
    }
    const olds = sets.filter((m) => m.meta.name !== newName);
    const d = md.spec.replicas;
    // Rolling update (maxSurge, maxUnavailable), on the MachineSets' replica specs and available counts.
    const total = sets.reduce((n, m) => n + m.spec.replicas, 0);
    if (newSet.spec.replicas < d && total < d + s.maxSurge) {
      const up = Math.min(d + s.maxSurge - total, d - newSet.spec.replicas);
      const replicas = newSet.spec.replicas + up;
      newSet =
        patch<MachineSetObj>('MachineSet', newName, (cur) => ({
          ...cur,
          meta: { ...cur.meta, generation: cur.meta.generation + 1 },
          spec: { ...cur.spec, replicas },
        })) ?? newSet;
    }
    const statusOf = (m: MachineSetObj): ReplicaStatus => (m.meta.name === newName ? newStatus : m.status);
    const available = sets.reduce((n, m) => n + statusOf(m).availableReplicas, 0);
    const newUnavailable = newSet.spec.replicas - newStatus.availableReplicas;
    let down = available - (d - s.maxUnavailable) - Math.max(newUnavailable, 0);
    for (const old of olds) {
      if (down <= 0) break;
      if (old.spec.replicas === 0) continue;
      const by = Math.min(down, old.spec.replicas);
      down -= by;
      const replicas = old.spec.replicas - by;
      patch<MachineSetObj>('MachineSet', old.meta.name, (cur) => ({
        ...cur,
        meta: { ...cur.meta, generation: cur.meta.generation + 1 },
        spec: { ...cur.spec, replicas },
      }));
    }
    // Status: the v1beta1 counters and status.v1beta2, summed over the MachineSets as last observed.
    const sum = (f: (st: ReplicaStatus) => number): number => sets.reduce((n, m) => n + f(statusOf(m)), 0);
    const status: ReplicaStatus = {
      replicas: sum((x) => x.replicas),
      updatedReplicas: newStatus.replicas,
      readyReplicas: sum((x) => x.readyReplicas),
      availableReplicas: sum((x) => x.availableReplicas),
      v1beta2: {
        replicas: sum((x) => x.v1beta2.replicas),
        upToDateReplicas: newStatus.v1beta2.upToDateReplicas,
        readyReplicas: sum((x) => x.v1beta2.readyReplicas),
        availableReplicas: sum((x) => x.v1beta2.availableReplicas),
      },
      observedGeneration: md.meta.generation,
    };
    const cur = store.get<MachineDeploymentObj>('MachineDeployment', mdName) as MachineDeploymentObj;
    const rolling =
      status.v1beta2.upToDateReplicas < status.v1beta2.replicas || status.v1beta2.replicas !== d;
    const conditions = setConds(
      cur.conditions,
      now,
      rolling
        ? [
            'RollingOut',
            'True',
            'RollingOut',
            `Rolling out ${status.v1beta2.replicas - status.v1beta2.upToDateReplicas} not up-to-date replicas`,
          ]
        : ['RollingOut', 'False', 'NotRollingOut', ''],
      status.v1beta2.upToDateReplicas < status.v1beta2.replicas
        ? ['MachinesUpToDate', 'False', 'NotUpToDate', 'Some Machines are not up-to-date']
        : ['MachinesUpToDate', 'True', 'UpToDate', ''],
    );
    if (JSON.stringify(cur.status) !== JSON.stringify(status) || conditions !== cur.conditions)
      write<MachineDeploymentObj>({ ...cur, meta: { ...cur.meta }, status, conditions });
  });

  // ---- Cluster API: MachineSet controller (creates and deletes Machines, aggregates their status)
  const msActor = engine.actor('capi-machineset-controller');
  const msCache = store.informer(msActor, ['MachineDeployment', 'MachineSet', 'Machine'], lat.watch, () =>
    msSync.kick(),
  );
  /** Machines this controller created and has not yet seen in its cache (client-go's expectations). */
  const expected = new Set<string>();
  const msSync = new Syncer(engine, msActor, lat.queue, lat.capiSync, () => {
    const md = msCache.get(key('MachineDeployment', mdName)) as MachineDeploymentObj | undefined;
    const machines = listOf<MachineObj>(msCache, 'Machine');
    for (const ms of listOf<MachineSetObj>(msCache, 'MachineSet')) {
      const mine = machines.filter((m) => m.meta.owner === ms.meta.name);
      for (const m of mine) expected.delete(m.meta.name);
      // Until its own creations show in its cache, a MachineSet is not resized again.
      if ([...expected].some((n) => n.startsWith(`${ms.meta.name}-`))) continue;
      const live = mine.filter((m) => m.meta.deletedAt === undefined);
      const now = engine.now;
      if (live.length < ms.spec.replicas) {
        for (let i = live.length; i < ms.spec.replicas; i++) {
          const name = `${ms.meta.name}-${suffix()}`;
          const m = write<MachineObj>({
            kind: 'Machine',
            meta: hmeta(name, ns, now, {
              owner: ms.meta.name,
              annotations: { [ANN.releaseVersion]: ms.spec.template.release },
            }),
            spec: ms.spec.template,
            status: {
              phase: 'Provisioning',
              nodeName: undefined,
              conditions: [cond('UpToDate', 'True', 'UpToDate', '', now)],
            },
          });
          facts.machinesCreated.push({ at: now, name });
          expected.add(name);
          infra.provision(m);
        }
      } else if (live.length > ms.spec.replicas) {
        // deletePolicy Random (the default) picks any; the model deletes the oldest first.
        const victims = [...live]
          .sort((a, b) => a.meta.createdAt - b.meta.createdAt)
          .slice(0, live.length - ms.spec.replicas);
        for (const v of victims) {
          const cur = store.get<MachineObj>('Machine', v.meta.name);
          if (!cur || cur.meta.deletedAt !== undefined) continue;
          const m = write<MachineObj>({
            ...cur,
            meta: { ...cur.meta, deletedAt: now },
            // Cluster API's v1beta2 Ready summarises Deleting: a Machine asked to go is neither Ready
            // nor Available from that moment, though it and its node are still there.
            status: {
              ...cur.status,
              phase: 'Deleting',
              conditions: setConds(
                cur.status.conditions,
                now,
                ['Deleting', 'True', 'Draining', 'Drain in progress'],
                ['Ready', 'False', 'Deleting', 'Machine deletion in progress'],
                ['Available', 'False', 'NotReady', ''],
              ),
            },
          });
          infra.remove(m);
        }
      }
      const upToDate = (m: MachineObj): boolean =>
        md !== undefined && !inPlace
          ? m.spec.dataSecretName === md.spec.template.dataSecretName
          : findCond(m.status.conditions, 'UpToDate')?.status === 'True';
      const isTrue = (m: MachineObj, t: string): boolean =>
        findCond(m.status.conditions, t)?.status === 'True';
      const alive = mine.filter((m) => m.meta.deletedAt === undefined);
      const status: ReplicaStatus = {
        replicas: alive.length,
        updatedReplicas: 0,
        readyReplicas: alive.filter((m) => isTrue(m, 'Ready')).length,
        availableReplicas: alive.filter((m) => isTrue(m, 'Available')).length,
        v1beta2: {
          replicas: mine.length,
          upToDateReplicas: mine.filter(upToDate).length,
          readyReplicas: mine.filter((m) => isTrue(m, 'Ready')).length,
          availableReplicas: mine.filter((m) => isTrue(m, 'Available')).length,
        },
        observedGeneration: ms.meta.generation,
      };
      const cur = store.get<MachineSetObj>('MachineSet', ms.meta.name);
      if (cur && JSON.stringify(cur.status) !== JSON.stringify(status))
        write<MachineSetObj>({ ...cur, meta: { ...cur.meta }, status });
    }
  });

  // ---- the Machine controller, the infrastructure provider and the guest's kubelets
  const infraActor = engine.actor('capi-machine-controller');
  const nodeFor = (machine: string): string => {
    const h = md5Hex(machine);
    return `ip-10-0-${128 + (Number.parseInt(h.slice(0, 2), 16) % 64)}-${Number.parseInt(h.slice(2, 4), 16)}.ec2.internal`;
  };
  const patchMachine = (name: string, f: (m: MachineObj) => MachineObj): void => {
    const m = store.get<MachineObj>('Machine', name);
    if (m) write<MachineObj>(f(m));
  };
  const infra = {
    provision(m: MachineObj): void {
      const name = m.meta.name;
      engine.schedule(engine.rng.sample(lat.provision), infraActor, 'instance booted', () => {
        const node = nodeFor(name);
        patchMachine(name, (x) => ({
          ...x,
          meta: { ...x.meta },
          status: { ...x.status, phase: 'Provisioned', nodeName: node },
        }));
        write<GuestNodeObj>({
          kind: 'Node',
          meta: hmeta(node, '', engine.now, {
            labels: { 'hypershift.openshift.io/nodePool': s.nodePool, 'node-role.kubernetes.io/worker': '' },
          }),
          machine: name,
          ready: false,
          unschedulable: false,
          kubeletVersion: m.spec.kubeletVersion,
          release: m.spec.release,
          readySince: engine.now,
        });
        engine.schedule(engine.rng.sample(lat.nodeReady), infraActor, 'node ready', () => {
          const n = store.get<GuestNodeObj>('Node', node);
          if (!n) return;
          write<GuestNodeObj>({ ...n, meta: { ...n.meta }, ready: true, readySince: engine.now });
          engine.schedule(engine.rng.sample(lat.machineReady), infraActor, 'machine ready', () =>
            patchMachine(name, (x) => ({
              ...x,
              meta: { ...x.meta },
              status: {
                ...x.status,
                phase: x.meta.deletedAt !== undefined ? 'Deleting' : 'Running',
                conditions:
                  x.meta.deletedAt !== undefined
                    ? x.status.conditions
                    : setConds(
                        x.status.conditions,
                        engine.now,
                        ['Ready', 'True', 'Ready', ''],
                        ['Available', 'True', 'Available', ''],
                      ),
              },
            })),
          );
        });
      });
    },
    remove(m: MachineObj): void {
      const name = m.meta.name;
      const node = m.status.nodeName;
      if (node) {
        const n = store.get<GuestNodeObj>('Node', node);
        if (n) write<GuestNodeObj>({ ...n, meta: { ...n.meta }, unschedulable: true });
      }
      engine.schedule(engine.rng.sample(lat.drain), infraActor, 'drained', () => {
        patchMachine(name, (x) => ({
          ...x,
          meta: { ...x.meta },
          status: {
            ...x.status,
            conditions: setConds(x.status.conditions, engine.now, [
              'Deleting',
              'True',
              'WaitingForInfrastructureDeletion',
              'Drain completed',
            ]),
          },
        }));
        engine.schedule(engine.rng.sample(lat.infraDelete), infraActor, 'instance terminated', () => {
          if (node) {
            const n = store.get<GuestNodeObj>('Node', node);
            if (n) remove(n);
          }
          const cur = store.get<MachineObj>('Machine', name);
          if (cur) remove(cur);
          facts.machinesDeleted.push({ at: engine.now, name });
        });
      });
    },
  };

  // ---- InPlace: the in-place upgrader (hosted cluster config operator) and the nodes' daemon
  if (inPlace) {
    const ipActor = engine.actor('inplace-upgrader');
    let busy = false;
    const ipCache = store.informer(ipActor, ['MachineSet', 'Machine'], lat.watch, () => ipSync.kick());
    const ipSync: Syncer = new Syncer(engine, ipActor, lat.queue, lat.capiSync, () => {
      const ms = ipCache.get(key('MachineSet', oldMs)) as MachineSetObj | undefined;
      const target = ms?.meta.annotations[ANN.targetConfigVersion];
      if (!ms || busy || target === undefined || target === ms.meta.annotations[ANN.currentConfigVersion])
        return;
      const machines = listOf<MachineObj>(ipCache, 'Machine').filter((m) => m.meta.owner === oldMs);
      const next = machines.find((m) => m.meta.annotations[ANN.releaseVersion] !== s.to.version);
      if (!next) {
        const cur = store.get<MachineSetObj>('MachineSet', oldMs) as MachineSetObj;
        write<MachineSetObj>({
          ...cur,
          meta: { ...cur.meta, annotations: { ...cur.meta.annotations, [ANN.currentConfigVersion]: target } },
        });
        return;
      }
      // One node at a time (maxUnavailable 1): cordon and drain, apply, reboot, uncordon.
      busy = true;
      const nodeName = next.status.nodeName as string;
      const node = (): GuestNodeObj => store.get<GuestNodeObj>('Node', nodeName) as GuestNodeObj;
      write<GuestNodeObj>({ ...node(), meta: { ...node().meta }, unschedulable: true });
      engine.schedule(
        engine.rng.sample(lat.drain) + engine.rng.sample(lat.inPlaceApply),
        ipActor,
        'applied',
        () => {
          write<GuestNodeObj>({ ...node(), meta: { ...node().meta }, ready: false });
          engine.schedule(engine.rng.sample(lat.reboot), ipActor, 'rebooted', () => {
            write<GuestNodeObj>({
              ...node(),
              meta: { ...node().meta },
              ready: true,
              unschedulable: false,
              release: s.to.version,
              kubeletVersion: s.to.kubeletVersion,
              readySince: engine.now,
            });
            patchMachine(next.meta.name, (x) => ({
              ...x,
              meta: { ...x.meta, annotations: { ...x.meta.annotations, [ANN.releaseVersion]: s.to.version } },
              spec: toT,
            }));
            facts.nodesUpdated.push({ at: engine.now, name: nodeName });
            busy = false;
            ipSync.kick();
          });
        },
      );
    });
  }

  // ---- the administrator: the NodePool's release moves to the target
  const admin = engine.actor('administrator');
  engine.schedule(engine.rng.sample(lat.request), admin, 'update the NodePool release', () => {
    const np = store.get<NodePoolObj>('NodePool', s.nodePool) as NodePoolObj;
    requested = true;
    facts.requestedAt = engine.now;
    write<NodePoolObj>({
      ...np,
      meta: { ...np.meta, generation: np.meta.generation + 1 },
      spec: { ...np.spec, releaseImage: s.to.image },
    });
  });
  // The e2e test: it polls the NodePool every 10 s (hypershift's WaitForNodePoolVersion) until it
  // reports the target and is not updating, then dumps the cluster (`hypershift dump cluster
  // --dump-guest-cluster`, a snapshot a few seconds later). The run goes on until the rollout ended.
  const e2e = engine.actor('e2e-test');
  let dump: Map<string, HObj> | undefined;
  let dumpRevisions = 0;
  const takeDump = (): void => {
    facts.dumpAt = engine.now;
    facts.visibleAtDump = facts.levelAt !== undefined && facts.rolloutEndedAt === undefined;
    dump = store.snapshot();
    dumpRevisions = store.revisions?.length ?? 0;
  };
  const poll = (): void => {
    const np = store.get<NodePoolObj>('NodePool', s.nodePool);
    const level =
      np !== undefined &&
      np.status.version === s.to.version &&
      findCond(np.status.conditions, 'UpdatingVersion')?.status === 'False';
    if (level) engine.schedule(engine.rng.sample(lat.dump), e2e, 'dump', takeDump);
    else engine.schedule(10_000, e2e, 'poll NodePool', poll);
  };
  const settle = (): void => {
    if (dump !== undefined && facts.rolloutEndedAt !== undefined && facts.levelAt !== undefined)
      engine.schedule(TAIL_MS, e2e, 'end of run', () => engine.stop());
    else engine.schedule(10_000, e2e, 'wait for the rollout', settle);
  };
  engine.schedule(10_000, e2e, 'poll NodePool', poll);
  engine.schedule(10_000, e2e, 'wait for the rollout', settle);

  engine.run(RUN_LIMIT_MS);
  facts.endedAt = engine.now;
  // A NodePool that never reported level: the test times out and dumps what there is.
  if (dump === undefined) takeDump();
  return {
    family: 'hosted',
    scenario,
    policy,
    seed,
    facts,
    store,
    dump: dump ?? store.snapshot(),
    revisions: store.revisions?.slice(0, dumpRevisions),
    seeded: seededCopy,
    endAt: engine.now,
    events: engine.fired,
  };
}
