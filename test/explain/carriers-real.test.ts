/**
 * The merge model behind "carried by" (docs/domain.md 3.2.1) on real rendered configs: the public
 * must-gathers of openshift/must-gather-clean hold each pool's rendered config beside its sources. Every
 * file of a rendered config is the one of the source config the render controller took it from, and the
 * metal run's kernel arguments come from its CI's own MachineConfig, which the controller did not generate.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { expect, it } from 'vitest';
import { carriersOf, diffMachineConfigs } from '../../src/machineconfig/index.js';
import type { MachineConfig } from '../../src/model/index.js';
import { describeFixtures, fixture } from '../helpers/fixtures.js';

const ROLE = 'machineconfiguration.openshift.io/role';

function configs(mg: string): MachineConfig[] {
  const base = fixture('openshift__must-gather-clean/test/files/extracted-subset', mg);
  const image = readdirSync(base).find((d) => d.startsWith('quay-io-'));
  if (image === undefined) throw new Error(`${base}: no must-gather image folder`);
  const dir = join(base, image, 'cluster-scoped-resources/machineconfiguration.openshift.io/machineconfigs');
  return readdirSync(dir).map((f) => load(readFileSync(join(dir, f), 'utf8')) as MachineConfig);
}

/** What each change of "nothing → the rendered config" is carried by, as `part:name → config`. */
function carried(mcs: readonly MachineConfig[], rendered: string): Map<string, string> {
  const r = mcs.find((m) => m.metadata.name === rendered);
  if (!r) throw new Error(`${rendered} not in the must-gather`);
  const role = rendered.split('-')[1];
  const sources = mcs.filter(
    (m) => !m.metadata.name.startsWith('rendered-') && m.metadata.labels?.[ROLE] === role,
  );
  const empty: MachineConfig = {
    kind: 'MachineConfig',
    metadata: { name: 'empty' },
    spec: { config: { ignition: { version: '3.2.0' } } },
  };
  const diff = diffMachineConfigs(empty, r);
  const found = carriersOf(r, sources, diff.changes);
  const out = new Map<string, string>();
  diff.changes.forEach((c, i) => {
    const by = found.get(i);
    out.set(`${c.part}:${c.name}`, by ? `${by.name}${by.generated ? '' : ' (not generated)'}` : '?');
  });
  return out;
}

describeFixtures('carriers on the public must-gathers', () => {
  it('every file of rendered-master on aws is carried by the generated config that holds it', () => {
    const map = carried(configs('must-gather-aws'), 'rendered-master-0d06a491e6bf03c9d186eb0fd4d170ab');
    const files = [...map].filter(([k]) => k.startsWith('files:'));
    expect(files.length).toBeGreaterThan(30);
    expect(files.filter(([, v]) => v === '?')).toEqual([]);
    expect(map.get('files:/etc/crio/crio.conf.d/00-default')).toBe('01-master-container-runtime');
    expect(map.get('files:/etc/kubernetes/kubelet.conf')).toBe('01-master-kubelet');
    expect(new Set(files.map(([, v]) => v))).toEqual(
      new Set(['00-master', '01-master-container-runtime', '01-master-kubelet']),
    );
  });

  it("the metal run's kernel arguments are its CI's MachineConfig's, which the controller did not generate", () => {
    const map = carried(configs('must-gather-metal'), 'rendered-master-20a8d1af9e846bb601440d61c1bfc56f');
    const args = [...map].filter(([k]) => k.startsWith('kernelArguments:'));
    expect(args.length).toBeGreaterThan(0);
    expect(new Set(args.map(([, v]) => v))).toEqual(new Set(['99-kernelargs-e2e-metal (not generated)']));
  });
});
