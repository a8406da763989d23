/**
 * A warning never reads like a failure (issue 42): the PASS of a simulated os-only run before the 2021
 * fix carried a warning worded exactly as the rule's failure. Each warning now says why it is not one.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { inProcessCli } from '../helpers/cli.js';

const cli = inProcessCli('warning-words');

describe("a PASS's warnings", () => {
  it('say why they are not failures (os-only, pre-fix-2021)', async () => {
    const run = join(cli.dir, 'os-only');
    const made = await main([
      'simulate',
      '--scenario',
      'os-only',
      '--policy',
      'pre-fix-2021',
      '--seed',
      '1',
      '--artifacts',
      run,
      '--out',
      join(cli.dir, 'sim.txt'),
    ]);
    expect(made).toBe(0);
    const { code, out } = await cli.run('analyze', run, '-o', 'json');
    expect(code).toBe(0);
    const doc = JSON.parse(out) as {
      verdict: string;
      findings: { severity: string; rule: string; summary: string }[];
    };
    expect(doc.verdict).toBe('pass');
    const warnings = doc.findings.filter((f) => f.severity === 'warning');
    expect(warnings.map((w) => w.rule)).toEqual(['operator-level-before-required-pool-target']);
    for (const w of warnings) {
      expect(w.summary).toContain('a warning, not a failure');
      // The failure's words: "reported level ... before required pool master had the new release's config".
      expect(w.summary).not.toMatch(/before required pool \S+ had the new release's config/);
    }
  });
});
