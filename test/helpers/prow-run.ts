/**
 * The bundled example examples/bug-2019850 laid out in the fake storage the way the real Prow run
 * stores it (gs://origin-ci-test/logs/periodic-ci-openshift-release-master-nightly-4.10-e2e-aws-upgrade/
 * 1455719487931158528/): build-log.txt at the run root, gather-extra's dumps and the e2e intervals
 * under artifacts/e2e-aws-upgrade/, the two release payloads where ci-operator writes them
 * (artifacts/release/artifacts/release-images-{initial,latest}: the image-references ImageStream,
 * which is the `references` of the example's `oc adm release info -o json` files), Prow's
 * started.json/finished.json, and large artifacts atlevel must never fetch (generated on the fly).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FakeGcs } from './fake-gcs.js';

export const RUN_BUCKET = 'origin-ci-test';
export const RUN_PATH =
  'logs/periodic-ci-openshift-release-master-nightly-4.10-e2e-aws-upgrade/1455719487931158528';
export const EXAMPLE = join(import.meta.dirname, '../../examples/bug-2019850');
const GATHER = 'artifacts/e2e-aws-upgrade/gather-extra/artifacts';
const JUNIT = 'artifacts/e2e-aws-upgrade/openshift-e2e-test/artifacts/junit';

/** Objects atlevel needs, relative to the run root, and the example file each comes from. */
export const NEEDED: readonly (readonly [string, string])[] = [
  ['build-log.txt', 'build-log.txt'],
  ...[
    'clusteroperators',
    'clusterversion',
    'daemonsets',
    'deployments',
    'events',
    'machineconfigpools',
    'machineconfigs',
    'nodes',
    'pods',
    'replicasets',
  ].map((n) => [`${GATHER}/${n}.json`, `${GATHER}/${n}.json`] as const),
  ...['e2e-events_20211103-025000.json', 'e2e-intervals_20211103-025000.json'].map(
    (n) => [`${JUNIT}/${n}`, `${JUNIT}/${n}`] as const,
  ),
];

/** Stored gzip-encoded, as CI uploads many text artifacts (exercises Content-Encoding: gzip). */
const GZIP_ENCODED = new Set(['build-log.txt', `${GATHER}/events.json`]);

/** Artifacts no reader needs: [path relative to the run root, bytes]. */
export const UNNEEDED: readonly (readonly [string, number])[] = [
  ['artifacts/ci-operator.log', 2 * 1024 * 1024],
  ['artifacts/e2e-aws-upgrade/gather-must-gather/artifacts/must-gather.tar', 24 * 1024 * 1024],
  ['artifacts/e2e-aws-upgrade/gather-audit-logs/artifacts/audit-logs.tar', 16 * 1024 * 1024],
  [
    `${GATHER}/pods/openshift-machine-config-operator_machine-config-daemon-x2v9q_machine-config-daemon.log`,
    3 * 1024 * 1024,
  ],
  [`${GATHER}/nodes/ip-10-0-139-12.us-east-2.compute.internal/journal`, 8 * 1024 * 1024],
  [`${GATHER}/oc_cmds/clusterversion`, 4096],
  [`${JUNIT}/junit_e2e_20211103-032841.xml`, 1024 * 1024],
  ['artifacts/e2e-aws-upgrade/openshift-e2e-test/artifacts/e2e.log', 4 * 1024 * 1024],
];

export interface RunOptions {
  /** Replace UNNEEDED (the bench adds a gigabyte of them). */
  readonly unneeded?: readonly (readonly [string, number])[];
  readonly prefix?: string;
}

/** Put the run into the fake; returns the full object names of the needed objects. */
export function putBug2019850Run(fake: FakeGcs, opts: RunOptions = {}): string[] {
  const root = opts.prefix ?? RUN_PATH;
  const needed: string[] = [];
  for (const [rel, file] of NEEDED) {
    const data = readFileSync(join(EXAMPLE, file));
    const gz = GZIP_ENCODED.has(rel);
    fake.put(RUN_BUCKET, `${root}/${rel}`, gz ? { data: gzipSync(data), contentEncoding: 'gzip' } : { data });
    needed.push(`${root}/${rel}`);
  }
  for (const [slot, file] of [
    ['initial', 'release-from.json'],
    ['latest', 'release-to.json'],
  ] as const) {
    const info = JSON.parse(readFileSync(join(EXAMPLE, 'release', file), 'utf8')) as { references: unknown };
    const name = `${root}/artifacts/release/artifacts/release-images-${slot}`;
    fake.put(RUN_BUCKET, name, { data: Buffer.from(`${JSON.stringify(info.references, null, 2)}\n`) });
    needed.push(name);
  }
  const prow = (o: unknown) => ({ data: Buffer.from(`${JSON.stringify(o)}\n`) });
  fake.put(RUN_BUCKET, `${root}/started.json`, prow({ timestamp: 1635906325 }));
  fake.put(
    RUN_BUCKET,
    `${root}/finished.json`,
    prow({ timestamp: 1635912000, passed: false, result: 'FAILURE' }),
  );
  fake.put(RUN_BUCKET, `${root}/prowjob.json`, prow({ kind: 'ProwJob', apiVersion: 'prow.k8s.io/v1' }));
  for (const [rel, size] of opts.unneeded ?? UNNEEDED) {
    fake.put(RUN_BUCKET, `${root}/${rel}`, { generate: { size, byte: 0x61 } });
  }
  return needed;
}

/** The run's URL in each form atlevel recognises, on the fake. */
export function runUrls(
  fake: FakeGcs,
  rel = '',
): { prow: string; gcsweb: string; storage: string; gs: string } {
  const path = rel ? `${RUN_PATH}/${rel}` : RUN_PATH;
  return {
    prow: `${fake.origin}/view/gs/${RUN_BUCKET}/${path}`,
    gcsweb: `${fake.origin}/gcs/${RUN_BUCKET}/${path}`,
    storage: `${fake.origin}/${RUN_BUCKET}/${path}`,
    gs: `gs://${RUN_BUCKET}/${path}`,
  };
}
