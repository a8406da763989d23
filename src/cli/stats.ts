/**
 * `atlevel stats`: what the run store says across runs (docs/runs.md): failure rate per rule by
 * stream, platform and week, runs by signature, changed components and the race, duration
 * percentiles. Exit codes: 0 the figures were printed, 2 bad flags or no store there, 3 internal error.
 */
import { type Command, Option } from '@commander-js/extra-typings';
import { storeSpec } from '../app/ingest.js';
import { type StatsRequest, stats } from '../app/stats.js';
import { RULE_IDS } from '../invariants/index.js';
import { parseMoment, UsageError } from '../model/index.js';
import { render } from '../report/index.js';
import { STATS_FORMATS, type StatsFilter } from '../stats/index.js';
import { defaultDbPath, isPostgresUrl } from '../store/index.js';
import { completeWith } from './complete-hints.js';
import { type ExitBox, exitOf } from './exit.js';
import { formatOption, textOnly, textSettings, widthOption } from './options.js';
import { checkOutFileOutside, emit } from './output.js';

const UNITS: Readonly<Record<string, number>> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * `2021-11-01` (midnight UTC), an RFC 3339 time (`2021-11-01T12:30:00Z`), or `30d` / `4w` / `12h`
 * before now. Read as status --at reads a time (model/time.ts parseMoment): no date that does not
 * exist rolled into the next month, no time without its zone read in this machine's.
 */
export function parseSince(text: string, now: number): number {
  const rel = /^(\d+)([hdw])$/.exec(text.trim());
  if (rel) return now - Number(rel[1]) * (UNITS[rel[2] as string] ?? 0);
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const read = parseMoment(day ? `${text}T00:00:00Z` : text);
  if ('at' in read) return read.at;
  // A time that parses but is wrong (no zone, no such date) says so; anything else gets the forms.
  const specific = /^\d{4}-\d{2}-\d{2}/.test(text) && !read.problem.startsWith('give ');
  throw new UsageError(
    `--since ${JSON.stringify(text)}: ${specific ? read.problem : 'want a date (2021-11-01), an RFC 3339 time (2021-11-01T12:30:00Z) or an age (30d, 4w, 12h)'}`,
  );
}

/** `4.9→4.10`, `4.9->4.10`, `4.9-4.10` or `4.9:4.10` → `4.9→4.10`. */
export function parseStream(text: string): string {
  const m = /^\s*(\d+\.\d+)\s*(?:→|->|-|:)\s*(\d+\.\d+)\s*$/.exec(text);
  if (!m)
    throw new UsageError(`--stream ${JSON.stringify(text)}: want FROM→TO minors, e.g. 4.9→4.10 or 4.9-4.10`);
  return `${m[1]}→${m[2]}`;
}

export function defineStats(cmd: Command, exit: ExitBox): void {
  cmd
    .option('--db <path|url>', `the run store: a PGlite folder or postgres://… (default ${defaultDbPath()})`)
    .addOption(formatOption(STATS_FORMATS))
    .option('--out <file>', 'write to FILE instead of stdout')
    .addOption(widthOption())
    .option(
      '--since <when>',
      'only runs whose update started since: a date (UTC), an RFC 3339 time, or an age (30d, 4w)',
    )
    .option('--job <pattern...>', 'only these jobs (* matches anything)')
    .option('--stream <from→to...>', 'only these version streams, e.g. 4.9→4.10 (or 4.9-4.10)')
    .addOption(
      // Completes today's rule ids; a store may hold runs of retired ones too, which stay accepted.
      completeWith(
        new Option('--rule <id...>', 'only these rules (the first one is the race in the components table)'),
        { words: RULE_IDS },
      ),
    )
    .option(
      '--operators',
      "also each ClusterOperator's level report after the update's start (slower on big stores)",
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 printed, 2 bad flags or no run store, 3 internal error.\nExample: atlevel stats --stream 4.9-4.10 --since 30d -o html --out stats.html',
    )
    .action(async (flags) => {
      textOnly(flags.output, { '--width': flags.width });
      // The flags first: a mistyped filter is said as such, whether or not a store is there.
      const filter: StatsFilter = {
        ...(flags.since !== undefined ? { since: parseSince(flags.since, Date.now()) } : {}),
        ...(flags.job ? { jobs: flags.job } : {}),
        ...(flags.stream ? { streams: flags.stream.map(parseStream) } : {}),
        ...(flags.rule ? { rules: flags.rule } : {}),
      };
      const request: StatsRequest = {
        ...(flags.db !== undefined ? { db: flags.db } : {}),
        filter,
        operators: flags.operators === true,
      };
      // Before the store is opened and read: a report renamed over one of its files would destroy it.
      const spec = storeSpec(request);
      if (!isPostgresUrl(spec) && flags.out !== undefined && flags.out !== '-')
        checkOutFileOutside(
          flags.out,
          '--out',
          spec,
          flags.db !== undefined ? '--db' : process.env.ATLEVEL_DB ? 'ATLEVEL_DB' : 'the default run store',
        );
      const outcome = await stats(request);
      await emit(await render(STATS_FORMATS, flags.output, outcome.stats, textSettings(flags)), flags.out);
      exit.code = exitOf(outcome.conclusion);
    });
}
