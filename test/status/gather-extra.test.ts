import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inProcessCli } from '../helpers/cli.js';
import { projectRoot } from '../helpers/fixtures.js';

const cli = inProcessCli('status-ci', ['status']);

describe('atlevel status on a CI run whose MCO predates release-image-version', () => {
  it('places the rendered configs by ClusterVersion history and reports the finished update', async () => {
    const { code, out } = await cli.run(join(projectRoot, 'examples/bug-2019850'), '-o', 'json');
    expect(code).toBe(0);
    const json = JSON.parse(out);
    expect(json.updating).toBe(false);
    const pools = json.pools.map((p: { name: string; updated: number; total: number }) => [
      p.name,
      p.updated,
      p.total,
    ]);
    expect(pools).toEqual([
      ['master', 3, 3],
      ['worker', 3, 3],
    ]);
    for (const pool of json.pools) {
      for (const node of pool.nodes) {
        expect(node).toMatchObject({
          version: '4.10.0-0.nightly-2021-11-03-020416',
          versionSource: 'history',
          phase: 'Updated',
        });
      }
    }
  });
});

// The bundled examples' ClusterOperators, like any export trimmed of annotations, carry no
// include.release.openshift.io annotation: status counted none of them ("0 operators updated", "0
// Healthy"), so a degraded operator could never show. Every one is counted then, and a note says why.
describe('atlevel status when no ClusterOperator carries a release annotation', () => {
  it('counts every ClusterOperator instead of none, and says so', async () => {
    const { code, out } = await cli.run(
      join(projectRoot, 'examples/bug-2019850-fixed'),
      '--at',
      '2021-11-03T03:10:00Z',
      '-o',
      'json',
    );
    expect(code).toBe(0);
    const json = JSON.parse(out);
    expect(json.controlPlane.operators.total).toBe(29);
    expect(json.controlPlane.operators.updated).toBeGreaterThan(0);
    expect(json.controlPlane.operators.healthy).toBe(29);
    expect(json.notes.join('\n')).toContain('every ClusterOperator is counted');
  });
});
