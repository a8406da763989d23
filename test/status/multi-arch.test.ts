/**
 * A migration to the multi-architecture payload, by oc's rules (openshift/oc
 * pkg/cli/admin/upgrade/status; its `to-multi-arch` example, rebuilt in test/fixtures/status):
 * "Target Version: X to Multi-Architecture", "Est. Time Remaining: N/A for Multi-Architecture
 * Migration", machine-config updated only once it reports the MCO Deployment's image, and, while the
 * migration is in progress, a node updated only when its current and desired configs are the pool's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterHistory } from '../../src/model/history.js';
import type { ClusterVersion, MachineConfig, Node } from '../../src/model/objects.js';
import { MCO } from '../../src/model/objects.js';
import { statusToJson } from '../../src/report/status-json.js';
import { renderStatusText } from '../../src/report/status-text.js';
import { assessStatus } from '../../src/status/index.js';
import { loadHistory } from '../helpers/load.js';
import { REBUILT_OC_CASES } from './oc-output.js';

const PREFIX = REBUILT_OC_CASES.find((c) => c.name === 'to-multi-arch')?.prefix ?? '';
const NODE = 'ip-10-0-45-170.us-east-2.compute.internal';
const OTHER = 'rendered-master-0000000000000000000000000000beef';

let history: ClusterHistory;
beforeAll(async () => {
  history = await loadHistory([PREFIX]);
});

/** The history with its ClusterVersion changed by `edit` (a deep copy; the original is kept). */
function withCv(edit: (cv: ClusterVersion) => void): ClusterHistory {
  const copy = structuredClone(history);
  const cv = copy.objects.clusterVersions[0]?.object;
  if (cv) edit(cv);
  return copy;
}

/**
 * NODE moved to OTHER, a master config rendered during the migration for the same version that is
 * not the pool's (a MachineConfig change while it ran, say).
 */
function nodeOnOtherConfig(h: ClusterHistory): ClusterHistory {
  const copy = structuredClone(h);
  const base = copy.objects.machineConfigs[1] as { object: MachineConfig; ref: { file: string } };
  const other = structuredClone(base);
  other.object.metadata.name = OTHER;
  other.object.metadata.creationTimestamp = '2024-11-20T23:25:00Z';
  (copy.objects.machineConfigs as unknown[]).push(other);
  const node = copy.objects.nodes.find((n) => n.object.metadata.name === NODE)?.object as Node;
  const a = node.metadata.annotations as Record<string, string>;
  a[MCO.currentConfig] = OTHER;
  a[MCO.desiredConfig] = OTHER;
  return copy;
}

describe('a migration to the multi-architecture payload', () => {
  it('is told from history (same version, another image) and the request for Multi', () => {
    const s = statusToJson(assessStatus(history));
    expect(s.controlPlane.multiArchMigration).toBe(true);
    expect(s.controlPlane.targetVersion).toBe('4.18.0-ec.3');
    expect(s.controlPlane.estimate).toMatchObject({
      timeLeftSeconds: null,
      withheldBecause: expect.stringContaining('multi-architecture'),
    });
    const text = renderStatusText(assessStatus(history), { width: 200, details: 'none', colour: false });
    expect(text).toContain('Target Version:  4.18.0-ec.3 to Multi-Architecture');
    expect(text).toContain(
      'Duration:        6m55s (Est. Time Remaining: N/A for Multi-Architecture Migration)',
    );
  });

  it('the same version with another image but no Multi anywhere is a rebuild, not a migration', () => {
    const rebuilt = withCv((cv) => {
      (cv.spec?.desiredUpdate as { architecture?: string }).architecture = '';
      for (const c of cv.status?.conditions ?? []) {
        if (c.type === 'ReleaseAccepted') c.message = String(c.message).replace('"Multi"', '"amd64"');
      }
    });
    const s = assessStatus(rebuilt);
    expect(s.controlPlane.multiArchMigration).toBe(false);
    // oc's estimate words then: an hour's baseline, 6m55s spent, padded by 20%.
    const text = renderStatusText(s, { width: 200, details: 'none', colour: false });
    expect(text).toContain('Target Version:  4.18.0-ec.3 (from 4.18.0-ec.3)');
    expect(text).toContain('Duration:        6m55s (Est. Time Remaining: 1h4m)');
  });

  it('while in progress, a node on a config rendered during it but not the pool’s is not updated', () => {
    const s = assessStatus(nodeOnOtherConfig(history));
    const node = s.pools.find((p) => p.name === 'master')?.nodes.find((n) => n.name === NODE);
    expect(node?.phase).not.toBe('Updated');
    expect(s.pools.find((p) => p.name === 'master')?.updated).toBe(1);
  });

  it('once the CVO is no longer Progressing, that node counts by its config’s payload again', () => {
    const done = withCv((cv) => {
      for (const c of cv.status?.conditions ?? []) if (c.type === 'Progressing') c.status = 'False';
    });
    const s = assessStatus(nodeOnOtherConfig(done));
    const node = s.pools.find((p) => p.name === 'master')?.nodes.find((n) => n.name === NODE);
    expect(node?.phase).toBe('Updated');
  });
});
