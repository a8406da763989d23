/**
 * Options several commands share, built from one definition each so that their names, help and
 * checks agree everywhere: `-o` (from the command's reporter record), `--width`, and the rule that a
 * text-only flag given with another format is an error rather than silently ignored, and the moment
 * flags (`--at`), read and refused the same way by every command that takes one.
 */
import { Option } from '@commander-js/extra-typings';
import { type Millis, parseMoment, printable, UsageError } from '../model/index.js';
import { formatsOf, type Reporters, type TextSettings } from '../report/index.js';
import { useColour } from './output.js';

/** Width for text that does not go to a terminal: wide enough that tables keep one line per row. */
const PIPE_WIDTH = 200;

/** `-o, --output FORMAT`, its choices the keys of the command's reporter record, `text` by default. */
export function formatOption<R extends Reporters<never, never>>(reporters: R, what = 'report format') {
  return new Option('-o, --output <format>', what)
    .choices(formatsOf(reporters))
    .default('text' as keyof R & string);
}

export function widthOption() {
  return new Option(
    '--width <columns>',
    `text output: wrap to this many columns (default: the terminal width, ${PIPE_WIDTH} in a pipe)`,
  );
}

/** Flags that only shape text: given with another format they would do nothing, so they are refused. */
export function textOnly(format: string, flags: Readonly<Record<string, unknown>>): void {
  if (format === 'text') return;
  const given = Object.entries(flags).filter(([, v]) => v !== undefined && v !== false);
  if (given.length > 0) {
    const names = given.map(([k]) => k).join(' and ');
    throw new UsageError(
      `${names} shape${given.length === 1 ? 's' : ''} text output only; drop it or use -o text`,
    );
  }
}

/** Colour on a terminal only (never into --out), and the width to fit. */
export function textSettings(flags: { out?: string | undefined; width?: string | undefined }): TextSettings {
  return { colour: flags.out === undefined && useColour(), width: textWidth(flags.width) };
}

function textWidth(value: string | undefined): number {
  if (value !== undefined) {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 40 || n > 1000) {
      throw new UsageError(
        `--width ${JSON.stringify(value)} must be a whole number of columns from 40 to 1000`,
      );
    }
    return n;
  }
  return process.stdout.isTTY && process.stdout.columns ? process.stdout.columns : PIPE_WIDTH;
}

/**
 * The value of a flag that names a moment (`status --at`, `serve --at`, `diff --at`): an RFC 3339
 * time (model/time.ts, parseMoment), or a usage error naming the flag, the value and what is wrong.
 */
export function momentFlag(flag: string, value: string): Millis {
  const moment = parseMoment(value);
  if ('problem' in moment) {
    throw new UsageError(`${flag} ${JSON.stringify(printable(value, 60))} is not a time: ${moment.problem}`);
  }
  return moment.at;
}
