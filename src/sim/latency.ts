/**
 * Every delay in the model, as a distribution in milliseconds. The defaults are chosen so that a
 * simulated upgrade of a 6-node AWS-like cluster looks like the 4.10 CI runs of bug 2019850: about
 * 30 minutes until the machine-config operator's turn, about 2 minutes per node rollout, the
 * render controller's and node controller's fixed 5 s delays (docs/domain.md 4.3, 4.5). A scenario file
 * may override any of them.
 */
import { constant, type Dist, lognormal, uniform } from './rng.js';

export interface Latencies {
  /** A watch event reaching an informer. */
  readonly watch: Dist;
  /** A controller picking a key off its work queue. */
  readonly queue: Dist;
  /** One API round trip made by the upgrade test. */
  readonly testApi: Dist;
  /** The CVO downloading and verifying the new payload. */
  readonly payloadLoad: Dist;
  /** The CVO applying one manifest. */
  readonly manifestApply: Dist;
  /** An operator's Deployment rolled to the new image until the new pod works. */
  readonly operatorRollout: Dist;
  /** The new machine-config-operator pod starting and syncing its caches. */
  readonly mcoRollout: Dist;
  /** The machine-config-controller Deployment rollout (only when the MCO image changed). */
  readonly mccRollout: Dist;
  /** One node's daemon pod replaced in a DaemonSet rollout (MCD, MCS). */
  readonly daemonPodRestart: Dist;
  /** One of the MCO's apply steps that needs no rollout. */
  readonly operatorStep: Dist;
  /** The template controller regenerating its MachineConfigs. */
  readonly templateSync: Dist;
  /** The render controller's work-queue delay after any pool/MachineConfig event (renderDelay). */
  readonly renderDelay: Dist;
  /** The render controller merging and writing a rendered config. */
  readonly renderSync: Dist;
  /** The node controller's work-queue delay after any pool/node event (updateDelay). */
  readonly nodeControllerDelay: Dist;
  /** The node controller's sync of one pool. */
  readonly nodeControllerSync: Dist;
  /** The daemon noticing a new desiredConfig and setting state Working. */
  readonly mcdStart: Dist;
  readonly drainMaster: Dist;
  readonly drainWorker: Dist;
  /** Writing files and units to disk. */
  readonly writeFiles: Dist;
  /** rpm-ostree staging the new OS image (only when osImageURL changed). */
  readonly osUpdate: Dist;
  /** From the reboot request until the node reports NotReady. */
  readonly shutdown: Dist;
  /** From NotReady until the kubelet reports Ready again. */
  readonly boot: Dist;
  /** The daemon validating the new config after boot and marking the node Done. */
  readonly mcdFinish: Dist;
  /** An operand pod: from created until its container started (scheduling, image pull). */
  readonly imagePull: Dist;
  /** An operand pod: from its container started until it is Ready (readiness probe passing). */
  readonly podReady: Dist;
  /** An operand pod: from deleted (Killing) until it is gone (graceful termination). */
  readonly podTerminate: Dist;
  /**
   * An operator with an operand: from its watch showing the operand rolled out until it writes its
   * status (its status controller's next sync; at least 2 s, so whole-second stamps order the two).
   */
  readonly operandStatusSync: Dist;
}

export const DEFAULT_LATENCIES: Latencies = {
  watch: lognormal(25, 0.6, 2, 2000),
  queue: uniform(1, 10),
  testApi: lognormal(45, 0.4, 10, 2000),
  payloadLoad: lognormal(25_000, 0.3),
  manifestApply: lognormal(40, 0.5, 5, 2000),
  operatorRollout: lognormal(30_000, 0.4, 5_000),
  mcoRollout: lognormal(35_000, 0.35, 10_000),
  mccRollout: lognormal(40_000, 0.35, 10_000),
  daemonPodRestart: lognormal(15_000, 0.4, 3_000),
  operatorStep: lognormal(40, 0.5, 5, 2000),
  templateSync: lognormal(400, 0.5, 50, 5000),
  renderDelay: constant(5000),
  renderSync: lognormal(150, 0.5, 20, 3000),
  nodeControllerDelay: constant(5000),
  nodeControllerSync: lognormal(30, 0.5, 5, 1000),
  mcdStart: lognormal(1500, 0.5, 200),
  drainMaster: lognormal(25_000, 0.45, 3_000),
  drainWorker: lognormal(45_000, 0.5, 5_000),
  writeFiles: lognormal(2500, 0.3, 500),
  osUpdate: lognormal(40_000, 0.3, 10_000),
  shutdown: lognormal(10_000, 0.3, 2_000),
  boot: lognormal(60_000, 0.2, 20_000),
  mcdFinish: lognormal(8_000, 0.4, 1_000),
  imagePull: lognormal(4_000, 0.4, 500),
  podReady: lognormal(10_000, 0.5, 1_000),
  podTerminate: lognormal(5_000, 0.5, 500),
  operandStatusSync: lognormal(4_000, 0.4, 2_000),
};

/**
 * The longest latency a scenario may set: a run stops after 4 hours of virtual time (run.ts
 * RUN_LIMIT_MS), so a longer delay could never fire, and the run would report an invariant that was
 * never exercised as holding.
 */
export const MAX_LATENCY_MS = 4 * 60 * 60_000;

export const LATENCY_KEYS = Object.keys(DEFAULT_LATENCIES) as (keyof Latencies)[];
