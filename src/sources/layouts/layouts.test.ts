import { describe, expect, it } from 'vitest';
import { planFiles } from './index.js';

const readers = (rels: string[]) =>
  Object.fromEntries(
    planFiles(rels).files.map((f) => [
      f.rel,
      f.spec.reader === 'oc-get' ? `oc-get${f.spec.strict ? '!' : ''}` : f.spec.reader,
    ]),
  );

describe('planFiles', () => {
  it('finds CI files anywhere and skips gather-extra dumps it does not read', () => {
    const ga = 'artifacts/e2e/gather-extra/artifacts';
    const junit = 'artifacts/e2e/openshift-e2e-test/artifacts/junit';
    const plan = planFiles([
      'build-log.txt',
      `${ga}/machineconfigpools.json`,
      `${ga}/events.json.gz`,
      `${ga}/configmaps.json`,
      `${ga}/deployments.json.gz`,
      `${ga}/secrets.json`,
      `${ga}/oc_cmds/nodes`,
      `${junit}/e2e-timelines_spyglass_20211103-021533.json`,
      `${junit}/e2e-timelines_spyglass_20211103-021533.html`,
      `${junit}/junit_e2e.xml`,
      'prowjob.json',
      'artifacts/e2e/gather-must-gather/artifacts/must-gather.tar',
    ]);
    expect(Object.fromEntries(plan.files.map((f) => [f.rel, f.spec]))).toEqual({
      'build-log.txt': { reader: 'build-log' },
      [`${ga}/machineconfigpools.json`]: { reader: 'gather-extra', expect: 'MachineConfigPool' },
      [`${ga}/events.json.gz`]: { reader: 'gather-extra', expect: 'Event' },
      // A kind atlevel models (model/kinds/deployment.ts) is read from its gather-extra file too.
      [`${ga}/deployments.json.gz`]: { reader: 'gather-extra', expect: 'Deployment' },
      [`${junit}/e2e-timelines_spyglass_20211103-021533.json`]: {
        reader: 'e2e-intervals',
        source: 'e2e-timelines',
      },
      'prowjob.json': { reader: 'oc-get', strict: false },
    });
    expect(plan.layouts).toEqual(['CI run', 'other YAML/JSON']);
    expect(plan.ignored).toHaveLength(5);
    expect(plan.nestedArchives).toEqual(['artifacts/e2e/gather-must-gather/artifacts/must-gather.tar']);
  });

  it('reads a must-gather by resource name', () => {
    const r = 'mg/quay-io-sha256-x';
    expect(
      readers([
        `${r}/cluster-scoped-resources/config.openshift.io/clusteroperators.yaml`,
        `${r}/cluster-scoped-resources/config.openshift.io/clusteroperators/dns.yaml`,
        `${r}/cluster-scoped-resources/config.openshift.io/consoles.yaml`,
        `${r}/cluster-scoped-resources/core/nodes/n1.yaml`,
        `${r}/namespaces/openshift-etcd/core/pods.yaml`,
        `${r}/namespaces/openshift-etcd/core/configmaps.yaml`,
        `${r}/namespaces/openshift-etcd/pods/etcd-0/etcd-0.yaml`,
        `${r}/namespaces/openshift-etcd/pods/etcd-0/etcd/etcd/logs/current.log`,
        `${r}/monitoring/alerts.json`,
        `${r}/timestamp`,
      ]),
    ).toEqual({
      [`${r}/cluster-scoped-resources/config.openshift.io/clusteroperators.yaml`]: 'must-gather',
      [`${r}/cluster-scoped-resources/config.openshift.io/clusteroperators/dns.yaml`]: 'must-gather',
      [`${r}/cluster-scoped-resources/core/nodes/n1.yaml`]: 'must-gather',
      [`${r}/namespaces/openshift-etcd/core/pods.yaml`]: 'must-gather',
      [`${r}/namespaces/openshift-etcd/pods/etcd-0/etcd-0.yaml`]: 'must-gather',
      [`${r}/monitoring/alerts.json`]: 'alerts',
    });
  });

  it('reads every YAML/JSON of a folder with no CI or must-gather file, strictly', () => {
    expect(readers(['a.yaml', 'sub/b.yml', 'c.json.gz', 'notes.txt', 'image-references'])).toEqual({
      'a.yaml': 'oc-get!',
      'c.json.gz': 'oc-get!',
      'image-references': 'oc-get!',
      'sub/b.yml': 'oc-get!',
    });
  });
});
