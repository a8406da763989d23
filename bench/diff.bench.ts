/**
 * `atlevel diff --pool master --from machineconfigs.json` on a large synthetic gather-extra
 * machineconfigs.json (220 rendered configs, about 60 MB, the bug-2019850 pause-image change between
 * the two newest master configs), against, in the same run:
 *   - the seed's approach (bug-2019850.txt): its diff-machine-config.sh (bench/diff-machine-config.sh),
 *     and the least any jq pipeline must do (one select per config + diff -u0); both are given the
 *     two names up front, which favours them;
 *   - the floor: a node process that reads the file and JSON.parses it.
 * Goal (issue 6): at least 10x faster than the seed's script, within 1.5x of the floor. Figures are
 * medians of three runs, wall and CPU time (CPU is the steadier one on a busy machine).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { textDataUrl } from '../src/machineconfig/write.js';
import { rng } from './large-run.js';

const root = new URL('..', import.meta.url).pathname;
const POOLS = ['master', 'worker'] as const;
const PER_POOL = 110;
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
function writeMachineConfigs(file: string): [string, string] {
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

interface Sample {
  seconds: number;
  /** User + system CPU seconds, children included: steadier than wall time on a busy machine. */
  cpu: number;
  maxRssMb: number;
}

function timed(args: string[]): Sample {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const last = r.stderr.trim().split('\n').at(-1) ?? '';
  const [secs, user, sys, kb] = last.split(' ').map(Number);
  if (
    secs === undefined ||
    user === undefined ||
    sys === undefined ||
    kb === undefined ||
    Number.isNaN(secs)
  ) {
    throw new Error(`could not time ${args.join(' ')}: ${r.stderr}`);
  }
  return { seconds: secs, cpu: user + sys, maxRssMb: kb / 1024 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

if (!existsSync(join(root, 'dist/cli/main.js')))
  execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
// ATLEVEL_BENCH_DIR keeps the generated file there (for profiling); otherwise a temp dir is removed after.
const keep = process.env.ATLEVEL_BENCH_DIR;
const dir = keep ?? mkdtempSync(join(tmpdir(), 'atlevel-diff-bench-'));
try {
  const file = join(dir, 'machineconfigs.json');
  mkdirSync(dir, { recursive: true });
  let t = performance.now();
  const [older, newer] = writeMachineConfigs(file);
  process.stdout.write(
    `input: ${file}, ${PER_POOL * POOLS.length} rendered configs, ${(statSync(file).size / 1e6).toFixed(1)} MB (generated in ${((performance.now() - t) / 1000).toFixed(1)} s)\n`,
  );

  const floorScript = `JSON.parse(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8'));`;
  // The seed's approach two ways. `seed`: its diff-machine-config.sh as written in the bug (the List
  // held in a shell variable, each config selected twice: once for the header, once for diff -u0),
  // reading the file instead of curl; this is what the issue timed. `minimal`: the least any jq
  // approach must do, one select per config (written to files so /usr/bin/time counts every jq).
  const seedScript = join(root, 'bench/diff-machine-config.sh');
  const select = (name: string, out: string) =>
    `jq -r --arg name ${name} '.items[] | select(.metadata.name == $name)' ${JSON.stringify(file)} | jq -r . > ${join(dir, out)}`;
  const minimalScript = `${select(older, 'a.json')}; ${select(newer, 'b.json')}; diff -u0 ${join(dir, 'a.json')} ${join(dir, 'b.json')}; true`;
  const atlevel = [
    process.execPath,
    join(root, 'bin/atlevel.js'),
    'diff',
    '--pool',
    'master',
    '--from',
    file,
  ];

  // One untimed run to check that atlevel finds what the seed's engineer found.
  t = performance.now();
  const check = spawnSync(atlevel[0]!, atlevel.slice(1), {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (check.status !== 1) throw new Error(`atlevel diff exited ${check.status}: ${check.stderr}`);
  process.stdout.write(`atlevel diff says: ${check.stdout.split('\n')[3]}\n`);

  const floor: Sample[] = [];
  const ours: Sample[] = [];
  const seed: Sample[] = [];
  const minimal: Sample[] = [];
  for (let i = 0; i < 3; i++) {
    floor.push(timed([process.execPath, '-e', floorScript]));
    ours.push(timed(atlevel));
    seed.push(timed(['bash', seedScript, file, older, newer]));
    minimal.push(timed(['bash', '-c', minimalScript]));
  }
  const wall = (xs: Sample[]) => median(xs.map((s) => s.seconds));
  const cpu = (xs: Sample[]) => median(xs.map((s) => s.cpu));
  const rss = (xs: Sample[]) => median(xs.map((s) => s.maxRssMb)).toFixed(0);
  const line = (label: string, xs: Sample[], note = '') =>
    `${label.padEnd(36)} ${wall(xs).toFixed(2)} s wall, ${cpu(xs).toFixed(2)} s CPU, peak ${rss(xs)} MB${note}\n`;
  process.stdout.write(line('floor (node read + JSON.parse):', floor));
  process.stdout.write(line('atlevel diff --pool master --from:', ours));
  process.stdout.write(line("seed's diff-machine-config.sh:", seed, ' (largest process)'));
  process.stdout.write(line('minimal jq (2 selects + diff -u0):', minimal, ' (largest process)'));
  const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}x`;
  process.stdout.write(
    `speed-up over the seed's script: ${ratio(wall(seed), wall(ours))} wall, ${ratio(cpu(seed), cpu(ours))} CPU (goal >= 10x)\n`,
  );
  process.stdout.write(
    `speed-up over minimal jq:        ${ratio(wall(minimal), wall(ours))} wall, ${ratio(cpu(minimal), cpu(ours))} CPU\n`,
  );
  process.stdout.write(
    `ratio to floor:                  ${(wall(ours) / wall(floor)).toFixed(2)}x wall, ${(cpu(ours) / cpu(floor)).toFixed(2)}x CPU (goal <= 1.5x)\n`,
  );
} finally {
  if (!keep) rmSync(dir, { recursive: true, force: true });
}
