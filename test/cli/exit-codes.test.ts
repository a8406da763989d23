/**
 * Exit codes in one place: each typed error a use case or the command line throws ends in its code
 * (report-error.ts), anything else is a bug (3); each conclusion a use case returns ends in its code
 * (exit.ts), and --exit-zero makes every conclusion 0. README.md, "Exit codes", documents the same.
 */
import { CommanderError } from '@commander-js/extra-typings';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { verdictConclusion } from '../../src/app/conclusion.js';
import { EXIT, exitOf } from '../../src/cli/exit.js';
import { exitCodeOf, reportError } from '../../src/cli/report-error.js';
import { InputError, UsageError } from '../../src/model/index.js';
import { ScheduleError } from '../../src/sim/index.js';
import { OutsideSpanError } from '../../src/timeline/index.js';

afterEach(() => vi.restoreAllMocks());

describe('errors to exit codes', () => {
  it.each([
    ['an InputError', new InputError('run/clusterversion.json', 'not JSON'), 2],
    ['a UsageError', new UsageError('--at needs --pool'), 2],
    [
      'commander refusing an option',
      new CommanderError(1, 'commander.unknownOption', "unknown option '--x'"),
      2,
    ],
    [
      'commander printing asked-for help',
      new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'),
      0,
    ],
    ['commander printing the version', new CommanderError(0, 'commander.version', '0.1.0'), 0],
    ['commander printing help nobody asked for', new CommanderError(1, 'commander.help', '(outputHelp)'), 2],
    ['a plain Error', new Error('boom'), 3],
    ['a TypeError', new TypeError('x is undefined'), 3],
    // Typed errors of inner layers are not the user's to act on until a use case says what they mean.
    ['an OutsideSpanError not turned into an InputError', new OutsideSpanError(0, undefined), 3],
    ['a ScheduleError not turned into a UsageError', new ScheduleError('no such choice'), 3],
    ['a thrown string', 'boom', 3],
    ['undefined', undefined, 3],
  ])('%s: its exit code', (_what, err, code) => {
    expect(exitCodeOf(err)).toBe(code);
  });

  it('reportError prints one line for bad input and says a bug is a bug', () => {
    const writes: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
      writes.push(String(s));
      return true;
    });
    expect(reportError(new InputError('a.json', 'truncated', 'fetch it again'))).toBe(EXIT.usage);
    expect(writes.join('')).toBe('atlevel: a.json: truncated (fetch it again)\n');
    writes.length = 0;
    expect(reportError(new Error('oops\nsecond line'))).toBe(EXIT.internal);
    expect(writes.join('')).toMatch(/^atlevel: internal error: oops second line\nThis is a bug in atlevel/);
  });

  it('a closed pipe (EPIPE) ends quietly with 0', () => {
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(reportError(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toBe(EXIT.ok);
    expect(spy).not.toHaveBeenCalled();
  });
});

describe('conclusions to exit codes', () => {
  it('ok 0, failure 1, inconclusive 4', () => {
    expect(exitOf('ok')).toBe(0);
    expect(exitOf('failure')).toBe(1);
    expect(exitOf('inconclusive')).toBe(4);
  });

  it('--exit-zero makes every conclusion 0', () => {
    for (const c of ['ok', 'failure', 'inconclusive'] as const) expect(exitOf(c, true)).toBe(0);
  });
});

describe('verdicts to conclusions', () => {
  it('fail is a failure, inconclusive inconclusive, pass and no-update ok (README, "Exit codes")', () => {
    expect(verdictConclusion('fail')).toBe('failure');
    expect(verdictConclusion('inconclusive')).toBe('inconclusive');
    expect(verdictConclusion('pass')).toBe('ok');
    expect(verdictConclusion('no-update')).toBe('ok');
  });
});
