/**
 * A large synthetic gather-extra machineconfigs.json for the benches: 220 rendered configs (110 per
 * pool, shaped like the MCO's templates), the bug-2019850 pause-image change between the two newest
 * master configs.
 */
import { writeFileSync } from 'node:fs';
import { textDataUrl } from '../src/machineconfig/write.js';
import { rng } from './rng.js';

export const POOLS = ['master', 'worker'] as const;
export const PER_POOL = 110;
const ART = 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:';

function hex(r: () => number, n: number): string {
  let s = '';
  while (s.length < n) s += Math.floor(r() * 16).toString(16);
  return s;
}

const WORDS = [
  'if',
  'then',
  'fi',
  'echo',
  'nmcli',
  'conn',
  'ovs-vsctl',
  'set',
  '--timeout',
  'br-ex',
  'local',
  'mac',
  'iface',
  '"$1"',
  ['$', '{2:-}'].join(''),
  'grep',
  '-q',
  'sed',
  '-e',
  'ip',
  'route',
  'dev',
  'mtu',
  '1500',
];

/** A shell-script-like text of about `bytes` bytes, as the larger MCO template files are. */
function scriptText(r: () => number, bytes: number): string {
  const lines: string[] = ['#!/bin/bash', 'set -eux'];
  let size = 20;
  while (size < bytes) {
    const n = 3 + Math.floor(r() * 9);
    const line = `${'  '.repeat(Math.floor(r() * 3))}${Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ')}`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

function kubelet(pool: string, pod: string): string {
  return `[Unit]\nDescription=Kubernetes Kubelet\nWants=rpc-statd.service network-online.target\nRequires=crio.service kubelet-auto-node-size.service\nAfter=network-online.target crio.service kubelet-auto-node-size.service\n\n[Service]\nType=notify\nExecStartPre=/bin/mkdir --parents /etc/kubernetes/manifests\nEnvironmentFile=/etc/os-release\nEnvironmentFile=-/etc/kubernetes/kubelet-workaround\n\nExecStart=/usr/bin/hyperkube \\\n    kubelet \\\n      --config=/etc/kubernetes/kubelet.conf \\\n      --kubeconfig=/var/lib/kubelet/kubeconfig \\\n      --container-runtime-endpoint=/var/run/crio/crio.sock \\\n      --node-labels=node-role.kubernetes.io/${pool},node.openshift.io/os_id=\${ID} \\\n      --pod-infra-container-image=${pod} \\\n      --v=\${KUBELET_LOG_LEVEL}\n\nRestart=always\nRestartSec=10\n\n[Install]\nWantedBy=multi-user.target\n`;
}

function renderedConfig(
  pool: string,
  index: number,
  created: number,
  pod: string,
  mco: string,
  os: string,
): object {
  const r = rng(index * 7919 + (pool === 'master' ? 1 : 2));
  // Same template content for every config of a pool (as in a real cluster), so diffs are small.
  const t = rng(pool === 'master' ? 11 : 12);
  const files = [];
  for (let i = 0; i < 34; i++) {
    const size = i === 0 ? 100_000 : 500 + Math.floor(t() * 4_000);
    files.push({
      contents: { source: textDataUrl(scriptText(t, size)) },
      mode: i % 5 === 0 ? 493 : 420,
      overwrite: true,
      path: `/usr/local/bin/template-${i}.sh`,
    });
  }
  files.push({
    contents: { source: textDataUrl(`[crio.image]\npause_image = "${pod}"\n`) },
    mode: 420,
    overwrite: true,
    path: '/etc/crio/crio.conf.d/00-default',
  });
  const units = [
    { contents: kubelet(pool, pod), enabled: true, name: 'kubelet.service' },
    {
      contents: `[Service]\nExecStart=/usr/bin/podman pull '${mco}'\n`,
      enabled: true,
      name: 'machine-config-daemon-pull.service',
    },
    {
      dropins: [
        { contents: '[Service]\nEnvironment="GODEBUG=x509ignoreCN=0"\n', name: '10-mco-default-env.conf' },
      ],
      name: 'crio.service',
    },
  ];
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfig',
    metadata: {
      annotations: {
        'machineconfiguration.openshift.io/generated-by-controller-version':
          'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
      },
      creationTimestamp: new Date(created).toISOString().replace('.000Z', 'Z'),
      generation: 1,
      name: `rendered-${pool}-${hex(r, 32)}`,
      ownerReferences: [
        {
          apiVersion: 'machineconfiguration.openshift.io/v1',
          blockOwnerDeletion: true,
          controller: true,
          kind: 'MachineConfigPool',
          name: pool,
          uid: `uid-${pool}`,
        },
      ],
      resourceVersion: String(1000 + index),
      uid: hex(r, 32),
    },
    spec: {
      config: { ignition: { version: '3.2.0' }, storage: { files }, systemd: { units } },
      extensions: [],
      fips: false,
      kernelArguments: [],
      kernelType: 'default',
      osImageURL: os,
    },
  };
}

/** Writes the List; returns the names of the two newest master configs. */
export function writeMachineConfigs(file: string): [string, string] {
  const r = rng(42);
  const items: object[] = [];
  const start = Date.parse('2021-10-01T00:00:00Z');
  const os = `${ART}${hex(r, 64)}`;
  const mco = `${ART}${hex(r, 64)}`;
  let pod = `${ART}${hex(r, 64)}`;
  const newestMaster: string[] = [];
  for (let i = 0; i < PER_POOL; i++) {
    // The last config of each pool gets the new pause image, as in bug 2019850.
    if (i === PER_POOL - 1) pod = `${ART}0adaefcf3675fa153e7d3917c7a24563e9da81922cac6c3eed3edd4b57bf98bb`;
    for (const pool of POOLS) {
      const mc = renderedConfig(pool, i, start + i * 3_600_000, pod, mco, os) as {
        metadata: { name: string };
      };
      items.push(mc);
      if (pool === 'master' && i >= PER_POOL - 2) newestMaster.push(mc.metadata.name);
    }
  }
  writeFileSync(
    file,
    JSON.stringify({ apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } }, null, 4),
  );
  return [newestMaster[0]!, newestMaster[1]!];
}
