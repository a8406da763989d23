import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';

/** Runs the built CLI as a user would; `npm test` builds first (pretest). */
function atlevel(args: string[]) {
  const r = spawnSync(process.execPath, [join(projectRoot, 'bin/atlevel.js'), ...args], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'atlevel-bad-'));
  mkdirSync(join(dir, 'empty'));
  mkdirSync(join(dir, 'truncated'));
  writeFileSync(
    join(dir, 'truncated/machineconfigpools.json'),
    '{"apiVersion": "v1", "kind": "List", "items": [{"kind": "MachineConfigPool", "metad',
  );
  mkdirSync(join(dir, 'wrongkind'));
  writeFileSync(
    join(dir, 'wrongkind/machineconfigpools.json'),
    JSON.stringify({ kind: 'List', items: [{ kind: 'Pod', apiVersion: 'v1', metadata: { name: 'p' } }] }),
  );
  mkdirSync(join(dir, 'notgzip'));
  writeFileSync(join(dir, 'notgzip/nodes.json.gz'), 'this is not gzip at all');
});

describe('atlevel analyze on bad input', () => {
  const cases: [string, () => string[], RegExp][] = [
    ['a missing path', () => [join(dir, 'nope')], /nope: .*no such file/i],
    ['an empty folder', () => [join(dir, 'empty')], /empty: no atlevel inputs found/],
    ['truncated JSON', () => [join(dir, 'truncated')], /machineconfigpools\.json: .*JSON/],
    ['a file of the wrong kind', () => [join(dir, 'wrongkind')], /machineconfigpools\.json: .*Pod/],
    ['a gzip that is not gzip', () => [join(dir, 'notgzip')], /nodes\.json\.gz: .*gzip/],
  ];
  for (const [what, args, message] of cases) {
    it(`exits 2 with one line naming the file for ${what}, and writes nothing`, () => {
      const out = join(dir, `out-${what.replace(/\W/g, '-')}.json`);
      const r = atlevel(['analyze', ...args(), '-o', 'json', '--out', out]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^atlevel: /);
      expect(lines[0]).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(out)).toBe(false);
    });
  }

  it('exits 2 on an unknown output format', () => {
    const r = atlevel(['analyze', dir, '-o', 'xml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/xml/);
  });

  it('exits 2 on an unknown rule', () => {
    const r = atlevel(['analyze', join(dir, 'truncated'), '--rule', 'no-such-rule']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown rule no-such-rule/);
  });
});

describe('--out never replaces an input', () => {
  it('a file of an oc examples case given by its prefix', () => {
    const caseDir = join(dir, 'occase');
    mkdirSync(caseDir);
    const cv = join(caseDir, 'c1-cv.yaml');
    const gathered = join(
      projectRoot,
      'examples/bug-2019850/artifacts/e2e-aws-upgrade/gather-extra/artifacts',
    );
    const text = readFileSync(join(gathered, 'clusterversion.json'), 'utf8');
    writeFileSync(cv, text);
    writeFileSync(join(caseDir, 'c1-co.yaml'), readFileSync(join(gathered, 'clusteroperators.json')));
    const r = atlevel(['status', join(caseDir, 'c1'), '--out', cv]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--out names a file of the input case/);
    expect(readFileSync(cv, 'utf8')).toBe(text);
  });
});
