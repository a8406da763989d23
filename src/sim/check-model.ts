/**
 * The untimed model `atlevel simulate --exhaustive` checks (docs/simulate.md, "The model checker"):
 * the same controllers as the timed simulator (the CVO, the machine-config operator, the template,
 * render and node controllers, one daemon per node, operand operators with their DaemonSet or
 * Deployment and its controller, a kubelet per pod), each reduced to its decisions: a step reads what
 * it reads, decides and writes, with no clock. Any enabled step of any controller may go next, so the
 * explored behaviours include every order the latencies of the timed model could produce.
 *
 * A state is a short vector of small integers (its canonical form, hashed as a one-byte string):
 * the objects' contents that some controller reads, each controller's phase (its pending work), the
 * caches whose staleness matters (the CVO's view of the ClusterOperators, the machine-config
 * operator's view of the pools, each operand operator's view of its workload's status), and the two
 * invariants' sticky flags. Times, resourceVersions, counts nobody reads and caches nobody will read
 * again are left out: they change no step's outcome (the soundness argument is in docs/simulate.md).
 */
import { MCO_LEVEL, OPERATORS } from './operators.js';
import { POLICIES, type PolicyName } from './policy.js';
import { buildRelease, controllerConfigImages } from './release.js';
import type { Scenario } from './scenario.js';
import { templateConfigs } from './templates.js';

/** The invariants, as bits of the state's flag slot. */
const MCO_RACE = 1;
const OPERAND_EARLY = 2;

/** A cache slot no one will read again (erased so states that differ only there are one state). */
const DEAD = 255;

/** Pool condition bits. */
const UPDATED = 1;
const UPDATING = 2;
const DEGRADED = 4;

/** Node daemon states. */
const DONE = 0;
/** Cordoned and drained, writing the files. */
const WORKING = 1;
const NODE_DEGRADED = 2;
/** Rebooting: NotReady, its DaemonSet pods down until the kubelet restarts them. */
const REBOOTING = 3;

/** Pod states: old image and ready, new image not ready (yet), new image ready, old image not ready. */
const POD_OLD = 0;
const POD_NEW = 1;
const POD_READY = 2;
const POD_OLD_DOWN = 3;

/** Operand operator phases (0: not rolled by the CVO yet). */
const OP_ROLLED = 1;
const OP_APPLIED = 2;
const OP_REPORTED = 3;

/** Machine-config operator phases (0: not rolled by the CVO yet). */
const MCO_ROLLED = 1;
const MCO_WAITING = 2;
const MCO_REPORTED = 3;

/** ControllerConfig: the old release's, the new one written, the new one completed by the template controller. */
const CC_NEW = 1;
const CC_COMPLETED = 2;

export type State = Uint8Array;

export interface Transition {
  /** `actor/step`: the schedule's word for it. */
  readonly label: string;
  readonly next: State;
}

interface PoolInfo {
  readonly name: string;
  readonly nodes: readonly number[];
  readonly maxUnavailable: number;
  readonly paused: boolean;
  /** The pool's rendered config changes in this update (else the render controller re-stamps it in place). */
  readonly contentChanges: boolean;
  // slots
  readonly spec: number;
  readonly stamp: number;
  readonly status: number;
  readonly conds: number;
}

interface NodeInfo {
  readonly name: string;
  readonly fails: boolean;
  readonly recovers: boolean;
  readonly desired: number;
  readonly current: number;
  readonly state: number;
}

interface OperandInfo {
  readonly operator: string;
  readonly workload: string;
  readonly pods: number;
  readonly maxUnavailable: number;
  /** A DaemonSet: pod i runs on node i (and goes down when that node reboots). */
  readonly perNode: boolean;
  /** Whether the component's image changes (else the operator has nothing to roll). */
  readonly changes: boolean;
  readonly op: number;
  readonly phase: number;
  readonly gen: number;
  readonly status: number; // observed, updated, available: 3 slots
  readonly seen: number; // the operator's cache of the status: 3 slots
  readonly pod: number; // pods slots
}

interface Level {
  readonly level: number;
  /** Indexes into the ClusterOperator slots. */
  readonly ops: readonly number[];
}

/** Why a scenario cannot be checked (the CLI turns it into a usage error naming the scenario). */
export class UncheckableScenario extends Error {
  override readonly name = 'UncheckableScenario';
}

function scaled(raw: number | string, total: number, roundUp: boolean): number {
  let n: number;
  if (typeof raw === 'number') n = raw;
  else if (raw.endsWith('%')) {
    const pct = (Number.parseInt(raw, 10) * total) / 100;
    n = roundUp ? Math.ceil(pct) : Math.floor(pct);
  } else n = Number.parseInt(raw, 10);
  return Number.isFinite(n) && n > 0 ? n : 1;
}

/** The untimed model of one scenario under one policy. */
export class CheckModel {
  readonly size: number;
  private readonly pools: PoolInfo[] = [];
  private readonly nodes: NodeInfo[] = [];
  private readonly operands: OperandInfo[] = [];
  private readonly levels: Level[] = [];
  private readonly opNames: string[] = [];
  /** Slots. */
  private readonly cvoStep: number;
  private readonly cvDone: number;
  private readonly coVersion: number; // one per operator
  private readonly coSeen: number; // the CVO's cache, one per operator
  private readonly mcoPhase: number;
  private readonly mcoSeen: number; // one per pool
  private readonly cc: number;
  private readonly flags: number;
  private readonly mcoOp: number;
  private readonly master: PoolInfo;
  /** The old rendered configs pass the policy's check for the new release (the race's precondition). */
  private readonly oldConfigValid: boolean;
  /** The policy's operand operators report level only once their workload rolled out (policy.ts). */
  private readonly waitsForRollout: boolean;
  /**
   * The same version, a new payload: every ClusterOperator already names it, so the CVO counts an
   * operator done at its first status write after the rollout (as the timed model's CVO does).
   */
  private readonly sameVersion: boolean;

  constructor(
    scenario: Scenario,
    readonly policy: PolicyName,
  ) {
    const operandSpecs = scenario.operands ?? [];
    if (scenario.secondUpdate)
      throw new UncheckableScenario('the model checker checks one update; this scenario has a second');
    if (scenario.actions && scenario.actions.length > 0)
      throw new UncheckableScenario('the model checker does not model administrator actions');
    const from = buildRelease(scenario.from);
    const to = buildRelease(scenario.to);
    const changed = (component: string) =>
      from.byName.get(component)?.pullSpec !== to.byName.get(component)?.pullSpec;
    const mcoChanged = changed('machine-config-operator');
    const osChanged = from.osImageURL !== to.osImageURL;
    const contentOf = (role: string, release: typeof from) =>
      templateConfigs({ role, images: controllerConfigImages(release), osImageURL: release.osImageURL })
        .map((t) => t.contentKey)
        .join('|') + release.osImageURL;
    this.waitsForRollout = POLICIES[policy].operandLevel === 'rolled-out';
    this.sameVersion = scenario.from.version === scenario.to.version;
    // naive: any Updated pool passes; pre-fix-2021: the old config passes unless it was made by another
    // controller version or carries another OS (policy.ts); fixed: only a config stamped with the new release.
    this.oldConfigValid = policy === 'naive' || (policy === 'pre-fix-2021' && !mcoChanged && !osChanged);

    let slot = 0;
    this.cvoStep = slot++;
    this.cvDone = slot++;
    this.flags = slot++;
    this.mcoPhase = slot++;
    this.cc = slot++;
    // ClusterOperators: the operand operators, then machine-config.
    const ops: { name: string; level: number }[] = [];
    for (const o of operandSpecs) {
      if (ops.some((x) => x.name === o.operator)) continue;
      const level = OPERATORS.find((x) => x.name === o.operator)?.level;
      if (level === undefined)
        throw new UncheckableScenario(`operand operator ${o.operator} is not in the payload`);
      ops.push({ name: o.operator, level });
    }
    ops.push({ name: 'machine-config', level: MCO_LEVEL });
    this.opNames.push(...ops.map((o) => o.name));
    this.mcoOp = ops.length - 1;
    this.coVersion = slot;
    slot += ops.length;
    this.coSeen = slot;
    slot += ops.length;
    for (const level of [...new Set(ops.map((o) => o.level))].sort((a, b) => a - b)) {
      this.levels.push({ level, ops: ops.flatMap((o, i) => (o.level === level ? [i] : [])) });
    }
    // Pools and nodes.
    const roleOf = (pool: string) => (pool === 'master' ? 'master' : 'worker');
    for (const p of scenario.pools) {
      const nodes: number[] = [];
      for (let i = 0; i < p.nodes; i++) {
        const failure = scenario.failures.find((f) => f.pool === p.name && f.index === i);
        nodes.push(this.nodes.length);
        this.nodes.push({
          name: `${p.name}-${i}`,
          fails: failure !== undefined,
          recovers: failure?.recoverAfterMs !== undefined,
          desired: slot++,
          current: slot++,
          state: slot++,
        });
      }
      let max = scaled(p.maxUnavailable, p.nodes, false);
      if (p.name === 'master') max = Math.min(max, Math.max(1, p.nodes - (Math.floor(p.nodes / 2) + 1)));
      const role = roleOf(p.name);
      this.pools.push({
        name: p.name,
        nodes,
        maxUnavailable: max,
        paused: p.paused,
        contentChanges: contentOf(role, from) !== contentOf(role, to),
        spec: slot++,
        stamp: slot++,
        status: slot++,
        conds: slot++,
      });
    }
    const master = this.pools.find((p) => p.name === 'master');
    if (!master) throw new UncheckableScenario('the scenario has no master pool');
    this.master = master;
    this.mcoSeen = slot;
    slot += this.pools.length;
    // Operands.
    for (const o of operandSpecs) {
      const pods = o.kind === 'DaemonSet' ? this.nodes.length : o.replicas;
      // A slot holds a count of pods below DEAD.
      if (pods >= DEAD)
        throw new UncheckableScenario(`${o.name} has too many pods for the model checker (${pods})`);
      const info: OperandInfo = {
        operator: o.operator,
        workload: `${o.kind === 'DaemonSet' ? 'daemonset' : 'deployment'}/${o.name}`,
        pods,
        maxUnavailable: scaled(o.maxUnavailable, pods, o.kind === 'DaemonSet'),
        perNode: o.kind === 'DaemonSet',
        changes: changed(o.component),
        op: ops.findIndex((x) => x.name === o.operator),
        phase: slot++,
        gen: slot++,
        status: slot,
        seen: slot + 3,
        pod: slot + 6,
      };
      slot += 6 + pods;
      this.operands.push(info);
    }
    this.size = slot;
    if (slot > 4096)
      throw new UncheckableScenario(`the scenario is too large for the model checker (${slot} slots)`);
  }

  initial(): State {
    const s = new Uint8Array(this.size);
    for (const p of this.pools) s[p.conds] = UPDATED;
    for (const o of this.operands) {
      s[o.status + 1] = o.pods; // updated: every pod runs the template (the old one)
      s[o.status + 2] = o.pods; // available
      s[o.seen + 1] = o.pods;
      s[o.seen + 2] = o.pods;
    }
    this.snapshotPools(s, s); // the operator's cache starts as the store
    return s;
  }

  /** Every step enabled in `s` that changes the state, in a fixed order (the search's). */
  successors(s: State): Transition[] {
    const out: Transition[] = [];
    this.cvoSteps(s, out);
    for (const o of this.operands) this.operandSteps(s, o, out);
    this.mcoSteps(s, out);
    // template controller
    if (s[this.cc] === CC_NEW) {
      const n = s.slice();
      n[this.cc] = CC_COMPLETED;
      out.push(this.done('template-controller/sync', n));
    }
    for (const p of this.pools) this.renderStep(s, p, out);
    for (const p of this.pools) this.nodeControllerStep(s, p, out);
    for (const p of this.pools) for (const i of p.nodes) this.daemonSteps(s, this.nodes[i] as NodeInfo, out);
    return out;
  }

  /** The invariants a state breaks (sticky: a flag, once set, stays in every later state). */
  violations(s: State): number {
    return s[this.flags] as number;
  }

  /** A state from which no step is enabled: did the update complete? */
  completed(s: State): boolean {
    return s[this.cvDone] === 1;
  }

  describeFlags(flags: number): string[] {
    const out: string[] = [];
    if (flags & MCO_RACE) out.push('mco-race');
    if (flags & OPERAND_EARLY) out.push('operator-level-before-operands');
    return out;
  }

  /** What one transition did, for the replay's trace (a few words per step). */
  explain(prev: State, next: State, label: string): string {
    const parts: string[] = [];
    if (next[this.cvDone] === 1 && prev[this.cvDone] !== 1) parts.push('CVO: update Completed');
    for (let i = 0; i < this.opNames.length; i++)
      if (next[this.coVersion + i] !== prev[this.coVersion + i])
        parts.push(`clusteroperator/${this.opNames[i]} reports the new version`);
    for (const p of this.pools) {
      if (next[p.spec] !== prev[p.spec]) parts.push(`pool ${p.name} targets the new rendered config`);
      if (next[p.stamp] !== prev[p.stamp]) parts.push(`pool ${p.name}'s rendered config re-stamped`);
      const c = next[p.conds] as number;
      if (c !== prev[p.conds])
        parts.push(
          `pool ${p.name} ${c & UPDATED ? 'Updated' : c & UPDATING ? 'Updating' : 'not Updated'}${c & DEGRADED ? ', Degraded' : ''}`,
        );
    }
    for (const o of this.operands) {
      if (next[o.status + 1] !== prev[o.status + 1] || next[o.status + 2] !== prev[o.status + 2])
        parts.push(
          `${o.workload} updated ${next[o.status + 1]}/${o.pods}, available ${next[o.status + 2]}/${o.pods}`,
        );
    }
    const flags = (next[this.flags] as number) & ~(prev[this.flags] as number);
    if (flags) parts.push(`VIOLATION ${this.describeFlags(flags).join(', ')}`);
    return parts.length > 0 ? `${label}: ${parts.join('; ')}` : label;
  }

  private done(label: string, n: State): Transition {
    this.check(n);
    return { label, next: n };
  }

  /** The MCO race, checked on every state: the CVO completed while the master pool is Updating. */
  private check(n: State): void {
    if (n[this.cvDone] === 1 && ((n[this.master.conds] as number) & UPDATING) !== 0)
      n[this.flags] = (n[this.flags] as number) | MCO_RACE;
  }

  private cvoSteps(s: State, out: Transition[]): void {
    const step = s[this.cvoStep] as number;
    const nOps = this.opNames.length;
    if (s[this.cvDone] === 0) {
      // The CVO's informer catches up with every ClusterOperator write so far (one watch stream).
      let stale = false;
      for (let i = 0; i < nOps; i++) if (s[this.coSeen + i] !== s[this.coVersion + i]) stale = true;
      if (stale) {
        const n = s.slice();
        for (let i = 0; i < nOps; i++) n[this.coSeen + i] = s[this.coVersion + i] as number;
        out.push(this.done('cvo/watch', n));
      }
    }
    const levelIndex = step >> 1;
    const level = this.levels[levelIndex];
    if (level === undefined) {
      if (s[this.cvDone] === 0) {
        const n = s.slice();
        n[this.cvDone] = 1;
        for (let i = 0; i < nOps; i++) n[this.coSeen + i] = DEAD;
        out.push(this.done('cvo/complete', n));
      }
      return;
    }
    if ((step & 1) === 0) {
      // Apply the level's manifests: each of its operators is rolled to the new release.
      const n = s.slice();
      n[this.cvoStep] = step + 1;
      for (const op of level.ops) {
        if (op === this.mcoOp) n[this.mcoPhase] = MCO_ROLLED;
        for (const o of this.operands) if (o.op === op) n[o.phase] = o.changes ? OP_ROLLED : OP_APPLIED;
      }
      out.push(this.done(`cvo/apply-${level.level}`, n));
    } else if (level.ops.every((op) => s[this.coSeen + op] === 1)) {
      const n = s.slice();
      n[this.cvoStep] = step + 1;
      out.push(this.done(`cvo/level-${level.level}-done`, n));
    }
  }

  private operandSteps(s: State, o: OperandInfo, out: Transition[]): void {
    const phase = s[o.phase] as number;
    const name = o.operator;
    if (phase === OP_ROLLED) {
      const n = s.slice();
      n[o.gen] = 1;
      n[o.phase] = OP_APPLIED;
      if (this.sameVersion) n[this.coVersion + o.op] = 1;
      out.push(this.done(`${name}/apply`, n));
    }
    if (phase !== OP_REPORTED) {
      if (
        s[o.seen] !== s[o.status] ||
        s[o.seen + 1] !== s[o.status + 1] ||
        s[o.seen + 2] !== s[o.status + 2]
      ) {
        const n = s.slice();
        n[o.seen] = s[o.status] as number;
        n[o.seen + 1] = s[o.status + 1] as number;
        n[o.seen + 2] = s[o.status + 2] as number;
        out.push(this.done(`${name}/watch`, n));
      }
    }
    if (phase === OP_APPLIED) {
      // pre-fix-2021, fixed: level once its cached status shows the rollout done; naive: once applied.
      const rolledOut = s[o.seen] === s[o.gen] && s[o.seen + 1] === o.pods && s[o.seen + 2] === o.pods;
      if (!this.waitsForRollout || rolledOut) {
        const n = s.slice();
        n[o.phase] = OP_REPORTED;
        n[this.coVersion + o.op] = 1;
        n[o.seen] = DEAD;
        n[o.seen + 1] = DEAD;
        n[o.seen + 2] = DEAD;
        let truth = true;
        if (o.changes) for (let i = 0; i < o.pods; i++) if (s[o.pod + i] !== POD_READY) truth = false;
        if (!truth) n[this.flags] = (n[this.flags] as number) | OPERAND_EARLY;
        out.push(this.done(`${name}/report-level`, n));
      }
    }
    // The workload's controller: replace old pods within maxUnavailable (once the template changed),
    // then write the status (also when pods went down with a rebooting node).
    {
      const n = s.slice();
      const rolling = s[o.gen] === 1;
      // An old pod that is down anyway is replaced at once; old available ones within maxUnavailable
      // (the DaemonSet controller's rolling update; a Deployment's surge is not modelled).
      let unavailable = 0;
      for (let i = 0; i < o.pods; i++) {
        const p = n[o.pod + i];
        if (p === POD_NEW || p === POD_OLD_DOWN) unavailable++;
        if (p === POD_OLD_DOWN && rolling) n[o.pod + i] = POD_NEW;
      }
      for (let i = 0; i < o.pods && unavailable < o.maxUnavailable && rolling; i++) {
        if (n[o.pod + i] === POD_OLD) {
          n[o.pod + i] = POD_NEW;
          unavailable++;
        }
      }
      let updated = 0;
      let available = 0;
      for (let i = 0; i < o.pods; i++) {
        const p = n[o.pod + i];
        // updated: running the current template
        if (rolling ? p === POD_NEW || p === POD_READY : p === POD_OLD || p === POD_OLD_DOWN) updated++;
        if (p === POD_OLD || p === POD_READY) available++;
      }
      n[o.status] = s[o.gen] as number;
      n[o.status + 1] = updated;
      n[o.status + 2] = available;
      if (!equal(n, s)) out.push(this.done(`${o.workload}/sync`, n));
    }
    // The kubelet starts a pod that is not ready, unless its node is rebooting.
    for (let i = 0; i < o.pods; i++) {
      const p = s[o.pod + i];
      if (p !== POD_NEW && p !== POD_OLD_DOWN) continue;
      const node = o.perNode ? this.nodes[i] : undefined;
      if (node && s[node.state] === REBOOTING) continue;
      const k = s.slice();
      k[o.pod + i] = p === POD_NEW ? POD_READY : POD_OLD;
      out.push(this.done(`kubelet/${o.perNode ? (node as NodeInfo).name : `pod-${i}`}/${o.workload}`, k));
    }
  }

  /** The operator's cache of the pools: per pool, its status config, Updated and Degraded. */
  private snapshotPools(s: State, into: State): void {
    for (let i = 0; i < this.pools.length; i++) {
      const p = this.pools[i] as PoolInfo;
      const c = s[p.conds] as number;
      into[this.mcoSeen + i] = (s[p.status] as number) | (c & UPDATED ? 2 : 0) | (c & DEGRADED ? 4 : 0);
    }
  }

  private mcoSteps(s: State, out: Transition[]): void {
    const phase = s[this.mcoPhase] as number;
    if (phase === MCO_ROLLED) {
      // Its sync writes the ControllerConfig of the new release (after rolling its controller and
      // daemons when its own image changed: those rollouts touch nothing the model's steps read).
      const n = s.slice();
      n[this.cc] = CC_NEW;
      n[this.mcoPhase] = MCO_WAITING;
      if (this.sameVersion) n[this.coVersion + this.mcoOp] = 1;
      out.push(this.done('machine-config-operator/sync-controllerconfig', n));
    }
    if (phase !== MCO_REPORTED) {
      const n = s.slice();
      this.snapshotPools(s, n);
      if (!equal(n, s)) out.push(this.done('machine-config-operator/watch', n));
    }
    if (phase === MCO_WAITING && s[this.cc] === CC_COMPLETED) {
      // RequiredPools from its cache: no pool Degraded, master Updated with a config the policy accepts.
      let ok = true;
      for (let i = 0; i < this.pools.length; i++) if ((s[this.mcoSeen + i] as number) & 4) ok = false;
      const mi = this.pools.indexOf(this.master);
      const seen = s[this.mcoSeen + mi] as number;
      const cfg = seen & 1;
      // The old rendered config passes when the policy lets it, or once re-stamped in place for the new
      // release (an update that changes nothing the config embeds); the new one always passes.
      if (!(seen & 2)) ok = false;
      else if (cfg === 0 && !this.oldConfigValid && s[this.master.stamp] !== 1) ok = false;
      if (ok) {
        const n = s.slice();
        n[this.mcoPhase] = MCO_REPORTED;
        n[this.coVersion + this.mcoOp] = 1;
        for (let i = 0; i < this.pools.length; i++) n[this.mcoSeen + i] = DEAD;
        out.push(this.done('machine-config-operator/required-pools-level', n));
      }
    }
  }

  private renderStep(s: State, p: PoolInfo, out: Transition[]): void {
    if (s[this.cc] !== CC_COMPLETED) return;
    const n = s.slice();
    if (p.contentChanges) n[p.spec] = 1;
    else n[p.stamp] = 1;
    if (!equal(n, s)) out.push(this.done(`render-controller/${p.name}`, n));
  }

  private nodeControllerStep(s: State, p: PoolInfo, out: Transition[]): void {
    const n = s.slice();
    const target = s[p.spec] as number;
    const nodes = p.nodes.map((i) => this.nodes[i] as NodeInfo);
    if (!p.paused) {
      let unavailable = 0;
      let failing = 0;
      for (const x of nodes) {
        const mcdFailing = n[x.desired] !== n[x.current] && n[x.state] === NODE_DEGRADED;
        if (mcdFailing) {
          if (n[x.desired] === target) failing++;
        } else if (n[x.desired] !== n[x.current] || n[x.state] !== DONE) unavailable++;
      }
      let capacity = p.maxUnavailable - unavailable - failing;
      for (const x of nodes) {
        if (capacity <= 0) break;
        if (n[x.desired] === target) continue;
        n[x.desired] = target;
        capacity--;
      }
    }
    let updated = 0;
    let degraded = 0;
    for (const x of nodes) {
      if (n[x.current] === target && n[x.desired] === target && n[x.state] === DONE) updated++;
      if (n[x.state] === NODE_DEGRADED) degraded++;
    }
    let conds: number;
    if (updated === nodes.length) {
      conds = UPDATED;
      n[p.status] = target;
    } else conds = p.paused ? 0 : UPDATING;
    if (degraded > 0) conds |= DEGRADED;
    n[p.conds] = conds;
    if (!equal(n, s)) out.push(this.done(`node-controller/${p.name}`, n));
  }

  private daemonSteps(s: State, x: NodeInfo, out: Transition[]): void {
    const state = s[x.state];
    if (state === DONE && s[x.desired] !== s[x.current]) {
      const n = s.slice();
      n[x.state] = x.fails ? NODE_DEGRADED : WORKING;
      out.push(this.done(`daemon/${x.name}/start`, n));
    } else if (state === NODE_DEGRADED && x.recovers) {
      // a recovering node retries, and succeeds
      const n = s.slice();
      n[x.state] = WORKING;
      out.push(this.done(`daemon/${x.name}/recover`, n));
    } else if (state === WORKING) {
      // files written: reboot (every config change the scenarios make needs one); the node's
      // DaemonSet pods go down with it
      const n = s.slice();
      n[x.state] = REBOOTING;
      const i = this.nodes.indexOf(x);
      for (const o of this.operands) {
        if (!o.perNode) continue;
        const p = n[o.pod + i];
        if (p === POD_READY) n[o.pod + i] = POD_NEW;
        else if (p === POD_OLD) n[o.pod + i] = POD_OLD_DOWN;
      }
      out.push(this.done(`daemon/${x.name}/reboot`, n));
    } else if (state === REBOOTING) {
      // booted on the new config: Ready, currentConfig, Done, uncordoned
      const n = s.slice();
      n[x.current] = s[x.desired] as number;
      n[x.state] = DONE;
      out.push(this.done(`daemon/${x.name}/boot`, n));
    }
  }
}

function equal(a: State, b: State): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
