/**
 * What the text reports say must be true of the inputs: nothing claimed about a component that is not
 * there, no rollout where nothing rolled, counts in the singular when there is one.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';
import { withoutNotes } from '../helpers/spawn-cli.js';

const bin = join(projectRoot, 'bin/atlevel.js');
const work = mkdtempSync(join(tmpdir(), 'atlevel-wording-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const atlevel = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

function references(file: string, version: string, tags: Record<string, string>): string {
  const path = join(work, file);
  writeFileSync(
    path,
    JSON.stringify({
      kind: 'ImageStream',
      apiVersion: 'image.openshift.io/v1',
      metadata: { name: version },
      spec: {
        tags: Object.entries(tags).map(([name, hex]) => ({
          name,
          from: { kind: 'DockerImage', name: `quay.io/x@sha256:${hex.repeat(64)}` },
        })),
      },
    }),
  );
  return path;
}

describe('release diff', () => {
  it('of payloads without machine-config-operator says so, not "image unchanged"', () => {
    const a = references('a.json', '4.10.0', { pod: 'a' });
    const b = references('b.json', '4.10.1', { pod: 'b' });
    const r = atlevel('release', 'diff', a, b);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('machine-config-operator: in neither payload');
    expect(r.stdout).not.toContain('machine-config-operator: image unchanged');
    expect(r.stdout).not.toContain('the machine-config-operator image is unchanged');
    expect(r.stdout).toMatch(/\(.*a\.json, 1 component\)/);
  });
  it('release info counts one component in the singular', () => {
    const r = atlevel('release', 'info', references('one.json', '4.10.0', { pod: 'a' }));
    expect(r.stdout.split('\n')[1]).toBe('1 component');
  });
});

describe('simulate', () => {
  it('no-config-change does not claim a new config rolled out', () => {
    const r = atlevel('simulate', '--scenario', 'no-config-change');
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain('rolled out its new config');
    expect(r.stdout).toContain('the master pool got no new rendered config in this update');
  });
  it('--width wraps the summary; -o json with --width is refused', () => {
    const r = atlevel('simulate', '--width', '60');
    expect(r.stdout.split('\n').every((l) => l.length <= 60 || !l.trim().includes(' '))).toBe(true);
    const j = atlevel('simulate', '-o', 'json', '--width', '60');
    expect(j.status).toBe(2);
  });
});

describe('counts of one in the singular', () => {
  it('simulate --runs 1: one seed, the one run', () => {
    const r = atlevel('simulate', '--runs', '1');
    expect(r.stdout).toContain('· seed 1\n');
    expect(r.stdout).toContain('the one run broke the invariant; the upgrade test caught it');
    expect(r.stdout).not.toMatch(/seeds 1–1|1 of 1 runs/);
    const fixed = atlevel('simulate', '--runs', '1', '--policy', 'fixed');
    expect(fixed.stdout).toContain('the one run did not break the invariant');
    expect(fixed.stdout).not.toContain('none of 1 runs');
  });
  it('simulate --exhaustive --race-window --budget 1: one interleaving', () => {
    const r = atlevel('simulate', '--exhaustive', '--race-window', '--budget', '1');
    expect(r.stdout).toContain('1 interleaving run ');
    expect(r.stdout).toContain('the one interleaving broke the invariant');
    expect(r.stdout).not.toMatch(/1 interleavings|1 of 1 interleavings/);
  });
  it('diff --from a file with one MachineConfig', () => {
    const list = JSON.parse(
      readFileSync(
        join(
          projectRoot,
          'examples/bug-2019850/artifacts/e2e-aws-upgrade/gather-extra/artifacts/machineconfigs.json',
        ),
        'utf8',
      ),
    ) as { items: unknown[] };
    const file = join(work, 'one-mc.json');
    writeFileSync(file, JSON.stringify({ ...list, items: list.items.slice(0, 1) }));
    const r = atlevel('diff', 'x', 'y', '--from', file);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('(1 MachineConfig here)');
  });
});

describe('paths echoed to the terminal', () => {
  it("report's closing line shows its --out path without raw control characters", () => {
    const out = join(work, 'r\u001b]0;owned\u0007.html');
    const r = atlevel('report', join(projectRoot, 'examples/bug-2019850'), '--out', out);
    expect(r.status).toBe(1);
    expect(withoutNotes(r.stderr)).toMatch(/^atlevel: wrote .*r\?\]0;owned\?\.html\n$/);
    expect(r.stderr).not.toMatch(/[\u001b\u0007]/);
  });
});

describe('the command words are not inputs', () => {
  it('--out into an existing folder named like the command is written, and an input so named still counts', () => {
    const cwd = mkdtempSync(join(work, 'cmdwords-'));
    const example = join(projectRoot, 'examples/bug-2019850');
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [bin, ...args], {
        cwd,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
    cpSync(example, join(cwd, 'analyze'), { recursive: true });
    writeFileSync(join(cwd, 'analyze', 'old.json'), '{}');
    const r = run('analyze', example, '-o', 'json', '--out', 'analyze/old.json', '--exit-zero');
    expect(withoutNotes(r.stderr)).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(readFileSync(join(cwd, 'analyze', 'old.json'), 'utf8')).tool).toBe('atlevel');
    // `atlevel analyze analyze`: the second word is the input, and is never overwritten.
    const again = run('analyze', 'analyze', '--out', 'analyze/old.json');
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/--out would replace a file inside the input folder analyze/);
  });
});

describe('a --release-from/--release-to of another release', () => {
  const fixed = join(projectRoot, 'examples/bug-2019850-fixed');
  const mcs = join(fixed, 'artifacts/e2e-aws-upgrade/gather-extra/artifacts/machineconfigs.json');
  const from = join(fixed, 'release/release-from.json');
  const to = join(fixed, 'release/release-to.json');
  const OLD = '4.10.0-0.nightly-2021-11-02-191632';
  const NEW = '4.10.0-0.nightly-2021-11-03-020416';

  it('diff: a warning naming both versions, the config’s from its release-image-version', () => {
    const r = atlevel('diff', '--pool', 'master', '--from', mcs, '--release-from', to, '--release-to', from);
    expect(r.status).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      `atlevel: warning: --release-from ${to} is release ${NEW}, but rendered-master-5d1c05288d1145e269c312e9826eddc6 was rendered for release ${OLD}`,
      `atlevel: warning: --release-to ${from} is release ${OLD}, but rendered-master-08a4fea83290e0724cc703711035136d was rendered for release ${NEW}`,
    ]);
  });

  it('diff: says so of a file set aside for the release among the inputs', () => {
    const r = atlevel('diff', '--pool', 'master', '--from', fixed, '--release-from', to);
    expect(r.stderr).toBe(
      `atlevel: warning: --release-from ${to} is release ${NEW}, but rendered-master-5d1c05288d1145e269c312e9826eddc6 was rendered for release ${OLD}; it is not used: ${from} among the inputs, release ${OLD}, is used instead\n`,
    );
  });

  it('diff: the right releases, no warning', () => {
    const r = atlevel('diff', '--pool', 'master', '--from', mcs, '--release-from', from, '--release-to', to);
    expect(r.stderr).toBe('');
  });
});

describe('a PASS claims no rule it did not check', () => {
  it('a standalone run, where the hosted rules do not apply: "every invariant that applies held"', () => {
    const r = atlevel('analyze', join(projectRoot, 'examples/bug-2019850-fixed'));
    expect(r.status).toBe(0);
    const [headline] = r.stdout.split('\n');
    expect(headline).toBe(
      'PASS: every invariant that applies held in the update 4.10.0-0.nightly-2021-11-02-191632 → 4.10.0-0.nightly-2021-11-03-020416',
    );
    // The rules that do not apply are listed, not checked.
    expect(r.stdout).toContain('not checked: no HostedCluster or HostedControlPlane in the inputs');
  });

  it('a hosted dump, where the ClusterVersion rules do not apply: the same words', () => {
    const r = atlevel('analyze', join(projectRoot, 'test/fixtures/hosted/replace-completed'));
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('PASS: every invariant that applies held');
    // Not "no update in the inputs": the hosted cluster did update, as its own rules say.
    expect(r.stdout).not.toContain('no update in the inputs');
    expect(r.stdout).toMatch(
      /– master-pool-updated-before-cvo-complete +not checked: a hosted cluster \(no ClusterVersion\): the HyperShift rules judge its update/,
    );
  });
});
