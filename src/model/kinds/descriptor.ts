/**
 * What a kind's descriptor holds (one file per kind in this folder, one line in index.ts): everything
 * atlevel keeps about one Kubernetes kind. Every per-kind table elsewhere is derived from these, or
 * is `satisfies Record<…>` over the kinds it needs, so a kind left out is a compile error.
 */
import type * as z from 'zod';
import type { Millis } from '../time.js';
import { once } from './common.js';
import type { PrinterColumn } from './printing.js';

/** Group, version, plural, scope, short names and categories, as the API server's discovery says them. */
export interface ApiFacts {
  /** '' for the core group. */
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly namespaced: boolean;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
}

/**
 * How the kind's objects change over time, so how a past moment (`status --at`, `serve --at`, a
 * replay) rebuilds them from the last snapshot:
 * - `rewinder`: field by field, by a rewinder of its own (timeline/rewind/<kind>.ts);
 * - `conditions`: its conditions from their recorded transitions (and lastTransitionTime), as every
 *   rewinder does; the `lastSeen` fields are kept as last seen and said so;
 * - `appearing`: it only appears (at `appearsAt`, by default its creationTimestamp) and is not changed
 *   after; `untimed` is said of one that carries no time; `notRewound` are the fields serve marks as
 *   last seen;
 * - `last-seen`: the inputs do not record its changes: every object as last seen, said with `why`.
 */
type Changes<T> =
  | { readonly by: 'rewinder' }
  | { readonly by: 'conditions'; readonly lastSeen: readonly string[] }
  | {
      readonly by: 'appearing';
      readonly appearsAt?: (o: T) => Millis | undefined;
      readonly untimed?: string;
      readonly notRewound: readonly string[];
    }
  | {
      readonly by: 'last-seen';
      readonly why: (count: number) => string;
      readonly notRewound: readonly string[];
    };

/**
 * How a live source lists and watches the kind: cluster-wide (`cluster` for a cluster-scoped kind,
 * `all` for every namespace) or in given namespaces (`namespaces`; with none given, those a
 * PodDisruptionBudget protects, see live/snapshot.ts). `after`: kinds listed before it.
 */
interface LiveFacts {
  readonly scope: 'cluster' | 'namespaces' | 'all';
  readonly namespaces?: readonly string[];
  readonly after?: readonly string[];
  /**
   * Only some clusters hold the kind (a HyperShift management cluster): a refusal to list it
   * (401/403) is noted with these words and the kind left out, not an error, so a role granting only
   * the other kinds still reads an ordinary cluster.
   */
  readonly optional?: string;
}

/**
 * How the kind shows on the timeline: its conditions as intervals from their lastTransitionTime, and
 * `rollout`, a one-line summary of its rollout as last seen (an instant at the end of the span).
 */
interface TimelineFacts<T> {
  readonly conditions?: boolean;
  /** The level of a condition's interval where the kind reads it otherwise than origin's rules do. */
  readonly conditionLevel?: (type: string, status: string) => 'Info' | 'Warning' | 'Error' | undefined;
  readonly rollout?: (
    o: T,
  ) => { readonly level: 'Info' | 'Warning' | 'Error'; readonly message: string } | undefined;
}

export interface KindFacts<S extends z.ZodType = z.ZodType, F extends string = string> {
  /** The kind's schema, built on the first read (kind()). */
  readonly schema: S;
  /** Where the kind's objects sit in an ObjectSnapshot. */
  readonly field: F;
  /** The kind in words, plural, as reports name a group of its objects (`Cluster operators`). */
  readonly label: string;
  readonly api: ApiFacts;
  /** kubectl's columns for `kubectl get` (NAME and AGE when absent). */
  readonly columns?: readonly PrinterColumn[];
  /** The file CI's gather-extra step writes with `oc get <resource> -o json` (docs/domain.md 7.4). */
  readonly gatherExtra?: string;
  /**
   * The resource name of its must-gather files: `<resource>.yaml` or a `<resource>/` folder, under
   * cluster-scoped-resources/<group>/ or namespaces/<ns>/<group>/ (`oc adm inspect`'s layout).
   */
  readonly mustGather?: string;
  /** The suffix of its file in an oc examples case (`CASE-<suffix>.yaml`), when oc's examples hold one. */
  readonly ocExample?: string;
  /** Brings the kind's variants to the one shape analyses read. */
  readonly normalize?: (object: z.infer<S>) => z.infer<S>;
  /** Members (dotted paths) a streamed List keeps as bytes when large, parsed only when read. */
  readonly deferred?: readonly string[];
  readonly changes: Changes<z.infer<S>>;
  /** Absent: a live source does not read the kind (docs/live.md's ClusterRole does not grant it). */
  readonly live?: LiveFacts;
  readonly timeline?: TimelineFacts<z.infer<S>>;
}

/**
 * A kind's descriptor from its facts, the schema given as the function that builds it: the schema is
 * built on the first read of `schema` and kept. A command builds only the schemas of the kinds it
 * reads (`atlevel diff` validates MachineConfigs alone); building all of them at import was a third
 * of diff's start-up (docs/performance.md, "diff's start-up"). Also ties the functions of a
 * descriptor to its schema's type while keeping the literal field name.
 */
export function kind<S extends z.ZodType, F extends string>(
  facts: Omit<KindFacts<S, F>, 'schema'> & { readonly schema: () => S },
): KindFacts<S, F> {
  const { schema: build, ...rest } = facts;
  return Object.defineProperty(rest, 'schema', { get: once(build), enumerable: true }) as KindFacts<S, F>;
}
