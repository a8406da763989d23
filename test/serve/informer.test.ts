/** An informer from @kubernetes/client-node 1.4.0 lists and watches across a replay, losing nothing. */
import { CustomObjectsApi, KubeConfig, type KubernetesObject, makeInformer } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kubeconfigFor } from '../../src/serve/index.js';
import { serve } from './helpers.js';

const GROUP = 'machineconfiguration.openshift.io';

describe('client-node informer across a replay of bug 2019850', () => {
  it('sees every pool revision the replay plays, in order', async () => {
    const server = await serve(['examples/bug-2019850'], { replay: true, holdReplay: true, speed: 4000 });
    try {
      const kc = new KubeConfig();
      kc.loadFromString(kubeconfigFor(server.url));
      const api = kc.makeApiClient(CustomObjectsApi);
      const informer = makeInformer(
        kc,
        `/apis/${GROUP}/v1/machineconfigpools`,
        async () =>
          (await api.listClusterCustomObject({
            group: GROUP,
            version: 'v1',
            plural: 'machineconfigpools',
          })) as never,
      );
      const seen: string[] = [];
      const record = (o: KubernetesObject) => seen.push(`${o.metadata?.name} ${o.metadata?.resourceVersion}`);
      informer.on('add', record);
      informer.on('update', record);
      informer.on('error', () => undefined);
      await informer.start();
      while (server.watchCount() < 1) await new Promise((r) => setTimeout(r, 20));
      server.replay!.start();
      await server.replay!.done;
      const wanted = server.store
        .list(`${GROUP}/v1/machineconfigpools`)
        .map((o) => `${o.metadata.name} ${o.metadata.resourceVersion}`);
      const deadline = Date.now() + 10_000;
      while (!wanted.every((w) => seen.includes(w)) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      await informer.stop();
      // Every revision the store made of a pool, the informer saw: the initial list, then each change.
      const made = server.replay!.plan.revisions.filter((r) => r.item.kind === 'MachineConfigPool').length;
      expect(seen).toHaveLength(2 + made);
      const rvs = seen.slice(2).map((s) => Number(s.split(' ')[1]));
      expect([...rvs].sort((a, b) => a - b)).toEqual(rvs);
      for (const w of wanted) expect(seen).toContain(w);
    } finally {
      await server.close();
    }
  });
});
