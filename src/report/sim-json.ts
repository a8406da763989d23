/**
 * `atlevel simulate -o json`: a stable, versioned summary. Every mode has `runs`, `violations` and
 * `firstViolatingSeed` (null when no run violated the invariant); the rest depends on the mode.
 * Nothing time-dependent is included, so the same command prints the same JSON.
 */
import { safeJson } from '../model/index.js';
import type { RunVerdict, SimulateOutcome } from '../sim/index.js';

export const SIM_JSON_SCHEMA_VERSION = 1;

export function renderSimulationJson(o: SimulateOutcome): string {
  return safeJson(simulationDocument(o));
}

/** The document of `atlevel simulate -o json` and `-o yaml` (report/formats.ts). */
export function simulationDocument(o: SimulateOutcome) {
  const common = { schemaVersion: SIM_JSON_SCHEMA_VERSION, mode: o.mode };
  const artifacts =
    'artifacts' in o && o.artifacts
      ? {
          dir: o.artifacts.dir,
          files: o.artifacts.files,
          seed: o.artifacts.seed,
          schedule: o.artifacts.schedule,
        }
      : null;
  let body: Record<string, unknown>;
  switch (o.mode) {
    case 'run': {
      const s = o.summary;
      body = {
        // Either invariant: the master pool's, or an operator's level before its operands (run.operandViolations).
        ...oneRun(s, s.violated || s.operandViolations.length > 0),
        schedule: o.schedule,
        ...judgedRun(o, s, artifacts),
      };
      break;
    }
    case 'seeds': {
      const e = o.exploration;
      body = {
        ...seedRange(e),
        operandViolations: e.operandViolations,
        firstViolatingSeed: e.firstViolatingSeed,
        violatingSeeds: e.violatingSeeds,
        detectedByTest: e.detectedByTest,
        otherTestFailures: e.otherTestFailures,
        operatorDegraded: e.operatorDegraded,
        cvoIncomplete: e.cvoIncomplete,
        artifacts,
        reproduce: o.reproduce,
      };
      break;
    }
    // The hosted model's modes read as `run` and `seeds` with `model: "hosted"`.
    case 'hosted-run': {
      const s = o.summary;
      body = { mode: 'run', model: 'hosted', ...oneRun(s, s.violated), ...judgedRun(o, s, artifacts) };
      break;
    }
    case 'hosted-seeds': {
      const e = o.exploration;
      body = {
        mode: 'seeds',
        model: 'hosted',
        ...seedRange(e),
        firstViolatingSeed: e.firstViolatingSeed,
        violatingSeeds: e.violatingSeeds,
        neverLevel: e.neverLevel,
        medianEarlyMs: e.medianEarlyMs,
        artifacts,
        reproduce: o.reproduce,
      };
      break;
    }
    case 'model-check': {
      const k = o.check;
      body = {
        scenario: k.scenario,
        policy: k.policy,
        // the distinct ends of the update, and those that broke an invariant on the way; no seed: untimed
        runs: k.terminalStates,
        violations: k.violatingTerminalStates,
        firstViolatingSeed: null,
        states: k.states,
        transitions: k.transitions,
        terminalStates: k.terminalStates,
        incompleteTerminalStates: k.incompleteTerminalStates,
        violatingStates: k.violatingStates,
        complete: k.complete,
        stoppedBy: k.stoppedBy,
        firstViolatingSchedule: k.firstViolatingSchedule ? k.firstViolatingSchedule.join(',') : null,
        firstViolation: k.firstViolation,
        maxDepth: k.maxDepth,
        maxBranching: k.maxBranching,
        reproduce: o.reproduce,
      };
      break;
    }
    case 'model-replay': {
      const r = o.replay;
      body = {
        scenario: r.scenario,
        policy: r.policy,
        runs: 1,
        violations: r.violations.length > 0 ? 1 : 0,
        firstViolatingSeed: null,
        schedule: o.schedule,
        violatedInvariants: r.violations,
        laterViolatedInvariants: r.laterViolations,
        completed: r.completed,
        trace: r.trace,
      };
      break;
    }
    case 'exhaustive': {
      const e = o.exploration;
      body = {
        scenario: e.scenario,
        policy: e.policy,
        seed: e.seed,
        runs: e.schedules,
        violations: e.violations,
        firstViolatingSeed: e.violations > 0 ? e.seed : null,
        complete: e.complete,
        pruned: e.pruned,
        firstViolatingSchedule: e.firstViolatingSchedule,
        firstSafeSchedule: e.firstSafeSchedule,
        maxSteps: e.maxSteps,
        maxCandidates: e.maxCandidates,
        artifacts,
        reproduce: o.reproduce,
      };
      break;
    }
  }
  return { ...common, ...body };
}

// The fields the timed and the hosted model share, in the order both documents print them.

/** One run: its seed is the first violating seed when it broke an invariant. */
function oneRun(s: { scenario: string; policy: string; seed: number }, violated: boolean) {
  return {
    scenario: s.scenario,
    policy: s.policy,
    seed: s.seed,
    runs: 1,
    violations: violated ? 1 : 0,
    firstViolatingSeed: violated ? s.seed : null,
  };
}

/** After one run's own fields: analyze's verdict on the run it wrote, the run, its artifacts, the command. */
function judgedRun<R>(
  o: { verdict: RunVerdict; reproduce: string },
  run: R,
  artifacts: Record<string, unknown> | null,
) {
  return {
    verdict: o.verdict.verdict,
    violatedRules: o.verdict.violated,
    notCheckedRules: o.verdict.notChecked,
    // Added: the rules that held on too little of what they judge (analyze's coverage.enough false).
    thinRules: o.verdict.thin,
    run,
    artifacts,
    reproduce: o.reproduce,
  };
}

/** The seeds an exploration ran, and how many of their runs broke an invariant. */
function seedRange(e: {
  scenario: string;
  policy: string;
  firstSeed: number;
  runs: number;
  violations: number;
}) {
  return {
    scenario: e.scenario,
    policy: e.policy,
    firstSeed: e.firstSeed,
    lastSeed: e.firstSeed + e.runs - 1,
    runs: e.runs,
    violations: e.violations,
  };
}
