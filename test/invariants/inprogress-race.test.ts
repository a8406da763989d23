/**
 * The bug-2019850 violation seen in a snapshot taken mid-update (docs/rules/
 * operator-level-before-required-pool-target.md): machine-config already reports the new version while
 * the master pool still rolls out the config stamped for it. test/fixtures/analyze/inprogress-level-race
 * is that snapshot; each twin below changes one fact the proof needs, and must not fail.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

const FIXTURE = join(projectRoot, 'test/fixtures/analyze/inprogress-level-race');
const RULE = 'operator-level-before-required-pool-target';
const OLD = '4.10.0-0.nightly-2021-11-02-191632';
const NEW = '4.10.0-0.nightly-2021-11-03-020416';
const M_OLD = 'rendered-master-5d1c05288d1145e269c312e9826eddc6';
const M_NEW = 'rendered-master-08a4fea83290e0724cc703711035136d';
const STAMP = 'machineconfiguration.openshift.io/release-image-version';

// biome-ignore lint/suspicious/noExplicitAny: the twins edit raw JSON lists
type Item = any;

/** A copy of the fixture with some of its files edited. */
function twin(edit: Partial<Record<string, (items: Item[]) => Item[] | undefined>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'inprogress-race-'));
  cpSync(FIXTURE, dir, { recursive: true });
  for (const [file, change] of Object.entries(edit)) {
    const path = join(dir, `${file}.json`);
    const doc = JSON.parse(readFileSync(path, 'utf8')) as { items: Item[] };
    doc.items = change?.(doc.items) ?? doc.items;
    writeFileSync(path, JSON.stringify(doc));
  }
  return dir;
}

async function analyze(dir: string) {
  const r = analyzeHistory(await loadHistory([dir]));
  return { r, o: r.outcomes.find((x) => x.rule.id === RULE) };
}

const named = (items: Item[], name: string) => items.find((i) => i.metadata.name === name);
const masters = (items: Item[]) =>
  items.filter((n) =>
    String(n.metadata.annotations?.['machineconfiguration.openshift.io/currentConfig']).startsWith(
      'rendered-master-',
    ),
  );

describe('a snapshot mid-update: machine-config at the new version, the master pool still rolling out its stamped config', () => {
  it('fails the rule, with the evidence and the changed lines of the two rendered configs', async () => {
    const { r, o } = await analyze(FIXTURE);
    expect(r.verdict).toBe('fail');
    expect(o?.state).toBe('violated');
    const f = o?.findings[0];
    expect(f?.severity).toBe('failure');
    expect(f?.summary).toContain(`machine-config reports level for ${NEW} while required pool master`);
    expect(f?.summary).toContain(`still rolling out ${M_NEW}, the config stamped for ${NEW}`);
    expect(f?.summary).toContain(`stamped for ${OLD}, 1 of 3 nodes updated`);
    expect(f?.subject).toMatchObject({ pool: 'master', fromConfig: M_OLD, toConfig: M_NEW });
    expect(f?.evidence.map((e) => e.object)).toEqual(
      expect.arrayContaining([
        'ClusterOperator/machine-config',
        'MachineConfigPool/master',
        `MachineConfig/${M_NEW}`,
      ]),
    );
    // Explained like the CI run: what changed between the configs (the pause image).
    expect(f?.explanation?.configDiff?.changes.map((c) => c.name)).toEqual(
      expect.arrayContaining(['kubelet.service']),
    );
    const titles = f?.explanation?.steps.map((s) => s.title) ?? [];
    expect(titles.some((t) => t.includes('reports operator') && t.includes('in the snapshot'))).toBe(true);
    expect(titles.some((t) => t.includes(`stamped for ${OLD}`))).toBe(true);
  });

  it('names the release component behind the change when the release payloads are given', async () => {
    const release = join(projectRoot, 'examples/bug-2019850-fixed/release');
    const h = await loadHistory([FIXTURE], {
      releaseFrom: join(release, 'release-from.json'),
      releaseTo: join(release, 'release-to.json'),
    });
    const f = analyzeHistory(h).findings.find((x) => x.rule === RULE);
    expect(f?.explanation?.steps.map((s) => s.title)).toContain(
      'the changed image is the release component pod',
    );
  });

  it('machine-config not yet at the new version: no violation', async () => {
    const dir = twin({
      clusteroperators: (items) => {
        named(items, 'machine-config').status.versions = [{ name: 'operator', version: OLD }];
        return items;
      },
    });
    const { r, o } = await analyze(dir);
    expect(o?.state).not.toBe('violated');
    expect(r.verdict).not.toBe('fail');
  });

  it('the master pool already updated: not checked (the snapshot does not say when the operator reported)', async () => {
    const dir = twin({
      machineconfigpools: (items) => {
        const p = named(items, 'master');
        p.status.configuration.name = M_NEW;
        p.status.updatedMachineCount = 3;
        return items;
      },
      nodes: (items) => {
        for (const n of masters(items)) {
          n.metadata.annotations['machineconfiguration.openshift.io/currentConfig'] = M_NEW;
          n.metadata.annotations['machineconfiguration.openshift.io/desiredConfig'] = M_NEW;
        }
        return items;
      },
    });
    const { o } = await analyze(dir);
    expect(o?.state).toBe('not-checked');
    expect(o?.reason).toContain('do not say when machine-config reported');
  });

  it('no release-image-version stamp (an MCO before 4.10): not checked, as before', async () => {
    const dir = twin({
      machineconfigs: (items) => {
        for (const m of items) delete m.metadata.annotations[STAMP];
        return items;
      },
    });
    const { o } = await analyze(dir);
    expect(o?.state).toBe('not-checked');
  });

  it('every node left already given the new config: not checked, the pool may have finished between two reads', async () => {
    const dir = twin({
      machineconfigpools: (items) => {
        named(items, 'master').status.updatedMachineCount = 2;
        return items;
      },
      nodes: (items) => {
        for (const n of masters(items))
          n.metadata.annotations['machineconfiguration.openshift.io/desiredConfig'] = M_NEW;
        return items;
      },
    });
    const { o } = await analyze(dir);
    expect(o?.state).toBe('not-checked');
    expect(o?.reason).toContain('may have finished before machine-config reported');
  });

  it('without Node objects, more nodes left than the pool updates at once: still proven', async () => {
    const dir = twin({ nodes: () => [] });
    const { o } = await analyze(dir);
    expect(o?.state).toBe('violated');
    expect(o?.findings[0]?.summary).toContain('more nodes are left than the pool updates at once');
  });

  // A day-2 MachineConfig rendered while the update ran, on top of the update's own config the pool
  // had already finished: the operator may have reported once it had.
  it('the pool already on a config of the new release, rolling out a later one: no violation', async () => {
    const day2 = 'rendered-master-d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2';
    const dir = twin({
      machineconfigs: (items) => {
        const copy = structuredClone(named(items, M_NEW));
        copy.metadata.name = day2;
        copy.metadata.uid = 'uid-day2';
        copy.metadata.creationTimestamp = '2021-11-03T03:26:00Z';
        return [...items, copy];
      },
      machineconfigpools: (items) => {
        const p = named(items, 'master');
        p.spec.configuration.name = day2;
        p.status.configuration.name = M_NEW;
        p.status.updatedMachineCount = 0;
        return items;
      },
    });
    const { o } = await analyze(dir);
    expect(o?.state).not.toBe('violated');
  });
});
