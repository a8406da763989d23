/**
 * `atlevel simulate`: run the model of the update control loop (src/sim). One run prints what
 * happened and can be written as a CI run (`--artifacts DIR`); `--runs N` explores seeds; `--exhaustive`
 * model-checks every interleaving of every controller's steps (sim/check.ts), `--exhaustive
 * --race-window` the interleavings of the race window for one seed; `--schedule` replays a schedule
 * either printed (step names: the model checker's; numbers: the race window's).
 * Exit codes: one run exits with analyze's verdict on the run it wrote (0 pass, 1 fail, 4 inconclusive);
 * --runs and --exhaustive exit 0 when no run broke the invariant, 1 when some run did; 2 bad input.
 */
import { type Command, Option } from '@commander-js/extra-typings';
import cliProgress from 'cli-progress';
import { printable, UsageError } from '../model/index.js';
import { render, SIMULATE_FORMATS } from '../report/index.js';
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
import { verdictExit } from './analyze.js';
import { completeWith } from './complete-hints.js';
import { examplePath } from './examples.js';
import { EXIT, type ExitBox, type ExitCode } from './exit.js';
import { writeNotes } from './notes.js';
import { formatOption, textOnly, textSettings, widthOption } from './options.js';
import { emit } from './output.js';
import { verdictOfFiles, verdictOfRun } from './run-verdict.js';

/** Every built-in scenario: the update's (the CVO and the machine-config operator), then the hosted ones. */
const ALL_SCENARIOS = [...BUILTIN_SCENARIOS, ...HOSTED_SCENARIOS];
/** --policy's default: the update scenarios' pre-fix operator, the hosted scenarios' pre-fix NodePool controller. */
const DEFAULT_POLICY: PolicyName = 'pre-fix-2021';
const DEFAULT_HOSTED_POLICY = 'pre-fix-capi-v1beta1';
/** --exhaustive's default number of states (the model checker), and --race-window's of interleavings. */
const DEFAULT_BUDGET = '2000000';
const DEFAULT_RACE_BUDGET = '20000';

function simulateOptions(cmd: Command) {
  return (
    cmd
      .addOption(
        completeWith(
          new Option(
            '--scenario <name|file>',
            `a built-in scenario (${ALL_SCENARIOS.join(', ')}) or a scenario YAML file`,
          ).default('pause-image-only'),
          { words: ALL_SCENARIOS, files: true },
        ),
      )
      .addOption(
        // No commander default: the default depends on the scenario (update or hosted).
        new Option(
          '--policy <policy>',
          `the machine-config operator's required-pool validity check (default ${DEFAULT_POLICY}), or for the hosted scenarios the NodePool controller's completion check (${HOSTED_POLICY_NAMES.join(', ')}; default ${DEFAULT_HOSTED_POLICY})`,
        ).choices([...new Set<string>([...POLICY_NAMES, ...HOSTED_POLICY_NAMES])]),
      )
      .option('--seed <n>', 'seed of the run (the first seed with --runs)', '1')
      .option('--runs <n>', 'explore N seeds, from --seed on')
      .option(
        '--exhaustive',
        "model-check every interleaving of every controller's steps (untimed; visited states deduplicated)",
      )
      .option(
        '--keep-going',
        'with --exhaustive: search on after the first violation, to count every violating state',
      )
      .option(
        '--race-window',
        'with --exhaustive: only the interleavings of the race window, in the timed model, for --seed',
      )
      // No commander default: a --budget given without --exhaustive is refused, so it must be seen as given.
      .option(
        '--budget <n>',
        `with --exhaustive: visit at most N states (default ${DEFAULT_BUDGET}; with --race-window: run at most N interleavings, default ${DEFAULT_RACE_BUDGET})`,
      )
      .option(
        '--schedule <steps>',
        'replay one schedule printed by --exhaustive (comma-separated step names; comma-separated numbers: a --race-window schedule)',
      )
      .option(
        '--artifacts <dir>',
        'write the run as CI artifacts into DIR (with --runs/--exhaustive --race-window: the first violating run)',
      )
      .addOption(formatOption(SIMULATE_FORMATS, 'summary format'))
      .addOption(widthOption())
      .option('--out <file>', 'write the summary to FILE instead of stdout')
  );
}

type SimulateFlags = ReturnType<ReturnType<typeof simulateOptions>['opts']>;

export function defineSimulate(cmd: Command, exit: ExitBox): void {
  simulateOptions(cmd)
    .addHelpText(
      'after',
      "\nExit codes: one run: analyze's verdict on the run it wrote (0 pass, 1 fail, 4 inconclusive); --runs/--exhaustive: 0 no run broke the invariant, 1 some run did; 2 bad input or usage.\n" +
        'Examples:\n' +
        '  atlevel simulate --scenario pause-image-only --policy pre-fix-2021 --seed 1 --artifacts run-1\n' +
        '  atlevel simulate --scenario pause-image-only --policy fixed --runs 10000\n' +
        '  atlevel simulate --scenario nodepool-replace --policy pre-fix-capi-v1beta1 --runs 50\n' +
        `  atlevel simulate --scenario ${examplePath('scenarios/two-node-pause-image.yaml')} --exhaustive   (format: docs/simulate.md)\n` +
        `  atlevel simulate --scenario ${examplePath('scenarios/three-plus-three.yaml')} --policy fixed --exhaustive`,
    )
    .action(async (flags) => {
      exit.code = await runSimulate(flags);
    });
}

/**
 * The largest seed: the simulator's generator (sim/rng.ts) keeps a seed's low 32 bits, so a larger
 * one would name the same run as a smaller one.
 */
const MAX_SEED = 2 ** 32 - 1;

function positiveInt(flag: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(value))
    throw new UsageError(`${flag} wants a whole number, got ${JSON.stringify(value)}`);
  const n = Number(value);
  if (n < min) throw new UsageError(`${flag} must be at least ${min}, got ${value}`);
  if (!Number.isSafeInteger(n) || n > max)
    throw new UsageError(`${flag} must be at most ${max}, got ${printable(value, 40)}`);
  return n;
}

/**
 * A schedule is the model checker's (step names, `actor/step`) or the race window's (whole numbers,
 * the format before the model checker); one kind only.
 */
function parseSchedule(value: string): number[] | string[] {
  const parts = value.split(',').map((p) => p.trim());
  if (parts.every((p) => /^\d+$/.test(p))) return parts.map(Number);
  if (parts.every((p) => /^[a-z0-9][a-z0-9.-]*(\/[a-z0-9.-]+)+$/.test(p))) return parts;
  throw new UsageError(
    `--schedule wants comma-separated step names (as --exhaustive prints them) or comma-separated whole numbers (a --race-window schedule), got ${printable(JSON.stringify(value), 80)}`,
  );
}

function isRaceSchedule(schedule: number[] | string[]): schedule is number[] {
  return typeof schedule[0] === 'number';
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

/** A hosted scenario: one run (analyze's verdict on its dump) or many seeds. */
async function runHostedSimulate(
  flags: SimulateFlags,
  scenario: HostedScenario,
  seed: number,
  runs: number | undefined,
  settings: ReturnType<typeof textSettings>,
): Promise<ExitCode> {
  const given = flags.policy ?? DEFAULT_HOSTED_POLICY;
  if (!isHostedPolicyName(given))
    throw new UsageError(
      `--policy ${given} is the machine-config operator's; scenario ${scenario.name} takes ${HOSTED_POLICY_NAMES.join(', ')}`,
    );
  if (flags.exhaustive || flags.schedule !== undefined)
    throw new UsageError(
      `--exhaustive and --schedule explore the machine-config operator's race; scenario ${scenario.name} takes --seed and --runs`,
    );
  const policy = given;
  const base = { description: scenario.description, policySummary: HOSTED_POLICY_SUMMARIES[policy] };
  const reproduce = (s: number): string =>
    `atlevel simulate --scenario ${scenario.name} --policy ${policy} --seed ${s} --artifacts run-${s}`;
  let outcome: SimulateOutcome;
  if (runs !== undefined) {
    const started = performance.now();
    const bar = progressBar(runs, 'runs');
    const exploration = exploreHostedSeeds(scenario, policy, seed, runs, (n, v) => bar.tick(n, v));
    bar.stop();
    const elapsedMs = performance.now() - started;
    const pickSeed = exploration.firstViolatingSeed ?? seed;
    let artifacts: ArtifactsInfo | null = null;
    if (flags.artifacts) {
      const files = renderHostedDump(runHostedSimulation(scenario, policy, pickSeed, { record: true }));
      await writeRunFolder(flags.artifacts, files);
      artifacts = { dir: flags.artifacts, files: files.size, seed: pickSeed, schedule: null };
    }
    outcome = {
      mode: 'hosted-seeds',
      ...base,
      exploration,
      artifacts,
      reproduce: exploration.firstViolatingSeed !== null ? reproduce(exploration.firstViolatingSeed) : null,
      elapsedMs,
    };
    await emit(await render(SIMULATE_FORMATS, flags.output, outcome, settings), flags.out);
    return exploration.violations > 0 ? EXIT.failure : EXIT.ok;
  }
  const run = runHostedSimulation(scenario, policy, seed, { record: true });
  const judged = await verdictOfFiles(renderHostedDump(run), flags.artifacts);
  outcome = {
    mode: 'hosted-run',
    ...base,
    summary: summarizeHosted(run),
    verdict: judged.verdict,
    artifacts: flags.artifacts ? { dir: flags.artifacts, files: judged.files, seed, schedule: null } : null,
    reproduce: reproduce(seed),
  };
  await emit(await render(SIMULATE_FORMATS, flags.output, outcome, settings), flags.out);
  return verdictExit(judged.verdict.verdict);
}

/** replaySchedule of the user's --schedule: a schedule that does not fit the run is a usage error. */
function replayGiven(
  scenario: Scenario,
  policy: PolicyName,
  seed: number,
  schedule: readonly number[],
  given: string,
): ReturnType<typeof replaySchedule> {
  try {
    return replaySchedule(scenario, policy, seed, schedule, true);
  } catch (err) {
    if (err instanceof ScheduleError)
      throw new UsageError(
        `--schedule ${printable(given, 60)} does not fit this run (scenario, policy and seed as given): ${err.message}`,
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

function progressBar(
  total: number,
  label: string,
): { tick(done: number, violations: number): void; stop(): void } {
  if (!process.stderr.isTTY || total < 50) return { tick: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: `${label} [{bar}] {value}/{total} | violations {violations} | eta {eta_formatted}`,
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 200,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { violations: 0 });
  let last = 0;
  return {
    tick(done, violations) {
      if (done - last >= Math.max(1, Math.floor(total / 500)) || done === total) {
        last = done;
        bar.update(done, { violations });
      }
    },
    stop: () => bar.stop(),
  };
}

async function runSimulate(flags: SimulateFlags): Promise<ExitCode> {
  textOnly(flags.output, { '--width': flags.width });
  const settings = textSettings(flags);
  const seed = positiveInt('--seed', flags.seed, 0, MAX_SEED);
  const runs = flags.runs !== undefined ? positiveInt('--runs', flags.runs, 1) : undefined;
  if (runs !== undefined && seed + runs - 1 > MAX_SEED)
    throw new UsageError(
      `--seed ${seed} --runs ${runs} goes past the largest seed, ${MAX_SEED} (give fewer runs or a smaller --seed)`,
    );
  if (flags.budget !== undefined && !flags.exhaustive) throw new UsageError('--budget needs --exhaustive');
  if (flags.raceWindow && !flags.exhaustive) throw new UsageError('--race-window needs --exhaustive');
  if (flags.keepGoing && (!flags.exhaustive || flags.raceWindow))
    throw new UsageError(
      '--keep-going needs --exhaustive (the model checker; --race-window always runs every interleaving)',
    );
  const budget = positiveInt(
    '--budget',
    flags.budget ?? (flags.raceWindow ? DEFAULT_RACE_BUDGET : DEFAULT_BUDGET),
    1,
  );
  const parsed = flags.schedule !== undefined ? parseSchedule(flags.schedule) : undefined;
  if (runs !== undefined && flags.exhaustive)
    throw new UsageError('--runs and --exhaustive explore different things; give one');
  if (parsed && (runs !== undefined || flags.exhaustive))
    throw new UsageError('--schedule replays one run; it does not go with --runs or --exhaustive');
  const hosted = hostedScenario(flags.scenario);
  if (hosted) return runHostedSimulate(flags, hosted, seed, runs, settings);
  const modelChecking = (flags.exhaustive && !flags.raceWindow) || (parsed && !isRaceSchedule(parsed));
  if (modelChecking && flags.artifacts !== undefined)
    throw new UsageError(
      "--artifacts writes a run of the timed model; the model checker's states have no clock (docs/simulate.md): replay with --exhaustive --race-window or --seed instead",
    );
  const schedule = parsed && isRaceSchedule(parsed) ? parsed : undefined;
  const scenario = await loadScenario(flags.scenario);
  const policy = updatePolicy(flags.policy, flags.scenario);
  const base = { description: scenario.description, policySummary: POLICIES[policy].summary };
  let outcome: SimulateOutcome;
  let violated: boolean;

  if (modelChecking) {
    try {
      if (parsed && !isRaceSchedule(parsed)) {
        const replay = replayNamedSchedule(scenario, policy, parsed);
        outcome = { mode: 'model-replay', ...base, replay, schedule: parsed.join(',') };
        violated = replay.violations.length + replay.laterViolations.length > 0;
      } else {
        // --budget counted race-window interleavings until --exhaustive became the model checker
        // (README changelog, issue 40): a number sized for those now caps states, so say so.
        if (flags.budget !== undefined)
          writeNotes([
            `--budget with --exhaustive now counts the model checker's states (at most ${budget} here); it used to count the race window's interleavings, which --exhaustive --race-window --budget ${budget} still runs`,
          ]);
        const bar = progressBar(budget, 'states');
        const check = checkModel(scenario, policy, {
          budget,
          keepGoing: flags.keepGoing === true,
          onProgress: (n, v) => bar.tick(n, v),
        });
        bar.stop();
        const first = check.firstViolatingSchedule;
        outcome = {
          mode: 'model-check',
          ...base,
          check,
          reproduce: first
            ? `atlevel simulate --scenario ${shellWord(flags.scenario)} --policy ${policy} --schedule ${first.join(',')}`
            : null,
        };
        violated = check.violatingTerminalStates > 0 || Object.keys(check.violatingStates).length > 0;
      }
    } catch (err) {
      if (err instanceof UncheckableScenario)
        throw new UsageError(`--scenario ${printable(flags.scenario, 60)}: ${err.message}`);
      if (err instanceof NamedScheduleError)
        throw new UsageError(
          `--schedule ${printable(flags.schedule ?? '', 60)} does not fit this scenario and policy: ${err.message}`,
        );
      throw err;
    }
  } else if (flags.exhaustive) {
    const started = performance.now();
    const bar = progressBar(budget, 'interleavings');
    const exploration = exploreExhaustive(scenario, policy, seed, budget, (n, v) => bar.tick(n, v));
    bar.stop();
    const elapsedMs = performance.now() - started;
    const pick = exploration.firstViolatingSchedule ?? exploration.firstSafeSchedule;
    const artifacts =
      flags.artifacts && pick
        ? await write(replaySchedule(scenario, policy, seed, pick, true), flags.artifacts, compact(pick))
        : null;
    outcome = {
      mode: 'exhaustive',
      ...base,
      exploration,
      artifacts,
      reproduce: exploration.firstViolatingSchedule
        ? reproduceCommand(flags.scenario, policy, seed, exploration.firstViolatingSchedule)
        : null,
      elapsedMs,
    };
    violated = exploration.violations > 0;
  } else if (runs !== undefined) {
    const started = performance.now();
    const bar = progressBar(runs, 'runs');
    const exploration = exploreSeeds(scenario, policy, seed, runs, (n, v) => bar.tick(n, v));
    bar.stop();
    const elapsedMs = performance.now() - started;
    const pickSeed = exploration.firstViolatingSeed ?? seed;
    const artifacts = flags.artifacts
      ? await write(runSimulation(scenario, policy, pickSeed, { record: true }), flags.artifacts, null)
      : null;
    outcome = {
      mode: 'seeds',
      ...base,
      exploration,
      artifacts,
      reproduce:
        exploration.firstViolatingSeed !== null
          ? reproduceCommand(flags.scenario, policy, exploration.firstViolatingSeed)
          : null,
      elapsedMs,
    };
    violated = exploration.violations > 0;
  } else {
    // The run is always recorded: its verdict is analyze's verdict on the artifacts it writes.
    const run = schedule
      ? replayGiven(scenario, policy, seed, schedule, flags.schedule ?? '')
      : runSimulation(scenario, policy, seed, { record: true });
    const judged = await verdictOfRun(run, flags.artifacts);
    const artifacts = flags.artifacts
      ? {
          dir: flags.artifacts,
          files: judged.files,
          seed: run.seed,
          schedule: schedule ? compact(schedule) : null,
        }
      : null;
    const summary = summarize(run);
    outcome = {
      mode: 'run',
      ...base,
      summary,
      verdict: judged.verdict,
      schedule: schedule ? compact(schedule) : null,
      artifacts,
      reproduce: reproduceCommand(flags.scenario, policy, seed, schedule),
    };
    await emit(await render(SIMULATE_FORMATS, flags.output, outcome, settings), flags.out);
    return verdictExit(judged.verdict.verdict);
  }

  await emit(await render(SIMULATE_FORMATS, flags.output, outcome, settings), flags.out);
  return violated ? EXIT.failure : EXIT.ok;
}
