/**
 * serve's must-gather extras are input like any other: found below the must-gather layout's roots,
 * read through the decoders (a `.yaml.gz` is served) and held to the run's budget (a tree past the
 * depth limit is a note, not served), known kinds left to the pipeline, files outside
 * cluster-scoped-resources/ and namespaces/ not served.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { Budget } from '../../src/model/index.js';
import { readServedExtras } from '../../src/sources/index.js';

const dir = mkdtempSync(join(tmpdir(), 'atlevel-extras-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(rel: string, content: string | Buffer): void {
  const file = join(dir, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

const widget = (name: string, namespace?: string) =>
  JSON.stringify({
    apiVersion: 'example.io/v1',
    kind: 'Widget',
    metadata: { name, ...(namespace ? { namespace } : {}) },
  });

const mg = 'must-gather.local.1/quay-io-sha256-0000';
write(`${mg}/cluster-scoped-resources/example.io/widgets/a.yaml`, widget('a'));
write(`${mg}/namespaces/ns1/example.io/widgets/b.yaml.gz`, gzipSync(widget('b', 'ns1')));
write(
  `${mg}/cluster-scoped-resources/config.openshift.io/clusteroperators/dns.yaml`,
  JSON.stringify({
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterOperator',
    metadata: { name: 'dns' },
  }),
);
write(`${mg}/namespaces/ns1/pods/p1/c1/c1/logs/current.log`, 'hello\n');
write(`${mg}/stray.yaml`, widget('stray'));
let deep = '{"x": 1}';
for (let i = 0; i < 40; i++) deep = `{"x": ${deep}}`;
write(
  `${mg}/namespaces/ns1/example.io/widgets/deep.yaml`,
  `{"apiVersion": "example.io/v1", "kind": "Widget", "metadata": {"name": "deep", "namespace": "ns1"}, "spec": ${deep}}`,
);

describe('readServedExtras', () => {
  it('serves what the must-gather holds beyond the modelled kinds, through the decoders and within the budget', async () => {
    const extras = await readServedExtras([dir], { budget: new Budget({ treeDepth: 20 }) });
    const names = extras.objects.map(
      (o) => `${o.kind}/${o.object.metadata.namespace ?? ''}/${o.object.metadata.name}`,
    );
    expect(names.sort()).toEqual(['Widget//a', 'Widget/ns1/b']);
    expect([...extras.logs.keys()]).toEqual(['ns1/p1/c1']);
    expect(extras.logs.get('ns1/p1/c1')?.current).toMatch(/current\.log$/);
    expect(extras.notes).toHaveLength(1);
    expect(extras.notes[0]).toMatch(/deep\.yaml.*not served/);
  });

  it('reads nothing from a file or a folder with no must-gather', async () => {
    const plain = mkdtempSync(join(tmpdir(), 'atlevel-extras-plain-'));
    try {
      writeFileSync(join(plain, 'w.yaml'), widget('w'));
      const extras = await readServedExtras([plain, join(plain, 'w.yaml')]);
      expect(extras.objects).toEqual([]);
      expect(extras.logs.size).toBe(0);
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });
});
