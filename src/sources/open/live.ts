/**
 * A live cluster (`--kubeconfig FILE`, `--context NAME`, `--live`): an argument like a path, claimed
 * by this opener in the same registry, and read through what the caller's context gives for it (the
 * network client lives in src/live: it lists and watches, never writes). docs/live.md.
 */
import type { Opener } from './types.js';

/** The live cluster an argument names: the kubeconfig and context kubectl would use. */
export interface LiveCluster {
  readonly live: { readonly kubeconfig?: string; readonly context?: string };
}

/** One resource a live source reads: its kind and API path, and whether it lists it, watches it, or both. */
export interface LiveResourcePlan {
  readonly kind: string;
  readonly path: string;
  /** `cluster`, `all` namespaces, or only the `namespaces` named. */
  readonly scope: string;
  readonly namespaces?: readonly string[];
  readonly optional?: string;
}

/** What reading a live cluster does: where, and which kinds it lists (analyze, status) and watches (watch). */
export interface LivePlan {
  readonly server: string;
  readonly context: string;
  readonly lists: readonly LiveResourcePlan[];
  readonly watches: readonly LiveResourcePlan[];
  /** The only verbs sent: a live source never writes to a cluster. */
  readonly verbs: readonly ['get', 'list', 'watch'];
}

export const liveOpener: Opener<LiveCluster> = {
  name: 'live cluster',
  takes: 'live',
  claims: (arg) => typeof arg === 'object' && arg !== null && 'live' in arg,
  open: (arg, _found, context) => context.live(arg),
};
