/**
 * serve/ turns a ClusterHistory back into a read-only Kubernetes API: discovery, get, list and watch
 * with selectors, paging and Table output, pod logs, at any moment of the history (`at`) or with the
 * update replayed as watch events (`replay`). It is also the fake cluster that live mode's tests
 * run against: startServer gives a URL, and `faults` drops watches, expires resourceVersions and
 * restarts the listener. See docs/serve.md.
 */
import { type ClusterHistory, KNOWN_KINDS, type Millis } from '../model/index.js';
import type { LogFiles } from '../sources/index.js';
import { pinLogs } from './logs.js';
import { extraAt, type KindObject, kubeTime, lastSeen, objectsAt, REWOUND_TO } from './moment.js';
import { planReplay, Replayer, type ReplayPlan, type ReplayProgress } from './replay.js';
import { knownResourceType, type ResourceType, resourceTypeFor } from './resources.js';
import { redactSecret } from './secrets.js';
import { ApiServer, type Limits } from './server.js';
import { type KubeObject, ServedStore } from './store.js';

export { kubeconfigFor } from './kubeconfig.js';
export { REPLAYED_AT } from './moment.js';

export interface StartOptions {
  readonly history: ClusterHistory;
  /** Objects of kinds the history does not model (a must-gather's other resources). */
  readonly extra?: readonly KindObject[];
  /** Pod logs, `namespace/pod/container` → files. */
  readonly logs?: ReadonlyMap<string, LogFiles>;
  /** Serve the state at this moment. */
  readonly at?: Millis;
  /** Serve the state at the update's start, then play the timeline as watch events. */
  readonly replay?: boolean;
  /** Replay speed (recorded seconds per wall second). Default 1. */
  readonly speed?: number;
  /** Replay a given range instead of the update's. */
  readonly range?: { readonly from?: Millis; readonly to?: Millis };
  /** With replay: wait for `replay.start()` instead of starting at once (tests). */
  readonly holdReplay?: boolean;
  readonly port?: number;
  readonly bind?: string;
  readonly limits?: Partial<Limits>;
  /** Change log capacity (older resourceVersions get 410 Gone). */
  readonly logCapacity?: number;
  /** Serve Secrets with their values (by default they are emptied, secrets.ts). */
  readonly serveSecrets?: boolean;
}

interface ReplayHandle {
  readonly plan: ReplayPlan;
  start(): void;
  readonly done: Promise<void>;
  progress(): ReplayProgress;
}

/** Fault injection for clients' tests (live mode): what a real API server does to its clients. */
interface Faults {
  /** Cut every open watch connection; returns how many. */
  dropWatches(): number;
  /** Compact the change log: a watch from any earlier resourceVersion gets 410 Gone. */
  expireResourceVersions(): void;
  /** Close every connection and listen again on the same port, with the same state. */
  restart(): Promise<void>;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly store: ServedStore;
  readonly replay?: ReplayHandle;
  readonly faults: Faults;
  /** Open watch connections. */
  watchCount(): number;
  close(): Promise<void>;
}

const NAMESPACE_TYPE = resourceTypeFor('v1', 'Namespace', false);

function typeOf(item: KindObject): ResourceType {
  return resourceTypeFor(item.apiVersion, item.kind, typeof item.object.metadata.namespace === 'string');
}

/** The Kubernetes version a client sees: the kubelet version of the nodes, when the input has nodes. */
function versionOf(history: ClusterHistory): Record<string, string> {
  const kubelet = history.objects.nodes[0]?.object.status?.nodeInfo?.kubeletVersion;
  const m = /^v?(\d+)\.(\d+)/.exec(kubelet ?? '');
  return {
    major: m?.[1] ?? '1',
    minor: m?.[2] ?? '0',
    gitVersion: kubelet ?? 'v1.0.0-atlevel-serve',
    gitCommit: '',
    gitTreeState: '',
    buildDate: '',
    goVersion: '',
    compiler: 'atlevel',
    platform: 'recording',
  };
}

/** Namespaces the objects live in, for `kubectl get ns`, when the input holds no Namespace objects. */
function namespacesFor(items: readonly KindObject[]): KindObject[] {
  if (items.some((i) => i.kind === 'Namespace')) return [];
  const names = new Set<string>();
  for (const i of items)
    if (typeof i.object.metadata.namespace === 'string') names.add(i.object.metadata.namespace);
  return [...names].sort().map((name) => ({
    kind: 'Namespace',
    apiVersion: 'v1',
    object: {
      metadata: { name, annotations: { 'atlevel.io/synthesized': 'a namespace the input objects live in' } },
      status: { phase: 'Active' },
    },
  }));
}

function lagPercentiles(lags: readonly number[]): Record<string, number> | undefined {
  if (lags.length === 0) return undefined;
  const sorted = [...lags].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
  return { p50: at(50), p90: at(90), p99: at(99), max: sorted[sorted.length - 1] ?? 0 };
}

function toKube(item: KindObject): KubeObject {
  return item.object as KubeObject;
}

export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const store = new ServedStore(opts.logCapacity);
  const extra = opts.serveSecrets ? (opts.extra ?? []) : (opts.extra ?? []).map(redactSecret);
  let replayer: Replayer | undefined;
  let initial: KindObject[];
  let now: () => Millis;
  if (opts.replay) {
    const plan = planReplay(opts.history, extra, opts.range ?? {});
    initial = [...plan.initial];
    replayer = new Replayer(plan, opts.speed ?? 1, (r) =>
      store.apply(typeOf(r.item), r.type, toKube(r.item), r.at),
    );
    const r = replayer;
    now = () => r.now();
    // Types that only appear later are announced from the start, so clients can watch them.
    for (const rev of plan.revisions) store.declare(typeOf(rev.item));
  } else if (opts.at !== undefined) {
    const at = opts.at;
    initial = [...objectsAt(opts.history, at), ...extraAt(extra, at)].map((i) => ({
      ...i,
      object: {
        ...i.object,
        metadata: {
          ...i.object.metadata,
          annotations: {
            ...((i.object.metadata.annotations as object | undefined) ?? {}),
            [REWOUND_TO]: kubeTime(at),
          },
        },
      },
    }));
    now = () => at;
  } else {
    initial = [...lastSeen(opts.history), ...extra];
    const end = opts.history.span?.to ?? Date.now();
    now = () => end;
  }
  initial.push(...namespacesFor([...initial, ...(replayer?.plan.revisions.map((r) => r.item) ?? [])]));
  store.declare(NAMESPACE_TYPE);
  // A real API server serves its kinds whether or not any object exists: `kubectl get co` on a
  // must-gather without ClusterOperators says "No resources found", not "no resource type co".
  for (const kind of KNOWN_KINDS) store.declare(knownResourceType(kind));
  for (const item of initial) store.load(typeOf(item), toKube(item));

  const httpOptions = {
    store,
    // Pinned now: a log file swapped for something else after this is refused (logs.ts).
    logs: await pinLogs(opts.logs ?? new Map()),
    secretsRedacted: opts.serveSecrets !== true,
    now,
    version: versionOf(opts.history),
    ...(opts.limits ? { limits: opts.limits } : {}),
    extra: (path: string) => {
      if (path === 'replay') {
        if (!replayer) return { replay: false };
        // The lags of every change as percentiles (the bench reads them), not the whole list.
        const { lagsMs, ...progress } = replayer.progress();
        return { ...progress, lag: lagPercentiles(lagsMs) };
      }
      if (path === 'moment') return { now: new Date(now()).toISOString() };
      return undefined;
    },
  };
  const host = opts.bind ?? '127.0.0.1';
  const api = new ApiServer({ ...httpOptions, bind: host });
  const address = await api.listen(opts.port ?? 0, host);
  const port = address.port;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let current = api;
  if (replayer && !opts.holdReplay) replayer.start();
  const r = replayer;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    store,
    ...(r
      ? { replay: { plan: r.plan, start: () => r.start(), done: r.done, progress: () => r.progress() } }
      : {}),
    faults: {
      dropWatches: () => current.watches.dropAll(),
      expireResourceVersions: () => store.compact(),
      restart: async () => {
        await current.close();
        const next = new ApiServer({ ...httpOptions, bind: host });
        await next.listen(port, host);
        current = next;
      },
    },
    watchCount: () => current.watchCount,
    close: async () => {
      replayer?.stop();
      await current.close();
    },
  };
}
