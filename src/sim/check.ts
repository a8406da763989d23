/**
 * The model checker of `atlevel simulate --exhaustive`: a depth-first search of every state of the
 * untimed model (check-model.ts) reachable by any interleaving of the controllers' steps, each state
 * expanded once (visited states are deduplicated by their canonical form), the invariants checked at
 * every state. The first violating state's path is the schedule `--schedule` replays.
 */
import { CheckModel, type State, type Transition } from './check-model.js';
import type { PolicyName } from './policy.js';
import type { Scenario } from './scenario.js';

export interface ModelCheck {
  readonly scenario: string;
  readonly policy: PolicyName;
  /** Distinct states visited (each expanded once when dedupe is on). */
  readonly states: number;
  /** Steps taken, including those into a state already visited. */
  readonly transitions: number;
  /** Distinct states in which no step is enabled (the update's possible ends). */
  readonly terminalStates: number;
  /** Terminal states in which the CVO never completed the update (a degraded pool, ...). */
  readonly incompleteTerminalStates: number;
  /** Distinct visited states that break an invariant, per invariant. */
  readonly violatingStates: Readonly<Record<string, number>>;
  /** Terminal states that broke an invariant on the way. */
  readonly violatingTerminalStates: number;
  /** The steps to the first violating state found (replay with --schedule). */
  readonly firstViolatingSchedule: readonly string[] | null;
  /** The invariants the first violating schedule breaks. */
  readonly firstViolation: readonly string[];
  /** False when the budget, or the first violation, stopped the search before every reachable state was visited. */
  readonly complete: boolean;
  /** What stopped the search early: the budget, or the first violation (without keepGoing). */
  readonly stoppedBy: 'budget' | 'first-violation' | null;
  readonly dedupe: boolean;
  /** The longest path searched, in steps, and the most steps enabled in one state. */
  readonly maxDepth: number;
  readonly maxBranching: number;
  readonly elapsedMs: number;
}

export interface CheckOptions {
  /** Stop after visiting this many states (the result is then incomplete). */
  readonly budget: number;
  /** Off only to measure what deduplication saves: every path is then searched as a tree. */
  readonly dedupe?: boolean;
  /** Search on after the first violation (to count every violating state); else stop there, as TLC does. */
  readonly keepGoing?: boolean;
  readonly onProgress?: (states: number, violations: number) => void;
}

interface Frame {
  readonly state: State;
  readonly succ: Transition[];
  next: number;
  /** The label of the step that led here. */
  readonly label: string;
}

function keyOf(s: State): string {
  // A one-byte string of the state's slots: the canonical form the visited set holds.
  let k = '';
  for (let i = 0; i < s.length; i += 4096) k += String.fromCharCode(...s.subarray(i, i + 4096));
  return k;
}

export function checkModel(scenario: Scenario, policy: PolicyName, opts: CheckOptions): ModelCheck {
  const started = performance.now();
  const model = new CheckModel(scenario, policy);
  const dedupe = opts.dedupe ?? true;
  const visited = new Set<string>();
  let states = 0;
  let transitions = 0;
  let terminal = 0;
  let incomplete = 0;
  let violatingTerminal = 0;
  const violating: Record<string, number> = Object.create(null);
  let first: string[] | null = null;
  let firstViolation: string[] = [];
  let stoppedBy: ModelCheck['stoppedBy'] = null;
  let maxDepth = 0;
  let maxBranching = 0;
  let violations = 0;

  const visit = (s: State, label: string, stack: Frame[]): Frame | undefined => {
    if (dedupe) {
      const key = keyOf(s);
      if (visited.has(key)) return undefined;
      visited.add(key);
    }
    states++;
    const flags = model.violations(s);
    if (flags) {
      violations++;
      for (const name of model.describeFlags(flags)) violating[name] = (violating[name] ?? 0) + 1;
      if (first === null) {
        first = [...stack.slice(1).map((f) => f.label), label];
        firstViolation = model.describeFlags(flags);
      }
    }
    const succ = model.successors(s);
    if (succ.length > maxBranching) maxBranching = succ.length;
    if (succ.length === 0) {
      terminal++;
      if (!model.completed(s)) incomplete++;
      if (flags) violatingTerminal++;
    }
    if (opts.onProgress && (states & 0x3fff) === 0) opts.onProgress(states, violations);
    return { state: s, succ, next: 0, label };
  };

  const stack: Frame[] = [];
  const root = visit(model.initial(), '', stack) as Frame;
  stack.push(root);
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as Frame;
    const t = top.succ[top.next++];
    if (t === undefined) {
      stack.pop();
      continue;
    }
    transitions++;
    if (states >= opts.budget) {
      stoppedBy = 'budget';
      break;
    }
    const frame = visit(t.next, t.label, stack);
    if (frame) {
      if (stack.length > maxDepth) maxDepth = stack.length;
      if (first !== null && !opts.keepGoing) {
        stoppedBy = 'first-violation';
        break;
      }
      stack.push(frame);
    }
  }
  return {
    scenario: scenario.name,
    policy,
    states,
    transitions,
    terminalStates: terminal,
    incompleteTerminalStates: incomplete,
    violatingStates: violating,
    violatingTerminalStates: violatingTerminal,
    firstViolatingSchedule: first,
    firstViolation,
    complete: stoppedBy === null,
    stoppedBy,
    dedupe,
    maxDepth,
    maxBranching,
    elapsedMs: performance.now() - started,
  };
}

/** A named schedule does not fit the model (a step not enabled where the schedule takes it). */
export class NamedScheduleError extends Error {
  override readonly name = 'NamedScheduleError';
}

export interface ModelReplay {
  readonly scenario: string;
  readonly policy: PolicyName;
  /** One line per step: what it changed. */
  readonly trace: readonly string[];
  /** The invariants broken by the end of the schedule. */
  readonly violations: readonly string[];
  /** Invariants broken only afterwards, on the way to the end. */
  readonly laterViolations: readonly string[];
  /** After the schedule, the run continued with each state's first enabled step to an end. */
  readonly completed: boolean;
  readonly steps: number;
}

/**
 * Replay a schedule found by the model checker: take its steps in order (each must be enabled where
 * it is taken), then continue with the first enabled step until none is (the update's end).
 */
export function replayNamedSchedule(
  scenario: Scenario,
  policy: PolicyName,
  schedule: readonly string[],
): ModelReplay {
  const model = new CheckModel(scenario, policy);
  let s = model.initial();
  const trace: string[] = [];
  schedule.forEach((label, i) => {
    const t = model.successors(s).find((x) => x.label === label);
    if (!t) {
      const enabled = model.successors(s).map((x) => x.label);
      throw new NamedScheduleError(
        `step ${i + 1} (${label}) is not enabled there; enabled: ${enabled.join(', ') || 'none (the run has ended)'}`,
      );
    }
    trace.push(model.explain(s, t.next, t.label));
    s = t.next;
  });
  const atEnd = model.violations(s);
  // Run on to an end (the first enabled step each time): the update's end, and what broke on the way.
  for (let guard = 0; guard < 100_000; guard++) {
    const t = model.successors(s)[0];
    if (!t) break;
    trace.push(model.explain(s, t.next, t.label));
    s = t.next;
  }
  return {
    scenario: scenario.name,
    policy,
    trace,
    violations: model.describeFlags(atEnd),
    laterViolations: model.describeFlags(model.violations(s) & ~atEnd),
    completed: model.completed(s),
    steps: schedule.length,
  };
}
