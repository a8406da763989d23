/**
 * The examples of `atlevel help CMD` run as printed, from a directory other than the project's: they
 * name the packaged example run (src/cli/examples.ts), not files of the reader's imagination. The
 * commands whose examples need what a test has not (a live cluster, a run store, a server left
 * running, ten thousand runs) are left out.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bin, withoutNotes } from '../helpers/spawn-cli.js';

const elsewhere = mkdtempSync(join(tmpdir(), 'atlevel-help-examples-'));
afterAll(() => rmSync(elsewhere, { recursive: true, force: true }));

/** The `atlevel …` commands of a help page's examples, continuation lines (`\`) joined. */
function examples(page: string): string[] {
  const lines = page.split('\n');
  const found: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /(?:^\s+|Example: )(atlevel .*)$/.exec(lines[i] ?? '');
    if (!m?.[1]) continue;
    let command = m[1];
    while (command.endsWith('\\')) command = `${command.slice(0, -1).trimEnd()} ${lines[++i]?.trim() ?? ''}`;
    // A remark after the command, `   (format: docs/simulate.md)`, is for the reader.
    found.push(command.replace(/ {3}\(.*\)$/, ''));
  }
  return found;
}

describe('help examples, run from another directory', () => {
  for (const command of ['analyze', 'status', 'diff', 'release diff', 'release info']) {
    it(`atlevel help ${command}`, () => {
      const page = spawnSync(process.execPath, [bin, 'help', ...command.split(' ')], {
        cwd: elsewhere,
        encoding: 'utf8',
      }).stdout;
      const found = examples(page);
      expect(found.length, page).toBeGreaterThan(0);
      for (const example of found) {
        const r = spawnSync('sh', ['-c', example.replace(/^atlevel /, `"${process.execPath}" "${bin}" `)], {
          cwd: elsewhere,
          encoding: 'utf8',
          timeout: 60_000,
        });
        expect(withoutNotes(r.stderr), example).toBe('');
        // 0 or 1 (a verdict or a difference), never 2: the example's inputs were found.
        expect([0, 1], `${example}: exit ${r.status}`).toContain(r.status);
      }
    });
  }

  it('atlevel help simulate: the scenario file example', () => {
    const page = spawnSync(process.execPath, [bin, 'help', 'simulate'], {
      cwd: elsewhere,
      encoding: 'utf8',
    }).stdout;
    const file = examples(page).find((e) => e.includes('.yaml'));
    expect(file).toBeDefined();
    const r = spawnSync(
      'sh',
      ['-c', `${file?.replace(/^atlevel /, `"${process.execPath}" "${bin}" `)} --budget 50`],
      {
        cwd: elsewhere,
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(withoutNotes(r.stderr)).toBe('');
    expect([0, 1]).toContain(r.status);
  });
});
