/**
 * Exploration of many runs: across seeds (each seed draws every latency afresh), and, for one seed,
 * exhaustively across the orders in which the race's events could be processed.
 *
 * Exhaustive mode, precisely. The seed fixes every latency. The race window opens when the
 * machine-config operator writes the new ControllerConfig and closes when the operator evaluates
 * its required pools for the first time afterwards: the moment the race is decided. Inside the
 * window the operator is taken out of time order. Its events form channels: one for its watch
 * deliveries, taken as catch-ups (when scheduled, its informers process every event already sent
 * to them, in order: a watch stream never reorders), and one per kind of timer (its polls and sync
 * steps). The machine-config-controller (template, render and node controllers) forms one more
 * channel, kept in time order. At each step any channel's next event may run, so the operator can
 * see each write sooner or later than its latency said and can evaluate before or after any of
 * them; events due more than WINDOW_MS after the window opened are not pulled forward, and every
 * other actor keeps to time order. A depth-first search enumerates these interleavings. A sleep set
 * skips orders that differ only by swapping adjacent steps that commute (an operator step and a
 * controller step that write no common object and do not feed a catch-up), so every distinct order
 * of what the operator sees and when it decides is run once, to the end of the upgrade, and checked
 * against the invariant.
 */
import type { Engine, Picker, SimEvent } from './engine.js';
import type { RaceHooks } from './model.js';
import type { PolicyName } from './policy.js';
import { runSimulation } from './run.js';
import type { Scenario } from './scenario.js';

export interface SeedExploration {
  readonly scenario: string;
  readonly policy: PolicyName;
  readonly firstSeed: number;
  readonly runs: number;
  /** Runs that broke an invariant: the master pool's, or an operator's level before its operands. */
  readonly violations: number;
  /** Of those, runs in which an operator reported level before its operand rolled out. */
  readonly operandViolations: number;
  readonly firstViolatingSeed: number | null;
  /** Up to 20 violating seeds, in order. */
  readonly violatingSeeds: readonly number[];
  /** Violating runs in which the upgrade test also logged the violation. */
  readonly detectedByTest: number;
  /** Runs in which the upgrade test failed for another reason (timeouts). */
  readonly otherTestFailures: number;
  /** Runs in which machine-config went Degraded at some point. */
  readonly operatorDegraded: number;
  /** Runs in which the CVO never completed the update. */
  readonly cvoIncomplete: number;
}

export function exploreSeeds(
  scenario: Scenario,
  policy: PolicyName,
  firstSeed: number,
  runs: number,
  onProgress?: (done: number, violations: number) => void,
): SeedExploration {
  let violations = 0;
  let operandViolations = 0;
  let firstViolatingSeed: number | null = null;
  const violatingSeeds: number[] = [];
  let detectedByTest = 0;
  let otherTestFailures = 0;
  let operatorDegraded = 0;
  let cvoIncomplete = 0;
  for (let i = 0; i < runs; i++) {
    const seed = firstSeed + i;
    const f = runSimulation(scenario, policy, seed).facts;
    if (f.operandViolations.length > 0) operandViolations++;
    if (f.violation || f.operandViolations.length > 0) {
      violations++;
      firstViolatingSeed ??= seed;
      if (violatingSeeds.length < 20) violatingSeeds.push(seed);
      if (f.testDetectedAt !== undefined) detectedByTest++;
    } else if (f.testFailure !== undefined) {
      otherTestFailures++;
    }
    if (f.mcoDegraded.length > 0) operatorDegraded++;
    if (f.cvoCompletedAt === undefined) cvoIncomplete++;
    onProgress?.(i + 1, violations);
  }
  return {
    scenario: scenario.name,
    policy,
    firstSeed,
    runs,
    violations,
    operandViolations,
    firstViolatingSeed,
    violatingSeeds,
    detectedByTest,
    otherTestFailures,
    operatorDegraded,
    cvoIncomplete,
  };
}

/** Events due this long after the window opened are not pulled forward into it. */
const WINDOW_MS = 12_000;
const MAX_DEPTH = 200;

/** One step of the search: an operator step (side 0) or a machine-config-controller step (side 1). */
interface Step {
  readonly side: number;
  /** `Kind/name` of every object the step wrote. */
  readonly writes: ReadonlySet<string>;
  /** An operator catch-up (it depends on every write that feeds it). */
  readonly catchUp: boolean;
}

interface Candidate {
  readonly seq: number;
  readonly at: number;
  readonly label: string;
}

interface ChoicePoint {
  readonly candidates: readonly Candidate[];
  chosen: number;
  readonly done: Set<number>;
  readonly sleep: ReadonlyMap<number, Step>;
  readonly steps: Map<number, Step>;
}

/** Steps commute unless they are on the same side, write a common object, or one feeds the other's catch-up. */
function independent(a: Step, b: Step): boolean {
  if (a.side === b.side) return false;
  if ((a.catchUp && b.writes.size > 0) || (b.catchUp && a.writes.size > 0)) return false;
  for (const w of a.writes) if (b.writes.has(w)) return false;
  return true;
}

const OPERATOR = 'machine-config-operator';
const CONTROLLER = 'machine-config-controller';
const WATCH = 'operator:watch';

/** The channel an event belongs to inside the window (see the header). */
function channelOf(ev: SimEvent): string {
  if (ev.actor.name !== OPERATOR) return CONTROLLER;
  return ev.label.startsWith('watch ') ? WATCH : `operator:${ev.label}`;
}

function before(a: SimEvent, b: SimEvent): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

/** Chooses race events inside the window according to a DFS stack (or a fixed schedule). */
class RacePicker implements Picker {
  private open = false;
  private closed = false;
  private openAt = 0;
  private depth = 0;
  private current: ChoicePoint | undefined;
  private currentSeq = 0;
  /** The operator informer whose stream is being caught up, while it is. */
  private draining: string | undefined;
  private pendingSleep: ReadonlyMap<number, Step> = new Map();
  blocked = false;
  truncated = false;
  maxCandidates = 0;
  readonly race: RaceHooks;

  constructor(
    private readonly engineRef: { engine?: Engine },
    private readonly stack: ChoicePoint[],
    /** Replay these candidate indexes instead of searching (a reproduced schedule). */
    private readonly fixed: readonly number[] | undefined,
  ) {
    this.race = {
      open: () => {
        if (this.open) return;
        this.open = true;
        this.openAt = this.engineRef.engine?.now ?? 0;
      },
      close: () => {
        this.closed = true;
      },
    };
  }

  next(engine: Engine): SimEvent | undefined {
    this.engineRef.engine = engine;
    const queue = engine.queue;
    if (this.draining !== undefined) {
      const channel = this.draining;
      let found = -1;
      const items = queue.items;
      for (let i = 0; i < items.length; i++) {
        const ev = items[i] as SimEvent;
        if (ev.actor.race && channelOf(ev) === channel && (found < 0 || before(ev, items[found] as SimEvent)))
          found = i;
      }
      if (found >= 0) return queue.removeAt(found);
      this.endStep(engine);
    }
    if (!this.open || this.closed) return queue.pop();
    const head = queue.peek();
    if (!head?.actor.race) return queue.pop();
    if (this.depth >= MAX_DEPTH) {
      this.closed = true;
      this.truncated = true;
      return queue.pop();
    }
    const limit = this.openAt + WINDOW_MS;
    const best = new Map<string, number>();
    const items = queue.items;
    for (let i = 0; i < items.length; i++) {
      const ev = items[i] as SimEvent;
      if (!ev.actor.race || ev.at > limit) continue;
      const channel = channelOf(ev);
      const cur = best.get(channel);
      if (cur === undefined || before(ev, items[cur] as SimEvent)) best.set(channel, i);
    }
    if (best.size === 0) return queue.pop();
    const order = [...best.values()].sort((a, b) =>
      before(items[a] as SimEvent, items[b] as SimEvent) ? -1 : 1,
    );
    const candidates: Candidate[] = order.map((i) => {
      const ev = items[i] as SimEvent;
      return { seq: ev.seq, at: ev.at, label: `${ev.actor.name}: ${ev.label}` };
    });
    if (candidates.length > this.maxCandidates) this.maxCandidates = candidates.length;
    let cp = this.stack[this.depth];
    if (cp) {
      if (
        cp.candidates.length !== candidates.length ||
        cp.candidates.some((c, i) => c.seq !== candidates[i]?.seq)
      ) {
        throw new Error('exhaustive exploration: replay diverged (the model is not deterministic)');
      }
    } else {
      let chosen: number;
      if (this.fixed) {
        chosen = this.fixed[this.depth] ?? 0;
        // A choice past the candidates would replay some other interleaving under this schedule's name.
        if (chosen >= candidates.length)
          throw new ScheduleError(
            `choice ${chosen} at step ${this.depth + 1} is out of range: that step has ${candidates.length} candidate${candidates.length === 1 ? '' : 's'} (0 to ${candidates.length - 1})`,
          );
      } else chosen = candidates.findIndex((c) => !this.pendingSleep.has(c.seq));
      cp = { candidates, chosen, done: new Set(), sleep: this.pendingSleep, steps: new Map() };
      if (chosen < 0) {
        this.blocked = true;
        engine.stop();
        return undefined;
      }
      this.stack.push(cp);
    }
    const ev = queue.removeAt(order[cp.chosen] as number) as SimEvent;
    this.current = cp;
    this.currentSeq = ev.seq;
    const channel = channelOf(ev);
    // An operator informer, once scheduled, processes every event already sent to it (a catch-up).
    this.draining = channel === WATCH ? channel : undefined;
    engine.footprint = { writes: new Set() };
    return ev;
  }

  fired(_ev: SimEvent, engine: Engine): void {
    if (this.current && this.draining === undefined) this.endStep(engine);
  }

  private endStep(engine: Engine): void {
    const cp = this.current;
    const channel = this.draining;
    this.draining = undefined;
    if (!cp) return;
    this.current = undefined;
    const fp = engine.footprint;
    engine.footprint = undefined;
    const chosen = cp.candidates[cp.chosen] as Candidate;
    const step: Step = {
      side: chosen.label.startsWith(`${OPERATOR}:`) ? 0 : 1,
      writes: fp?.writes ?? new Set(),
      catchUp: channel !== undefined,
    };
    cp.steps.set(this.currentSeq, step);
    const next = new Map<number, Step>();
    for (const [seq, st] of cp.sleep) if (independent(st, step)) next.set(seq, st);
    for (const seq of cp.done) {
      const st = cp.steps.get(seq);
      if (st && independent(st, step)) next.set(seq, st);
    }
    this.pendingSleep = next;
    this.depth++;
  }
}

export interface ExhaustiveExploration {
  readonly scenario: string;
  readonly policy: PolicyName;
  readonly seed: number;
  /** Interleavings run to the end of the upgrade (one per distinct order, after the sleep-set reduction). */
  readonly schedules: number;
  /** Partial orders abandoned because every next step was redundant (sleep-set blocked). */
  readonly pruned: number;
  readonly violations: number;
  /** Candidate index chosen at each step of the first violating schedule (replay with --schedule). */
  readonly firstViolatingSchedule: readonly number[] | null;
  readonly firstSafeSchedule: readonly number[] | null;
  /** False when the budget ran out before every interleaving was run. */
  readonly complete: boolean;
  /** The most steps inside one window, and the most actors competing at one step. */
  readonly maxSteps: number;
  readonly maxCandidates: number;
}

export function exploreExhaustive(
  scenario: Scenario,
  policy: PolicyName,
  seed: number,
  budget: number,
  onProgress?: (schedules: number, violations: number) => void,
): ExhaustiveExploration {
  const stack: ChoicePoint[] = [];
  let schedules = 0;
  let pruned = 0;
  let violations = 0;
  let firstViolating: number[] | null = null;
  let firstSafe: number[] | null = null;
  let maxSteps = 0;
  let maxCandidates = 0;
  let complete = true;
  for (;;) {
    if (schedules + pruned >= budget) {
      complete = false;
      break;
    }
    const ref: { engine?: Engine } = {};
    const picker = new RacePicker(ref, stack, undefined);
    const run = runSimulation(scenario, policy, seed, { race: picker.race, picker });
    maxCandidates = Math.max(maxCandidates, picker.maxCandidates);
    maxSteps = Math.max(maxSteps, stack.length);
    if (picker.blocked) pruned++;
    else {
      schedules++;
      const choices = stack.map((cp) => cp.chosen);
      if (run.facts.violation) {
        violations++;
        firstViolating ??= choices;
      } else {
        firstSafe ??= choices;
      }
      onProgress?.(schedules, violations);
    }
    // Backtrack to the deepest step with an unexplored, non-redundant alternative.
    let resumed = false;
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as ChoicePoint;
      top.done.add((top.candidates[top.chosen] as Candidate).seq);
      const alt = top.candidates.findIndex((c) => !top.done.has(c.seq) && !top.sleep.has(c.seq));
      if (alt >= 0) {
        top.chosen = alt;
        resumed = true;
        break;
      }
      stack.pop();
    }
    if (!resumed) break;
  }
  return {
    scenario: scenario.name,
    policy,
    seed,
    schedules,
    pruned,
    violations,
    firstViolatingSchedule: firstViolating,
    firstSafeSchedule: firstSafe,
    complete,
    maxSteps,
    maxCandidates,
  };
}

/** Run one schedule found by exhaustive exploration (for writing its artifacts). */
export function replaySchedule(
  scenario: Scenario,
  policy: PolicyName,
  seed: number,
  schedule: readonly number[],
  record: boolean,
) {
  const ref: { engine?: Engine } = {};
  const stack: ChoicePoint[] = [];
  const picker = new RacePicker(ref, stack, schedule);
  const run = runSimulation(scenario, policy, seed, { race: picker.race, picker, record });
  // Choices past the run's last choice point were never used: the schedule is not this run's.
  const unused = schedule.slice(stack.length);
  if (unused.some((c) => c !== 0))
    throw new ScheduleError(
      `the schedule has ${schedule.length} choices, but this run has ${stack.length} choice point${stack.length === 1 ? '' : 's'}; the choices after step ${stack.length} were not used`,
    );
  return run;
}

/** A replayed schedule does not fit the run: a choice out of range, or choices left over. */
export class ScheduleError extends Error {
  override readonly name = 'ScheduleError';
}
