/**
 * A ClusterOperator at the moment: its versions from their recorded changes, its conditions, and its
 * relatedObjects and extension from a recorded revision (else as last seen, or left out, and said).
 */
import type { ClusterHistory, ClusterOperator, Observed } from '../../model/index.js';
import { type Millis, parseTime } from '../../model/index.js';
import { versionChanges } from '../query.js';
import type { RewindContext } from './context.js';
import type { KindRewinder } from './kind.js';

const RELATED_OBJECTS = 'status.relatedObjects';

type ObjectReferences = NonNullable<NonNullable<ClusterOperator['status']>['relatedObjects']>;

/** A recorded `status.relatedObjects` as the ClusterOperator schema reads one: revisions are not validated. */
function isObjectReferences(v: unknown): v is ObjectReferences {
  return (
    Array.isArray(v) &&
    v.every((o: { resource?: unknown; name?: unknown } | null) => {
      return (
        typeof o === 'object' && o !== null && typeof o.resource === 'string' && typeof o.name === 'string'
      );
    })
  );
}

/** Versions of updates that had not completed by `at` (begun or not): operators reach them later. */
function unfinishedTargets(history: ClusterHistory, at: Millis): Set<string> {
  const out = new Set<string>();
  const entries = history.objects.clusterVersions[0]?.object.status?.history ?? [];
  entries.forEach((h, index) => {
    if (index === entries.length - 1 || !h.version) return; // the install
    const completed = parseTime(h.completionTime);
    if (completed === undefined || completed > at) out.add(h.version);
  });
  return out;
}

class OperatorRewinder {
  readonly #unfinishedTargets: Set<string>;
  /** The ClusterOperators rewound, and those whose relatedObjects are the snapshot's (finish() names them). */
  #operators = 0;
  readonly #relatedAsLastSeen: string[] = [];

  constructor(readonly r: RewindContext) {
    this.#unfinishedTargets = unfinishedTargets(r.history, r.at);
  }

  rewind(seen: Observed<ClusterOperator>): Observed<ClusterOperator> {
    const co = seen.object;
    const name = co.metadata.name;
    const key = `ClusterOperator/${name}`;
    const changes = versionChanges(this.r.history, name);
    const recorded = (v: { name: string }) => changes.some((c) => c.name === v.name);
    // The operator reports its operands' versions with its own: when its own cannot be placed, an
    // operand version with no record of its own (kube-apiserver's `1.23.0`, an image) cannot be either.
    const own = co.status?.versions?.find((v) => v.name === 'operator');
    const ownLost = own !== undefined && !recorded(own) && this.#unfinishedTargets.has(own.version);
    const versions = co.status?.versions?.flatMap((v) => {
      const mine = changes.filter((c) => c.name === v.name);
      const before = mine.filter((c) => c.at <= this.r.at).pop();
      if (before) return [{ ...v, version: before.to }];
      const after = mine.find((c) => c.at > this.r.at);
      if (after) return [{ ...v, version: after.from }];
      // A version that an update not finished by then brought cannot be placed without a record.
      if (this.#unfinishedTargets.has(v.version)) {
        this.r.note(
          key,
          `status.versions[${v.name}]`,
          `reported ${v.version} by the end, and when it did is not recorded: left out`,
        );
        return [];
      }
      if (ownLost) {
        this.r.note(
          key,
          `status.versions[${v.name}]`,
          "the operator's own version cannot be placed, so neither can this one it reports with it: left out",
        );
        return [];
      }
      return [v];
    });
    const conditions = this.r.conditions('ClusterOperator', co);
    this.#operators++;
    const { relatedObjects: _related, extension: _extension, ...status } = co.status ?? {};
    return {
      object: {
        ...co,
        status: {
          ...status,
          ...this.#operatorExtras(key, co.status),
          ...(versions ? { versions } : {}),
          ...(conditions ? { conditions } : {}),
        },
      },
      ref: seen.ref,
    };
  }

  /**
   * A ClusterOperator's `status.relatedObjects` and `status.extension` at the moment. No monitor line
   * or interval carries either, so before the end of the span they are known only from the object's
   * recorded revision (a simulated run records every one). Otherwise:
   * - relatedObjects (the namespaces and resources `oc adm inspect` and must-gather collect for the
   *   operator) changes only when the operator's manifests do: kept as last seen and listed, as the
   *   ClusterVersion's availableUpdates and a node's nodeInfo are. Left out, it would have a client
   *   of `serve --at` collect nothing for the operator, which is further from the moment than the
   *   snapshot's list.
   * - extension is the operator's free-form status (machine-config's: one line per pool naming the
   *   rendered config its nodes are at, and lastSyncError), rewritten without any condition changing,
   *   as a condition's message is. The snapshot's describes the end (on bug-2019850 at 03:25 it says
   *   all 3 masters are at the config they were still rolling out to), so it is left out and listed,
   *   as a heartbeat and a pool's configuration.source of a later config are. It is not replaced by
   *   words saying it is not known, as a message is: it is any JSON, and its readers look for keys.
   */
  #operatorExtras(
    key: string,
    last: ClusterOperator['status'],
  ): Pick<NonNullable<ClusterOperator['status']>, 'relatedObjects' | 'extension'> {
    const related = last?.relatedObjects;
    const extension = last?.extension;
    // The snapshot describes the moment itself: nothing to wind back.
    if (this.r.final)
      return {
        ...(related !== undefined ? { relatedObjects: related } : {}),
        ...(extension !== undefined ? { extension } : {}),
      };
    const then = this.r.revisionAt(key);
    const recorded = then ? ((then.status ?? {}) as Record<string, unknown>) : undefined;
    const out: Pick<NonNullable<ClusterOperator['status']>, 'relatedObjects' | 'extension'> = {};
    if (recorded) {
      if (recorded.extension !== undefined) out.extension = recorded.extension;
    } else if (extension === null) {
      // Most operators never set one: none by the end is taken as none then, and not listed (it would
      // be listed for nearly every operator), as an empty availableUpdates is not.
      out.extension = null;
    } else if (extension !== undefined) {
      this.r.note(
        key,
        'status.extension',
        'the operator rewrites it without a condition changing, and the inputs do not record it: left out',
      );
    }
    const list = recorded?.relatedObjects;
    if (recorded && (list === undefined || list === null || isObjectReferences(list))) {
      if (list !== undefined) out.relatedObjects = list;
    } else if (related !== undefined) {
      out.relatedObjects = related;
      if (related !== null) this.#relatedAsLastSeen.push(key);
    }
    return out;
  }

  finish(): void {
    // Every operator lists related objects, so this is usually said once for the kind.
    const related = this.#relatedAsLastSeen;
    const why =
      "the inputs do not record its changes (an operator's later release may list others): as last seen";
    if (related.length > 0 && related.length === this.#operators)
      this.r.note('ClusterOperator', RELATED_OBJECTS, why);
    else for (const o of related) this.r.note(o, RELATED_OBJECTS, why);
  }
}

export const clusterOperatorRewinder: KindRewinder<'ClusterOperator'> = {
  create: (r) => {
    const co = new OperatorRewinder(r);
    return { rewind: (list) => list.filter(r.existed).map((o) => co.rewind(o)), finish: () => co.finish() };
  },
};
