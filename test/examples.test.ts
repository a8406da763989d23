/**
 * The bundled examples are simulator runs (scripts/make-examples.ts): regenerated into a temporary
 * folder they must be the checked-in files byte for byte, and they must keep the facts of the bug
 * report (https://bugzilla.redhat.com/show_bug.cgi?id=2019850) that users read them for. Everything
 * but the regeneration is read straight from the JSON and text; no atlevel reader is involved.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES, writeExamples } from '../scripts/make-examples.js';
import { projectRoot } from './helpers/fixtures.js';

const FROM = '4.10.0-0.nightly-2021-11-02-191632';
const TO = '4.10.0-0.nightly-2021-11-03-020416';
const TARGET =
  'registry.build01.ci.openshift.org/ci-op-wi0wdxci/release@sha256:51f2f24726c8153cae4bf9978a5d04088e88479ab4f5618c1111e0e69176ad2f';
const ART = 'quay.io/openshift-release-dev/ocp-v4.0-art-dev';
const POD_FROM = `${ART}@sha256:ef6684475a8fc4eb898dc5170dbf883dad2c2883b924cb3d86a4f3b2cb746639`;
const POD_TO = `${ART}@sha256:0adaefcf3675fa153e7d3917c7a24563e9da81922cac6c3eed3edd4b57bf98bb`;
const GATHER = 'artifacts/e2e-aws-upgrade/gather-extra/artifacts';
const MASTERS = [
  'ip-10-0-139-12.us-east-2.compute.internal',
  'ip-10-0-151-87.us-east-2.compute.internal',
  'ip-10-0-171-203.us-east-2.compute.internal',
];

type Variant = 'bug-2019850' | 'bug-2019850-fixed';

interface K8sObject {
  metadata: { name: string; creationTimestamp?: string; annotations?: Record<string, string> };
  spec?: { config?: { systemd?: { units?: { name: string; contents?: string }[] } } };
}

function files(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else out.push(relative(root, join(dir, e.name)));
    }
  };
  walk(root);
  return out.sort();
}
const exampleDir = (v: Variant) => join(projectRoot, 'examples', v);
const text = (v: Variant, path: string) => readFileSync(join(exampleDir(v), path), 'utf8');
const items = (v: Variant, file: string) =>
  (JSON.parse(text(v, `${GATHER}/${file}`)) as { items: K8sObject[] }).items;
function tags(
  side: 'from' | 'to',
): Map<string, { from: { name: string }; annotations: Record<string, string> }> {
  const info = JSON.parse(text('bug-2019850', `release/release-${side}.json`)) as {
    references: {
      spec: { tags: { name: string; from: { name: string }; annotations: Record<string, string> }[] };
    };
  };
  return new Map(info.references.spec.tags.map((t) => [t.name, t]));
}
const truth = (v: Variant) =>
  (
    JSON.parse(text(v, 'atlevel-simulation.json')) as {
      summary: {
        violated: boolean;
        testDetected: boolean;
        operatorLevelAt: string;
        cvoCompletedAt: string;
        masterUpdatedAt: string;
        renderedConfigs: { pool: string; name: string; at: string; created: boolean }[];
      };
    }
  ).summary;

describe('the bundled examples are the simulator runs scripts/make-examples.ts writes', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'atlevel-examples-'));
    await writeExamples(tmp);
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it.each(EXAMPLES.map((e) => e.folder))('%s regenerates byte for byte', (folder) => {
    const fresh = join(tmp, folder);
    const checkedIn = join(projectRoot, 'examples', folder);
    expect(files(fresh)).toEqual(files(checkedIn));
    for (const path of files(fresh)) {
      const same = readFileSync(join(fresh, path)).equals(readFileSync(join(checkedIn, path)));
      expect(same, `${folder}/${path} differs from what npm run examples writes`).toBe(true);
    }
  });
});

describe("examples/bug-2019850 keeps the bug report's facts", () => {
  it('updates between the two nightlies to the target image, and the upgrade test failed', () => {
    const log = text('bug-2019850', 'build-log.txt');
    expect(log).toContain(`Completed upgrade to ${TARGET}`);
    expect(log).toContain(`versions: operator ${FROM} -> ${TO}`);
    expect(log).toContain(
      `fail [github.com/openshift/origin/test/e2e/upgrade/upgrade.go:160]: during upgrade to ${TARGET}`,
    );
    expect(log).toContain(
      'Invariant violation detected: the "master" pool should be updated before the CVO reports available at the new version',
    );
  });

  it('changes the pause image only among what rendered configs embed', () => {
    const from = tags('from');
    const to = tags('to');
    expect(from.get('pod')?.from.name).toBe(POD_FROM);
    expect(to.get('pod')?.from.name).toBe(POD_TO);
    for (const same of ['machine-config-operator', 'machine-os-content', 'baremetal-runtimecfg']) {
      expect(to.get(same)?.from.name, same).toBe(from.get(same)?.from.name);
    }
  });

  it('renders the new master config after the operator reported level, differing in the pause image line', () => {
    const s = truth('bug-2019850');
    expect(s.violated).toBe(true);
    expect(s.testDetected).toBe(true);
    const created = s.renderedConfigs.find((r) => r.pool === 'master' && r.created);
    expect(created && created.at > s.operatorLevelAt).toBe(true);
    expect(s.cvoCompletedAt < s.masterUpdatedAt).toBe(true);
    const rendered = items('bug-2019850', 'machineconfigs.json').filter((m) =>
      m.metadata.name.startsWith('rendered-master-'),
    );
    expect(rendered).toHaveLength(2);
    const kubelet = (m: K8sObject) =>
      (m.spec?.config?.systemd?.units?.find((u) => u.name === 'kubelet.service')?.contents ?? '').split('\n');
    const [a, b] = rendered.map(kubelet) as [string[], string[]];
    const differ = a.flatMap((line, i) => (line === b[i] ? [] : [[line, b[i]]]));
    expect(differ).toHaveLength(1);
    expect(differ[0]?.join('\n')).toContain('--pod-infra-container-image=');
    expect(a.length).toBe(b.length);
  });

  it("names the scenario's nodes", () => {
    const names = items('bug-2019850', 'nodes.json').map((n) => n.metadata.name);
    for (const m of MASTERS) expect(names).toContain(m);
    expect(names).toHaveLength(6);
  });
});

describe('examples/bug-2019850-fixed shows the fixed operator', () => {
  it('stamps rendered configs with the release that produced them', () => {
    const stamped = items('bug-2019850-fixed', 'machineconfigs.json').filter(
      (m) => m.metadata.annotations?.['machineconfiguration.openshift.io/release-image-version'] === TO,
    );
    expect(stamped.map((m) => m.metadata.name.split('-')[1]).sort()).toEqual(['master', 'worker']);
  });

  it('reports the operator version only after the master pool is Updated, and the CVO completes after that', () => {
    const s = truth('bug-2019850-fixed');
    expect(s.violated).toBe(false);
    expect(s.masterUpdatedAt <= s.operatorLevelAt).toBe(true);
    expect(s.operatorLevelAt <= s.cvoCompletedAt).toBe(true);
  });
});
