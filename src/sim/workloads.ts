/**
 * The workloads of the model: each operator's own Deployment (rolled by the CVO when the operator's
 * image changes) and the operands of the operators a scenario models with one (operands.ts): a
 * Deployment rolled out by ReplicaSets within maxSurge and maxUnavailable (kubernetes
 * pkg/controller/deployment/rolling.go), a DaemonSet one pod per node within maxUnavailable
 * (pkg/controller/daemon/update.go). Pods are kept with their lifecycle moments (created, pulled,
 * ready, terminating, gone), so the status of a workload at any moment follows from them, and the
 * artifacts carry the pods, ReplicaSets and events CI would have gathered.
 *
 * The model's ground truth for the operand invariant is kept here too: when a ClusterOperator's
 * `operator` version moves to the target, every workload in its relatedObjects namespaces must have
 * every replica updated (pod template with the target's image) and available.
 */
import type { Actor } from './engine.js';
import { md5Hex } from './hash.js';
import type { Model } from './model.js';
import type { ClusterOperatorObj } from './objects.js';
import { OPERATOR_DEPLOYMENTS, type OperandSpec } from './operands.js';
import type { Release } from './release.js';

/** Install time of the workloads, relative to the run's start (as the ClusterOperators, cluster.ts). */
const INSTALL_AT = -44 * 60_000;

/** The alphabet of generated Kubernetes name suffixes (apimachinery rand.SafeEncodeString). */
const SAFE = 'bcdfghjklmnpqrstvwxz2456789';

function safeString(seed: string, n: number): string {
  const h = md5Hex(seed);
  let out = '';
  for (let i = 0; i < n; i++) out += SAFE[Number.parseInt(h.slice(i * 2, i * 2 + 2), 16) % SAFE.length];
  return out;
}

export interface PodRec {
  readonly name: string;
  /** The node a DaemonSet pod runs on; Deployment pods are placed on a worker by name. */
  readonly node: string;
  readonly image: string;
  /** pod-template-hash (Deployment) or controller-revision-hash (DaemonSet). */
  readonly hash: string;
  /** The template generation it was made from (pod-template-generation of a DaemonSet pod). */
  readonly generation: number;
  /** The ReplicaSet or DaemonSet that owns it. */
  readonly owner: string;
  readonly createdAt: number;
  startedAt: number | undefined;
  readyAt: number | undefined;
  terminatingAt: number | undefined;
  goneAt: number | undefined;
}

export interface ReplicaSetRec {
  readonly name: string;
  readonly hash: string;
  readonly revision: number;
  readonly image: string;
  readonly createdAt: number;
  replicas: number;
}

/**
 * The template and rollout fields of a Workload from `at` on. The Workload keeps one each time they
 * change, so that its objects at any earlier moment can be rebuilt (`asOf`) for the revisions file.
 */
interface TemplateState {
  readonly at: number;
  readonly image: string;
  readonly hash: string;
  readonly generation: number;
  readonly observedGeneration: number;
  readonly revision: number;
  readonly appliedAt: number;
  readonly rolledOutAt: number | undefined;
}

export interface WorkloadStatus {
  readonly desired: number;
  /** Pods not terminating (a ReplicaSet's or DaemonSet's status counts no terminating pod). */
  readonly current: number;
  readonly updated: number;
  readonly ready: number;
  readonly available: number;
  readonly rolledOut: boolean;
}

const isLive = (p: PodRec, t: number): boolean =>
  p.createdAt <= t && (p.terminatingAt === undefined || p.terminatingAt > t);
const isReady = (p: PodRec, t: number): boolean => isLive(p, t) && p.readyAt !== undefined && p.readyAt <= t;

/** A pod as it was at `t`: only the lifecycle moments reached by then. */
export function podAt(p: PodRec, t: number): PodRec {
  const by = (at: number | undefined): number | undefined => (at !== undefined && at <= t ? at : undefined);
  return {
    ...p,
    startedAt: by(p.startedAt),
    readyAt: by(p.readyAt),
    terminatingAt: by(p.terminatingAt),
    goneAt: by(p.goneAt),
  };
}

/** An int-or-percent of `total` (Kubernetes intstr.GetScaledValueFromIntOrPercent). */
export function scaled(value: number | string, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const pct = Number.parseInt(value, 10);
  const exact = (pct * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

export class Workload {
  generation = 1;
  observedGeneration = 1;
  revision = 1;
  image: string;
  hash: string;
  readonly replicaSets: ReplicaSetRec[] = [];
  readonly pods: PodRec[] = [];
  /** When the latest template finished rolling out (undefined while rolling out). */
  rolledOutAt: number | undefined;
  /** When the latest template was applied. */
  appliedAt: number;
  private podSerial = 0;
  private readonly states: TemplateState[] = [];

  constructor(
    readonly spec: OperandSpec,
    /** Every node (a DaemonSet's), and the workers a Deployment's pods are spread over. */
    readonly nodes: readonly string[],
    private readonly workers: readonly string[],
    image: string,
    readonly createdAt: number,
  ) {
    this.image = image;
    this.hash = this.templateHash();
    this.appliedAt = createdAt;
    this.rolledOutAt = createdAt;
    this.mark(createdAt);
  }

  /** Keep the template and rollout fields as they are from `at` on (called after every change of them). */
  mark(at: number): void {
    const next: TemplateState = {
      at,
      image: this.image,
      hash: this.hash,
      generation: this.generation,
      observedGeneration: this.observedGeneration,
      revision: this.revision,
      appliedAt: this.appliedAt,
      rolledOutAt: this.rolledOutAt,
    };
    const last = this.states[this.states.length - 1];
    if (last !== undefined && JSON.stringify({ ...last, at }) === JSON.stringify(next)) return;
    this.states.push(next);
  }

  /** Every moment the template or rollout fields changed (for the revisions file). */
  get changedAt(): number[] {
    return this.states.map((s) => s.at);
  }

  /**
   * The workload as it was at `t`: the template and rollout fields it had then, the ReplicaSets that
   * existed with the replicas they asked for (a ReplicaSet is scaled up by creating its pods and down
   * by deleting them, at the same moment: its pods not terminating), and the pods with only the
   * lifecycle moments reached by `t`.
   */
  asOf(t: number): Workload {
    const view = new Workload(this.spec, this.nodes, this.workers, this.image, this.createdAt);
    let state = this.states[0];
    for (const s of this.states) if (s.at <= t) state = s;
    if (state) {
      view.image = state.image;
      view.hash = state.hash;
      view.generation = state.generation;
      view.observedGeneration = state.observedGeneration;
      view.revision = state.revision;
      view.appliedAt = state.appliedAt;
      view.rolledOutAt = state.rolledOutAt;
    }
    for (const p of this.pods) if (p.createdAt <= t) view.pods.push(podAt(p, t));
    for (const rs of this.replicaSets) {
      if (rs.createdAt > t) continue;
      const replicas = view.pods.filter((p) => p.owner === rs.name && isLive(p, t)).length;
      view.replicaSets.push({ ...rs, replicas });
    }
    return view;
  }

  get kind(): 'Deployment' | 'DaemonSet' {
    return this.spec.kind;
  }

  get id(): string {
    return `${this.spec.kind}/${this.spec.namespace}/${this.spec.name}`;
  }

  private templateHash(): string {
    const seed = `${this.id}|${this.image}|${this.generation}`;
    return safeString(seed, 10);
  }

  /** Install time: every replica of the first template running and ready. */
  install(at: number): void {
    if (this.kind === 'Deployment') {
      const rs = this.newReplicaSet(at);
      rs.replicas = this.spec.replicas;
      for (let i = 0; i < this.spec.replicas; i++) this.addPod(rs.name, this.workerFor(i), at, at + 40_000);
    } else {
      for (const node of this.nodes) this.addPod(this.spec.name, node, at, at + 40_000);
    }
  }

  /** A new template (new image): a new generation, a new revision. */
  setTemplate(image: string, at: number): boolean {
    if (image === this.image) return false;
    this.image = image;
    this.generation++;
    this.revision++;
    this.hash = this.templateHash();
    this.appliedAt = at;
    this.rolledOutAt = undefined;
    this.mark(at);
    return true;
  }

  newReplicaSet(at: number): ReplicaSetRec {
    const existing = this.replicaSets.find((r) => r.hash === this.hash);
    if (existing) return existing;
    const rs: ReplicaSetRec = {
      name: `${this.spec.name}-${this.hash}`,
      hash: this.hash,
      revision: this.revision,
      image: this.image,
      createdAt: at,
      replicas: 0,
    };
    this.replicaSets.push(rs);
    return rs;
  }

  /** Deployment pods spread over the workers (the masters carry a NoSchedule taint). */
  workerFor(i: number): string {
    const pool = this.workers.length > 0 ? this.workers : this.nodes;
    return pool[i % pool.length] ?? '';
  }

  addPod(owner: string, node: string, createdAt: number, readyAt?: number): PodRec {
    const name = `${owner}-${safeString(`${this.id}|${owner}|${this.podSerial++}`, 5)}`;
    const pod: PodRec = {
      name,
      node,
      image: this.image,
      hash: this.hash,
      generation: this.generation,
      owner,
      createdAt,
      startedAt: readyAt,
      readyAt,
      terminatingAt: undefined,
      goneAt: undefined,
    };
    this.pods.push(pod);
    return pod;
  }

  /** Pods present at `t` (not yet removed; terminating ones included). */
  present(t: number): PodRec[] {
    return this.pods.filter((p) => p.createdAt <= t && (p.goneAt === undefined || p.goneAt > t));
  }

  status(t: number): WorkloadStatus {
    const desired = this.kind === 'Deployment' ? this.spec.replicas : this.nodes.length;
    let current = 0;
    let updated = 0;
    let ready = 0;
    for (const p of this.pods) {
      if (!isLive(p, t)) continue;
      current++;
      if (p.hash === this.hash) updated++;
      if (isReady(p, t)) ready++;
    }
    const rolledOut =
      this.observedGeneration === this.generation &&
      updated === desired &&
      ready === desired &&
      current === desired;
    return { desired, current, updated, ready, available: ready, rolledOut };
  }

  /** A ReplicaSet's counts at `t`. */
  replicaSetStatus(rs: ReplicaSetRec, t: number): { replicas: number; ready: number } {
    let replicas = 0;
    let ready = 0;
    for (const p of this.pods) {
      if (p.owner !== rs.name || !isLive(p, t)) continue;
      replicas++;
      if (isReady(p, t)) ready++;
    }
    return { replicas, ready };
  }
}

/** A Kubernetes Event the workload controllers and the kubelet emit, kept only when recording. */
function event(
  model: Model,
  at: number,
  w: Workload,
  involved: { kind: 'Deployment' | 'DaemonSet' | 'ReplicaSet' | 'Pod'; name: string },
  reason: string,
  message: string,
  component: string,
  host?: string,
): void {
  model.rec?.event(
    at,
    {
      kind: involved.kind,
      name: involved.name,
      namespace: w.spec.namespace,
      apiVersion: involved.kind === 'Pod' ? 'v1' : 'apps/v1',
    },
    reason,
    message,
    'Normal',
    component,
    host,
  );
}

/** Go's time.Duration formatting of a pull time (`2.345s`), as the kubelet's Pulled event prints it. */
function goSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`;
}

function podEvents(model: Model, w: Workload, pod: PodRec, pulledAt: number): void {
  const ns = w.spec.namespace;
  event(
    model,
    pod.createdAt,
    w,
    { kind: 'Pod', name: pod.name },
    'Scheduled',
    `Successfully assigned ${ns}/${pod.name} to ${pod.node}`,
    'default-scheduler',
  );
  event(
    model,
    pulledAt,
    w,
    { kind: 'Pod', name: pod.name },
    'Pulled',
    `Successfully pulled image "${pod.image}" in ${goSeconds(Math.max(1, pulledAt - pod.createdAt - 400))}`,
    'kubelet',
    pod.node,
  );
  const started = pod.startedAt ?? pulledAt;
  event(
    model,
    started,
    w,
    { kind: 'Pod', name: pod.name },
    'Created',
    `Created container ${w.spec.container}`,
    'kubelet',
    pod.node,
  );
  event(
    model,
    started,
    w,
    { kind: 'Pod', name: pod.name },
    'Started',
    `Started container ${w.spec.container}`,
    'kubelet',
    pod.node,
  );
}

function killEvents(model: Model, w: Workload, pod: PodRec, at: number, controller: string): void {
  event(
    model,
    at,
    w,
    { kind: w.kind === 'Deployment' ? 'ReplicaSet' : 'DaemonSet', name: pod.owner },
    'SuccessfulDelete',
    `Deleted pod: ${pod.name}`,
    controller,
  );
  event(
    model,
    at,
    w,
    { kind: 'Pod', name: pod.name },
    'Killing',
    `Stopping container ${w.spec.container}`,
    'kubelet',
    pod.node,
  );
}

function createEvent(model: Model, w: Workload, pod: PodRec, controller: string): void {
  event(
    model,
    pod.createdAt,
    w,
    { kind: w.kind === 'Deployment' ? 'ReplicaSet' : 'DaemonSet', name: pod.owner },
    'SuccessfulCreate',
    `Created pod: ${pod.name}`,
    controller,
  );
}

function scaleEvent(model: Model, w: Workload, at: number, rs: ReplicaSetRec, up: boolean): void {
  event(
    model,
    at,
    w,
    { kind: 'Deployment', name: w.spec.name },
    'ScalingReplicaSet',
    `Scaled ${up ? 'up' : 'down'} replica set ${rs.name} to ${rs.replicas}`,
    'deployment-controller',
  );
}

/**
 * An operator's own single-replica Deployment as the CVO rolls it: the new pod is created when the
 * manifests are applied and is ready when the new operator starts working (`readyAt`, the moment
 * GenericOperator drew), then the old ReplicaSet is scaled down. No random draw: it adds nothing to
 * the run's random stream, so the runs of every scenario keep their timings.
 */
export function rollOperatorDeployment(model: Model, w: Workload, image: string, readyAt: number): void {
  const now = model.engine.now;
  if (!w.setTemplate(image, now)) return;
  w.observedGeneration = w.generation;
  const old = w.replicaSets.filter((r) => r.replicas > 0);
  const rs = w.newReplicaSet(now);
  rs.replicas = 1;
  scaleEvent(model, w, now, rs, true);
  const pod = w.addPod(rs.name, w.workerFor(w.revision), now, readyAt);
  const pulledAt = now + Math.round((readyAt - now) * 0.4);
  pod.startedAt = now + Math.round((readyAt - now) * 0.5);
  createEvent(model, w, pod, 'replicaset-controller');
  podEvents(model, w, pod, pulledAt);
  for (const o of old) {
    o.replicas = 0;
    scaleEvent(model, w, readyAt, o, false);
    for (const p of w.pods) {
      if (p.owner !== o.name || p.terminatingAt !== undefined) continue;
      p.terminatingAt = readyAt;
      p.goneAt = readyAt + 2_000;
      killEvents(model, w, p, readyAt, 'replicaset-controller');
    }
  }
  w.rolledOutAt = readyAt;
  w.mark(now);
}

/**
 * The Deployment or DaemonSet controller of one operand, with the kubelet's part (pull, start,
 * readiness, termination) drawn from the run's latencies. `apply` is the operator writing a new
 * template; `onRolledOut` listeners hear of a finished rollout through their watch.
 */
export class RolloutController {
  readonly actor: Actor;
  private readonly listeners: ((generation: number) => void)[] = [];
  private queued = false;

  constructor(
    private readonly model: Model,
    readonly workload: Workload,
    private readonly registry: Workloads,
  ) {
    this.actor = model.engine.actor(
      `${workload.kind === 'Deployment' ? 'deployment' : 'daemonset'}-controller/${workload.spec.namespace}/${workload.spec.name}`,
    );
  }

  /** A watcher of the workload (the operator): called after its watch latency when a rollout finished. */
  watch(listener: (generation: number) => void): void {
    this.listeners.push(listener);
  }

  /** The operator applies the template with `image`. */
  apply(image: string): void {
    const w = this.workload;
    if (!w.setTemplate(image, this.model.engine.now)) return;
    this.enqueue();
  }

  private enqueue(): void {
    if (this.queued) return;
    this.queued = true;
    const { engine, lat } = this.model;
    engine.schedule(engine.rng.sample(lat.queue), this.actor, 'sync workload', () => {
      this.queued = false;
      this.sync();
    });
  }

  private sync(): void {
    const w = this.workload;
    w.observedGeneration = w.generation;
    if (w.kind === 'Deployment') this.syncDeployment();
    else this.syncDaemonSet();
    w.mark(this.model.engine.now);
    this.checkDone();
  }

  private syncDeployment(): void {
    const { engine } = this.model;
    const now = engine.now;
    const w = this.workload;
    const replicas = w.spec.replicas;
    const surge = scaled(w.spec.maxSurge, replicas, true);
    let unavailable = scaled(w.spec.maxUnavailable, replicas, false);
    if (surge === 0 && unavailable === 0) unavailable = 1;
    const created = !w.replicaSets.some((r) => r.hash === w.hash);
    const rs = w.newReplicaSet(now);
    if (created) w.revision = Math.max(...w.replicaSets.map((r) => r.revision));
    // Scale up the new ReplicaSet within maxSurge.
    const total = w.replicaSets.reduce((n, r) => n + r.replicas, 0);
    const up = Math.min(replicas - rs.replicas, replicas + surge - total);
    if (up > 0) {
      rs.replicas += up;
      scaleEvent(this.model, w, now, rs, true);
      for (let i = 0; i < up; i++) this.startPod(rs.name, w.workerFor(w.pods.length));
    }
    // Scale down old ReplicaSets within maxUnavailable (rolling.go reconcileOldReplicaSets).
    const minAvailable = replicas - unavailable;
    const after = w.replicaSets.reduce((n, r) => n + r.replicas, 0);
    const newReady = w.replicaSetStatus(rs, now).ready;
    let room = after - minAvailable - (rs.replicas - newReady);
    for (const old of w.replicaSets) {
      if (old === rs || old.replicas === 0 || room <= 0) continue;
      const down = Math.min(old.replicas, room);
      old.replicas -= down;
      room -= down;
      scaleEvent(this.model, w, now, old, false);
      const victims = w.pods
        .filter((p) => p.owner === old.name && p.terminatingAt === undefined)
        .sort((a, b) => Number(isReady(a, now)) - Number(isReady(b, now)) || b.createdAt - a.createdAt)
        .slice(0, down);
      for (const p of victims) this.stopPod(p, 'replicaset-controller');
    }
  }

  private syncDaemonSet(): void {
    const { engine } = this.model;
    const now = engine.now;
    const w = this.workload;
    let maxUnavailable = scaled(w.spec.maxUnavailable, w.nodes.length, true);
    if (maxUnavailable === 0) maxUnavailable = 1;
    // A node whose pod is gone gets a pod of the current template (a terminating one is waited for).
    for (const node of w.nodes) {
      if (!w.pods.some((p) => p.node === node && p.goneAt === undefined)) this.startPod(w.spec.name, node);
    }
    let unavailable = w.nodes.filter((n) => !w.pods.some((p) => p.node === n && isReady(p, now))).length;
    const old = w.pods
      .filter((p) => p.hash !== w.hash && p.terminatingAt === undefined && isReady(p, now))
      .sort((a, b) => (a.node < b.node ? -1 : a.node > b.node ? 1 : 0));
    for (const p of old) {
      if (unavailable >= maxUnavailable) break;
      this.stopPod(p, 'daemonset-controller');
      unavailable++;
    }
  }

  private startPod(owner: string, node: string): void {
    const { engine, lat } = this.model;
    const w = this.workload;
    const pod = w.addPod(owner, node, engine.now);
    createEvent(
      this.model,
      w,
      pod,
      w.kind === 'Deployment' ? 'replicaset-controller' : 'daemonset-controller',
    );
    const pull = engine.rng.sample(lat.imagePull);
    const ready = engine.rng.sample(lat.podReady);
    engine.schedule(pull, this.actor, 'pod started', () => {
      pod.startedAt = engine.now;
      podEvents(this.model, w, pod, engine.now);
      engine.schedule(ready, this.actor, 'pod ready', () => {
        if (pod.terminatingAt !== undefined) return;
        pod.readyAt = engine.now;
        this.enqueue();
      });
    });
  }

  private stopPod(pod: PodRec, controller: string): void {
    const { engine, lat } = this.model;
    pod.terminatingAt = engine.now;
    killEvents(this.model, this.workload, pod, engine.now, controller);
    engine.schedule(engine.rng.sample(lat.podTerminate), this.actor, 'pod gone', () => {
      pod.goneAt = engine.now;
      this.enqueue();
    });
  }

  private checkDone(): void {
    const w = this.workload;
    const { engine, lat } = this.model;
    if (w.rolledOutAt !== undefined || !w.status(engine.now).rolledOut) return;
    w.rolledOutAt = engine.now;
    w.mark(engine.now);
    this.registry.rolledOut(w, engine.now);
    const generation = w.generation;
    for (const listener of this.listeners) {
      engine.schedule(engine.rng.sample(lat.watch), this.actor, 'watch workload', () => listener(generation));
    }
  }
}

/** Every workload of the run, by namespace, and the operand invariant's ground truth. */
export class Workloads {
  readonly all: Workload[] = [];
  private readonly byNamespace = new Map<string, Workload[]>();
  /** Each generic operator's own Deployment, by ClusterOperator name. */
  readonly operatorDeployments = new Map<string, Workload>();
  /** The operand controllers, by ClusterOperator name. */
  readonly operands = new Map<string, RolloutController>();

  constructor(private readonly model: Model) {}

  add(w: Workload): Workload {
    this.all.push(w);
    const list = this.byNamespace.get(w.spec.namespace) ?? [];
    list.push(w);
    this.byNamespace.set(w.spec.namespace, list);
    return w;
  }

  /**
   * The installed cluster's workloads: every operator's own Deployment (OPERATOR_DEPLOYMENTS) and
   * the scenario's operands, all rolled out on the `from` release.
   */
  seed(nodes: readonly { name: string; pool: string }[]): void {
    const { from, scenario } = this.model;
    const all = nodes.map((n) => n.name);
    const workers = nodes.filter((n) => n.pool !== 'master').map((n) => n.name);
    for (const [operator, d] of OPERATOR_DEPLOYMENTS) {
      const spec: OperandSpec = {
        operator,
        kind: 'Deployment',
        namespace: d.namespace,
        name: d.name,
        container: d.name,
        component: d.component,
        replicas: 1,
        maxUnavailable: '25%',
        maxSurge: '25%',
      };
      const w = this.add(new Workload(spec, all, workers, imageOf(from, d.component), INSTALL_AT));
      w.install(INSTALL_AT);
      this.operatorDeployments.set(operator, w);
    }
    for (const spec of scenario.operands ?? []) {
      const w = this.add(new Workload(spec, all, workers, imageOf(from, spec.component), INSTALL_AT));
      w.install(INSTALL_AT);
      // A DaemonSet's pods name no revision an old pod's image could be read from once it is gone:
      // the install's events (within the cluster's 3 h event TTL at the gather) carry them.
      if (w.kind === 'DaemonSet') {
        for (const pod of w.pods) {
          createEvent(this.model, w, pod, 'daemonset-controller');
          podEvents(this.model, w, pod, pod.createdAt + 20_000);
        }
      }
      this.operands.set(spec.operator, new RolloutController(this.model, w, this));
    }
  }

  /** The namespaces a ClusterOperator's relatedObjects name: its own Deployment's and its operand's. */
  relatedNamespaces(operator: string): string[] {
    const out: string[] = [];
    const own = this.operatorDeployments.get(operator);
    if (own) out.push(own.spec.namespace);
    const operand = this.operands.get(operator)?.workload.spec.namespace;
    if (operand !== undefined && !out.includes(operand)) out.push(operand);
    return out;
  }

  /** A ClusterOperator was written: when its `operator` version moved to the target, check its workloads. */
  onClusterOperator(prev: ClusterOperatorObj | undefined, next: ClusterOperatorObj, at: number): void {
    const target = this.model.to;
    const was = prev?.versions.find((v) => v.name === 'operator')?.version;
    const now = next.versions.find((v) => v.name === 'operator')?.version;
    if (now !== target.version || was === now) return;
    for (const ref of next.relatedObjects) {
      if (ref.resource !== 'namespaces') continue;
      for (const w of this.byNamespace.get(ref.name) ?? []) {
        const s = w.status(at);
        if (s.rolledOut && w.image === imageOf(target, w.spec.component)) continue;
        this.model.facts.operandViolations.push({
          operator: next.meta.name,
          kind: w.kind,
          namespace: w.spec.namespace,
          name: w.spec.name,
          version: now,
          at,
          updated: w.image === imageOf(target, w.spec.component) ? s.updated : 0,
          available: s.available,
          desired: s.desired,
        });
      }
    }
  }

  /** A workload finished rolling out: the violations that named it learn when. */
  rolledOut(w: Workload, at: number): void {
    for (const v of this.model.facts.operandViolations) {
      if (v.rolledOutAt === undefined && v.namespace === w.spec.namespace && v.name === w.spec.name) {
        v.rolledOutAt = at;
      }
    }
  }
}

export function imageOf(release: Release, component: string): string {
  return release.byName.get(component)?.pullSpec ?? '';
}
