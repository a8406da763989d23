/** Real kubectl (/usr/bin/kubectl, 1.32) against atlevel serve: what an engineer would type. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningServer } from '../../src/serve/index.js';
import { describeFixtures, fixture } from '../helpers/fixtures.js';
import { describeKubectl, getJson, KUBECTL, kubeconfig, kubectl, serve } from './helpers.js';
import { makeMustGather } from './make-must-gather.js';

describeKubectl('kubectl on a must-gather', () => {
  let dir: string;
  let server: RunningServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'atlevel-serve-kubectl-'));
    server = await serve([makeMustGather(dir, { nodes: 5, renderedConfigs: 4, events: 30, namespaces: 3 })], {
      limits: { tooLargeWaitMs: 300 },
    });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const lines = (s: string) => s.trimEnd().split('\n');
  const cols = (line: string) => line.trim().split(/\s{2,}/);

  it('get clusterversion, co, mcp, mc', async () => {
    const cv = await kubectl(server, ['get', 'clusterversion']);
    expect(cv.code, cv.stderr).toBe(0);
    expect(cols(lines(cv.stdout)[0]!)).toEqual([
      'NAME',
      'VERSION',
      'AVAILABLE',
      'PROGRESSING',
      'SINCE',
      'STATUS',
    ]);
    expect(cols(lines(cv.stdout)[1]!)).toEqual([
      'version',
      '4.16.3',
      'True',
      'False',
      '0s',
      'Cluster version is 4.16.3',
    ]);
    const co = await kubectl(server, ['get', 'co']);
    expect(cols(lines(co.stdout)[0]!)).toEqual([
      'NAME',
      'VERSION',
      'AVAILABLE',
      'PROGRESSING',
      'DEGRADED',
      'SINCE',
    ]);
    expect(
      lines(co.stdout)
        .slice(1)
        .map((l) => cols(l)[0]),
    ).toEqual(['authentication', 'etcd', 'kube-apiserver', 'machine-config', 'network']);
    const mcp = await kubectl(server, ['get', 'mcp']);
    expect(cols(lines(mcp.stdout)[1]!).slice(0, 9)).toEqual([
      'master',
      'rendered-master-00000000000000000000000000000002',
      'True',
      'False',
      'False',
      '3',
      '3',
      '3',
      '0',
    ]);
    const mc = await kubectl(server, ['get', 'mc']);
    expect(cols(lines(mc.stdout)[0]!)).toEqual(['NAME', 'GENERATEDBYCONTROLLER', 'IGNITIONVERSION', 'AGE']);
    expect(lines(mc.stdout)).toHaveLength(5);
  });

  it('get nodes -o wide, pods -A, events -A, and a kind atlevel does not model', async () => {
    const nodes = await kubectl(server, ['get', 'nodes', '-o', 'wide']);
    expect(cols(lines(nodes.stdout)[0]!)).toEqual([
      'NAME',
      'STATUS',
      'ROLES',
      'AGE',
      'VERSION',
      'INTERNAL-IP',
      'EXTERNAL-IP',
      'OS-IMAGE',
      'KERNEL-VERSION',
      'CONTAINER-RUNTIME',
    ]);
    expect(cols(lines(nodes.stdout)[1]!).slice(0, 3)).toEqual([
      'master-0.example.internal',
      'Ready',
      'master',
    ]);
    const pods = await kubectl(server, ['get', 'pods', '-A']);
    expect(cols(lines(pods.stdout)[0]!)).toEqual(['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    expect(lines(pods.stdout)).toHaveLength(4);
    const events = await kubectl(server, ['get', 'events', '-A']);
    expect(cols(lines(events.stdout)[0]!)).toEqual([
      'NAMESPACE',
      'LAST SEEN',
      'TYPE',
      'REASON',
      'OBJECT',
      'MESSAGE',
    ]);
    expect(lines(events.stdout)).toHaveLength(31);
    const deploy = await kubectl(server, ['get', 'deployments', '-n', 'openshift-ns-1', '-o', 'name']);
    expect(deploy.stdout.trim()).toBe('deployment.apps/ns-1-pod-0-deploy');
  });

  it('logs, current and previous', async () => {
    const cur = await kubectl(server, ['logs', '-n', 'openshift-ns-2', 'ns-2-pod-0']);
    expect(cur.stdout).toBe('line one of ns-2-pod-0\nline two of ns-2-pod-0\n');
    const prev = await kubectl(server, ['logs', '-n', 'openshift-ns-2', 'ns-2-pod-0', '--previous']);
    expect(prev.stdout).toBe('before the restart of ns-2-pod-0\n');
  });

  it('auth can-i: yes for get, list and watch on what is served, no with the reason for the rest', async () => {
    const canI = (...args: string[]) => kubectl(server, ['auth', 'can-i', ...args]);
    const yes = { code: 0, stdout: 'yes\n' };
    expect(await canI('list', 'pods')).toMatchObject(yes);
    expect(await canI('watch', 'co')).toMatchObject(yes);
    expect(await canI('get', 'mcp/master')).toMatchObject(yes);
    expect(await canI('get', 'pods', '--subresource=log', '-n', 'openshift-ns-2')).toMatchObject(yes);
    expect(await canI('get', '/version')).toMatchObject(yes);
    const no = (why: string) => ({
      code: 1,
      stdout: `no - atlevel serve is a read-only replay of recorded data: ${why}\n`,
    });
    expect(await canI('delete', 'co/etcd')).toMatchObject(
      no('it serves only get, list, watch on clusteroperators.config.openshift.io'),
    );
    expect(await canI('create', 'pods')).toMatchObject(no('it serves only get, list, watch on pods'));
    expect(await canI('create', 'pods', '--subresource=exec')).toMatchObject(no('it holds no pods/exec'));
    const secrets = await canI('list', 'secrets');
    expect(secrets).toMatchObject(no('it holds no secrets'));
    expect(secrets.stderr).toContain("the server doesn't have a resource type 'secrets'");
    expect(await canI('get', '/metrics')).toMatchObject(no('it serves nothing at /metrics'));
  });

  it('auth can-i --list: the rules can-i answers from, writes only on the self reviews', async () => {
    const r = await kubectl(server, ['auth', 'can-i', '--list']);
    expect(r.code, r.stderr).toBe(0);
    const rows = records(r.stdout);
    const verbs = new Map(rows.filter((x) => x.Resources !== '').map((x) => [x.Resources, x.Verbs]));
    expect(verbs.get('pods')).toBe('[get list watch]');
    expect(verbs.get('pods/log')).toBe('[get]');
    expect(verbs.get('clusteroperators.config.openshift.io')).toBe('[get list watch]');
    expect(verbs.get('selfsubjectaccessreviews.authorization.k8s.io')).toBe('[create]');
    expect(
      [...verbs.entries()].filter(([, v]) => v !== '[get list watch]' && v !== '[get]').map(([k]) => k),
    ).toEqual([
      'selfsubjectaccessreviews.authorization.k8s.io',
      'selfsubjectrulesreviews.authorization.k8s.io',
    ]);
    const urls = rows.filter((x) => x.Resources === '');
    expect(urls).toContainEqual(
      expect.objectContaining({ 'Non-Resource URLs': '[/version]', Verbs: '[get]' }),
    );
    expect(urls.every((x) => x.Verbs === '[get]')).toBe(true);
  });

  it('get --raw: continue with a resourceVersion is refused as the API server refuses it', async () => {
    const first = JSON.parse(
      (await kubectl(server, ['get', '--raw', '/api/v1/events?limit=5'])).stdout,
    ).metadata;
    const page = (rv: string) =>
      kubectl(server, [
        'get',
        '--raw',
        `/api/v1/events?limit=5&continue=${first.continue}&resourceVersion=${rv}`,
      ]);
    const refused = await page(first.resourceVersion);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      'Error from server (BadRequest): specifying resource version is not allowed when using continue',
    );
    const any = await page('0');
    expect(any.code, any.stderr).toBe(0);
    expect(JSON.parse(any.stdout).items).toHaveLength(5);
  });

  it('get --raw of one object at a resourceVersion: the object, or after the wait "Too large resource version"', async () => {
    const pod = '/api/v1/namespaces/openshift-ns-2/pods/ns-2-pod-0';
    const current = server.store.resourceVersion;
    const at = await kubectl(server, ['get', '--raw', `${pod}?resourceVersion=${current}`]);
    expect(at.code, at.stderr).toBe(0);
    expect(JSON.parse(at.stdout).metadata.name).toBe('ns-2-pod-0');
    const t = performance.now();
    const ahead = await kubectl(server, ['get', '--raw', `${pod}?resourceVersion=${current + 1000}`]);
    expect(performance.now() - t).toBeGreaterThanOrEqual(290);
    expect(ahead.code).toBe(1);
    expect(ahead.stderr.trim()).toBe(
      `Error from server (Timeout): Timeout: Too large resource version: ${current + 1000}, current: ${current}`,
    );
  });

  it('refuses create and delete', async () => {
    const create = await kubectl(server, ['create', 'namespace', 'intruder']);
    expect(create.code).not.toBe(0);
    expect(create.stderr).toContain('MethodNotAllowed');
    const del = await kubectl(server, ['delete', 'co', 'etcd']);
    expect(del.code).not.toBe(0);
    expect(del.stderr).toContain('MethodNotAllowed');
    expect((await kubectl(server, ['get', 'co', 'etcd', '-o', 'name'])).stdout.trim()).toBe(
      'clusteroperator.config.openshift.io/etcd',
    );
    expect((await kubectl(server, ['get', 'ns', 'intruder'])).code).not.toBe(0);
  });
});

describeKubectl('kubectl get mcp -w during a replay of bug 2019850', () => {
  it("receives the master pool's transitions in order", async () => {
    const server = await serve(['examples/bug-2019850'], { replay: true, holdReplay: true, speed: 3000 });
    try {
      const { file, home } = kubeconfig(server);
      const child = spawn(KUBECTL, ['--kubeconfig', file, 'get', 'mcp', 'master', '-w', '--no-headers'], {
        env: { PATH: process.env.PATH ?? '', HOME: home },
      });
      let out = '';
      child.stdout.on('data', (c) => {
        out += String(c);
      });
      // The initial row, then the watch is open.
      while (!out.includes('\n') || server.watchCount() < 1) await new Promise((r) => setTimeout(r, 20));
      server.replay!.start();
      await server.replay!.done;
      const expected = server.replay!.plan.revisions.filter(
        (r) => r.item.kind === 'MachineConfigPool' && r.item.object.metadata.name === 'master',
      ).length;
      const deadline = Date.now() + 10_000;
      while (out.trimEnd().split('\n').length < expected + 1 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      child.kill();
      const rows = out
        .trimEnd()
        .split('\n')
        .map((l) => l.trim().split(/\s+/));
      expect(rows).toHaveLength(expected + 1);
      // UPDATED/UPDATING as kubectl printed them, collapsed to the transitions.
      const states: string[] = [];
      for (const r of rows) {
        const s = `Updated=${r[2]} Updating=${r[3]} ${r[7]}/3`;
        if (states.at(-1) !== s) states.push(s);
      }
      expect(states).toEqual([
        'Updated=True Updating=False 3/3',
        'Updated=False Updating=True 0/3',
        'Updated=False Updating=True 1/3',
        'Updated=False Updating=True 2/3',
        'Updated=False Updating=True 3/3',
        'Updated=True Updating=False 3/3',
      ]);
    } finally {
      await server.close();
    }
  });
});

describeKubectl('kubectl on bug 2019850, as recorded', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve(['examples/bug-2019850']);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('selects nodes on spec.unschedulable, which the recorded nodes leave out (so it reads "false")', async () => {
    const args = (selector: string) => ['get', 'nodes', '--field-selector', selector, '-o', 'name'];
    const schedulable = await kubectl(server, args('spec.unschedulable=false'));
    expect(schedulable.code, schedulable.stderr).toBe(0);
    expect(schedulable.stdout.trimEnd().split('\n')).toHaveLength(6);
    const cordoned = await kubectl(server, args('spec.unschedulable=true'));
    expect(cordoned.code, cordoned.stderr).toBe(0);
    expect(cordoned.stdout).toBe('');
  });
});

/** kubectl's table output as records, cut at the header's column starts (cells may be empty). */
function records(stdout: string): Record<string, string>[] {
  const [header = '', ...rows] = stdout.trimEnd().split('\n');
  const starts = [...header.matchAll(/\S+(?: \S+)*/g)].map((m) => ({ name: m[0], at: m.index ?? 0 }));
  return rows.map((row) =>
    Object.fromEntries(
      starts.map((c, i) => [c.name, row.slice(c.at, starts[i + 1]?.at ?? row.length).trim()]),
    ),
  );
}

describeKubectl('kubectl get events -o wide on events.k8s.io-style events', () => {
  describeFixtures('the aws must-gather (openshift/must-gather-clean)', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await serve([
        fixture('openshift__must-gather-clean/test/files/extracted-subset/must-gather-aws'),
      ]);
    });
    afterAll(async () => {
      await server?.close();
    });

    it('prints SOURCE, FIRST SEEN, LAST SEEN and COUNT from reportingComponent/Instance, eventTime and series', async () => {
      const r = await kubectl(server, ['get', 'events', '-n', 'openshift-cluster-version', '-o', 'wide']);
      expect(r.code, r.stderr).toBe(0);
      const now = Date.parse((await getJson(`${server.url}/atlevel/moment`)).body.now);
      // Ages of 10 minutes to 3 hours print as whole minutes (duration.HumanDuration).
      const minutes = (t: string) => `${Math.floor((now - Date.parse(t)) / 60_000)}m`;
      const byName = new Map(records(r.stdout).map((row) => [row.NAME, row]));
      // eventTime, reportingComponent/Instance, no firstTimestamp, source or series.
      expect(byName.get('cluster-version-operator-849b4dcf9c-dl6zb.1697c1171192fec3')).toMatchObject({
        'LAST SEEN': minutes('2021-08-03T09:14:55Z'),
        REASON: 'FailedScheduling',
        SOURCE: 'default-scheduler, default-scheduler-ip-10-0-22-225',
        'FIRST SEEN': minutes('2021-08-03T09:14:55Z'),
        COUNT: '1',
      });
      // The same with a series: last seen and count come from it.
      expect(byName.get('cluster-version-operator-849b4dcf9c-dl6zb.1697c1177db61063')).toMatchObject({
        'LAST SEEN': minutes('2021-08-03T09:15:09Z'),
        SOURCE: 'default-scheduler, default-scheduler-ip-10-0-22-225',
        'FIRST SEEN': minutes('2021-08-03T09:14:56Z'),
        COUNT: '1',
      });
      expect([...byName.values()].some((row) => row['FIRST SEEN'] === '<unknown>' || row.SOURCE === '')).toBe(
        false,
      );
    });
  });
});
