/**
 * The `simulate` use case: run the model of the update control loop (src/sim). One run is judged by
 * analyze's verdict on the CI run it writes; N seeds, the race window's interleavings and the model
 * checker explore many and conclude a failure when some run broke the invariant; a schedule printed
 * by either is replayed. Progress goes through a callback; nothing is printed.
 */
import { printable, UsageError } from '../model/index.js';
import {
  type ArtifactsInfo,
  BUILTIN_SCENARIOS,
  builtinScenario,
  checkModel,
  exploreExhaustive,
  exploreHostedSeeds,
  exploreSeeds,
  HOSTED_POLICY_NAMES,
  HOSTED_POLICY_SUMMARIES,
  HOSTED_SCENARIOS,
  type HostedScenario,
  hostedScenario,
  isHostedPolicyName,
  isPolicyName,
  loadScenarioFile,
  NamedScheduleError,
  POLICIES,
  POLICY_NAMES,
  type PolicyName,
  type RunResult,
  renderArtifacts,
  renderHostedDump,
  replayNamedSchedule,
  replaySchedule,
  runHostedSimulation,
  runSimulation,
  type Scenario,
  ScheduleError,
  type SimulateOutcome,
  summarize,
  summarizeHosted,
  UncheckableScenario,
} from '../sim/index.js';
import { writeRunFolder } from '../writer/index.js';
import { type Conclusion, verdictConclusion } from './conclusion.js';
import { verdictOfFiles, verdictOfRun } from './run-verdict.js';

/** Every built-in scenario: the update's (the CVO and the machine-config operator), then the hosted ones. */
export const ALL_SCENARIOS: readonly string[] = [...BUILTIN_SCENARIOS, ...HOSTED_SCENARIOS];
/** The policy when none is given: the update scenarios' pre-fix operator, the hosted scenarios' pre-fix NodePool controller. */
export const DEFAULT_POLICY: PolicyName = 'pre-fix-2021';
export const DEFAULT_HOSTED_POLICY = 'pre-fix-capi-v1beta1';

/** What to run (docs/simulate.md); each is one of simulate's modes. */
export type SimulateMode =
  /** One run of the timed model, or of a race-window schedule when `schedule` is given. */
  | { readonly kind: 'run'; readonly schedule?: readonly number[] }
  /** `runs` seeds from the request's seed on. */
  | { readonly kind: 'seeds'; readonly runs: number }
  /** The model checker: every interleaving of every controller's steps, at most `budget` states. */
  | { readonly kind: 'model-check'; readonly budget: number; readonly keepGoing: boolean }
  /** Replay one schedule the model checker printed (step names). */
  | { readonly kind: 'model-replay'; readonly schedule: readonly string[] }
  /** Every interleaving of the race window in the timed model, at most `budget`. */
  | { readonly kind: 'race-window'; readonly budget: number };

export interface SimulateRequest {
  /** A built-in scenario's name (ALL_SCENARIOS) or a scenario YAML file. */
  readonly scenario: string;
  /** The machine-config operator's policy, or a hosted scenario's NodePool controller's; the default when absent. */
  readonly policy?: string;
  readonly seed: number;
  readonly mode: SimulateMode;
  /** Write the run (the first violating one when exploring) as CI artifacts into this folder. */
  readonly artifacts?: string;
}

/** A progress meter the caller draws: made for each exploration with its total, ticked, stopped. */
export interface SimulateProgress {
  tick(done: number, violations: number): void;
  stop(): void;
}

export interface SimulateEvents {
  readonly progress?: (label: 'runs' | 'states' | 'interleavings', total: number) => SimulateProgress;
  /** Once the request was found to make sense (scenario read, policy and mode fit), just before it runs. */
  readonly onStart?: (mode: SimulateMode) => void;
}

export interface SimulateResult {
  /** What the reporters print (the sim's outcome of the mode run). */
  readonly report: SimulateOutcome;
  /** One run: analyze's verdict on it; an exploration: a failure when some run broke the invariant. */
  readonly conclusion: Conclusion;
}

const NO_PROGRESS: SimulateProgress = { tick: () => undefined, stop: () => undefined };

export async function simulate(
  request: SimulateRequest,
  events: SimulateEvents = {},
): Promise<SimulateResult> {
  const progress = (label: 'runs' | 'states' | 'interleavings', total: number) =>
    events.progress?.(label, total) ?? NO_PROGRESS;
  const hosted = hostedScenario(request.scenario);
  if (hosted) return simulateHosted(request, hosted, progress, events);
  const { mode } = request;
  if ((mode.kind === 'model-check' || mode.kind === 'model-replay') && request.artifacts !== undefined)
    throw new UsageError(
      "--artifacts writes a run of the timed model; the model checker's states have no clock (docs/simulate.md): replay with --exhaustive --race-window or --seed instead",
    );
  const scenario = await loadScenario(request.scenario);
  const policy = updatePolicy(request.policy, request.scenario);
  const base = { description: scenario.description, policySummary: POLICIES[policy].summary };
  const { seed } = request;
  const dir = request.artifacts;
  events.onStart?.(mode);

  switch (mode.kind) {
    case 'model-replay':
    case 'model-check':
      return modelCheck(request, mode, scenario, policy, base, progress);
    case 'race-window': {
      const started = performance.now();
      const bar = progress('interleavings', mode.budget);
      const exploration = exploreExhaustive(scenario, policy, seed, mode.budget, (n, v) => bar.tick(n, v));
      bar.stop();
      const elapsedMs = performance.now() - started;
      const pick = exploration.firstViolatingSchedule ?? exploration.firstSafeSchedule;
      const artifacts =
        dir && pick
          ? await write(replaySchedule(scenario, policy, seed, pick, true), dir, compact(pick))
          : null;
      return explored(exploration.violations, {
        mode: 'exhaustive',
        ...base,
        exploration,
        artifacts,
        reproduce: exploration.firstViolatingSchedule
          ? reproduceCommand(request.scenario, policy, seed, exploration.firstViolatingSchedule)
          : null,
        elapsedMs,
      });
    }
    case 'seeds': {
      const started = performance.now();
      const bar = progress('runs', mode.runs);
      const exploration = exploreSeeds(scenario, policy, seed, mode.runs, (n, v) => bar.tick(n, v));
      bar.stop();
      const elapsedMs = performance.now() - started;
      const pickSeed = exploration.firstViolatingSeed ?? seed;
      const artifacts = dir
        ? await write(runSimulation(scenario, policy, pickSeed, { record: true }), dir, null)
        : null;
      return explored(exploration.violations, {
        mode: 'seeds',
        ...base,
        exploration,
        artifacts,
        reproduce:
          exploration.firstViolatingSeed !== null
            ? reproduceCommand(request.scenario, policy, exploration.firstViolatingSeed)
            : null,
        elapsedMs,
      });
    }
    case 'run': {
      const schedule = mode.schedule;
      // The run is always recorded: its verdict is analyze's verdict on the artifacts it writes.
      const run = schedule
        ? replayGiven(scenario, policy, seed, schedule)
        : runSimulation(scenario, policy, seed, { record: true });
      const judged = await verdictOfRun(run, dir);
      const artifacts = dir
        ? { dir, files: judged.files, seed: run.seed, schedule: schedule ? compact(schedule) : null }
        : null;
      return {
        report: {
          mode: 'run',
          ...base,
          summary: summarize(run),
          verdict: judged.verdict,
          schedule: schedule ? compact(schedule) : null,
          artifacts,
          reproduce: reproduceCommand(request.scenario, policy, seed, schedule),
        },
        conclusion: verdictConclusion(judged.verdict.verdict),
      };
    }
  }
}

function explored(violations: number, report: SimulateOutcome): SimulateResult {
  return { report, conclusion: violations > 0 ? 'failure' : 'ok' };
}

type Progress = (label: 'runs' | 'states' | 'interleavings', total: number) => SimulateProgress;

/** The model checker, or the replay of one schedule it printed. */
function modelCheck(
  request: SimulateRequest,
  mode: Extract<SimulateMode, { kind: 'model-check' | 'model-replay' }>,
  scenario: Scenario,
  policy: PolicyName,
  base: { description: string; policySummary: string },
  progress: Progress,
): SimulateResult {
  try {
    if (mode.kind === 'model-replay') {
      const replay = replayNamedSchedule(scenario, policy, [...mode.schedule]);
      return {
        report: { mode: 'model-replay', ...base, replay, schedule: mode.schedule.join(',') },
        conclusion: replay.violations.length + replay.laterViolations.length > 0 ? 'failure' : 'ok',
      };
    }
    const bar = progress('states', mode.budget);
    const check = checkModel(scenario, policy, {
      budget: mode.budget,
      keepGoing: mode.keepGoing,
      onProgress: (n, v) => bar.tick(n, v),
    });
    bar.stop();
    const first = check.firstViolatingSchedule;
    return {
      report: {
        mode: 'model-check',
        ...base,
        check,
        reproduce: first
          ? `atlevel simulate --scenario ${shellWord(request.scenario)} --policy ${policy} --schedule ${first.join(',')}`
          : null,
      },
      conclusion:
        check.violatingTerminalStates > 0 || Object.keys(check.violatingStates).length > 0 ? 'failure' : 'ok',
    };
  } catch (err) {
    if (err instanceof UncheckableScenario)
      throw new UsageError(`--scenario ${printable(request.scenario, 60)}: ${err.message}`);
    if (err instanceof NamedScheduleError)
      throw new UsageError(
        `--schedule ${printable(mode.kind === 'model-replay' ? mode.schedule.join(',') : '', 60)} does not fit this scenario and policy: ${err.message}`,
      );
    throw err;
  }
}

/** A hosted scenario: one run (analyze's verdict on its dump) or many seeds. */
async function simulateHosted(
  request: SimulateRequest,
  scenario: HostedScenario,
  progress: Progress,
  events: SimulateEvents,
): Promise<SimulateResult> {
  const given = request.policy ?? DEFAULT_HOSTED_POLICY;
  if (!isHostedPolicyName(given))
    throw new UsageError(
      `--policy ${given} is the machine-config operator's; scenario ${scenario.name} takes ${HOSTED_POLICY_NAMES.join(', ')}`,
    );
  const { mode, seed } = request;
  if (mode.kind !== 'run' && mode.kind !== 'seeds') throw hostedModes(scenario);
  if (mode.kind === 'run' && mode.schedule !== undefined) throw hostedModes(scenario);
  const policy = given;
  const dir = request.artifacts;
  events.onStart?.(mode);
  const base = { description: scenario.description, policySummary: HOSTED_POLICY_SUMMARIES[policy] };
  const reproduce = (s: number): string =>
    `atlevel simulate --scenario ${scenario.name} --policy ${policy} --seed ${s} --artifacts run-${s}`;
  if (mode.kind === 'seeds') {
    const started = performance.now();
    const bar = progress('runs', mode.runs);
    const exploration = exploreHostedSeeds(scenario, policy, seed, mode.runs, (n, v) => bar.tick(n, v));
    bar.stop();
    const elapsedMs = performance.now() - started;
    const pickSeed = exploration.firstViolatingSeed ?? seed;
    let artifacts: ArtifactsInfo | null = null;
    if (dir) {
      const files = renderHostedDump(runHostedSimulation(scenario, policy, pickSeed, { record: true }));
      await writeRunFolder(dir, files);
      artifacts = { dir, files: files.size, seed: pickSeed, schedule: null };
    }
    return explored(exploration.violations, {
      mode: 'hosted-seeds',
      ...base,
      exploration,
      artifacts,
      reproduce: exploration.firstViolatingSeed !== null ? reproduce(exploration.firstViolatingSeed) : null,
      elapsedMs,
    });
  }
  const run = runHostedSimulation(scenario, policy, seed, { record: true });
  const judged = await verdictOfFiles(renderHostedDump(run), dir);
  return {
    report: {
      mode: 'hosted-run',
      ...base,
      summary: summarizeHosted(run),
      verdict: judged.verdict,
      artifacts: dir ? { dir, files: judged.files, seed, schedule: null } : null,
      reproduce: reproduce(seed),
    },
    conclusion: verdictConclusion(judged.verdict.verdict),
  };
}

function hostedModes(scenario: HostedScenario): UsageError {
  return new UsageError(
    `--exhaustive and --schedule explore the machine-config operator's race; scenario ${scenario.name} takes --seed and --runs`,
  );
}

async function loadScenario(arg: string): Promise<Scenario> {
  const builtin = builtinScenario(arg);
  if (builtin) return builtin;
  if (/\.ya?ml$/i.test(arg) || arg.includes('/')) return loadScenarioFile(arg);
  throw new UsageError(
    `unknown scenario ${JSON.stringify(arg)} (built in: ${ALL_SCENARIOS.join(', ')}; or give a .yaml file)`,
  );
}

/** The update scenarios' policy: one of POLICY_NAMES (a hosted policy is refused with the choices). */
function updatePolicy(given: string | undefined, scenario: string): PolicyName {
  if (given === undefined) return DEFAULT_POLICY;
  if (isPolicyName(given)) return given;
  throw new UsageError(
    `--policy ${given} is a hosted NodePool policy; scenario ${scenario} takes ${POLICY_NAMES.join(', ')}`,
  );
}

/** replaySchedule of a given race-window schedule: one that does not fit the run is a usage error. */
function replayGiven(
  scenario: Scenario,
  policy: PolicyName,
  seed: number,
  schedule: readonly number[],
): ReturnType<typeof replaySchedule> {
  try {
    return replaySchedule(scenario, policy, seed, schedule, true);
  } catch (err) {
    if (err instanceof ScheduleError)
      throw new UsageError(
        `--schedule ${printable(schedule.join(','), 60)} does not fit this run (scenario, policy and seed as given): ${err.message}`,
      );
    throw err;
  }
}

/** Drop trailing zeros: replay takes the first choice wherever the schedule says nothing. */
function compact(schedule: readonly number[]): number[] {
  const out = [...schedule];
  while (out.length > 0 && out[out.length - 1] === 0) out.pop();
  return out;
}

function shellWord(arg: string): string {
  return /^[\w./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}

function reproduceCommand(
  scenarioArg: string,
  policy: PolicyName,
  seed: number,
  schedule?: readonly number[],
): string {
  const scenario = shellWord(scenarioArg);
  const sched = schedule ? ` --schedule ${compact(schedule).join(',') || '0'}` : '';
  return `atlevel simulate --scenario ${scenario} --policy ${policy} --seed ${seed}${sched} --artifacts run-${seed}`;
}

async function write(
  run: RunResult,
  dir: string,
  schedule: readonly number[] | null,
): Promise<ArtifactsInfo> {
  const files = renderArtifacts(run);
  await writeRunFolder(dir, files);
  return { dir, files: files.size, seed: run.seed, schedule };
}
