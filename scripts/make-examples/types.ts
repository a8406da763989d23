/** The shapes of the scenario: the run's timeline that every artifact is rendered from. */

import type { NodeDef, Role } from './facts.js';
import type { CondSpec, Related } from './operators.js';

export type Variant = 'bug' | 'fixed';

import type { MonitorLevel, MonitorRecord } from '../../src/artifacts/index.js';

export type Level = MonitorLevel;
export type { MonitorRecord };

export interface CondChange {
  readonly at: number;
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason?: string;
  readonly message?: string;
}

export interface OperatorRun {
  readonly name: string;
  readonly versionsFrom: readonly (readonly [string, string])[];
  readonly versionsTo: readonly (readonly [string, string])[];
  readonly versionsAt: number;
  /** Steady conditions at the end, before transition times are applied. */
  readonly steady: readonly CondSpec[];
  readonly installedAt: number;
  /** Status changes during the monitored run, in time order. */
  readonly changes: readonly CondChange[];
  readonly related: readonly Related[];
  readonly extension: unknown;
}

export interface NodeRollout {
  readonly node: NodeDef;
  readonly from: string;
  readonly to: string;
  readonly targeted: number;
  readonly drainAt: number;
  readonly rebootAt: number;
  readonly notReadyAt: number;
  readonly readyAt: number;
  readonly doneAt: number;
  readonly bootId: string;
}

export interface PoolRun {
  readonly name: Role;
  readonly oldConfig: string;
  readonly newConfig: string;
  readonly renderedAt: number;
  readonly updatingAt: number;
  readonly updatedAt: number;
}

export interface EventSpec {
  readonly namespace: string;
  readonly involved: {
    readonly kind: string;
    readonly name: string;
    readonly namespace?: string;
    readonly uid?: string;
    readonly apiVersion?: string;
    readonly fieldPath?: string;
  };
  readonly reason: string;
  readonly message: string;
  readonly type: 'Normal' | 'Warning';
  readonly source?: { readonly component: string; readonly host?: string };
  readonly first: number;
  readonly last: number;
  readonly count: number;
  /** Set for events.k8s.io/v1 events (origin's test records these): shown with `eventTime` only. */
  readonly reporting?: { readonly controller: string; readonly instance: string; readonly action: string };
  /** Whether origin's monitor printed it in the build log's timeline. */
  readonly inTimeline: boolean;
}

export interface TestLine {
  readonly at: number;
  readonly text: string;
}

export interface Scenario {
  readonly variant: Variant;
  readonly rollouts: readonly NodeRollout[];
  readonly pools: readonly PoolRun[];
  readonly operators: readonly OperatorRun[];
  readonly monitor: readonly MonitorRecord[];
  readonly events: readonly EventSpec[];
  readonly testLog: readonly TestLine[];
  readonly cv: {
    readonly completedAt: number;
    readonly progressingSince: number;
  };
  readonly mco: { readonly levelAt: number };
  readonly testEnd: number;
  readonly testPassed: boolean;
  readonly gatherAt: number;
  readonly monitorEnd: number;
}
