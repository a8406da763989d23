import type { ClusterHistory, Evidence, Finding, KeyMoment, Millis, ReleasePayload } from '../model/index.js';
import { formatClock, gapAfter, parseTime } from '../model/index.js';
import { ComponentIndex } from '../release/index.js';
import {
  type ContainerImage,
  findUpdates,
  type ManagedWorkloads,
  operandOwnership,
  type RolloutStep,
  type UpdateRecord,
  updateLabel,
  type WorkloadData,
  type WorkloadRollout,
  workloadRollouts,
} from '../timeline/index.js';
import { atVersion, levelCoverage, operatorLevelFor } from './operator-level.js';
import { checked, defineRule, NEEDS, notApplicable, notChecked, noUpdateReason } from './rule.js';

/**
 * Every ClusterOperator must report its new `operator` version only once every workload it manages
 * has rolled out the new release's images (openshift/cluster-version-operator
 * https://github.com/openshift/cluster-version-operator/blob/master/docs/dev/clusteroperator.md: the version is the level of the components the operator applies;
 * docs/rules/operator-level-before-operands.md). A violation needs positive evidence that, at the
 * level moment, the rollout had not ended; where the inputs cannot place a rollout in time, the rule
 * is not checked.
 */
export const operatorLevelBeforeOperands = defineRule(
  'operator-level-before-operands',
  "Every ClusterOperator reports its new operator version only after each Deployment and DaemonSet it manages has rolled out the new release's images.",
  {
    severityPolicy:
      "failure: the inputs show a workload the operator manages still running, or not yet running, the new release's image of a changed component after the operator reported level",
    explain: 'operand-rollout',
  },
  (history: ClusterHistory, rule) => {
    const updates = findUpdates(history);
    if (updates.length === 0) return notApplicable(rule, noUpdateReason(history));
    const operators = history.objects.clusterOperators;
    const { workloads, data } = workloadRollouts(history);
    const owners = operandOwnership(operators, workloads);
    const findings: Finding[] = [];
    const missing = new Set<string>();
    const unplaced: string[] = [];
    let sawLevel = false;
    let completedWithoutLevel = false;
    const last = updates[updates.length - 1];
    const spanEnd = history.span?.to;
    const nodesCreated = nodeCreation(history);
    const reported = new Set<string>();
    for (const [index, update] of updates.entries()) {
      const next = updates[index + 1];
      const windowEnd = next?.startedAt ?? Number.POSITIVE_INFINITY;
      const levels = operators.flatMap((co) => {
        const name = co.object.metadata.name;
        const level = operatorLevelFor(history, name, update);
        if (!level && update === last && atVersion(history, name, update)) completedWithoutLevel = true;
        if (level) reported.add(name);
        return level ? [{ co, level }] : [];
      });
      if (levels.length === 0) continue;
      sawLevel = true;
      if (!data.deployments && !data.daemonSets) continue;
      const releases = releasesOf(history, update);
      if (!releases) {
        unplaced.push(`the update ${updateLabel(update)}: the inputs hold no release payloads for it`);
        missing.add(NEEDS.releases);
        continue;
      }
      const judge = new Judge(releases, update === last, windowEnd, spanEnd, nodesCreated, data);
      for (const { co, level } of levels) {
        const operator = co.object.metadata.name;
        const managed = owners.get(operator);
        if (!managed || managed.workloads.length === 0) continue;
        const t1 = level.at;
        const late: Late[] = [];
        const counts = { judged: 0, done: 0, foreign: 0, unchanged: 0, cvo: 0, idle: 0, removed: 0 };
        for (const w of managed.workloads) {
          const verdict = judge.workload(w, t1);
          switch (verdict.state) {
            case 'late':
              counts.judged += 1;
              late.push(verdict);
              break;
            case 'done':
              counts.judged += 1;
              counts.done += 1;
              break;
            case 'skip':
              counts[verdict.why] += 1;
              break;
            case 'unplaced':
              counts.judged += 1;
              unplaced.push(
                `${operator}'s ${w.kind} ${w.namespace}/${w.name} (in the update ${updateLabel(update)}): ${verdict.why}`,
              );
              for (const m of verdict.missing) missing.add(m);
              break;
          }
        }
        if (late.length === 0) continue;
        findings.push(finding(rule.id, operator, update, level, late, counts, managed, spanEnd));
      }
    }
    if (!sawLevel) {
      return completedWithoutLevel
        ? notChecked(rule, 'the inputs do not say when the operators reported the new version', [
            NEEDS.operatorVersions,
          ])
        : notApplicable(rule, 'no operator version report for an update in the inputs');
    }
    // Operators at the new version whose level report is undated were not checked: said, not skipped.
    const names = operators.map((co) => co.object.metadata.name);
    const coverage = levelCoverage(history, names, updates, reported);
    if (findings.length > 0) return checked(rule, findings, coverage);
    if (!data.deployments && !data.daemonSets)
      return notChecked(
        rule,
        "the inputs hold no Deployments or DaemonSets, so nothing says whether the operators' workloads had rolled out when they reported level",
        [NEEDS.deployments, NEEDS.daemonSets, NEEDS.pods, NEEDS.replicaSets, NEEDS.events],
      );
    if (!data.deployments) missing.add(NEEDS.deployments);
    if (!data.daemonSets) missing.add(NEEDS.daemonSets);
    if (unplaced.length > 0 || missing.size > 0) {
      const shown = unplaced.slice(0, 3).join('; ');
      const more = unplaced.length > 3 ? `; and ${unplaced.length - 3} more` : '';
      return notChecked(
        rule,
        unplaced.length > 0
          ? `the inputs cannot place ${unplaced.length} rollout${unplaced.length === 1 ? '' : 's'} in time: ${shown}${more}`
          : 'the inputs lack a kind of workload the operators manage',
        [...missing],
      );
    }
    return checked(rule, findings, coverage);
  },
);

/** The payloads an update went from and to, when the inputs hold both for this update. */
function releasesOf(
  history: ClusterHistory,
  update: UpdateRecord,
): { from: ReleasePayload; to: ReleasePayload } | undefined {
  const { from, to } = history.releases;
  if (!from || !to) return undefined;
  const isTarget = to.version === update.target || (update.image !== undefined && to.image === update.image);
  const isPrevious =
    update.previous === undefined ||
    from.version === update.previous ||
    (update.previousImage !== undefined && from.image === update.previousImage);
  return isTarget && isPrevious ? { from, to } : undefined;
}

function nodeCreation(history: ClusterHistory): Map<string, Millis> {
  const out = new Map<string, Millis>();
  for (const n of history.objects.nodes) {
    const t = parseTime(n.object.metadata.creationTimestamp);
    if (t !== undefined) out.set(n.object.metadata.name, t);
  }
  return out;
}

/**
 * How a set of images stands to an update: what the rule reads off a template, a revision or a pod.
 * `ambiguous`: an image both releases carry, but for a component whose digest the update changed as
 * well as for one it kept (one image can back several tags of a payload): whether the workload was left
 * behind on the changed one or runs the kept one, the digest cannot tell.
 */
type ImageClass = 'old' | 'new' | 'ambiguous' | 'same' | 'foreign';

interface Classified {
  readonly class: ImageClass;
  /** The changed components the images name, with their digests before and after. */
  readonly components: readonly ComponentChange[];
  /** Components of the old release that the new one does not carry (a workload left behind). */
  readonly removed: readonly string[];
  /** For an ambiguous image: the components of the old release it backs whose digest changed. */
  readonly ambiguous: readonly string[];
}

interface ComponentChange {
  readonly name: string;
  readonly from: string;
  readonly to: string;
}

/** A workload found not rolled out at the level moment, with the fact that shows it. */
interface Late {
  readonly state: 'late';
  readonly workload: WorkloadRollout;
  readonly witness: Evidence;
  readonly at: Millis;
  readonly components: readonly ComponentChange[];
  /** The counts at the level moment, in words. */
  readonly atLevel: string;
  /** When the rollout finished, or that it had not by the end of the inputs. */
  readonly finished: string;
  readonly finishedAt?: Millis;
}

type Verdict =
  | Late
  | { readonly state: 'done'; readonly at: Millis }
  | { readonly state: 'skip'; readonly why: 'foreign' | 'unchanged' | 'cvo' | 'idle' | 'removed' }
  | { readonly state: 'unplaced'; readonly why: string; readonly missing: readonly string[] };

/** Metadata and Events carry whole seconds: a stamp is before or after a moment only a whole second away. */
function floorSecond(t: Millis): Millis {
  return t - (((t % 1000) + 1000) % 1000);
}
function surelyAfter(stamp: Millis, t1: Millis): boolean {
  return stamp >= floorSecond(t1) + 1000;
}
function surelyBefore(stamp: Millis, t1: Millis): boolean {
  return stamp < floorSecond(t1);
}

/** Judges one workload against one update's level moment. */
class Judge {
  private readonly fromIndex: ComponentIndex;
  private readonly toIndex: ComponentIndex;

  constructor(
    releases: { from: ReleasePayload; to: ReleasePayload },
    private readonly latest: boolean,
    private readonly windowEnd: Millis,
    private readonly spanEnd: Millis | undefined,
    private readonly nodesCreated: ReadonlyMap<string, Millis>,
    private readonly data: WorkloadData,
  ) {
    this.fromIndex = new ComponentIndex([releases.from]);
    this.toIndex = new ComponentIndex([releases.to]);
  }

  classify(images: readonly ContainerImage[] | undefined): Classified | undefined {
    if (!images || images.length === 0) return undefined;
    let old = false;
    let fresh = false;
    let same = false;
    const components: ComponentChange[] = [];
    const removed: string[] = [];
    const ambiguous: string[] = [];
    for (const { image } of images) {
      const inTo = this.toIndex.lookup(image);
      const inFrom = this.fromIndex.lookup(image);
      if (inTo.length > 0 && inFrom.length > 0) {
        // The same image in both, but the old release had it for a component the new one moved to
        // another digest: the workload may be that component's, left behind.
        const kept = new Set(inTo.map((m) => m.component.name));
        const moved = inFrom.filter(
          (m) => !kept.has(m.component.name) && this.toIndex.imageFor(m.component.name).length > 0,
        );
        // The workload rolled one of them to the new release: this image is that component's old one.
        const left = moved.filter((m) => this.rolledTo.has(m.component.name));
        if (left.length > 0) {
          old = true;
          for (const m of left) {
            const after = this.toIndex.imageFor(m.component.name)[0]?.component.pullSpec;
            if (after !== undefined) components.push({ name: m.component.name, from: image, to: after });
          }
        } else if (moved.length > 0) ambiguous.push(...moved.map((m) => m.component.name));
        else same = true;
      } else if (inTo.length > 0) {
        fresh = true;
        for (const m of inTo) {
          const before = this.fromIndex.imageFor(m.component.name)[0]?.component.pullSpec;
          if (before !== undefined) components.push({ name: m.component.name, from: before, to: image });
        }
      } else if (inFrom.length > 0) {
        for (const m of inFrom) {
          const after = this.toIndex.imageFor(m.component.name)[0]?.component.pullSpec;
          if (after === undefined) removed.push(m.component.name);
          else {
            old = true;
            components.push({ name: m.component.name, from: image, to: after });
          }
        }
      }
    }
    const cls: ImageClass = old
      ? 'old'
      : fresh
        ? 'new'
        : ambiguous.length > 0
          ? 'ambiguous'
          : same
            ? 'same'
            : 'foreign';
    return { class: cls, components, removed, ambiguous };
  }

  workload(w: WorkloadRollout, t1: Millis): Verdict {
    if (w.cvoManaged) return { state: 'skip', why: 'cvo' };
    try {
      return this.judge(w, t1);
    } finally {
      this.rolledTo = new Set();
    }
  }

  /**
   * Components the workload being judged shows rolled to the new release (a template, revision or pod
   * of the new release's image of them): an ambiguous image of one of them is its old image.
   */
  private rolledTo: ReadonlySet<string> = new Set();

  private judge(w: WorkloadRollout, t1: Millis): Verdict {
    const classifyAll = () => [
      this.classify(w.images),
      ...w.revisions.map((r) => this.classify(r.images)),
      ...w.pods.map((p) => this.classify(p.images)),
    ];
    // Is it an operand of the payload at all? Its template, or any revision or pod it ran.
    let all = classifyAll();
    const rolled = new Set(all.flatMap((c) => (c?.class === 'new' ? c.components.map((x) => x.name) : [])));
    if (all.some((c) => c?.ambiguous.some((n) => rolled.has(n)))) {
      this.rolledTo = rolled;
      all = classifyAll();
    }
    const current = all[0];
    const classes = new Set(all.map((c) => c?.class));
    if (!classes.has('old') && !classes.has('new') && classes.has('ambiguous')) {
      // Never "unchanged": that would let the operator hold on an image the update may have moved.
      const moved = [...new Set(all.flatMap((c) => c?.ambiguous ?? []))].sort();
      return {
        state: 'unplaced',
        why: `its image is the same digest in both releases, but the old release had it also as ${moved.join(', ')}, whose digest the update changed: whether it runs that component's image, left behind, or one the update kept, the images cannot tell, and no revision or pod shows it running another`,
        missing: [NEEDS.replicaSets, NEEDS.pods, NEEDS.rolloutEvents],
      };
    }
    if (!classes.has('old') && !classes.has('new') && !classes.has('same')) {
      if (all.some((c) => c && c.removed.length > 0)) return { state: 'skip', why: 'removed' };
      return { state: 'skip', why: 'foreign' };
    }
    if (!classes.has('old') && !classes.has('new')) return { state: 'skip', why: 'unchanged' };
    if (w.desired === 0) return { state: 'skip', why: 'idle' };
    const late = this.late(w, t1, current);
    if (late) return late;
    const done = w.kind === 'Deployment' ? this.deploymentDone(w, t1, current) : this.daemonSetDone(w, t1);
    if (done !== undefined) return { state: 'done', at: done };
    return this.unplaced(w, t1);
  }

  /** The first fact that shows the rollout had not ended at t1. */
  private late(w: WorkloadRollout, t1: Millis, current: Classified | undefined): Late | undefined {
    const inWindow = (t: Millis) => surelyAfter(t, t1) && t < this.windowEnd;
    const witnesses: { at: Millis; evidence: Evidence; components: readonly ComponentChange[] }[] = [];
    const revClass = new Map(w.revisions.map((r) => [r.id, this.revisionClass(w, r.id)]));

    // The template itself still names the old release's image at the end of the inputs.
    if (this.latest && current?.class === 'old' && this.spanEnd !== undefined && inWindow(this.spanEnd)) {
      const components = current.components.filter((c) => w.images.some((i) => i.image === c.from));
      witnesses.push({
        at: this.spanEnd,
        components,
        evidence: {
          statement: `${w.kind} ${w.namespace}/${w.name}'s pod template still names ${imagesWords(current, 'from')} when last seen`,
          object: w.key,
          field: `spec.template.spec.${containersField(w.images, components)}`,
          ref: w.ref,
        },
      });
    }
    if (w.kind === 'Deployment') {
      // The first ReplicaSet of the new release's images was created after t1, right after one of the old.
      const dated = w.revisions.filter((r) => r.createdAt !== undefined);
      dated.forEach((r, i) => {
        const cls = revClass.get(r.id);
        const before = dated[i - 1];
        if (cls?.class !== 'new' || !before || revClass.get(before.id)?.class !== 'old') return;
        if (r.createdAt === undefined || !inWindow(r.createdAt)) return;
        witnesses.push({
          at: r.createdAt,
          components: cls.components,
          evidence: {
            statement: `ReplicaSet ${r.id}, the first with ${imagesWords(cls, 'to')}, created after ${before.id}, which ran ${imagesWords(cls, 'from')}`,
            at: r.createdAt,
            object: `ReplicaSet/${w.namespace}/${r.id}`,
            field: 'metadata.creationTimestamp',
            ...(r.ref ? { ref: r.ref } : {}),
          },
        });
      });
      // A ReplicaSet of the old release's images was scaled down after t1: it still had pods.
      for (const s of w.steps) {
        if (s.what !== 'scaled-down' || s.revision === undefined || !inWindow(s.at)) continue;
        const cls = revClass.get(s.revision);
        if (cls?.class !== 'old') continue;
        witnesses.push({
          at: s.at,
          components: cls.components,
          evidence: stepEvidence(s, w, `(it ran ${imagesWords(cls, 'from')})`),
        });
      }
      // A ReplicaSet of the old release's images still had pods when last seen.
      if (this.latest && this.spanEnd !== undefined && inWindow(this.spanEnd)) {
        for (const r of w.revisions) {
          const cls = revClass.get(r.id);
          if (cls?.class !== 'old' || (r.replicas ?? 0) === 0) continue;
          witnesses.push({
            at: this.spanEnd,
            components: cls.components,
            evidence: {
              statement: `ReplicaSet ${r.id}, which runs ${imagesWords(cls, 'from')}, still had ${r.replicas} pod${r.replicas === 1 ? '' : 's'} when last seen`,
              object: `ReplicaSet/${w.namespace}/${r.id}`,
              field: 'status.replicas',
              ...(r.ref ? { ref: r.ref } : {}),
            },
          });
        }
      }
    }
    // A pod of the old release's images was deleted after t1, or was still there at the end.
    for (const p of w.pods) {
      const cls = this.classify(p.images);
      if (cls?.class !== 'old') continue;
      const deletion = w.steps.find((s) => s.what === 'pod-deleted' && s.pod === p.name && inWindow(s.at));
      if (deletion) {
        witnesses.push({
          at: deletion.at,
          components: cls.components,
          evidence: stepEvidence(deletion, w, `(it ran ${imagesWords(cls, 'from')})`),
        });
      } else if (
        p.present &&
        this.spanEnd !== undefined &&
        surelyAfter(this.spanEnd, t1) &&
        ((p.createdAt !== undefined && surelyBefore(p.createdAt, t1)) ||
          (this.latest && inWindow(this.spanEnd)))
      ) {
        witnesses.push({
          at: this.spanEnd,
          components: cls.components,
          evidence: {
            statement: `pod ${p.name}${p.node ? ` on ${p.node}` : ''}${p.createdAt !== undefined ? ` (created ${formatClock(p.createdAt)})` : ''} still ran ${imagesWords(cls, 'from')} when last seen`,
            object: `Pod/${w.namespace}/${p.name}`,
            field: `spec.${containersField(p.images, cls.components)}`,
            ...(p.ref ? { ref: p.ref } : {}),
          },
        });
      }
    }
    witnesses.sort((a, b) => a.at - b.at);
    const first = witnesses[0];
    if (!first) return undefined;
    const finishedAt = this.finishedAt(w, t1);
    return {
      state: 'late',
      workload: w,
      witness: first.evidence,
      at: first.at,
      components: first.components,
      atLevel: this.countsAt(w, t1),
      finished:
        finishedAt !== undefined
          ? `its rollout finished at ${formatClock(finishedAt)}${gapWords(finishedAt, t1)} (${w.kind === 'Deployment' ? 'the last ReplicaSet of the old images scaled to 0, or the rollout found complete' : "the old images' last pod deleted"})`
          : `its rollout had not finished by ${this.spanEnd !== undefined ? formatClock(this.spanEnd) : 'the end of the inputs'}, the last data`,
      ...(finishedAt !== undefined ? { finishedAt } : {}),
    };
  }

  /** A revision's class: its template's images, else those of a pod of it. */
  private revisionClass(w: WorkloadRollout, id: string): Classified | undefined {
    const r = w.revisions.find((x) => x.id === id);
    const own = this.classify(r?.images);
    if (own) return own;
    for (const p of w.pods) if (p.revision === id && p.images.length > 0) return this.classify(p.images);
    return undefined;
  }

  /** When the last trace of the old release's pods went, after t1; undefined while any was still there. */
  private finishedAt(w: WorkloadRollout, t1: Millis): Millis | undefined {
    let end: Millis | undefined;
    for (const r of w.revisions) {
      const cls = this.revisionClass(w, r.id);
      if (cls?.class !== 'old') continue;
      if ((r.replicas ?? 0) > 0 && this.latest) return undefined;
    }
    for (const p of w.pods) {
      if (this.classify(p.images)?.class !== 'old') continue;
      if (p.present && this.latest) return undefined;
    }
    if (this.latest && this.classify(w.images)?.class === 'old') return undefined;
    for (const s of w.steps) {
      if (s.at >= this.windowEnd || s.at < floorSecond(t1)) continue;
      const oldRevision = s.revision !== undefined && this.revisionClass(w, s.revision)?.class === 'old';
      const oldPod =
        s.pod !== undefined && this.classify(w.pods.find((p) => p.name === s.pod)?.images)?.class === 'old';
      if (
        (s.what === 'scaled-down' && s.replicas === 0 && oldRevision) ||
        (s.what === 'pod-deleted' && oldPod)
      )
        end = Math.max(end ?? s.until, s.until);
      if (s.what === 'complete') end = Math.max(end ?? s.until, s.until);
    }
    return end;
  }

  /** The updated (and available) counts at t1, as far as the inputs tell them. */
  private countsAt(w: WorkloadRollout, t1: Millis): string {
    const lastSeen = `updated ${w.updated ?? '?'}/${w.desired}${w.available !== undefined ? `, available ${w.available}/${w.desired}` : ''} when last seen`;
    if (w.kind === 'Deployment') {
      let n: number | undefined;
      let rs: string | undefined;
      for (const s of w.steps) {
        if (s.at > t1 || s.what !== 'scaled-up' || s.revision === undefined) continue;
        if (this.revisionClass(w, s.revision)?.class !== 'new') continue;
        n = s.replicas;
        rs = s.revision;
      }
      const created = w.revisions.find(
        (r) => this.revisionClass(w, r.id)?.class === 'new' && r.createdAt !== undefined,
      );
      if (n !== undefined && rs !== undefined)
        return `at the level moment ${rs} was scaled to ${n}/${w.desired} updated; ${lastSeen}`;
      if (created?.createdAt !== undefined && surelyAfter(created.createdAt, t1))
        return `at the level moment 0/${w.desired} updated (no ReplicaSet of the new images yet); ${lastSeen}`;
      return lastSeen;
    }
    const newPods = w.pods.filter(
      (p) => this.classify(p.images)?.class === 'new' && p.createdAt !== undefined,
    );
    if (newPods.length > 0) {
      const by = newPods.filter((p) => p.createdAt !== undefined && p.createdAt <= t1).length;
      const ready = newPods.filter((p) => p.readySince !== undefined && p.readySince <= t1).length;
      return `at the level moment ${by}/${w.desired} pods of the new images existed, ${ready} of them Ready since before it by their last Ready transition; ${lastSeen}`;
    }
    return lastSeen;
  }

  /** A Deployment's rollout placed before t1: the controller found it complete, or scaled the old images away. */
  private deploymentDone(
    w: WorkloadRollout,
    t1: Millis,
    current: Classified | undefined,
  ): Millis | undefined {
    if (current?.class !== 'new') return undefined;
    for (const s of w.steps) {
      // The condition is about the newest ReplicaSet, the current template's, once the controller observed it.
      if (s.what === 'complete' && w.observed && surelyBefore(s.until, t1)) return s.until;
    }
    let lastDown: Millis | undefined;
    let oldRevisions = 0;
    for (const r of w.revisions) {
      if (this.revisionClass(w, r.id)?.class !== 'old') continue;
      oldRevisions += 1;
      const down = w.steps.filter((s) => s.what === 'scaled-down' && s.revision === r.id && s.replicas === 0);
      const lastOne = down[down.length - 1];
      if (!lastOne || !surelyBefore(lastOne.until, t1)) return undefined;
      lastDown = Math.max(lastDown ?? lastOne.until, lastOne.until);
    }
    return oldRevisions > 0 ? lastDown : undefined;
  }

  /**
   * A DaemonSet's rollout placed before t1: a pod of the new images on every node, created before t1,
   * and the last ones the controller could have had unavailable at once (its maxUnavailable) ready
   * before t1. Pods on nodes that joined after t1 are not the update's.
   */
  private daemonSetDone(w: WorkloadRollout, t1: Millis): Millis | undefined {
    const pods = w.pods.filter(
      (p) =>
        p.present &&
        !(
          p.node !== undefined &&
          (this.nodesCreated.get(p.node) ?? 0) > t1 &&
          p.createdAt !== undefined &&
          p.createdAt > t1
        ),
    );
    const later = w.pods.length - pods.length;
    if (pods.length === 0 || pods.length < w.desired - later) return undefined;
    for (const p of pods) {
      if (this.classify(p.images)?.class !== 'new') return undefined;
      if (p.createdAt === undefined || !surelyBefore(p.createdAt, t1)) return undefined;
    }
    const byCreation = [...pods].sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0));
    const inFlight = Math.max(1, scaled(w.maxUnavailable, pods.length));
    for (const p of byCreation.slice(-inFlight))
      if (p.readySince === undefined || !surelyBefore(p.readySince, t1)) return undefined;
    return Math.max(...byCreation.map((p) => p.readySince ?? p.createdAt ?? 0));
  }

  private unplaced(w: WorkloadRollout, t1: Millis): Verdict {
    const missing: string[] = [];
    if (w.kind === 'Deployment') {
      if (!this.data.replicaSets) missing.push(NEEDS.replicaSets);
      if (!this.data.events) missing.push(NEEDS.events);
    } else {
      if (!this.data.pods) missing.push(NEEDS.pods);
      if (!this.data.events) missing.push(NEEDS.events);
    }
    if (missing.length === 0) missing.push(NEEDS.rolloutEvents);
    const recreated =
      w.kind === 'DaemonSet' &&
      w.pods.some(
        (p) =>
          p.present &&
          ((p.createdAt !== undefined && !surelyBefore(p.createdAt, t1)) ||
            (p.readySince !== undefined && !surelyBefore(p.readySince, t1))),
      );
    return {
      state: 'unplaced',
      why: recreated
        ? `pods of the new images were created or became ready after the level report at ${formatClock(t1)} (node reboots recreate them), and nothing dates the rollout before it`
        : `nothing in the inputs dates its rollout against the level report at ${formatClock(t1)}`,
      missing,
    };
  }
}

/** maxUnavailable as a count of `total`: a percentage rounds up, as the DaemonSet controller rounds it. */
function scaled(v: number | string | undefined, total: number): number {
  if (v === undefined) return 1;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  return m?.[1] ? Math.ceil((Number(m[1]) * total) / 100) : 1;
}

/** Where the old images a witness names sit: `initContainers` when only init containers run them. */
function containersField(images: readonly ContainerImage[], components: readonly ComponentChange[]): string {
  const named = images.filter((i) => components.some((c) => c.from === i.image));
  return named.length > 0 && named.every((i) => i.init) ? 'initContainers' : 'containers';
}

function imagesWords(c: Classified, side: 'from' | 'to'): string {
  const names = [...new Set(c.components.map((x) => x.name))];
  const which = side === 'from' ? "the old release's" : "the new release's";
  return names.length === 0
    ? `${which} images`
    : `${which} ${names.join(', ')} image${names.length === 1 ? '' : 's'}`;
}

function gapWords(at: Millis, t1: Millis): string {
  const gap = gapAfter(at, t1);
  return gap ? `, ${gap} after the level report` : '';
}

function stepEvidence(s: RolloutStep, w: WorkloadRollout, tail: string): Evidence {
  const object =
    s.pod !== undefined
      ? `Pod/${w.namespace}/${s.pod}`
      : s.revision !== undefined
        ? `ReplicaSet/${w.namespace}/${s.revision}`
        : w.key;
  return { statement: `${s.text} ${tail}`, at: s.at, object, ref: s.ref };
}

function finding(
  ruleId: string,
  operator: string,
  update: UpdateRecord,
  level: { at: Millis; from: string; to: string; ref: Evidence['ref'] },
  late: readonly Late[],
  counts: Record<'judged' | 'done' | 'foreign' | 'unchanged' | 'cvo' | 'idle' | 'removed', number>,
  managed: ManagedWorkloads,
  spanEnd: Millis | undefined,
): Finding {
  const t1 = level.at;
  const firstLate = late[0] as Late;
  const names = late.map((l) => `${l.workload.kind} ${l.workload.namespace}/${l.workload.name}`);
  const evidence: Evidence[] = [
    {
      statement: `${operator} reported operator version ${level.from} -> ${level.to}`,
      at: t1,
      object: `ClusterOperator/${operator}`,
      field: 'status.versions[operator]',
      value: level.to,
      ...(level.ref ? { ref: level.ref } : {}),
    },
    {
      statement: `${operator} manages ${managed.workloads.length} workload${managed.workloads.length === 1 ? '' : 's'} in ${managed.namespaces.join(', ') || 'the namespaces it names'}: ${counts.judged} judged, ${counts.foreign} not operands of the payload (images in neither release: user or third-party workloads), ${counts.unchanged} unchanged by the update, ${counts.cvo} applied by the CVO itself, ${counts.idle} scaled to zero${counts.removed > 0 ? `, ${counts.removed} of components the new release dropped` : ''}${managed.shared > 0 ? `; ${managed.shared} more in namespaces other operators share, named by none, not charged to it` : ''}`,
      object: `ClusterOperator/${operator}`,
      field: 'status.relatedObjects',
    },
  ];
  for (const l of late) {
    const w = l.workload;
    evidence.push({
      statement: `${w.kind} ${w.namespace}/${w.name}: ${l.atLevel}`,
      object: w.key,
      ref: w.ref,
    });
    evidence.push(l.witness);
    for (const c of l.components)
      evidence.push({
        statement: `release component ${c.name}: ${c.from} in the old release, ${c.to} in the new`,
        object: w.key,
        value: c.name,
      });
    evidence.push({
      statement: `${w.kind} ${w.namespace}/${w.name}: ${l.finished}`,
      ...(l.finishedAt !== undefined ? { at: l.finishedAt } : spanEnd !== undefined ? { at: spanEnd } : {}),
      object: w.key,
    });
  }
  const components = [...new Set(late.flatMap((l) => l.components.map((c) => c.name)))];
  const moments: KeyMoment[] = [
    { label: `${operator} reported level`, at: t1, objects: [`ClusterOperator/${operator}`] },
    ...late.map((l) => ({
      label: `${l.workload.kind} ${l.workload.name} not rolled out`,
      at: l.at,
      objects: [l.workload.key],
    })),
  ];
  const more = names.length > 1 ? ` (and ${names.slice(1).join(', ')})` : '';
  return {
    rule: ruleId,
    severity: 'failure',
    summary: `${operator} reported level for ${update.target} at ${formatClock(t1)} before its operand ${names[0]} had rolled out${components.length > 0 ? ` the new ${components.join(', ')} image${components.length === 1 ? '' : 's'}` : ''}${more}: ${firstLate.witness.statement}${firstLate.at !== undefined ? ` (${formatClock(firstLate.at)})` : ''}; ${firstLate.finished} (in the update ${updateLabel(update)})`,
    at: t1,
    evidence,
    moments,
    subject: {
      target: update.target,
      ...(update.previous ? { previous: update.previous } : {}),
      operator,
      objects: [`ClusterOperator/${operator}`, ...late.map((l) => l.workload.key)],
      operatorLevelAt: t1,
      ...(update.completedAt !== undefined ? { cvoCompletedAt: update.completedAt } : {}),
    },
  };
}
