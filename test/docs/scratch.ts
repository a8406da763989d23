/**
 * What the docs' `scratch` examples find in their folder (test/docs/console-examples.test.ts). Each maker
 * fills the new temporary folder it is given with the files one example reads. They are made here
 * rather than kept in the repository because some are bombs (small to make, far too big to commit as
 * what they decode to) and the others name the folder they sit in (kubeconfigs, plugins), which only
 * exists while the test runs.
 */
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { projectRoot } from '../helpers/fixtures.js';
import { dataUrlBombConfig, machineConfig, plainConfig, writeJson } from '../hostile/gen.js';

const MIB = 1024 * 1024;

function write(dir: string, path: string, text: string, mode = 0o644): void {
  const file = join(dir, path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, mode);
}

const motd = { path: '/etc/motd', mode: 420, contents: { source: 'data:,hello%0A' } };

export const MAKERS: ReadonlyMap<string, (dir: string) => void> = new Map([
  [
    // docs/limits.md: five gzip data: URLs of 60 MiB each, every one under the 64 MiB a file may
    // decode to, together over the 256 MiB one MachineConfig may.
    'data-url-bomb',
    (dir: string) => {
      dataUrlBombConfig(dir, 5, 60, 'bomb.json');
      plainConfig(dir, 'rendered-worker.json');
    },
  ],
  [
    // docs/diff.md: two gzip members of 64 MiB of zeros. The size gzip declares is the last
    // member's, which is within the cap, so the file is refused only while it is being inflated.
    'gzip-bomb',
    (dir: string) => {
      const member = gzipSync(Buffer.alloc(64 * MIB), { level: 9 });
      const source = `data:;base64,${Buffer.concat([member, member]).toString('base64')}`;
      const bomb = { path: '/etc/bomb.conf', mode: 420, contents: { source, compression: 'gzip' } };
      const files = (list: object[]) => ({ ignition: { version: '3.2.0' }, storage: { files: list } });
      writeJson(dir, 'mcs.json', {
        apiVersion: 'v1',
        kind: 'List',
        items: [
          machineConfig('rendered-worker-0', files([motd])),
          machineConfig('rendered-worker-1', files([motd, bomb])),
        ],
      });
    },
  ],
  [
    // docs/runs.md: a folder of CI runs, the two of examples/.
    'ci-runs',
    (dir: string) => {
      for (const run of ['bug-2019850', 'bug-2019850-fixed'])
        cpSync(join(projectRoot, 'examples', run), join(dir, 'runs', run), { recursive: true });
    },
  ],
  [
    // docs/inputs.md: a folder of `oc get -o json` output whose fourth pool has a malformed field.
    'bad-pool',
    (dir: string) => {
      const pool = (name: string, status: object = {}) => ({
        apiVersion: 'machineconfiguration.openshift.io/v1',
        kind: 'MachineConfigPool',
        metadata: { name },
        status,
      });
      mkdirSync(join(dir, 'run'));
      writeJson(join(dir, 'run'), 'machineconfigpools.json', {
        apiVersion: 'v1',
        kind: 'List',
        items: [pool('infra'), pool('storage'), pool('worker'), pool('master', { conditions: 'Updated' })],
      });
    },
  ],
  [
    // docs/live.md: a kubeconfig whose client certificate is missing, and one whose users get their
    // credential from a plugin that fails: for `dev` it prints an ExecCredential with no
    // credential in it, for `prod` it exits 1 as a login helper does when its session has expired.
    'kubeconfigs',
    (dir: string) => {
      const config = (user: string) => `apiVersion: v1
kind: Config
clusters:
- name: dev
  cluster:
    server: https://127.0.0.1:6443
contexts:
- name: dev
  context: {cluster: dev, user: dev}
- name: prod
  context: {cluster: dev, user: prod}
current-context: dev
users:
${user}`;
      write(
        dir,
        'kc/dev',
        config(`- name: dev
  user:
    client-certificate: certs/dev.crt
    client-key: certs/dev.key
`),
      );
      const exec = (name: string) => `- name: ${name}
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: ${join(dir, 'bin/get-token')}
      args: [${name}]
      interactiveMode: Never
`;
      write(dir, '.kube/config', config(exec('dev') + exec('prod')));
      write(
        dir,
        'bin/get-token',
        `#!/bin/sh
if [ "$1" = prod ]; then echo 'error: session expired, run login again' >&2; exit 1; fi
echo '{"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential", "status": {}}'
`,
        0o755,
      );
    },
  ],
  [
    // docs/inputs.md: a recorded `oc` on PATH (a scratch folder's bin/ is), printing what
    // `oc get clusterversion,co -o json` and `oc get co -o json` print on the cluster of
    // examples/bug-2019850-fixed at its end (its gather-extra Lists, as oc's List of several kinds).
    'recorded-oc',
    (dir: string) => {
      const extra = join(
        projectRoot,
        'examples/bug-2019850-fixed/artifacts/e2e-aws-upgrade/gather-extra/artifacts',
      );
      const items = (file: string) =>
        (JSON.parse(readFileSync(join(extra, file), 'utf8')) as { items: unknown[] }).items;
      const list = (all: unknown[]) =>
        `${JSON.stringify({ apiVersion: 'v1', items: all, kind: 'List', metadata: { resourceVersion: '' } }, null, 4)}\n`;
      write(
        dir,
        'recorded/clusterversion,co.json',
        list([...items('clusterversion.json'), ...items('clusteroperators.json')]),
      );
      write(dir, 'recorded/co.json', list(items('clusteroperators.json')));
      write(
        dir,
        'bin/oc',
        `#!/bin/sh
# A recorded oc: only these two commands, on the cluster of examples/bug-2019850-fixed.
case "$*" in
  "get clusterversion,co -o json") exec cat '${join(dir, 'recorded/clusterversion,co.json')}' ;;
  "get co -o json") exec cat '${join(dir, 'recorded/co.json')}' ;;
  *) echo "recorded oc: not recorded: oc $*" >&2; exit 1 ;;
esac
`,
        0o755,
      );
    },
  ],
]);
