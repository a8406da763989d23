/**
 * The HyperShift rules in the run store (docs/hosted.md, docs/runs.md): hypershift dumps ingested as
 * runs are counted per rule as every other rule is: violated, checked and not checked.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';
import { atlevel } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'atlevel-hosted-stats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const dump = (name: string) => join(projectRoot, 'test/fixtures/hosted', name);

it('stats counts nodepool-level-before-rollout and nodepool-stuck-updating over ingested hypershift dumps, by signature', async () => {
  const db = join(dir, 'db');
  const ingest = await atlevel([
    'ingest',
    dump('ocpbugs-77922'),
    dump('ocpbugs-92013'),
    '--db',
    db,
    '--jobs',
    '1',
  ]);
  expect(ingest.code, ingest.stderr).toBe(0);
  expect(ingest.stdout).toMatch(/ingested 2 runs .*: 2 stored, 0 already there, 0 ingest errors/);
  const stats = await atlevel(['stats', '--db', db, '-o', 'json']);
  expect(stats.code, stats.stderr).toBe(0);
  const rates = (
    JSON.parse(stats.stdout) as {
      rates: { rule: string; by: string; checked: number; violated: number; notChecked: number }[];
    }
  ).rates;
  const all = (rule: string) => rates.find((r) => r.rule === rule && r.by === 'all');
  // 77922: the NodePool claims the version with an old MachineSet's Machine left; 92013: it is still updating.
  expect(all('nodepool-level-before-rollout')).toMatchObject({ violated: 1, checked: 1, notChecked: 1 });
  expect(all('nodepool-stuck-updating')).toMatchObject({ violated: 1, checked: 1, notChecked: 1 });
  // Grouped by their signatures (docs/hosted.md "Cause and signature"), not as `unknown`.
  const sigs = (
    JSON.parse(stats.stdout) as { signatures: { signature: string; runs: number; findings: number }[] }
  ).signatures;
  // 77922's no-serious-insight failure (status's Error insight on the same NodePool) is signed by no
  // hosted entry: it is the insight, not the HyperShift rule's finding.
  expect(sigs.map((s) => [s.signature, s.runs, s.findings]).sort()).toEqual([
    ['ocpbugs-77922', 1, 1],
    ['ocpbugs-92013', 1, 1],
    ['unknown', 1, 1],
  ]);
  const text = await atlevel(['stats', '--db', db]);
  expect(text.stdout).toContain('v1beta1 counts said rolled out');
  expect(text.stdout).toContain('stale conversion-data annotation');
  expect(text.stdout).toMatch(/nodepool-level-before-rollout +1 +1 +100\.0%/);
}, 180_000);
