/**
 * ClusterHistory: everything known about one cluster over a span of time, whatever the source.
 * Sources build it; analyses read it and nothing else.
 */
import { KINDS, type KindField, type KindObject, KNOWN_KINDS, type KnownKind } from './kinds/index.js';
import type { Millis } from './time.js';

/** Where a fact came from, precise enough for a human to open the file and find it. */
export interface SourceRef {
  /** Path as the user gave it; inside an archive `archive.tar.gz!inner/path`. */
  readonly file: string;
  /** 1-based line, when the format has lines worth pointing at (build-log, YAML documents). */
  readonly line?: number;
  /** JSON-path-like location inside the file, e.g. `items[3]` or `items[3].status.conditions[1]`. */
  readonly path?: string;
}

/** An object as last seen, with the file it was read from. */
export interface Observed<T> {
  readonly object: T;
  readonly ref: SourceRef;
}

/**
 * The last snapshot of every object, by kind (one field per entry of KINDS). Names are unique within a
 * kind (namespace/name for Events, Pods, PDBs).
 */
export type ObjectSnapshot = {
  [K in KnownKind as KindField<K>]: Observed<KindObject<K>>[];
};

export type IntervalLevel = 'Info' | 'Warning' | 'Error';

/**
 * What an interval is about. `type` follows origin's locator types (ClusterOperator, ClusterVersion,
 * Node, Pod, KubeEvent, Disruption, E2ETest, Alert, ...) plus atlevel's own MachineConfigPool and
 * MachineConfig; `keys` carries origin's keys (`clusteroperator`, `node`, `namespace`, ...).
 */
export interface Locator {
  readonly type: string;
  readonly keys: Readonly<Record<string, string>>;
}

export interface IntervalMessage {
  readonly reason: string;
  readonly humanMessage: string;
  /** origin's annotations: `condition`, `status`, `reason`, `config`, `roles`, `phase`, ... */
  readonly annotations: Readonly<Record<string, string>>;
}

/**
 * One thing that held from `from` to `to` (equal for an instant), as origin's monitor records them,
 * or as atlevel derives them from objects.
 */
export interface Interval {
  readonly from: Millis;
  readonly to: Millis;
  readonly level: IntervalLevel;
  readonly locator: Locator;
  readonly message: IntervalMessage;
  /**
   * Who produced it: `build-log`, `e2e-events`, `e2e-intervals`, `e2e-timelines`, `derived:<how>`, or
   * `atlevel watch` (`live-watch`, or `live-relist` for a change seen only through a relist).
   */
  readonly source: string;
  readonly ref: SourceRef;
}

/**
 * A line logged by origin's upgrade test (docs/domain.md 6), parsed: these are the test's own
 * observations of the CVO and the pools, with millisecond times.
 */
export type TestLogEntry =
  | {
      readonly kind: 'upgrade-started';
      readonly at: Millis;
      readonly target: string;
      readonly ref: SourceRef;
    }
  | {
      readonly kind: 'upgrade-completed';
      readonly at: Millis;
      readonly target: string;
      readonly ref: SourceRef;
    }
  | { readonly kind: 'waiting-on-pools'; readonly at: Millis; readonly ref: SourceRef }
  | {
      readonly kind: 'pool-status';
      readonly at: Millis;
      readonly pool: string;
      readonly updated: boolean;
      readonly updating: boolean;
      readonly degraded: boolean;
      readonly paused: boolean;
      readonly ref: SourceRef;
    }
  | {
      readonly kind: 'invariant-violation';
      readonly at: Millis;
      readonly text: string;
      readonly ref: SourceRef;
    }
  | { readonly kind: 'pools-completed'; readonly at: Millis; readonly ref: SourceRef }
  | {
      readonly kind: 'cluster-upgrade-condition';
      readonly at: Millis;
      readonly condition: string;
      readonly message: string;
      readonly ref: SourceRef;
    };

/** One component image of a release payload (a tag of its image-references ImageStream). */
export interface ReleaseComponent {
  readonly name: string;
  readonly pullSpec: string;
  /** `sha256:…` when the pull spec is by digest. */
  readonly digest?: string;
  readonly commit?: string;
  readonly sourceLocation?: string;
  /**
   * The tag's `from.kind` when it is not `DockerImage`: then `pullSpec` is not a pull spec but an
   * image stream reference (`ImageStreamImage` `stream@sha256:…`, `ImageStreamTag` `stream:tag`).
   */
  readonly fromKind?: string;
  /** Its `from.namespace`, when given. */
  readonly fromNamespace?: string;
}

/** A release payload's version and component images. */
export interface ReleasePayload {
  /** Absent when the file carries none (an operator's own image-references has no name). */
  readonly version?: string;
  /** The release image pull spec, when known. */
  readonly image?: string;
  readonly components: readonly ReleaseComponent[];
  readonly ref: SourceRef;
}

/** The releases updated from and to, as the sources assigned them. */
interface HistoryReleases {
  readonly from?: ReleasePayload;
  readonly to?: ReleasePayload;
  /**
   * A `--release-from`/`--release-to` file that was not used: the ClusterVersion names another version
   * for its slot and a release among the inputs has that version (src/sources/releases.ts).
   */
  readonly setAside?: { readonly from?: ReleasePayload; readonly to?: ReleasePayload };
}

/** A file that went into the history, for provenance and for the report's "inputs" list. */
export interface InputFile {
  readonly path: string;
  /** The layout/reader that understood it, e.g. `gather-extra`, `build-log`, `e2e-intervals`, `must-gather`. */
  readonly reader: string;
  readonly bytes: number;
  /** What it contributed, e.g. `12 objects`, `4031 intervals`. */
  readonly contributed: string;
}

export interface ClusterHistory {
  readonly objects: ObjectSnapshot;
  /** Sorted by `from`, then `to`. Monitor intervals and intervals derived from objects, merged. */
  readonly intervals: readonly Interval[];
  readonly testLog: readonly TestLogEntry[];
  readonly releases: HistoryReleases;
  readonly inputs: readonly InputFile[];
  /** Earliest and latest moment any input speaks of. */
  readonly span: { readonly from: Millis; readonly to: Millis } | undefined;
  /** Things a reader noticed but could live with (an unknown file skipped, a year guessed). */
  readonly notes: readonly string[];
  /** Firing alerts, when the inputs hold them (must-gather monitoring/alerts.json, oc's -alerts.json). */
  readonly alerts?: readonly unknown[];
  /** The machine-config-operator Deployment's operator image, when the inputs hold it (see HistoryParts). */
  readonly mcoImage?: McoImage;
  /** Every stored object revision, oldest first, when the inputs recorded them (a simulated run). */
  readonly revisions?: readonly ObjectRevision[];
  /**
   * Hosted clusters (HyperShift) whose own API server's objects the inputs hold (a hypershift dump's
   * `hostedcluster-NAME/`), each a history of its own: this history is the management cluster's
   * (HostedCluster, NodePool, Cluster API objects, the management Nodes), and a guest's objects are
   * never in it (docs/hosted.md).
   */
  readonly guests?: readonly GuestHistory[];
}

/** A hosted cluster's own history, by the HostedCluster's name. */
interface GuestHistory {
  readonly name: string;
  readonly history: ClusterHistory;
}

/**
 * The image the machine-config-operator Deployment runs (its `machine-config-operator` container), as
 * oc examples' `CASE-mco-deployment.yaml` holds it. oc compares it with the machine-config
 * ClusterOperator's `operator-image` version to tell whether the MCO has rolled out a payload that
 * keeps the version string (a migration to the multi-architecture payload).
 */
export interface McoImage {
  readonly image: string;
  /** The file it was read from. */
  readonly source: string;
}

/** One revision of one object as the API server stored it (`atlevel-revisions.jsonl`, docs/simulate.md). */
export interface ObjectRevision {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly at: Millis;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  /** The whole object at this revision. */
  readonly object: Record<string, unknown>;
}

export function emptySnapshot(): ObjectSnapshot {
  const out: Record<string, Observed<unknown>[]> = {};
  for (const k of KNOWN_KINDS) out[KINDS[k].field] = [];
  return out as ObjectSnapshot;
}

/**
 * The raw material of a ClusterHistory, before intervals are derived from objects and everything is
 * merged and sorted: what sources/ produce from files (and the simulator and a live cluster produce
 * directly), and what timeline's buildHistory turns into a ClusterHistory.
 */
export interface HistoryParts {
  objects: ObjectSnapshot;
  /**
   * Intervals as recorded by origin's monitor (build-log lines, e2e-events/intervals/timelines JSON),
   * each event once: an interval file's copy of a build-log line (its echo) is already dropped.
   */
  monitorIntervals: Interval[];
  testLog: TestLogEntry[];
  releases: HistoryReleases;
  inputs: InputFile[];
  notes: string[];
  /**
   * Prometheus alerts captured with a snapshot (oc examples `CASE-alerts.json`, must-gather
   * `monitoring/alerts.json`, `oc adm inspect-alerts` output), flattened to the alert objects
   * (`{labels, annotations, state, activeAt, ...}`); src/status/alerts.ts interprets them.
   */
  alerts?: unknown[];
  /** The machine-config-operator Deployment's image (oc examples `CASE-mco-deployment.yaml`). */
  mcoImage?: McoImage;
  /** Every stored object revision, oldest first, when the inputs recorded them (a simulated run). */
  revisions?: ObjectRevision[];
  /** When echoes were dropped: the time they spanned, which still counts toward the history's span. */
  echoSpan?: { readonly from: Millis; readonly to: Millis };
  /** Hosted clusters' own objects, each a cluster of its own (see ClusterHistory.guests). */
  guests?: GuestParts[];
}

/** One hosted cluster's parts, as a hypershift dump's `hostedcluster-NAME/` holds them. */
export interface GuestParts {
  readonly name: string;
  readonly parts: HistoryParts;
}
