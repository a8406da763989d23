/**
 * watch flags operator-level-before-operands the moment the evidence arrives: on a replay of
 * test/fixtures/operands/late-daemonset, dns reports level at 10:30:00.512 and the DaemonSet
 * controller deletes the last pod of the old coredns image at 10:35:58 (its SuccessfulDelete Event in
 * openshift-dns, a namespace dns names, which watch therefore follows). The release payloads are
 * given as `--release-from`/`--release-to` give them: a cluster holds none.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../src/live/index.js';
import { loadHistoryParts } from '../../src/sources/index.js';
import type { WatchOutput } from '../../src/watch/index.js';
import { projectRoot } from '../helpers/fixtures.js';
import { serve, startReplayWhenWatched, startWatch, until } from './helpers.js';

const RUN = join(projectRoot, 'test/fixtures/operands/late-daemonset');
const T = (clock: string) => Date.parse(`2024-05-01T${clock}Z`);
/**
 * Cluster-wide streams, Events in 3 namespaces, and Pods and Events in the 2 namespaces the two
 * operators name that hold a workload (openshift-dns, openshift-ingress; not their -operator ones).
 */
const STREAMS = RESOURCES.filter((r) => r.scope !== 'namespaces').length + 3 + 2 + 2;

function findings(outputs: readonly WatchOutput[]) {
  return outputs.filter((o): o is Extract<WatchOutput, { type: 'finding' }> => o.type === 'finding');
}

describe('watch: operator-level-before-operands', () => {
  it('flags dns when its DaemonSet deletes an old-image pod after dns reported level', async () => {
    const { releases } = await loadHistoryParts([RUN], { now: Date.now() });
    const server = await serve([RUN], {
      replay: true,
      holdReplay: true,
      speed: 60,
      range: { from: T('10:29:00'), to: T('10:37:00') },
    });
    try {
      const w = await startWatch(server.url, { releases });
      await startReplayWhenWatched(server, STREAMS);
      await until(
        () => findings(w.outputs).some((f) => f.finding.rule === 'operator-level-before-operands'),
        30_000,
        'the finding',
      );
      w.stop.abort();
      await w.done;
      const f = findings(w.outputs).find((x) => x.finding.rule === 'operator-level-before-operands');
      expect(f?.finding.subject?.operator).toBe('dns');
      expect(f?.finding.summary).toContain('DaemonSet openshift-dns/dns-default');
      expect(f?.finding.at).toBe(T('10:30:00.512'));
      // Decided when the deletion was seen, not before it and not at the end.
      expect(f?.at).toBeGreaterThanOrEqual(T('10:35:58'));
      expect(f?.at).toBeLessThan(T('10:37:00'));
    } finally {
      await server.close();
    }
  });
});
