/**
 * A signature claims a bug only on its own evidence (docs/runs.md, Signatures). The race of bug
 * 2019850's example read without its MachineConfigs is still a violation, but its findings have no
 * rendered configs to compare: the store keeps them as `unknown`, never as bug-1999556, and stats
 * groups them there. Read without the release payloads (release.* facts unknown), the match stands
 * on the two configs' own annotations (same controller version, same osImageURL, no
 * release-image-version), and each finding's signature is stored with the rule it failed, which the
 * run's rule state says was violated: a signature and the rule's verdict never disagree.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { runRecord } from '../../src/ingest/record.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

const EXAMPLE = join(projectRoot, 'examples/bug-2019850');
const GATHER = 'artifacts/e2e-aws-upgrade/gather-extra/artifacts';
const dir = mkdtempSync(join(tmpdir(), 'atlevel-signatures-partial-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The example copied without these files or folders. */
function without(name: string, ...paths: string[]): string {
  const to = join(dir, name);
  cpSync(EXAMPLE, to, { recursive: true });
  for (const p of paths) rmSync(join(to, p), { recursive: true, force: true });
  return to;
}

async function record(path: string) {
  const h = await loadHistory([path]);
  return runRecord({ id: `sha256:${path}`, source: path, identity: 'content' }, h, analyzeHistory(h));
}

const RACE = 'master-pool-updated-before-cvo-complete';

function agree(r: Awaited<ReturnType<typeof record>>): void {
  for (const f of r.findings.filter((x) => x.severity === 'failure'))
    expect(r.rules.find((s) => s.rule === f.rule)?.state, `${f.rule}: ${f.signature}`).toBe('violated');
}

describe('signatures on partial data', () => {
  it('the whole example: bug-1999556, on findings of violated rules', async () => {
    const r = await record(EXAMPLE);
    expect(
      r.findings.filter((f) => f.rule === RACE && f.severity === 'failure').map((f) => f.signature),
    ).toEqual(['bug-1999556']);
    agree(r);
  });

  it('without MachineConfigs: the race is still violated, its signature unknown, not the bug', async () => {
    const r = await record(without('no-machineconfigs', `${GATHER}/machineconfigs.json`));
    expect(r.rules.find((s) => s.rule === RACE)?.state).toBe('violated');
    const race = r.findings.filter((f) => f.severity === 'failure');
    expect(race.length).toBeGreaterThan(0);
    for (const f of race) expect(f.signature, f.rule).toBe('unknown');
    expect(r.mcoFix).toBe('unknown');
    agree(r);
  });

  it('without the release payloads: matched on the configs themselves, and said so by the record', async () => {
    const r = await record(without('no-release', 'release'));
    const race = r.findings.filter((f) => f.rule === RACE && f.severity === 'failure');
    expect(race.map((f) => f.signature)).toEqual(['bug-1999556']);
    // No release info: no changed components named, and the component table says so (null, not '').
    expect(r.configChanged).toBeNull();
    agree(r);
  });
});
