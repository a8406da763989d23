/**
 * A move to the multi-architecture payload of the same version (`oc adm upgrade --to-multi-arch`),
 * judged by analyze. The version string stays, so every rule that tells level by versions must either
 * find another witness or say it cannot: the machine-config operator's `operator-image` version, which
 * it reports from 4.18 (openshift/machine-config-operator PR 4637; openshift/enhancements
 * update/duration-of-migration-to-multi-arch.md) and the CVO waits for.
 *
 * Fixtures (test/fixtures/README.md): `to-multi-arch-completed/` is oc's `to-multi-arch` example
 * (4.18.0-ec.3, the migration in progress) carried to its end: the master pool Updated at 23:33:40,
 * machine-config's operator-image the Deployment's image, the CVO complete at 23:34:20;
 * `to-multi-arch-mco-reports-late/` and `-early/` are origin's monitor lines of machine-config's
 * operator-image change (at 23:34:02, after the master pool; or at 23:26:10, while it rolled);
 * `to-multi-arch-cvo-early/` is the migration as an MCO before PR 4637 ran it: no operator-image, the
 * CVO complete at 23:23:40 before the pools even had their new configs (OCPBUGS-10300).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AnalysisResult, analyzeHistory } from '../../src/analyze/index.js';
import { renderAnalysisJson } from '../../src/report/analyze-json.js';
import { renderAnalysisText } from '../../src/report/analyze-text.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

const DIR = join(projectRoot, 'test/fixtures/analyze');
const COMPLETED = join(DIR, 'to-multi-arch-completed');
const LATE = join(DIR, 'to-multi-arch-mco-reports-late');
const EARLY = join(DIR, 'to-multi-arch-mco-reports-early');
const CVO_EARLY = join(DIR, 'to-multi-arch-cvo-early');
const MASTER_RULE = 'master-pool-updated-before-cvo-complete';
const POOL_RULE = 'operator-level-before-required-pool-target';

async function analyze(...paths: string[]): Promise<AnalysisResult> {
  return analyzeHistory(await loadHistory(paths));
}

const outcome = (r: AnalysisResult, id: string) => r.outcomes.find((o) => o.rule.id === id);

const text = (r: AnalysisResult) => renderAnalysisText(r, { width: 400, colour: false, brief: true });

/** A copy of COMPLETED with `file` changed by `edit` (or removed when `edit` returns undefined). */
function completedWith(file: string, edit: (s: string) => string | undefined): string {
  const dir = mkdtempSync(join(tmpdir(), 'atlevel-multi-'));
  cpSync(COMPLETED, dir, { recursive: true });
  const out = edit(readFileSync(join(dir, file), 'utf8'));
  if (out === undefined) rmSync(join(dir, file));
  else writeFileSync(join(dir, file), out);
  return dir;
}

describe('a move to the multi-architecture payload of the same version', () => {
  it('is named as one, never "4.18.0-ec.3 → 4.18.0-ec.3", in the headline, the findings and the JSON', async () => {
    const r = await analyze(CVO_EARLY);
    expect(r.updates[r.updates.length - 1]?.toMultiArch).toBe(true);
    const t = text(r);
    expect(t).toContain(
      'in the update of 4.18.0-ec.3 to the multi-architecture payload (sha256:d2d34aafe0ad…',
    );
    expect(t).not.toContain('4.18.0-ec.3 → 4.18.0-ec.3');
    const json = JSON.parse(renderAnalysisJson(r)) as { updates: { toMultiArch: boolean }[] };
    expect(json.updates.map((u) => u.toMultiArch)).toEqual([true]);
  });

  it('without Multi in the request or the accepted payload, the same version with another image is "another payload"', async () => {
    const dir = completedWith('clusterversion.yaml', (s) =>
      s
        .replace('architecture: Multi', "architecture: ''")
        .replace('architecture="Multi"', 'architecture="amd64"'),
    );
    const r = await analyze(dir);
    expect(r.updates[r.updates.length - 1]?.toMultiArch).toBeUndefined();
    expect(text(r)).toContain('in the update of 4.18.0-ec.3 to another payload (');
  });

  it('completed after the master pool (an MCO with operator-image): the master-pool rule holds', async () => {
    const r = await analyze(COMPLETED);
    expect(outcome(r, MASTER_RULE)?.state).toBe('holds');
    // A snapshot holds no time for the operator-image report, and the version string says nothing.
    const pool = outcome(r, POOL_RULE);
    expect(pool?.state).toBe('not-checked');
    expect(pool?.reason).toContain('keeps the version string 4.18.0-ec.3');
    expect(pool?.reason).toContain('operator-image');
  });

  it("machine-config's operator-image reported after the master pool rolled out: the required-pool rule holds", async () => {
    const r = await analyze(COMPLETED, LATE);
    expect(outcome(r, POOL_RULE)?.state).toBe('holds');
    expect(outcome(r, MASTER_RULE)?.state).toBe('holds');
  });

  it('operator-image reported while the master pool still rolled out its new config: a failure, named by operator-image', async () => {
    const r = await analyze(COMPLETED, EARLY);
    const pool = outcome(r, POOL_RULE);
    expect(pool?.state).toBe('violated');
    const f = r.findings.find((x) => x.rule === POOL_RULE);
    expect(f?.summary).toContain(
      '(its operator-image version: the update keeps the version string) at 23:26:10.118',
    );
    expect(f?.summary).toContain('still rolling out rendered-master-1f718b5bc3667e49797e9a47d9f48725');
    expect(f?.summary).toContain('(in the update of 4.18.0-ec.3 to the multi-architecture payload)');
    expect(f?.evidence[0]).toMatchObject({ field: 'status.versions[operator-image]' });
    // Explained from the operator-image report to the config the pool was still rolling out.
    const steps = (f?.explanation?.steps ?? []).map((c) => c.title);
    expect(steps[0]).toBe(
      'machine-config reported level (operator-image sha256:787a505ca594…) at 23:26:10.118',
    );
    expect(
      steps.some((t) =>
        t.includes('differs from rendered-master-909adc791f502a35c20ba70158c4c582 in 1 place: osImageURL'),
      ),
    ).toBe(true);
    // This MCO does report operator-image: its early report is not the known same-version signature.
    expect(f?.explanation?.signature?.id).not.toBe('same-version-no-operator-image');
    // The CVO itself waited: it completed after the pool.
    expect(outcome(r, MASTER_RULE)?.state).toBe('holds');
  });

  it('the CVO completing before the pools rolled (an MCO before operator-image) is the violation it is', async () => {
    const r = await analyze(CVO_EARLY);
    expect(outcome(r, MASTER_RULE)?.state).toBe('violated');
    const f = r.findings.find((x) => x.rule === MASTER_RULE);
    expect(f?.summary).toContain('the pool finished at 23:33:40, 10m00s later');
    expect(f?.summary).toContain('(in the update of 4.18.0-ec.3 to the multi-architecture payload)');
    // Not "not a known signature": an MCO without operator-image cannot report such an update's level.
    expect(f?.explanation?.signature?.id).toBe('same-version-no-operator-image');
    expect(f?.explanation?.signature?.references).toContain(
      'https://github.com/openshift/machine-config-operator/pull/4637',
    );
  });

  it('partial data never turns into a pass: without the rendered configs, or without the nodes', async () => {
    const noConfigs = await analyze(completedWith('machineconfigs.yaml', () => undefined));
    expect(noConfigs.verdict).not.toBe('pass');
    expect(outcome(noConfigs, MASTER_RULE)?.state).not.toBe('violated');
    const noNodes = await analyze(
      completedWith('nodes.yaml', () => undefined),
      EARLY,
    );
    expect(outcome(noNodes, POOL_RULE)?.state).toBe('violated');
  });
});
