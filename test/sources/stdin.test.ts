/**
 * `-` (open/stdin.ts) through the built CLI, as a user pipes into it: a compressed tarball gives the
 * same report as the archive file, a single List is read by content, and empty input is one line,
 * exit 2. `npm test` builds first (pretest).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';
import { withoutNotes } from '../helpers/spawn-cli.js';

const CI = 'test/fixtures/sources/ci-run';
const tmp = mkdtempSync(join(tmpdir(), 'atlevel-stdin-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function atlevel(args: string[], input: Buffer | string) {
  const r = spawnSync(process.execPath, [join(projectRoot, 'bin/atlevel.js'), ...args], {
    input,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('standard input', () => {
  it('reads a .tar.gz piped in as the same run as the archive file', () => {
    const archive = join(tmp, 'run.tar.gz');
    execFileSync('tar', ['-C', CI, '-czf', archive, '.']);
    const piped = atlevel(['analyze', '-', '-o', 'json'], readFileSync(archive));
    const named = atlevel(['analyze', archive, '-o', 'json'], '');
    expect(withoutNotes(piped.stderr)).toBe('');
    expect(piped.code).toBe(named.code);
    expect(piped.stdout.replaceAll('(stdin)', 'X')).toBe(named.stdout.replaceAll(archive, 'X'));
  });

  it('reads a single List piped in by content', () => {
    const cv = execFileSync('find', [CI, '-name', 'clusterversion.json']).toString().trim();
    const r = atlevel(['analyze', '-', '-o', 'json'], gzipSync(readFileSync(cv)));
    expect(withoutNotes(r.stderr)).toBe('');
    expect(r.stdout).toContain('"(stdin)"');
  });

  it('refuses empty input with one line and exit 2', () => {
    const r = atlevel(['analyze', '-'], '');
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      'atlevel: (stdin): empty input (pipe a tarball or a List into atlevel)',
    ]);
  });
});
