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
import {
  ALL_SCENARIOS,
  DEFAULT_HOSTED_POLICY,
  DEFAULT_POLICY,
  type SimulateMode,
  type SimulateProgress,
  type SimulateRequest,
  simulate,
} from '../app/simulate.js';
import { printable, UsageError } from '../model/index.js';
import { render, SIMULATE_FORMATS } from '../report/index.js';
import { HOSTED_POLICY_NAMES, POLICY_NAMES } from '../sim/index.js';
import { completeWith } from './complete-hints.js';
import { examplePath } from './examples.js';
import { type ExitBox, type ExitCode, exitOf } from './exit.js';
import { writeNotes } from './notes.js';
import { formatOption, textOnly, textSettings, widthOption } from './options.js';
import { emit } from './output.js';

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

function progressBar(label: string, total: number): SimulateProgress {
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

/** The request the flags ask for: every flag checked, and checked against the others, before anything runs. */
export function simulateRequest(flags: SimulateFlags): SimulateRequest {
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
  const schedule = flags.schedule !== undefined ? parseSchedule(flags.schedule) : undefined;
  if (runs !== undefined && flags.exhaustive)
    throw new UsageError('--runs and --exhaustive explore different things; give one');
  if (schedule && (runs !== undefined || flags.exhaustive))
    throw new UsageError('--schedule replays one run; it does not go with --runs or --exhaustive');
  const mode: SimulateMode = flags.exhaustive
    ? flags.raceWindow
      ? { kind: 'race-window', budget }
      : { kind: 'model-check', budget, keepGoing: flags.keepGoing === true }
    : runs !== undefined
      ? { kind: 'seeds', runs }
      : schedule === undefined
        ? { kind: 'run' }
        : typeof schedule[0] === 'number'
          ? { kind: 'run', schedule: schedule as number[] }
          : { kind: 'model-replay', schedule: schedule as string[] };
  return {
    scenario: flags.scenario,
    ...(flags.policy !== undefined ? { policy: flags.policy } : {}),
    seed,
    mode,
    ...(flags.artifacts !== undefined ? { artifacts: flags.artifacts } : {}),
  };
}

async function runSimulate(flags: SimulateFlags): Promise<ExitCode> {
  textOnly(flags.output, { '--width': flags.width });
  const settings = textSettings(flags);
  const result = await simulate(simulateRequest(flags), {
    progress: progressBar,
    onStart: (mode) => {
      // --budget counted race-window interleavings until --exhaustive became the model checker
      // (README changelog, issue 40): a number sized for those now caps states, so say so.
      if (mode.kind === 'model-check' && flags.budget !== undefined)
        writeNotes([
          `--budget with --exhaustive now counts the model checker's states (at most ${mode.budget} here); it used to count the race window's interleavings, which --exhaustive --race-window --budget ${mode.budget} still runs`,
        ]);
    },
  });
  await emit(await render(SIMULATE_FORMATS, flags.output, result.report, settings), flags.out);
  return exitOf(result.conclusion);
}
