/**
 * The diff bench's machineconfigs.json, shaped like a List of real rendered configs (issue 42's file):
 * 220 copies of one rendered config of an OpenShift 4.16 compact cluster's size and layout, indented
 * by 4 spaces, 37.6 MB in all.
 *
 * One config: metadata (two MCO annotations, creationTimestamp, generation, name, an ownerReference
 * to MachineConfigPool `master`, resourceVersion, uid); spec with baseOSExtensionsContainerImage,
 * extensions, fips, three kernelArguments, kernelType, osImageURL and the Ignition 3.4.0 config:
 * the `core` user's SSH key, the 42 files the MCO writes on a 4.16 AWS control-plane node (their
 * paths, modes and data: URL sizes: 40 percent-encoded, two base64; the largest, configure-ovs.sh, 65
 * KB) and its 24 systemd units (their names, content sizes and drop-ins). File and unit texts are
 * generated shell and unit-file words of those sizes.
 *
 * Copy k (0-based) is named `rendered-master-<md5(k)>` for even k and `rendered-worker-<md5(k)>` for
 * odd k (all keep the owner reference to `master`, so `--pool master` sees all 220), is created at
 * 2021-11-01T00:00:00Z plus k minutes, and has its own pause image in kubelet.service
 * (`--pod-infra-container-image=quay.io/x@sha256:<md5(k)><md5(k)> --x=…`). `diff --pool master`
 * compares copies 218 and 219: one changed kubelet.service line.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { rng } from './rng.js';

export const CONFIGS = 220;

const WORDS = [
  'if',
  'then',
  'fi',
  'echo',
  'nmcli',
  'conn',
  'ovs-vsctl',
  '--timeout',
  'br-ex',
  'local',
  'grep',
  '-q',
  'sed',
  'ip',
  'route',
  'dev',
  'mtu',
  '1500',
  '/etc/NetworkManager/system-connections',
  ['$', '{IFACE}'].join(''),
  'exit',
  '0',
];

function text(r: () => number, bytes: number, first: string): string {
  let s = first;
  while (s.length < bytes) {
    const n = 2 + Math.floor(r() * 8);
    const words = Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]);
    s += `${'  '.repeat(Math.floor(r() * 3))}${words.join(' ')}\n`;
  }
  return s;
}

/** Percent-encoded as the MCO writes data: URLs, cut at `size` characters (never inside an escape). */
function percentSource(r: () => number, size: number): string {
  if (size <= 6) return 'data:,';
  const raw = encodeURIComponent(text(r, size, '#!/bin/bash\nset -ex\n')).replace(/'/g, '%27');
  let cut = Math.min(raw.length, size - 6);
  while (cut > 0 && raw.lastIndexOf('%', cut - 1) > cut - 3) cut--;
  return `data:,${raw.slice(0, cut)}`;
}

function base64Source(r: () => number, size: number): string {
  const prefix = 'data:text/plain;charset=utf-8;base64,';
  const raw = Buffer.from(text(r, Math.ceil(((size - prefix.length) * 3) / 4), '[main]\n'))
    .toString('base64')
    .slice(0, size - prefix.length);
  return `${prefix}${raw.slice(0, raw.length - (raw.length % 4))}`;
}

/** [path, mode, data: URL size, base64] as on the 4.16 node. */
const FILES: readonly (readonly [string, number, number, boolean?])[] = [
  ['/usr/local/bin/nm-clean-initrd-state.sh', 493, 8803],
  ['/etc/NetworkManager/conf.d/01-ipv6.conf', 420, 70],
  ['/etc/NetworkManager/conf.d/20-keyfiles.conf', 420, 120],
  ['/etc/pki/ca-trust/source/anchors/openshift-config-user-ca-bundle.crt', 384, 6],
  ['/etc/kubernetes/apiserver-url.env', 420, 122],
  ['/etc/audit/rules.d/mco-audit-quiet-containers.rules', 420, 784],
  ['/etc/tmpfiles.d/cleanup-cni.conf', 420, 291],
  ['/usr/local/bin/configure-ovs.sh', 493, 65230],
  ['/etc/containers/storage.conf', 420, 6007],
  ['/etc/kubernetes/credential-providers/ecr-credential-provider.yaml', 420, 607],
  ['/etc/mco/proxy.env', 420, 582],
  ['/etc/systemd/system.conf.d/10-default-env-godebug.conf', 420, 72],
  ['/etc/modules-load.d/iptables.conf', 420, 117],
  ['/etc/node-sizing-enabled.env', 420, 120],
  ['/usr/local/sbin/dynamic-system-reserved-calc.sh', 493, 8060],
  ['/etc/systemd/system.conf.d/kubelet-cgroups.conf', 420, 197],
  ['/etc/systemd/system/kubelet.service.d/20-logging.conf', 420, 66],
  ['/etc/NetworkManager/conf.d/sdn.conf', 420, 491],
  ['/etc/nmstate/nmstate.conf', 420, 65],
  ['/etc/NetworkManager/dispatcher.d/pre-up.d/10-ofport-request.sh', 493, 7654],
  ['/var/lib/kubelet/config.json', 384, 32],
  ['/etc/kubernetes/ca.crt', 420, 1211],
  ['/etc/sysctl.d/arp.conf', 420, 172],
  ['/etc/sysctl.d/gc-thresh.conf', 420, 319],
  ['/etc/sysctl.d/inotify.conf', 420, 98],
  ['/etc/sysctl.d/enable-userfaultfd.conf', 420, 43],
  ['/etc/sysctl.d/vm-max-map.conf', 420, 180],
  ['/usr/local/bin/aws-kubelet-nodename', 493, 2525],
  ['/usr/local/bin/aws-kubelet-providerid', 493, 2486],
  ['/usr/local/bin/mco-hostname', 493, 3921],
  ['/usr/local/bin/recover-kubeconfig.sh', 493, 1704],
  ['/etc/kubernetes/kubelet-plugins/volume/exec/.dummy', 493, 6],
  ['/etc/NetworkManager/dispatcher.d/99-vsphere-disable-tx-udp-tnl', 484, 868],
  ['/usr/local/bin/wait-for-primary-ip.sh', 493, 1132],
  ['/etc/containers/registries.conf', 420, 437, true],
  ['/etc/crio/crio.conf.d/00-default', 420, 4283],
  ['/etc/containers/policy.json', 420, 607],
  ['/etc/kubernetes/cloud.conf', 420, 18],
  ['/etc/kubernetes/crio-metrics-proxy.cfg', 420, 288],
  ['/etc/kubernetes/manifests/criometricsproxy.yaml', 420, 3921],
  ['/etc/kubernetes/kubelet.conf', 420, 6021, true],
  ['/usr/local/bin/kubenswrapper', 493, 182],
];

/** [name, content size (0: none), enabled, drop-ins [name, size]] as on the 4.16 node. */
const UNITS: readonly (readonly [string, number, boolean | undefined, (readonly [string, number])[]])[] = [
  ['NetworkManager-clean-initrd-state.service', 772, true, []],
  ['aws-kubelet-nodename.service', 766, true, []],
  ['aws-kubelet-providerid.service', 770, true, []],
  [
    'crio.service',
    0,
    undefined,
    [
      ['01-kubens.conf', 262],
      ['10-mco-default-env.conf', 0],
      ['10-mco-profile-unix-socket.conf', 56],
      ['05-mco-ordering.conf', 78],
      ['10-mco-default-madv.conf', 62],
    ],
  ],
  ['disable-mglru.service', 248, true, []],
  ['docker.socket', 0, undefined, [['mco-disabled.conf', 35]]],
  ['firstboot-osupdate.target', 182, true, []],
  ['kubelet-auto-node-size.service', 521, true, []],
  ['kubelet-dependencies.target', 274, undefined, []],
  [
    'kubelet.service',
    2006,
    true,
    [
      ['20-node-env.conf', 51],
      ['01-kubens.conf', 262],
      ['10-mco-default-env.conf', 0],
      ['10-mco-default-madv.conf', 62],
    ],
  ],
  ['kubens.service', 985, false, []],
  ['machine-config-daemon-firstboot.service', 1231, true, []],
  ['machine-config-daemon-pull.service', 872, true, []],
  ['node-valid-hostname.service', 444, true, []],
  ['nodeip-configuration.service', 1330, false, []],
  ['openvswitch.service', 0, true, []],
  ['ovs-configuration.service', 968, true, []],
  ['ovs-vswitchd.service', 0, undefined, [['10-ovs-vswitchd-restart.conf', 387]]],
  ['ovsdb-server.service', 0, true, [['10-ovsdb-restart.conf', 25]]],
  ['pivot.service', 0, undefined, [['10-mco-default-env.conf', 0]]],
  [
    'rpm-ostreed.service',
    0,
    undefined,
    [
      ['10-mco-default-env.conf', 0],
      ['mco-controlplane-nice.conf', 142],
    ],
  ],
  ['wait-for-primary-ip.service', 350, true, []],
  ['zincati.service', 0, undefined, [['mco-disabled.conf', 35]]],
  ['kubelet-cleanup.service', 259, true, []],
];

const ART = 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:';
const POD_FLAG = '--pod-infra-container-image=';

function unitText(r: () => number, name: string, size: number): string {
  const head = `[Unit]\nDescription=${name}\nAfter=network-online.target\n\n[Service]\nType=oneshot\nEnvironment="GODEBUG=x509ignoreCN=0"\n`;
  if (name === 'kubelet.service') {
    const exec = `ExecStart=/usr/local/bin/kubenswrapper \\\n    /usr/bin/kubelet \\\n      --config=/etc/kubernetes/kubelet.conf \\\n      ${POD_FLAG}${ART}6a1f8d7c5e4b3a29180f7e6d5c4b3a2918f7e6d5c4b3a29180f7e6d5c4b3a291 \\\n      --v=$\{KUBELET_LOG_LEVEL}\n`;
    return (
      text(r, size - exec.length - 40, head + exec).slice(0, size - 40) +
      '\n[Install]\nWantedBy=multi-user.target\n'
    );
  }
  return text(r, size, head).slice(0, size);
}

/** The one rendered config every copy starts from. */
function baseConfig(): Record<string, unknown> {
  const r = rng(4160);
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(r() * 16).toString(16)).join('');
  const files = FILES.map(([path, mode, size, base64]) => ({
    contents: base64
      ? { compression: '', source: base64Source(r, size) }
      : { source: percentSource(r, size) },
    mode,
    overwrite: true,
    path,
  }));
  const units = UNITS.map(([name, size, enabled, dropins]) => ({
    ...(size > 0 ? { contents: unitText(r, name, size) } : {}),
    ...(dropins.length > 0
      ? {
          dropins: dropins.map(([n, s]) => ({
            ...(s > 0 ? { contents: `[Service]\n${text(r, s - 10, '')}`.slice(0, s) } : {}),
            name: n,
          })),
        }
      : {}),
    ...(enabled !== undefined ? { enabled } : {}),
    name,
  }));
  const key = Buffer.from(Array.from({ length: 400 }, () => Math.floor(r() * 256))).toString('base64');
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfig',
    metadata: {
      annotations: {
        'machineconfiguration.openshift.io/generated-by-controller-version': hex(40),
        'machineconfiguration.openshift.io/release-image-version': '4.16.0-0.nightly-2024-08-01-082745',
      },
      creationTimestamp: '',
      generation: 1,
      name: '',
      ownerReferences: [
        {
          apiVersion: 'machineconfiguration.openshift.io/v1',
          blockOwnerDeletion: true,
          controller: true,
          kind: 'MachineConfigPool',
          name: 'master',
          uid: `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`,
        },
      ],
      resourceVersion: '9144',
      uid: `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`,
    },
    spec: {
      baseOSExtensionsContainerImage: `${ART}${hex(64)}`,
      config: {
        ignition: { version: '3.4.0' },
        passwd: { users: [{ name: 'core', sshAuthorizedKeys: [`ssh-rsa ${key} core@localhost\n`] }] },
        storage: { files },
        systemd: { units },
      },
      extensions: [],
      fips: false,
      kernelArguments: ['systemd.unified_cgroup_hierarchy=1', 'cgroup_no_v1="all"', 'psi=1'],
      kernelType: 'default',
      osImageURL: `${ART}${hex(64)}`,
    },
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Writes the List to `file`; returns the names of the two configs `diff --pool master` compares. */
export function writeRenderedConfigs(file: string, n = CONFIGS): [string, string] {
  const base = JSON.stringify(baseConfig());
  const items: unknown[] = [];
  for (let k = 0; k < n; k++) {
    const m = JSON.parse(base) as {
      metadata: { name: string; creationTimestamp: string };
      spec: { config: { systemd: { units: { name: string; contents?: string }[] } } };
    };
    const h = createHash('md5').update(String(k)).digest('hex');
    m.metadata.name = `rendered-${k % 2 === 0 ? 'master' : 'worker'}-${h}`;
    m.metadata.creationTimestamp = `2021-11-${pad(1 + Math.floor(k / 1440))}T${pad(Math.floor(k / 60) % 24)}:${pad(k % 60)}:00Z`;
    for (const u of m.spec.config.systemd.units) {
      if (u.name === 'kubelet.service' && u.contents !== undefined)
        u.contents = u.contents.replace(POD_FLAG, `${POD_FLAG}quay.io/x@sha256:${h}${h} --x=`);
    }
    items.push(m);
  }
  writeFileSync(
    file,
    JSON.stringify({ apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } }, null, 4),
  );
  const name = (k: number) => (items[k] as { metadata: { name: string } }).metadata.name;
  return [name(n - 2), name(n - 1)];
}
