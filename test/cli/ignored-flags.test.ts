import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectUsageErrorInProcess } from '../helpers/cli.js';
import { projectRoot } from '../helpers/fixtures.js';
import { atlevel, expectUsageError } from '../helpers/spawn-cli.js';

const example = join(projectRoot, 'examples/bug-2019850');
const release = join(example, 'release/release-to.json');

// The refusals run in-process, but for simulate --budget's and serve's (the built CLI, as a user runs it).
describe('flags that would be ignored are refused', () => {
  it('simulate --budget without --exhaustive', () => {
    expectUsageError(['simulate', '--budget', '5'], /--budget needs --exhaustive/);
    expect(atlevel('simulate', '--budget', '5', '--exhaustive', '-o', 'json').code).not.toBe(2);
  });
  it('serve --speed and --start-after without --replay (refused before it listens)', () => {
    expectUsageError(['serve', example, '--speed', '5'], /--speed needs --replay/);
    expectUsageError(['serve', example, '--start-after', '5'], /--start-after needs --replay/);
    // Number() would read these as 0, 16 and 1000.
    expectUsageError(
      ['serve', example, '--replay', '--start-after', ''],
      /--start-after "": expected a number/,
    );
    expectUsageError(
      ['serve', example, '--replay', '--start-after', '0x10'],
      /--start-after "0x10": expected/,
    );
    expectUsageError(['serve', example, '--replay', '--speed', '1e3'], /--speed "1e3": expected a positive/);
    expectUsageError(['serve', example, '--port', '0x50'], /--port "0x50": expected 0-65535/);
  });
  it('release info --width with a lookup, whose answer is never wrapped', async () => {
    await expectUsageErrorInProcess(
      ['release', 'info', release, '--image-for', 'pod', '--width', '40'],
      /--width .* --image-for/,
    );
    await expectUsageErrorInProcess(
      ['release', 'info', release, '--component-for', 'sha256:0adaefcf3675', '--width', '40'],
      /--width .* --component-for/,
    );
  });
  it('status and serve do not offer the data: URL and diff-time limits they would not apply', async () => {
    await expectUsageErrorInProcess(
      ['status', example, '--max-data-url', '1'],
      /unknown option '--max-data-url'/,
    );
    await expectUsageErrorInProcess(
      ['serve', example, '--max-diff-time', '1s'],
      /unknown option '--max-diff-time'/,
    );
  });
});

describe('the budget flags analyze offers apply to its cause-chain diffs', () => {
  it('--max-data-url and --max-data-url-total stop the diff of the rendered configs', async () => {
    await expectUsageErrorInProcess(
      ['analyze', example, '--max-data-url', '1'],
      /limit of 1 byte \(raise it with --max-data-url /,
    );
    await expectUsageErrorInProcess(
      ['analyze', example, '--max-data-url-total', '1'],
      /raise it with --max-data-url-total /,
    );
    expect(atlevel('analyze', example, '--max-data-url', '1GiB', '--brief').code).toBe(1);
  });
});

describe('simulate --artifacts and --out agree on a missing parent folder', () => {
  it('both refuse it, and create nothing', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'atlevel-parent-')), 'no', 'such');
    await expectUsageErrorInProcess(
      ['simulate', '--artifacts', join(missing, 'run')],
      /the folder it goes in does not exist/,
    );
    await expectUsageErrorInProcess(
      ['simulate', '--out', join(missing, 'x')],
      /cannot write the output file \(ENOENT\)/,
    );
    expect(existsSync(join(missing, '..'))).toBe(false);
  });
});
