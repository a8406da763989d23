import type { ClusterHistory, ClusterVersion, SourceRef } from '../model/index.js';
import { type Millis, parseTime } from '../model/index.js';
import { intervalsOf, remembered } from './query.js';

/** One moment the update's completion was recorded, by one witness. */
interface CompletionWitness {
  readonly at: Millis;
  /** `history` (ClusterVersion status.history), `monitor` (`cluster reached`), `test` (`Completed upgrade to`). */
  readonly by: 'history' | 'monitor' | 'test';
  readonly text: string;
  readonly ref: SourceRef;
}

/** One update of the cluster (an entry of ClusterVersion history after the install, or what the logs show). */
export interface UpdateRecord {
  readonly target: string;
  readonly image?: string;
  readonly previous?: string;
  /** The payload updated from: with `image`, what tells an update that keeps its version string apart. */
  readonly previousImage?: string;
  /**
   * The update moved the cluster to the multi-architecture payload of the same version (`oc adm
   * upgrade --to-multi-arch`): its level is the payload, never the version string (multiArchEntry).
   */
  readonly toMultiArch?: true;
  readonly startedAt?: Millis;
  /** The CVO's completion: the most precise witness of the CVO itself (monitor or history). */
  readonly completedAt?: Millis;
  readonly witnesses: readonly CompletionWitness[];
  readonly state: 'Completed' | 'Partial' | 'Unknown';
  readonly ref?: SourceRef;
}

const REACHED_RE = /cluster reached (\S+)/;

/**
 * The updates a history shows, oldest first. ClusterVersion history is the backbone; monitor lines and
 * the upgrade test's log add precise completion times, and stand in when there is no ClusterVersion.
 */
export function findUpdates(history: ClusterHistory): readonly UpdateRecord[] {
  return remembered(history, 'updates', () => updatesOf(history));
}

function updatesOf(history: ClusterHistory): UpdateRecord[] {
  const cv = history.objects.clusterVersions[0];
  const reached: CompletionWitness[] = [];
  const cvKey = `ClusterVersion/${cv?.object.metadata.name ?? 'version'}`;
  for (const i of intervalsOf(history, cvKey)) {
    const m = REACHED_RE.exec(i.message.humanMessage);
    if (m?.[1]) reached.push({ at: i.from, by: 'monitor', text: i.message.humanMessage, ref: i.ref });
  }
  const tested: (CompletionWitness & { target: string })[] = [];
  for (const e of history.testLog) {
    if (e.kind === 'upgrade-completed') {
      tested.push({
        at: e.at,
        by: 'test',
        text: `Completed upgrade to ${e.target}`,
        ref: e.ref,
        target: e.target,
      });
    }
  }

  const entries = [...(cv?.object.status?.history ?? [])].reverse(); // oldest first
  const migration = cv ? multiArchEntry(cv.object, entries) : undefined;
  const updates: UpdateRecord[] = [];
  entries.forEach((h, index) => {
    if (index === 0) return; // the install, not an update
    const target = h.version || h.image || '';
    const prev = entries[index - 1];
    const startedAt = parseTime(h.startedTime);
    const completion = h.state === 'Completed' ? parseTime(h.completionTime) : undefined;
    const base: SourceRef = cv?.ref ?? { file: '?' };
    const field = `status.history[${entries.length - 1 - index}]`;
    const ref: SourceRef = { ...base, path: base.path ? `${base.path}.${field}` : field };
    const witnesses: CompletionWitness[] = [];
    if (completion !== undefined) {
      witnesses.push({ at: completion, by: 'history', text: `history entry ${target} Completed`, ref });
    }
    for (const r of reached) if (REACHED_RE.exec(r.text)?.[1] === target) witnesses.push(r);
    for (const t of tested) if (matchesTarget(t.target, target, h.image)) witnesses.push(t);
    updates.push({
      target,
      ...(h.image ? { image: h.image } : {}),
      ...(prev ? { previous: prev.version || prev.image || '' } : {}),
      ...(prev?.image ? { previousImage: prev.image } : {}),
      ...(index === migration ? { toMultiArch: true as const } : {}),
      ...(startedAt !== undefined ? { startedAt } : {}),
      ...cvoCompletion(witnesses),
      witnesses,
      state: h.state === 'Completed' ? 'Completed' : 'Partial',
      ref,
    });
  });

  if (updates.length === 0 && (reached.length > 0 || tested.length > 0)) {
    // No ClusterVersion object: rebuild the update from what the logs saw.
    const byTarget = new Map<string, CompletionWitness[]>();
    for (const r of reached) {
      const t = REACHED_RE.exec(r.text)?.[1] ?? '';
      byTarget.set(t, [...(byTarget.get(t) ?? []), r]);
    }
    // The test names its target by pull spec, the monitor by version: one update seen by both. When
    // the monitor saw exactly one version reached, the test's completion is of that update too; the
    // test's pull spec is then the update's image.
    const images = new Map<string, string>();
    const reachedTargets = [...byTarget.keys()];
    for (const t of tested) {
      const key =
        reachedTargets.find((k) => matchesTarget(t.target, k, undefined)) ??
        (reachedTargets.length === 1 ? reachedTargets[0] : undefined) ??
        t.target;
      if (key !== t.target && t.target.includes('@sha256:')) images.set(key, t.target);
      byTarget.set(key, [...(byTarget.get(key) ?? []), t]);
    }
    for (const [target, witnesses] of byTarget) {
      const started = history.testLog.find((e) => e.kind === 'upgrade-started');
      const image = images.get(target);
      updates.push({
        target,
        ...(image ? { image } : {}),
        ...(started ? { startedAt: started.at } : {}),
        ...cvoCompletion(witnesses),
        witnesses,
        state: 'Completed',
      });
    }
  }
  return updates;
}

type HistoryEntry = NonNullable<NonNullable<ClusterVersion['status']>['history']>[number];

/**
 * The index (oldest first) of the history entry that moved the cluster to the multi-architecture
 * payload, when the inputs say so. `oc adm upgrade --to-multi-arch` asks for the same version with
 * `spec.desiredUpdate.architecture: Multi`; the CVO then loads the multi payload (its ReleaseAccepted
 * message ends `architecture="Multi"`, and `status.desired.architecture` says `Multi`), and adds a
 * history entry with the same version and the manifest list's pull spec. The move is one way (a multi
 * cluster takes only multi payloads), so on a cluster that says Multi the one entry that keeps its
 * predecessor's version with another image is the migration. Two such entries (a rebuild besides) or
 * none: no entry is named, and an update that keeps its version is "to another payload".
 */
function multiArchEntry(cv: ClusterVersion, entries: readonly HistoryEntry[]): number | undefined {
  const asked = (cv.spec?.desiredUpdate as { architecture?: unknown } | null | undefined)?.architecture;
  const desired = (cv.status?.desired as { architecture?: unknown } | undefined)?.architecture;
  const accepted = cv.status?.conditions?.find((c) => c.type === 'ReleaseAccepted')?.message ?? '';
  if (asked !== 'Multi' && desired !== 'Multi' && !accepted.includes('architecture="Multi"'))
    return undefined;
  const same: number[] = [];
  entries.forEach((h, index) => {
    const prev = entries[index - 1];
    if (index === 0 || !prev || !h.version || h.version !== prev.version) return;
    if (h.image && prev.image && h.image !== prev.image) same.push(index);
  });
  return same.length === 1 ? same[0] : undefined;
}

/**
 * The CVO completed when its own record says so. The monitor line carries milliseconds, history only
 * seconds; the test's line comes later (it polls), so it is used only when nothing else exists.
 */
function cvoCompletion(witnesses: readonly CompletionWitness[]): { completedAt?: Millis } {
  const own = witnesses.filter((w) => w.by !== 'test');
  const pick = own.find((w) => w.by === 'monitor') ?? own[0] ?? witnesses.find((w) => w.by === 'test');
  return pick ? { completedAt: pick.at } : {};
}

/** The test names its target by pull spec or by version; history entries carry both. */
function matchesTarget(testTarget: string, version: string, image: string | undefined): boolean {
  if (testTarget === version || (image !== undefined && testTarget === image)) return true;
  return testTarget.includes(version) || (image !== undefined && testTarget.includes(image));
}
