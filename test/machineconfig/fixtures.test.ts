/**
 * The semantic diff on real MachineConfigs: two must-gathers (AWS 4.8, bare-metal 4.9) and the MCO's own
 * test data (an Ignition 2.2 config, QE templates for kernel arguments, extensions, FIPS and kernel type,
 * and a 100-file stress config).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { beforeAll, expect, it } from 'vitest';
import { diffMachineConfigs } from '../../src/machineconfig/diff.js';
import { normalizeIgnition } from '../../src/machineconfig/ignition.js';
import type { ConfigChange } from '../../src/machineconfig/types.js';
import { KINDS } from '../../src/model/kinds/index.js';
import type { MachineConfig } from '../../src/model/objects.js';
import { describeFixtures, fixture } from '../helpers/fixtures.js';

function loadYaml(path: string): unknown {
  return yaml.load(readFileSync(path, 'utf8'), { schema: yaml.CORE_SCHEMA });
}

function mustGatherConfigs(which: 'aws' | 'metal'): (name: string) => MachineConfig {
  const root = fixture('openshift__must-gather-clean/test/files/extracted-subset', `must-gather-${which}`);
  const image = readdirSync(root)[0]!;
  const dir = join(root, image, 'cluster-scoped-resources/machineconfiguration.openshift.io/machineconfigs');
  const files = readdirSync(dir);
  return (prefix) => {
    const file = files.find((f) => f.startsWith(prefix));
    if (!file) throw new Error(`no ${prefix} in ${dir}`);
    return KINDS.MachineConfig.schema.parse(loadYaml(join(dir, file)));
  };
}

/** An OpenShift Template's first object with `${PARAM}` and `${{PARAM}}` substituted, as `oc process` does. */
function instantiate(path: string, params: Record<string, string>): MachineConfig {
  let text = readFileSync(path, 'utf8');
  text = text.replace(/\$\{\{(\w+)\}\}/g, (_, k: string) => params[k] ?? '');
  text = text.replace(/\$\{(\w+)\}/g, (_, k: string) => params[k] ?? '');
  const template = yaml.load(text, { schema: yaml.CORE_SCHEMA }) as { objects: unknown[] };
  return KINDS.MachineConfig.schema.parse(template.objects[0]);
}

/** systemd's `${ID}` (from /etc/os-release) as it appears in kubelet.service. */
const SYSTEMD_ID = ['$', '{ID}'].join('');

const summary = (changes: readonly ConfigChange[]) => changes.map((c) => `${c.part} ${c.change} ${c.name}`);

const EMPTY: MachineConfig = {
  kind: 'MachineConfig',
  metadata: { name: 'empty' },
  spec: { config: { ignition: { version: '3.2.0' } } },
};

describeFixtures('must-gather AWS 4.8: template and rendered configs', () => {
  let mc: (name: string) => MachineConfig;
  beforeAll(() => {
    mc = mustGatherConfigs('aws');
  });

  it('00-master vs 00-worker: the control-plane-only files, unit and drop-in', () => {
    const d = diffMachineConfigs(mc('00-master'), mc('00-worker'));
    expect(summary(d.changes)).toEqual([
      'files removed /etc/kubernetes/apiserver-url.env',
      'files removed /usr/local/bin/recover-kubeconfig.sh',
      'units removed rpm-ostreed.service',
      'dropins removed rpm-ostreed.service/mco-controlplane-nice.conf',
    ]);
    const env = d.changes[0]!;
    expect(env.before).toBe('2 lines, 119 bytes, mode 0644');
    expect(env.textDiff).toMatch(/^@@ -1,2 \+0,0 @@\n-KUBERNETES_SERVICE_HOST='api-int\./);
    expect(d.changes[1]!.before).toBe('22 lines, 1218 bytes, mode 0755');
  });

  it('rendered-master vs rendered-worker: kubelet.service differs in labels, taints and where --cloud-provider sits', () => {
    const d = diffMachineConfigs(mc('rendered-master-'), mc('rendered-worker-'));
    expect(summary(d.changes)).toEqual([
      'files removed /etc/kubernetes/apiserver-url.env',
      'files removed /usr/local/bin/recover-kubeconfig.sh',
      'units modified kubelet.service',
      'units removed rpm-ostreed.service',
      'dropins removed rpm-ostreed.service/mco-controlplane-nice.conf',
    ]);
    const kubelet = d.changes.find((c) => c.name === 'kubelet.service')!;
    expect(kubelet.before).toBe('40 lines');
    expect(kubelet.after).toBe('39 lines');
    expect(kubelet.changedLines).toEqual([
      {
        before: `      --node-labels=node-role.kubernetes.io/master,node.openshift.io/os_id=${SYSTEMD_ID} \\`,
        after: `      --node-labels=node-role.kubernetes.io/worker,node.openshift.io/os_id=${SYSTEMD_ID} \\`,
      },
      { before: '      --cloud-provider=aws \\' },
      { after: '      --cloud-provider=aws \\' },
      { before: '      --register-with-taints=node-role.kubernetes.io/master=:NoSchedule \\' },
    ]);
    // The pause image is the same in both pools' kubelet.service: no image changes.
    expect(kubelet.images).toBeUndefined();
    expect(d.fromInfo).toMatchObject({
      controllerVersion: 'd0db13627e8b48f7021cd4a44d964c55f15b65e1',
      ignitionVersion: '3.2.0',
    });
  });

  it('decodes every data URL of the rendered config, including the redacted pull secret', () => {
    const ign = normalizeIgnition(mc('rendered-master-').spec?.config, {
      file: 'x',
      at: 'spec.config',
      maxFileBytes: 1 << 26,
    });
    expect(ign.storage.size).toBe(31);
    const secret = ign.storage.get('/var/lib/kubelet/config.json');
    expect(secret?.kind === 'file' && secret.contents?.bytes?.toString()).toBe('{"auths":{}}');
    const keyfiles = ign.storage.get('/etc/NetworkManager/conf.d/99-keyfiles.conf');
    expect(keyfiles?.kind === 'file' && keyfiles.contents?.bytes?.toString()).toBe(
      '[main]\nplugins=keyfile,ifcfg-rh\n[keyfile]\npath=/etc/NetworkManager/systemConnectionsMerged\n',
    );
    expect(ign.users.get('core')?.sshAuthorizedKeys).toHaveLength(1);
  });

  it('a config against itself is identical', () => {
    expect(diffMachineConfigs(mc('rendered-master-'), mc('rendered-master-')).identical).toBe(true);
  });

  it('01-master-kubelet vs 01-worker-kubelet, filtered to one unit', () => {
    const d = diffMachineConfigs(mc('01-master-kubelet'), mc('01-worker-kubelet'), {
      path: 'kubelet.service',
    });
    expect(summary(d.changes)).toEqual(['units modified kubelet.service']);
  });
});

describeFixtures('must-gather bare metal 4.9: kernel arguments from 99-kernelargs-e2e-metal', () => {
  let mc: (name: string) => MachineConfig;
  beforeAll(() => {
    mc = mustGatherConfigs('metal');
  });

  it('rendered-master carries the metal kernel arguments, rendered-worker does not', () => {
    const d = diffMachineConfigs(mc('rendered-master-'), mc('rendered-worker-'), {
      only: ['kernelArguments'],
    });
    expect(summary(d.changes)).toEqual([
      'kernelArguments removed console=tty0',
      'kernelArguments removed console=ttyS1,115200n8',
      'kernelArguments removed rd.neednet=1',
    ]);
  });

  it('the AWS and metal rendered masters differ in OS image, kernel arguments and platform files', () => {
    const aws = mustGatherConfigs('aws')('rendered-master-');
    const d = diffMachineConfigs(aws, mc('rendered-master-'));
    const os = d.changes.find((c) => c.part === 'osImageURL');
    expect(os?.images).toEqual([
      {
        before:
          'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:ebc67790579c5fc64e38e802b89067c46ab9affa9b8924290a492688a1b5f40f',
        after:
          'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:6843561ab226a4b5d5350b1bb94da2e6bb2e5e3676949397975ed236bf45afae',
      },
    ]);
    expect(d.changes.filter((c) => c.part === 'kernelArguments').map((c) => c.name)).toEqual([
      'console=tty0',
      'console=ttyS1,115200n8',
      'rd.neednet=1',
    ]);
    // The pause image changed between 4.8 and 4.9: kubelet.service's change names both digests.
    const kubelet = d.changes.find((c) => c.name === 'kubelet.service');
    expect(
      kubelet?.images?.some((i) =>
        i.before?.endsWith('dca2cb8d63d38a6e464017ac8faf17a79b4d77b1fa9de8a7e2d64ca66d0b99bd'),
      ),
    ).toBe(true);
  });
});

describeFixtures('MCO pkg/server testdata: an Ignition 2.2 config', () => {
  const path = () =>
    fixture('openshift__machine-config-operator/pkg/server/testdata/machine-configs/test-config.yaml');

  it('decodes 2.2 storage and units', () => {
    const config = KINDS.MachineConfig.schema.parse(loadYaml(path()));
    const ign = normalizeIgnition(config.spec?.config, {
      file: path(),
      at: 'spec.config',
      maxFileBytes: 1 << 20,
    });
    expect(ign.version).toBe('2.2.0');
    const update = ign.storage.get('/etc/coreos/update.conf');
    expect(update).toMatchObject({ kind: 'file', mode: 420, overwrite: true });
    expect(update?.kind === 'file' && update.contents?.bytes?.toString()).toBe(
      'GROUP=stable\nSERVER=http://localhost:32003/v1/update\n',
    );
    expect([...ign.units.keys()]).toEqual([
      'docker.service',
      'etcd-member-tls.service',
      'etcd-member.service',
      'kubelet-workaround.service',
      'kubelet.service',
      'locksmith.service',
    ]);
    expect(ign.units.get('locksmith.service')).toMatchObject({ mask: true });
    expect([...(ign.units.get('docker.service')?.dropins.keys() ?? [])]).toEqual(['10-dockeropts.conf']);
  });

  it('diffs it against an edited copy: kernel arguments, a drop-in, a file, the mask', () => {
    const a = KINDS.MachineConfig.schema.parse(loadYaml(path()));
    const edited = readFileSync(path(), 'utf8')
      .replace('    - nosmt', '    - nosmt=off\n    - mitigations=auto')
      .replace('max-file=3', 'max-file=5')
      .replace('GROUP%3Dstable', 'GROUP%3Dbeta')
      .replace('mask: true', 'mask: false');
    const b = KINDS.MachineConfig.schema.parse(yaml.load(edited, { schema: yaml.CORE_SCHEMA }));
    const d = diffMachineConfigs(a, b);
    expect(summary(d.changes)).toEqual([
      'kernelArguments removed nosmt',
      'kernelArguments added nosmt=off',
      'kernelArguments added mitigations=auto',
      'files modified /etc/coreos/update.conf',
      'units modified locksmith.service',
      'dropins modified docker.service/10-dockeropts.conf',
    ]);
    expect(d.changes[3]!.changedLines).toEqual([{ before: 'GROUP=stable', after: 'GROUP=beta' }]);
    expect(d.changes[4]!.attributes).toEqual(['mask true → false']);
  });
});

describeFixtures('MCO QE templates: kernel arguments, extensions, FIPS, kernel type', () => {
  const file = (name: string) =>
    fixture('openshift__machine-config-operator/test/extended-priv/testdata/files', name);
  const params = { NAME: '99-worker-test', POOL: 'worker' };

  it('change-worker-karg-ktype-extension: realtime kernel, usbguard, z=10', () => {
    const d = diffMachineConfigs(
      EMPTY,
      instantiate(file('change-worker-karg-ktype-extension.yaml'), { ...params, KERNELTYPE: 'realtime' }),
    );
    expect(summary(d.changes)).toEqual([
      'kernelType modified kernelType',
      'kernelArguments added z=10',
      'extensions added usbguard',
    ]);
    expect(d.changes[0]).toMatchObject({ before: 'default', after: 'realtime' });
  });

  it('change-fips: fips false → true', () => {
    // change-fips sets no Ignition config at all, so compare it with a config that sets none either.
    const none: MachineConfig = { kind: 'MachineConfig', metadata: { name: 'none' }, spec: {} };
    const d = diffMachineConfigs(none, instantiate(file('change-fips.yaml'), { ...params, FIPS: 'true' }));
    expect(d.changes).toEqual([
      { part: 'fips', name: 'fips', change: 'modified', before: 'false', after: 'true' },
    ]);
  });

  it('change-worker-duplicated-kernel-argument: every repeat counts', () => {
    const dup = instantiate(file('change-worker-duplicated-kernel-argument.yaml'), params);
    expect(summary(diffMachineConfigs(EMPTY, dup).changes)).toEqual([
      'kernelArguments added y=0',
      'kernelArguments added z=4',
      'kernelArguments added y=1',
      'kernelArguments added z=4',
    ]);
    const deduped: MachineConfig = { ...dup, spec: { ...dup.spec, kernelArguments: ['y=0', 'z=4', 'y=1'] } };
    expect(summary(diffMachineConfigs(dup, deduped).changes)).toEqual(['kernelArguments removed z=4']);
  });

  it('add-ignition-kernel-arguments: Ignition 3.4 kernelArguments.shouldExist', () => {
    const d = diffMachineConfigs(EMPTY, instantiate(file('add-ignition-kernel-arguments.yaml'), params));
    expect(d.changes).toEqual([
      {
        part: 'ignitionVersion',
        name: 'ignition.version',
        change: 'modified',
        before: '3.2.0',
        after: '3.4.0',
      },
      {
        part: 'kernelArguments',
        name: 'enforcing=0',
        change: 'added',
        after: 'enforcing=0',
        attributes: ['Ignition kernelArguments.shouldExist'],
      },
    ]);
  });

  it('master-extension-mc vs set-realtime-kernel', () => {
    const ext = KINDS.MachineConfig.schema.parse(
      (loadYaml(file('machineconfigs/master-extension-mc.yaml')) as { objects: unknown[] }).objects[0],
    );
    const rt = instantiate(file('set-realtime-kernel.yaml'), params);
    expect(summary(diffMachineConfigs(ext, rt).changes)).toEqual([
      'ignitionVersion removed ignition.version',
      'kernelType modified kernelType',
      'extensions removed usbguard',
    ]);
  });

  it('bz1866117: 100 base64 files, all added, decoded, quickly', () => {
    const big = instantiate(file('bz1866117-add-dummy-files.yaml'), params);
    const t = performance.now();
    const d = diffMachineConfigs(EMPTY, big);
    const ms = performance.now() - t;
    expect(d.changes).toHaveLength(100);
    expect(d.changes.every((c) => c.part === 'files' && c.change === 'added')).toBe(true);
    const first = d.changes.find((c) => c.name === '/var/log/dummy.log1');
    expect(first?.after).toBe('201 lines, 8801 bytes, mode 0644');
    expect(diffMachineConfigs(big, big).identical).toBe(true);
    expect(ms).toBeLessThan(2000);
  });
});
