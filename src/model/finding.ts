/**
 * What analyses return and reporters print. The JSON form of these types is the public
 * `atlevel analyze -o json` schema (docs/analyze-json.md); change it only with a schemaVersion bump.
 */
import type { MachineConfigDiff } from './config-diff.js';
import type { SourceRef } from './history.js';
import type { Millis } from './time.js';

export type Severity = 'failure' | 'warning' | 'info';

/**
 * The one verdict on an input, whichever command gives it (docs/analyze-json.md): `fail` when a rule
 * was violated; `no-update` when the inputs hold no update; `inconclusive` when a rule that applies
 * could not be checked; `pass` when every applicable rule held.
 */
export type Verdict = 'fail' | 'inconclusive' | 'pass' | 'no-update';

/** Most severe first: the order every report lists findings in. */
export const SEVERITY_ORDER: Readonly<Record<Severity, number>> = { failure: 0, warning: 1, info: 2 };

/** One fact that supports a finding, with where it was seen. */
export interface Evidence {
  /** The fact, as a sentence fragment a human reads: `machine-config reported operator version 4.10…-020416`. */
  readonly statement: string;
  readonly at?: Millis;
  /** `MachineConfigPool/master`, `ClusterOperator/machine-config`, `MachineConfig/rendered-master-…`. */
  readonly object?: string;
  /** `status.conditions[Updating]`, `metadata.creationTimestamp`, ... */
  readonly field?: string;
  readonly value?: string;
  readonly ref?: SourceRef;
}

/** A step in a cause chain: what happened, and the evidence that shows it. */
export interface CauseStep {
  readonly title: string;
  readonly at?: Millis;
  readonly evidence: readonly Evidence[];
}

/** A named, known way of failing, e.g. bug 1999556. */
export interface Signature {
  readonly id: string;
  readonly title: string;
  readonly detail: string;
  readonly references: readonly string[];
}

export interface Explanation {
  readonly steps: readonly CauseStep[];
  /** The rendered-config diff that the pool had to roll out, when one is involved. */
  readonly configDiff?: MachineConfigDiff;
  /**
   * The release components the update changed whose images the diff's lines carry: not a component
   * whose image is the same in both releases, nor one a day-2 MachineConfig's line names.
   */
  readonly components?: readonly string[];
  readonly signature?: Signature;
}

/** Moments on the timeline that matter to a finding (the report marks them). */
export interface KeyMoment {
  readonly label: string;
  readonly at: Millis;
  /** Timeline rows (locators) the moment concerns, e.g. `MachineConfigPool/master`. */
  readonly objects: readonly string[];
}

/** What a finding is about, in machine-readable form: explain/ and the report start from it. */
interface FindingSubject {
  /** The update's target version (or pull spec) and the version it came from. */
  readonly target?: string;
  readonly previous?: string;
  readonly pool?: string;
  readonly operator?: string;
  /** Object keys (`MachineConfigPool/master`) the finding concerns. */
  readonly objects?: readonly string[];
  /** The rendered config the pool sat on before, and the one made for the new release. */
  readonly fromConfig?: string;
  readonly toConfig?: string;
  /** When the CVO completed, and when the operator reported the new version. */
  readonly cvoCompletedAt?: Millis;
  readonly operatorLevelAt?: Millis;
  /** The kind of status insight the finding repeats (`operator-degraded`, `node-degraded`, ...). */
  readonly insight?: string;
}

export interface Finding {
  /** Stable rule id, e.g. `master-pool-updated-before-cvo-complete`. */
  readonly rule: string;
  readonly severity: Severity;
  /** One line: what is wrong. */
  readonly summary: string;
  /** When it went wrong (the instant the invariant was broken). */
  readonly at?: Millis;
  readonly evidence: readonly Evidence[];
  readonly explanation?: Explanation;
  readonly moments?: readonly KeyMoment[];
  readonly subject?: FindingSubject;
}

/**
 * How explain/ builds a rule's cause chain: `pool-rollout` joins a pool-versus-level finding to the
 * config the pool rolled to, what changed in it and which release component changed it;
 * `pool-rollout-at-completion` adds the CVO's completion while the pool still rolled out;
 * `operand-rollout` joins an operator-versus-operand finding to each late workload and the release
 * component whose image it had to roll out; `nodepool-rollout` joins a NodePool finding to its
 * MachineDeployment's v1beta1 and v1beta2 counts, its older MachineSets' Machines and stale annotations;
 * `controlplane-rollout` names each ControlPlaneComponent a Completed controlPlaneVersion entry outran.
 */
export type ExplainHook =
  | 'pool-rollout'
  | 'pool-rollout-at-completion'
  | 'operand-rollout'
  | 'nodepool-rollout'
  | 'controlplane-rollout';

/** An invariant's metadata: a stable id, a one-line statement, its severity policy, doc page and explain hook. */
export interface RuleInfo {
  readonly id: string;
  /** The rule's title: one line saying what must hold. */
  readonly statement: string;
  /** docs/rules/<id>.md */
  readonly doc: string;
  /** Which severity a finding of this rule gets, and when (the rule's doc page argues it). */
  readonly severityPolicy: string;
  /** How explain/ adds a cause chain to this rule's findings; none when absent. */
  readonly explain?: ExplainHook;
}
