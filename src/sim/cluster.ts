/**
 * The cluster as it stands when a run starts: installed on the `from` release and settled. Every
 * ClusterOperator at the old version and healthy, the ControllerConfig and template configs of the
 * old release, each pool fully rolled out to its rendered config, every node Done on it.
 */
import { MCO } from '../model/index.js';
import { rhcosName } from './controllers/daemon.js';
import { CO_NAME } from './controllers/mco.js';
import { GENERATED_BY_VERSION } from './controllers/render.js';
import { TEMPLATE_ROLES } from './controllers/template.js';
import { md5Hex, uidFor } from './hash.js';
import type { Model } from './model.js';
import type { ClusterOperatorObj, Cond, MachineConfigObj, NodeObj, PoolObj } from './objects.js';
import { meta } from './objects.js';
import { OPERATORS } from './operators.js';
import { calculateStatus } from './pool-status.js';
import { controllerConfigImages } from './release.js';
import { renderPool } from './render.js';
import type { ExtraMachineConfig } from './scenario.js';
import { templateConfigs } from './templates.js';

const MINUTE = 60_000;
/** Install-time moments, relative to the run's start (the rendered configs of the seed date from 02:30:53). */
const INSTALL = {
  clusterVersion: -46 * MINUTE,
  masters: -41 * MINUTE,
  workers: -33 * MINUTE,
  operators: -44 * MINUTE,
  settled: -12 * MINUTE,
  templates: -19 * MINUTE - 12_000,
  rendered: -19 * MINUTE - 7_000,
};

const ZONES = ['us-east-2a', 'us-east-2b', 'us-east-2c'];

export interface NodePlan {
  readonly name: string;
  readonly pool: string;
  readonly index: number;
}

const cond = (type: string, status: 'True' | 'False', reason: string, message: string, at: number): Cond => ({
  type,
  status,
  reason,
  message,
  lastTransitionTime: at,
});

/** Node names: the scenario's, or in the AWS style, stable for a scenario's pool layout. */
export function planNodes(
  pools: readonly { name: string; nodes: number; names?: readonly string[] }[],
): NodePlan[] {
  const used = new Set<string>(pools.flatMap((p) => p.names ?? []));
  const out: NodePlan[] = [];
  for (const pool of pools) {
    for (let i = 0; i < pool.nodes; i++) {
      const given = pool.names?.[i];
      if (given !== undefined) {
        out.push({ name: given, pool: pool.name, index: i });
        continue;
      }
      let salt = 0;
      let name: string;
      do {
        const h = Number.parseInt(md5Hex(`${pool.name}/${i}/${salt++}`).slice(0, 8), 16);
        // Private subnets of an IPI AWS install: 10.0.128.0/20, 10.0.144.0/20, 10.0.160.0/20 by zone.
        const third = 128 + (i % 3) * 16 + ((h >>> 8) % 16);
        name = `ip-10-0-${third}-${(h % 250) + 3}.us-east-2.compute.internal`;
      } while (used.has(name));
      used.add(name);
      out.push({ name, pool: pool.name, index: i });
    }
  }
  return out;
}

/**
 * `related` gives the namespaces a generic operator's relatedObjects name (its own Deployment's and
 * its operand's, workloads.ts); an operator without a modelled workload keeps `openshift-<name>`.
 */
export function seedCluster(
  model: Model,
  nodes: readonly NodePlan[],
  related: (operator: string) => readonly string[] = () => [],
): void {
  const { store, from, scenario, policy } = model;
  const settled = INSTALL.settled;

  store.seed({
    kind: 'ClusterVersion',
    meta: meta('version', INSTALL.clusterVersion, { generation: 2 }),
    clusterID: uidFor(`cluster:${scenario.name}`),
    channel: '',
    desiredUpdate: undefined,
    desired: { version: from.version, image: from.image },
    history: [
      {
        state: 'Completed',
        startedTime: INSTALL.clusterVersion,
        completionTime: settled,
        version: from.version,
        image: from.image,
        verified: false,
      },
    ],
    conditions: [
      cond('Available', 'True', '', `Done applying ${from.version}`, settled),
      cond('Failing', 'False', '', '', settled),
      cond('Progressing', 'False', '', `Cluster version is ${from.version}`, settled),
      cond(
        'RetrievedUpdates',
        'False',
        'NoChannel',
        'The update channel has not been configured.',
        INSTALL.clusterVersion,
      ),
      cond('Upgradeable', 'True', '', '', settled),
      cond(
        'ReleaseAccepted',
        'True',
        'PayloadLoaded',
        `Payload loaded version="${from.version}" image="${from.image}"`,
        INSTALL.clusterVersion,
      ),
    ],
    observedGeneration: 2,
  });

  for (const op of [...OPERATORS.map((o) => o.name), CO_NAME]) {
    const mco = op === CO_NAME;
    const co: ClusterOperatorObj = {
      kind: 'ClusterOperator',
      meta: meta(op, INSTALL.operators),
      conditions: [
        cond('Degraded', 'False', mco ? '' : 'AsExpected', mco ? '' : 'All is well', settled),
        cond(
          'Progressing',
          'False',
          mco ? '' : 'AsExpected',
          mco ? `Cluster version is ${from.version}` : 'All is well',
          settled,
        ),
        cond(
          'Available',
          'True',
          'AsExpected',
          mco ? `Cluster has deployed [{operator ${from.version}}]` : 'All is well',
          settled,
        ),
        cond('Upgradeable', 'True', 'AsExpected', mco ? '' : 'All is well', settled),
      ],
      versions: [{ name: 'operator', version: from.version }],
      relatedObjects: mco ? MCO_RELATED : relatedNamespaces(related(op), op),
      extension: undefined,
    };
    store.seed(co);
    model.rec?.startOperator(co);
  }

  store.seed({
    kind: 'ConfigMap',
    meta: meta('machine-config-osimageurl', INSTALL.operators),
    data: { osImageURL: from.osImageURL, releaseVersion: from.version },
  });

  const ccAnnotations: Record<string, string> = { [GENERATED_BY_VERSION]: from.mcoVersionRaw };
  if (policy.stampsReleaseVersion) ccAnnotations[MCO.releaseImageVersion] = from.version;
  const images = controllerConfigImages(from);
  store.seed({
    kind: 'ControllerConfig',
    meta: meta('machine-config-controller', INSTALL.templates, { generation: 1, annotations: ccAnnotations }),
    images,
    osImageURL: from.osImageURL,
    releaseImage: from.image,
    observedGeneration: 1,
    conditions: [
      cond(
        'TemplateControllerCompleted',
        'True',
        '',
        `sync completed towards (1) generation using controller version ${from.mcoVersionRaw}`,
        INSTALL.templates,
      ),
      cond('TemplateControllerRunning', 'False', '', '', INSTALL.templates),
      cond('TemplateControllerFailing', 'False', '', '', INSTALL.templates),
    ],
  });

  const controllerAnnotation = { [MCO.generatedByControllerVersion]: from.mcoCommit };
  const mcs: MachineConfigObj[] = [];
  for (const role of TEMPLATE_ROLES) {
    for (const cfg of templateConfigs({ role, images, osImageURL: from.osImageURL })) {
      mcs.push({
        kind: 'MachineConfig',
        meta: meta(cfg.name, INSTALL.templates, {
          labels: { [MCO.role]: role },
          annotations: controllerAnnotation,
        }),
        owner: { kind: 'ControllerConfig', name: 'machine-config-controller' },
        spec: cfg.spec,
        contentKey: cfg.contentKey,
      });
    }
    mcs.push({
      kind: 'MachineConfig',
      meta: meta(`99-${role}-generated-registries`, INSTALL.templates, {
        labels: { [MCO.role]: role },
        annotations: controllerAnnotation,
      }),
      owner: { kind: 'ControllerConfig', name: 'machine-config-controller' },
      spec: emptySpec([]),
      contentKey: `99-${role}-generated-registries|empty`,
    });
    mcs.push({
      kind: 'MachineConfig',
      meta: meta(`99-${role}-ssh`, INSTALL.clusterVersion, { labels: { [MCO.role]: role } }),
      owner: undefined,
      spec: emptySpec([sshKey(scenario.name)]),
      contentKey: `99-${role}-ssh|${scenario.name}`,
    });
  }
  for (const extra of scenario.machineConfigs) mcs.push(userMachineConfig(extra, INSTALL.operators));
  mcs.sort((a, b) => (a.meta.name < b.meta.name ? -1 : 1));
  for (const mc of mcs) store.seed(mc);

  const pools: PoolObj[] = [];
  for (const spec of scenario.pools) {
    const builtIn = spec.name === 'master' || spec.name === 'worker';
    const mcRoles = builtIn ? [spec.name] : ['worker', spec.name];
    const sources = mcs.filter((mc) => mcRoles.includes(mc.meta.labels[MCO.role] ?? ''));
    const rendered = renderPool(spec.name, sources, from.osImageURL);
    const annotations: Record<string, string> = { [MCO.generatedByControllerVersion]: from.mcoCommit };
    if (policy.stampsReleaseVersion) annotations[MCO.releaseImageVersion] = from.version;
    store.seed({
      kind: 'MachineConfig',
      meta: meta(rendered.name, INSTALL.rendered, { annotations }),
      owner: { kind: 'MachineConfigPool', name: spec.name },
      spec: rendered.spec,
      contentKey: rendered.contentKey,
    });
    const labels: Record<string, string> = builtIn
      ? {
          'machineconfiguration.openshift.io/mco-built-in': '',
          [`pools.operator.machineconfiguration.openshift.io/${spec.name}`]: '',
        }
      : { [`pools.operator.machineconfiguration.openshift.io/${spec.name}`]: '' };
    if (spec.name === 'master') labels[MCO.requiredForUpgrade] = '';
    const configuration = { name: rendered.name, source: rendered.source };
    pools.push({
      kind: 'MachineConfigPool',
      meta: meta(spec.name, INSTALL.clusterVersion, { generation: 2, labels }),
      paused: spec.paused,
      maxUnavailable: spec.maxUnavailable,
      nodeRole: spec.name,
      mcRoles,
      spec: configuration,
      status: {
        observedGeneration: 2,
        configuration,
        machineCount: 0,
        updatedMachineCount: 0,
        readyMachineCount: 0,
        unavailableMachineCount: 0,
        degradedMachineCount: 0,
        conditions: [
          cond('RenderDegraded', 'False', '', '', INSTALL.rendered),
          cond('NodeDegraded', 'False', '', '', settled),
          cond('Degraded', 'False', '', '', settled),
          cond('Updated', 'True', '', `All nodes are updated with ${rendered.name}`, settled),
          cond('Updating', 'False', '', '', settled),
        ],
      },
    });
  }

  const nodeObjs: NodeObj[] = nodes.map((plan) => {
    const pool = pools.find((p) => p.meta.name === plan.pool) as PoolObj;
    const master = plan.pool === 'master';
    const roles = master ? ['master'] : plan.pool === 'worker' ? ['worker'] : ['worker', plan.pool];
    const created = master ? INSTALL.masters : INSTALL.workers;
    return {
      kind: 'Node',
      meta: meta(plan.name, created + plan.index * 7_000),
      roles,
      zone: ZONES[plan.index % ZONES.length] as string,
      currentConfig: pool.spec.name,
      desiredConfig: pool.spec.name,
      state: 'Done',
      reason: '',
      unschedulable: false,
      ready: true,
      readySince: created + plan.index * 7_000 + 45_000,
      updateTaint: false,
      osImage: rhcosName(model, from.osImageURL),
      kubeletVersion: `v${from.kubernetesVersion}+${from.byName.get('hyperkube')?.commit.slice(0, 7) ?? ''}`,
    };
  });
  for (const n of nodeObjs) store.seed(n);

  for (const pool of pools) {
    const members = nodeObjs.filter(
      (n) => nodes.find((p) => p.name === n.meta.name)?.pool === pool.meta.name,
    );
    store.seed({ ...pool, status: calculateStatus(pool, members, settled) });
  }
}

/** A user MachineConfig: no owner, no controller-version annotation (docs/domain.md 3.3). */
export function userMachineConfig(extra: ExtraMachineConfig, createdAt: number): MachineConfigObj {
  return {
    kind: 'MachineConfig',
    meta: meta(extra.name, createdAt, { labels: { [MCO.role]: extra.role } }),
    owner: undefined,
    spec: {
      ...emptySpec([]),
      config: { files: extra.files.map((f) => ({ ...f })), units: [], sshKeys: [] },
      kernelArguments: [...extra.kernelArguments],
    },
    contentKey: `user|${extra.name}|${md5Hex(JSON.stringify(extra))}`,
  };
}

function emptySpec(sshKeys: string[]): MachineConfigObj['spec'] {
  return {
    osImageURL: '',
    config: { files: [], units: [], sshKeys },
    kernelArguments: [],
    extensions: [],
    fips: false,
    kernelType: '',
  };
}

const sshKeys = new Map<string, string>();

function sshKey(scenario: string): string {
  const hit = sshKeys.get(scenario);
  if (hit) return hit;
  const key = makeSshKey(scenario);
  sshKeys.set(scenario, key);
  return key;
}

function makeSshKey(scenario: string): string {
  const body = Buffer.from(md5Hex(`ssh:${scenario}`).repeat(8), 'hex').toString('base64');
  return `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ${body} ci@atlevel-simulator`;
}

function relatedNamespaces(names: readonly string[], op: string): ClusterOperatorObj['relatedObjects'] {
  const list = names.length > 0 ? names : [`openshift-${op}`];
  return list.map((name) => ({ group: '', resource: 'namespaces', name }));
}

const MCO_RELATED: ClusterOperatorObj['relatedObjects'] = [
  { group: '', resource: 'namespaces', name: 'openshift-machine-config-operator' },
  { group: 'machineconfiguration.openshift.io', resource: 'machineconfigpools', name: '' },
  { group: 'machineconfiguration.openshift.io', resource: 'controllerconfigs', name: '' },
  { group: 'machineconfiguration.openshift.io', resource: 'kubeletconfigs', name: '' },
  { group: 'machineconfiguration.openshift.io', resource: 'containerruntimeconfigs', name: '' },
  { group: 'machineconfiguration.openshift.io', resource: 'machineconfigs', name: '' },
  { group: '', resource: 'nodes', name: '' },
  { group: '', resource: 'namespaces', name: 'openshift-kni-infra' },
  { group: '', resource: 'namespaces', name: 'openshift-openstack-infra' },
  { group: '', resource: 'namespaces', name: 'openshift-ovirt-infra' },
  { group: '', resource: 'namespaces', name: 'openshift-vsphere-infra' },
];
