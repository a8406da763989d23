/**
 * The watch loop: list every stream once, then follow each with an Informer; turn each change into
 * the transitions it means (monitor.ts), keep them as the live history's intervals, and run the
 * rules that can decide during an update (the level race, and the master pool at the CVO's
 * completion) the moment a change could let them decide. When the update completes (the CVO
 * reports it and every pool has rolled out its target) the whole analysis runs on what was seen.
 */
import { setMaxListeners } from 'node:events';
import { type AnalysisResult, analyzeHistory } from '../analyze/index.js';
import type { MonitorRecord } from '../artifacts/index.js';
import {
  type ClientLimits,
  isRendered,
  LiveClient,
  type LiveState,
  type LoadedConfig,
  type RawObject,
  RESOURCES,
  resourcePath,
  snapshot,
  streamId,
} from '../live/index.js';
import {
  type ClusterHistory,
  type Finding,
  formatTime,
  type HistoryParts,
  type Interval,
  MCO,
  type Millis,
} from '../model/index.js';
import { LIVE_READING } from '../sources/index.js';
import { buildHistory } from '../timeline/index.js';
import { type Clock, detectClock } from './clock.js';
import { type Backoff, type Change, Informer, type InformerStats, type RelistGap } from './informer.js';
import { annotations, historyHead, poolTarget, toInterval, transitions } from './monitor.js';
import { checkRecordDir, renderRecord, writeRecord } from './record.js';

/** The rules watch runs during an update, each when a change could let it decide. */
const LIVE_RULES = [
  'operator-level-before-required-pool-target',
  'master-pool-updated-before-cvo-complete',
  'operator-level-before-operands',
];

/** The kinds whose changes may show an operand's rollout after its operator reported level. */
const ROLLOUT_KINDS: ReadonlySet<string> = new Set(['Deployment', 'DaemonSet', 'ReplicaSet', 'Pod', 'Event']);

/**
 * How long, on the cluster's clock, watch keeps recording after the update completed before it
 * stops: operators still settle then (on bug 2019850 network's Progressing turns False 3 s after the
 * last pool finished). Measured on the cluster's clock, not the wall's, so what is recorded does not
 * depend on a replay's speed or the machine's load (docs/live.md).
 */
const SETTLE_AFTER_COMPLETE_MS = 10_000;

export type WatchOutput =
  | {
      readonly type: 'start';
      readonly at: Millis;
      readonly server: string;
      readonly context: string;
      readonly clock: string;
      readonly objects: number;
      readonly updating?: string;
    }
  | { readonly type: 'transition'; readonly at: Millis; readonly record: MonitorRecord }
  | {
      readonly type: 'finding';
      /** The moment of the change that let the rule decide. */
      readonly at: Millis;
      /** When it was reported: later by the time the rules took (times the replay speed on a replay). */
      readonly reportedAt: Millis;
      readonly finding: Finding;
    }
  | { readonly type: 'notice'; readonly at: Millis; readonly text: string }
  | {
      readonly type: 'complete';
      readonly at: Millis;
      readonly result: AnalysisResult;
      readonly history: ClusterHistory;
    };

export interface WatchOptions {
  readonly config: LoadedConfig;
  readonly forever?: boolean;
  readonly record?: string;
  readonly signal: AbortSignal;
  readonly emit: (o: WatchOutput) => void;
  readonly backoff?: Backoff;
  /** The live client's deadline and budget (`--request-timeout`, `--max-tree-depth`...). */
  readonly limits?: Partial<ClientLimits>;
  readonly clock?: Clock;
  /** Called after each change is absorbed (the bench counts them). */
  readonly onChange?: () => void;
  /**
   * The release payloads given by `--release-from`/`--release-to`: a cluster holds none, and
   * operator-level-before-operands needs them to tell the old release's images from the new's.
   */
  readonly releases?: HistoryParts['releases'];
}

export interface WatchSummary {
  readonly result: AnalysisResult;
  readonly history: ClusterHistory;
  /** Stopped before an update completed (Ctrl-C), or stopped at all with --forever. */
  readonly interrupted: boolean;
  /** When interrupted during an update: its target. */
  readonly activeAtStop?: string;
  /** Updates seen to completion, each with its own `complete` (with --forever, more than one). */
  readonly completions: number;
  readonly stats: InformerStats & { transitions: number; checks: number; requests: LiveClient['counts'] };
  readonly recorded?: string;
  /**
   * The end of what was recorded, at completion: the completing change's moment plus
   * SETTLE_AFTER_COMPLETE_MS. Changes dated later were not recorded. Absent when stopped otherwise.
   */
  readonly until?: Millis;
  /** The relists after 410 Gone, each a stretch of one stream seen only as its net effect. */
  readonly gaps: readonly RelistGap[];
  /** Each stream's resourceVersion at the first list: the changes after it were watched. */
  readonly listed: Readonly<Record<string, string>>;
}

function poolDone(p: RawObject): boolean {
  const conds = ((p.status as { conditions?: unknown } | undefined)?.conditions ?? []) as {
    type?: string;
    status?: string;
  }[];
  const updated = conds.find((c) => c.type === 'Updated')?.status === 'True';
  const updating = conds.find((c) => c.type === 'Updating')?.status === 'True';
  const status = (p.status as { configuration?: { name?: string } } | undefined)?.configuration?.name;
  return updated && !updating && status === poolTarget(p);
}

class Watcher {
  readonly #records: MonitorRecord[] = [];
  readonly #intervals: Interval[] = [];
  readonly #emitted = new Set<string>();
  readonly #stats: InformerStats = {
    watches: 0,
    reconnects: 0,
    relists: 0,
    bookmarks: 0,
    events: 0,
    bytes: 0,
  };
  #checks = 0;
  #checkPending = false;
  /** When the change that asked for the pending check was seen: the moment the rules could decide. */
  #triggerAt: Millis | undefined;
  #levelSeen = false;
  /** Some operator reported level in the active update: workload changes may now decide. */
  #operatorLevelSeen = false;
  /** When a workload's change last asked for a check. */
  #rolloutCheckAt = Number.NEGATIVE_INFINITY;
  #active: string | undefined;
  /** The moment the update completed (without --forever): watch records until `#until`, then stops. */
  #completedAt: Millis | undefined;
  /** Updates seen to completion (each with its own `complete`). */
  #completions = 0;
  #state!: LiveState;
  #clock!: Clock;
  #client: LiveClient;
  #file: string;
  #startedAt = 0;
  #listed = false;
  readonly #stop = new AbortController();
  #informers: Informer[] = [];
  #lastChange = 0;
  #until: Millis | undefined;
  #listedVersions: Readonly<Record<string, string>> = {};
  readonly #gaps: RelistGap[] = [];

  constructor(readonly opts: WatchOptions) {
    // Each stream's informer listens on the stop signal, twice while it backs off: more than 10.
    setMaxListeners(0, this.#stop.signal);
    this.#client = new LiveClient(opts.config, LIVE_READING, opts.limits);
    this.#file = `${opts.config.server} (watch)`;
  }

  async run(): Promise<WatchSummary> {
    const { opts } = this;
    if (opts.record !== undefined) await checkRecordDir(opts.record);
    this.#clock = opts.clock ?? (await detectClock(this.#client));
    this.#startedAt = this.#clock.now();
    const snap = await snapshot(this.#client, (name, state) => this.#keepContent(name, state));
    this.#state = snap.state;
    this.#listedVersions = Object.fromEntries(snap.versions);
    this.#listed = true;
    const cv = [...this.#state.all('ClusterVersion')][0];
    const head = historyHead(cv);
    if (head?.state === 'Partial') this.#active = head.version ?? head.image;
    let objects = 0;
    for (const r of RESOURCES) objects += this.#state.count(r.kind);
    opts.emit({
      type: 'start',
      at: this.#startedAt,
      server: opts.config.server,
      context: opts.config.context,
      clock: this.#clock.describe,
      objects,
      ...(this.#active ? { updating: this.#active } : {}),
    });
    for (const n of snap.notes) this.#notice(n);
    if (!this.#active) this.#notice('no update in progress: waiting for one to start (Ctrl-C to stop)');
    // Level already reported when the watch began: the race rule may decide as configs appear.
    this.#levelSeen = this.#active !== undefined && this.#machineConfigAt(this.#active);
    this.#operatorLevelSeen = this.#active !== undefined;

    // Decide at once what the listed state already shows (and warm the analyses before changes flow).
    this.#check();
    const stopAll = () => this.#stop.abort();
    opts.signal.addEventListener('abort', stopAll, { once: true });
    const informers = snap.streams
      .filter((s) => snap.versions.has(streamId(s)))
      .map(
        (s) =>
          new Informer(
            this.#client,
            this.#state,
            s,
            snap.versions.get(streamId(s)) ?? '',
            (c) => this.#change(c),
            this.#stats,
            opts.backoff,
            (t) => this.#notice(t),
            (gap) => this.#gaps.push(gap),
          ),
      );
    this.#informers = informers;
    const running = informers.map((i) => i.run(this.#stop.signal));
    let failure: unknown;
    await Promise.all(
      running.map((p) =>
        p.catch((err) => {
          failure = err;
          this.#stop.abort();
        }),
      ),
    );
    opts.signal.removeEventListener('abort', stopAll);
    if (failure) throw failure;
    const final = this.#analyze();
    // The verdict comes last: every transition recorded up to the end (the settling after the
    // completion included) is printed before it and judged by it, as analyze of the record judges
    // them; nothing is emitted after it.
    if (this.#completedAt !== undefined) {
      this.#report(final.result.findings, this.#completedAt);
      this.opts.emit({ type: 'complete', at: this.#clock.now(), ...final });
    }
    let recorded: string | undefined;
    if (opts.record !== undefined) {
      const header = `INFO[${formatTime(this.#startedAt)}] atlevel watch: recorded live from ${opts.config.server} (context ${opts.config.context}), ${this.#clock.describe}`;
      await writeRecord(opts.record, renderRecord(this.#state, this.#records, this.#startedAt, header));
      recorded = opts.record;
    }
    return {
      ...final,
      interrupted: this.#completedAt === undefined,
      ...(this.#completedAt === undefined && this.#active !== undefined
        ? { activeAtStop: this.#active }
        : {}),
      completions: this.#completions,
      stats: {
        ...this.#stats,
        transitions: this.#records.length,
        checks: this.#checks,
        requests: this.#client.counts,
      },
      ...(recorded !== undefined ? { recorded } : {}),
      ...(this.#until !== undefined ? { until: this.#until } : {}),
      gaps: [...this.#gaps],
      listed: this.#listedVersions,
    };
  }

  #notice(text: string): void {
    this.opts.emit({ type: 'notice', at: this.#clock.now(), text });
  }

  /** Contents kept only for rendered configs a pool or node names, or made during the watch. */
  #keepContent(name: string, state: LiveState): boolean {
    if (this.#listed) return true;
    for (const p of state.all('MachineConfigPool')) {
      if (poolTarget(p) === name) return true;
      if ((p.status as { configuration?: { name?: string } } | undefined)?.configuration?.name === name)
        return true;
    }
    for (const n of state.all('Node')) {
      const a = annotations(n);
      if (a[MCO.currentConfig] === name || a[MCO.desiredConfig] === name) return true;
    }
    return false;
  }

  #machineConfigAt(target: string): boolean {
    const co = this.#state.get('ClusterOperator', '/machine-config');
    const v = (co?.status as { versions?: { name?: string; version?: string }[] } | undefined)?.versions;
    return v?.find((x) => x.name === 'operator')?.version === target;
  }

  #change(c: Change): void {
    const kind = c.stream.resource.kind;
    // A replay says when each change happened; elsewhere it is the moment it was seen.
    const at = c.happenedAt ?? this.#clock.now();
    // Past the end of the recording: the update is over and watch is about to stop.
    if (this.#until !== undefined && at > this.#until) return;
    const recs = transitions(kind, c.before, c.after, at);
    let trigger: Millis | undefined;
    for (const r of recs) {
      this.#records.push(r);
      this.#intervals.push(toInterval(r, this.#file, c.relisted === true));
      this.opts.emit({ type: 'transition', at: r.from, record: r });
      if (r.locator === 'clusteroperator/machine-config' && r.message.startsWith('versions:')) {
        this.#levelSeen = true;
        trigger = r.from;
      }
      // Any operator's level report: its operands must have rolled out by now.
      if (r.locator.startsWith('clusteroperator/') && r.message.startsWith('versions:')) {
        this.#operatorLevelSeen = true;
        trigger = r.from;
      }
      if (r.locator.startsWith('clusterversion/') && r.message.startsWith('cluster reached'))
        trigger = r.from;
      if (r.message.startsWith('reason/RenderedConfigGenerated') && this.#levelSeen) trigger = r.from;
    }
    if (
      kind === 'MachineConfig' &&
      c.type === 'ADDED' &&
      this.#levelSeen &&
      isRendered(c.after?.metadata?.name ?? '')
    )
      trigger ??= at;
    if (kind === 'ClusterVersion') {
      const head = historyHead(c.after);
      if (head?.state === 'Partial') {
        const target = head.version ?? head.image;
        if (target !== this.#active) {
          this.#active = target;
          this.#levelSeen = false;
          this.#operatorLevelSeen = false;
          if (target) this.#notice(`update to ${target} in progress`);
        }
      }
    }
    // After a level report, a workload's change may show its rollout had not ended then.
    // At most one such check a second of the cluster's clock: an update changes pods by the hundred,
    // and what one change shows, the state still shows at the next check (or at completion).
    if (
      this.#operatorLevelSeen &&
      this.#active !== undefined &&
      ROLLOUT_KINDS.has(kind) &&
      at - this.#rolloutCheckAt >= 1000
    ) {
      this.#rolloutCheckAt = at;
      trigger ??= at;
    }
    if (kind === 'MachineConfigPool' || kind === 'Node') this.#fetchDropped(c.after);
    if (trigger !== undefined) this.#scheduleCheck(trigger);
    if (kind === 'ClusterVersion' || kind === 'MachineConfigPool') this.#maybeComplete(at);
    this.#lastChange = performance.now();
    this.opts.onChange?.();
  }

  /**
   * Wait until the cluster's clock has passed `until` and every stream is connected again and quiet,
   * so that the changes up to `until` still in flight (a stream reconnecting, another's event just
   * behind) are seen too. False when the watch was stopped meanwhile.
   */
  async #settle(until: Millis): Promise<boolean> {
    // A replay's clock stands still at the replay's end, which may come before `until`.
    while (this.#clock.now() < Math.min(until, this.#clock.end?.() ?? until)) {
      if (this.#stop.signal.aborted) return false;
      await new Promise((r) => setTimeout(r, 20));
    }
    const deadline = performance.now() + 10_000;
    for (;;) {
      const quiet = performance.now() - this.#lastChange > 300;
      if ((quiet && this.#informers.every((i) => i.connected)) || performance.now() > deadline) break;
      if (this.#stop.signal.aborted) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
    return !this.#stop.signal.aborted;
  }

  /** A pool or node now names a config whose contents were not kept: fetch them. */
  #fetchDropped(o: RawObject | undefined): void {
    const names = new Set<string>();
    const t = poolTarget(o);
    if (t) names.add(t);
    const a = annotations(o);
    for (const k of [MCO.currentConfig, MCO.desiredConfig]) {
      const v = a[k];
      if (v) names.add(v);
    }
    const mc = RESOURCES.find((r) => r.kind === 'MachineConfig');
    if (!mc) return;
    for (const name of names) {
      if (!this.#state.contentDropped(name)) continue;
      this.#client
        .get(`${resourcePath(mc)}/${encodeURIComponent(name)}`)
        .then((full) => {
          if (this.#state.contentDropped(name)) this.#state.put('MachineConfig', full);
        })
        .catch(() => undefined);
    }
  }

  #scheduleCheck(at: Millis): void {
    if (this.#triggerAt === undefined || at < this.#triggerAt) this.#triggerAt = at;
    if (this.#checkPending) return;
    this.#checkPending = true;
    setImmediate(() => {
      this.#checkPending = false;
      this.#check();
    });
  }

  #history(): ClusterHistory {
    const parts = this.#state.parts(
      [...this.#intervals],
      [
        `watched live from ${this.opts.config.server} (context ${this.opts.config.context}) from ${formatTime(this.#startedAt)}, ${this.#clock.describe}`,
      ],
    );
    if (this.opts.releases) parts.releases = this.opts.releases;
    return buildHistory(parts);
  }

  /** Run the live rules on what was seen so far; report each failure finding once. */
  #check(): void {
    this.#checks++;
    const decidedAt = this.#triggerAt ?? this.#clock.now();
    this.#triggerAt = undefined;
    const history = this.#history();
    const result = analyzeHistory(history, { rules: LIVE_RULES });
    this.#report(result.findings, decidedAt);
  }

  #report(findings: readonly Finding[], decidedAt: Millis): void {
    const at = this.#clock.now();
    for (const f of findings) {
      if (f.severity !== 'failure') continue;
      const s = f.subject as { target?: string; pool?: string; operator?: string } | undefined;
      // One finding per rule, update, pool and operator: operator-level-before-operands has one per operator.
      const key = `${f.rule}\u0000${s?.target ?? ''}\u0000${s?.pool ?? ''}\u0000${s?.operator ?? ''}`;
      if (this.#emitted.has(key)) continue;
      this.#emitted.add(key);
      this.opts.emit({ type: 'finding', at: decidedAt, reportedAt: at, finding: f });
    }
  }

  #analyze(): { result: AnalysisResult; history: ClusterHistory } {
    const history = this.#history();
    return { result: analyzeHistory(history), history };
  }

  #maybeComplete(at: Millis): void {
    const target = this.#active;
    if (!target) return;
    const cv = [...this.#state.all('ClusterVersion')][0];
    const head = historyHead(cv);
    if (head?.state !== 'Completed' || (head.version !== target && head.image !== target)) return;
    const pools = [...this.#state.all('MachineConfigPool')];
    if (!pools.every(poolDone)) return;
    this.#active = undefined;
    this.#completions++;
    // The live rules decide now; the whole analysis, and `complete`, wait until the operators have
    // settled, so that no transition of this update is printed after its verdict.
    this.#check();
    const until = at + SETTLE_AFTER_COMPLETE_MS;
    if (!this.opts.forever) {
      // run() emits `complete` once every stream has stopped: nothing can follow it.
      this.#completedAt = at;
      this.#until = until;
      void this.#settle(until).then(() => this.#stop.abort());
      return;
    }
    void this.#settle(until).then((settled) => {
      // Stopped meanwhile: the final report of run() judges what was seen, and says it was cut short.
      if (!settled) return;
      const done = this.#analyze();
      this.#report(done.result.findings, at);
      this.opts.emit({ type: 'complete', at: this.#clock.now(), ...done });
    });
  }
}

export async function watchCluster(opts: WatchOptions): Promise<WatchSummary> {
  return new Watcher(opts).run();
}
