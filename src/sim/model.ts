/**
 * What every actor of a run shares: the engine, the store, the latencies, the two releases, the
 * policy, the run's facts (always kept: they are the ground truth a summary reports), and the
 * recorder (only when artifacts are written; it never influences the run).
 */
import type { Engine } from './engine.js';
import type { Latencies } from './latency.js';
import type { Policy } from './policy.js';
import type { Recorder } from './recorder.js';
import type { Release } from './release.js';
import type { Scenario } from './scenario.js';
import type { Store } from './store.js';

interface RenderedRecord {
  readonly pool: string;
  readonly name: string;
  readonly at: number;
  /** A new object, or an existing one re-annotated in place (same spec, new release). */
  readonly created: boolean;
}

/**
 * The model's record of an operator reporting level before its operand rolled out: at the moment it
 * wrote `versions[operator]` = the target, the workload had not every replica updated (pod template
 * with the target's image) and available.
 */
interface OperandViolation {
  readonly operator: string;
  readonly kind: 'Deployment' | 'DaemonSet';
  readonly namespace: string;
  readonly name: string;
  /** The version the operator reported. */
  readonly version: string;
  readonly at: number;
  readonly updated: number;
  readonly available: number;
  readonly desired: number;
  /** When the workload finished rolling out afterwards (undefined: not within the run). */
  rolledOutAt?: number;
}

export interface RunFacts {
  upgradeRequestedAt?: number;
  cvoAcceptedAt?: number;
  mcoStartedAt?: number;
  controllerConfigWrittenAt?: number;
  /** When machine-config reported `operator` = the target version. */
  mcoLevelAt?: number;
  /** Rendered configs made or re-stamped during the run. */
  rendered: RenderedRecord[];
  /** When each pool's spec.configuration moved to a new rendered config, and to which. */
  targets: { pool: string; name: string; at: number }[];
  cvoCompletedAt?: number;
  /** The last time the master pool turned Updated=True after targeting a new config. */
  masterUpdatedAt?: number;
  /** The model's invariant: master pool Updating=True at or after the CVO completed. */
  violation: boolean;
  violationAt?: number;
  /** What the upgrade test (the observer) saw and logged. */
  testDetectedAt?: number;
  testCompletedUpgradeAt?: number;
  poolsCompletedAt?: number;
  testFailure?: string;
  mcoDegraded: { at: number; message: string }[];
  endedAt?: number;
  /** The scenario's administrator actions, as they were applied. */
  actions: { at: number; text: string }[];
  /**
   * When the first administrator action after the CVO completed was applied: a day-2 change. The
   * master pool rolling out from then on is that change's rollout, not the update's, so the model's
   * invariant stops counting there.
   */
  day2At?: number;
  /** In a run of two updates: when the CVO completed the first, and when the second was requested. */
  firstCompletedAt?: number;
  secondRequestedAt?: number;
  /** Operators that reported level before a workload they manage rolled out (the operand invariant). */
  operandViolations: OperandViolation[];
}

export interface RaceHooks {
  /** The operator wrote a new ControllerConfig: the render race begins. */
  open(): void;
  /** The operator evaluated its required pools for the first time since: the race is decided. */
  close(): void;
}

export interface Model {
  readonly engine: Engine;
  readonly store: Store;
  readonly lat: Latencies;
  readonly scenario: Scenario;
  readonly policy: Policy;
  /** The update in progress: a run of two updates moves both on when the second begins. */
  from: Release;
  to: Release;
  readonly facts: RunFacts;
  readonly rec: Recorder | undefined;
  race: RaceHooks;
  /** Called once when the CVO marks the update Completed (administrator actions wait for it). */
  readonly onCvoCompleted: (() => void)[];
}

export function newFacts(): RunFacts {
  return { rendered: [], targets: [], violation: false, mcoDegraded: [], actions: [], operandViolations: [] };
}

export const NO_RACE: RaceHooks = { open: () => undefined, close: () => undefined };

/** Kubernetes Event sources (`source.component`) used by the model's emitters. */
export const COMPONENT = {
  operator: 'machine-config-operator',
  render: 'machineconfigcontroller-rendercontroller',
  node: 'machineconfigcontroller-nodecontroller',
  daemon: 'machineconfigdaemon',
  cvo: 'openshift-cluster-version',
} as const;
