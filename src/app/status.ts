/**
 * The `status` use case: the state of an update at one moment, as `oc adm upgrade status` shows it,
 * for a standalone cluster or a hosted one (docs/hosted.md), from files or a live cluster, now or
 * rewound to a moment of the timeline. The conclusion is a failure when an Error or Critical insight
 * is raised.
 */
import { type ClusterHistory, InputError, type Millis, STDIN_NAME } from '../model/index.js';
import { STDIN } from '../sources/index.js';
import {
  assessHostedStatus,
  assessHostedStatusAt,
  assessStatus,
  assessStatusAt,
  guestOperatorInsights,
  type HostedObjects,
  type HostedStatus,
  hostedSnapshotNow,
  isSerious,
  pickHostedCluster,
  statusPrerequisites,
  type UpdateStatus,
} from '../status/index.js';
import { buildHistory, OutsideSpanError } from '../timeline/index.js';
import type { Conclusion } from './conclusion.js';
import { type LiveTarget, type ReadOptions, readLiveHistory, readParts } from './read.js';

export interface StatusRequest {
  /** Must-gathers, CI run folders, folders of oc get output, tarballs, `DIR/CASE` of oc examples, URLs; none with `live`. */
  readonly inputs: readonly string[];
  /** Read this live cluster instead of files. */
  readonly live?: LiveTarget;
  /** Rebuild the cluster as the timeline says it was at this moment; the snapshot's latest change when absent. */
  readonly at?: Millis;
  /** The HostedCluster (`namespace/name`) to show when the inputs hold several. */
  readonly hostedCluster?: string;
  /** A hosted cluster's own API server, read beside `live` (the management cluster). */
  readonly guest?: LiveTarget;
}

export type StatusOutcome =
  | { readonly kind: 'standalone'; readonly status: UpdateStatus; readonly conclusion: Conclusion }
  | { readonly kind: 'hosted'; readonly status: HostedStatus; readonly conclusion: Conclusion };

export async function status(request: StatusRequest, read: ReadOptions = {}): Promise<StatusOutcome> {
  const history = request.live
    ? await readLiveHistory(request.live, {}, read)
    : buildHistory(await readParts(request.inputs, read));
  const source = request.inputs.length > 0 ? inputNames(request.inputs) : liveSource(history);
  const at = request.at;
  if (history.objects.hostedClusters.length > 0 || request.hostedCluster !== undefined) {
    const hosted = await hostedStatus(history, request, source, read);
    return { kind: 'hosted', status: hosted, conclusion: concluded(hosted) };
  }
  const missing = statusPrerequisites(history, at !== undefined ? { now: at } : {});
  const { nodePools, hostedControlPlanes } = history.objects;
  if (missing !== undefined && (nodePools.length > 0 || hostedControlPlanes.length > 0)) {
    // A hosted cluster's management side without its HostedCluster (a partial dump): say what is
    // missing for a hosted status, not for a standalone one.
    throw new InputError(
      source,
      `${nodePools.length > 0 ? 'NodePools' : 'a HostedControlPlane'} and no HostedCluster: a hosted cluster's status starts from its HostedCluster`,
      "give its HostedCluster too: a hypershift dump's namespaces/NS/hypershift.openshift.io/hostedclusters/NAME.yaml, or oc get hostedclusters -A -o yaml",
    );
  }
  if (missing !== undefined) {
    throw new InputError(
      source,
      missing,
      'give a cluster snapshot with a ClusterVersion and ClusterOperators',
    );
  }
  const standalone =
    at === undefined ? assessStatus(history, {}) : rewound(() => assessStatusAt(history, at), source);
  return { kind: 'standalone', status: standalone, conclusion: concluded(standalone) };
}

function concluded(s: { readonly insights: UpdateStatus['insights'] }): Conclusion {
  return s.insights.some(isSerious) ? 'failure' : 'ok';
}

/** An assessment at a moment outside what the inputs recorded is an input error naming that span. */
function rewound<T>(assess: () => T, source: string): T {
  try {
    return assess();
  } catch (err) {
    if (err instanceof OutsideSpanError) {
      throw new InputError(source, err.message, 'give a --at time inside that span');
    }
    throw err;
  }
}

/**
 * A hosted cluster (docs/hosted.md): the inputs hold HostedClusters. The management side is
 * `history`; the guest is read from the request's guest API server, or else from the dump's guest folder.
 */
async function hostedStatus(
  history: ClusterHistory,
  request: StatusRequest,
  source: string,
  read: ReadOptions,
): Promise<HostedStatus> {
  const pick = (objects: HostedObjects) => {
    const picked = pickHostedCluster(objects, request.hostedCluster);
    if (typeof picked === 'string') {
      throw new InputError(source, picked, 'name one with --hosted-cluster NAMESPACE/NAME');
    }
    return picked;
  };
  // The guest: its own API server, or the dump's hostedcluster-NAME/ folder.
  const name = pick(history.objects).object.metadata.name;
  const guest = request.guest
    ? await readLiveHistory(request.guest, {}, read)
    : history.guests?.find((g) => g.name === name)?.history;
  const guestStatus = (g: ClusterHistory, now?: Millis) => ({ insights: guestOperatorInsights(g, now) });
  const at = request.at;
  if (at === undefined) {
    // The guest assessed at the management snapshot's moment: one moment for the whole document.
    const g = guest ? guestStatus(guest, hostedSnapshotNow(history.objects)) : undefined;
    return assessHostedStatus(history.objects, pick(history.objects), {
      ...(guest ? { guest } : {}),
      ...(g ? { guestInsights: g.insights } : {}),
    });
  }
  return rewound(
    () =>
      assessHostedStatusAt(
        { management: history, pick, ...(guest ? { guest } : {}), guestStatus: (g) => guestStatus(g, at) },
        at,
      ),
    source,
  );
}

/** The cluster a live history was read from (its API server), to name in a message. */
function liveSource(history: ClusterHistory): string {
  const read = history.inputs.find((i) => i.reader === 'live')?.path;
  if (read === undefined) return 'the live cluster';
  try {
    return `the live cluster at ${new URL(read).origin}`;
  } catch {
    return 'the live cluster';
  }
}

/** The inputs, as the other messages name them: `-` is `(stdin)`, as sources/ says it. */
function inputNames(paths: readonly string[]): string {
  return paths.map((p) => (p === STDIN ? STDIN_NAME : p)).join(' ');
}
