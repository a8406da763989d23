/**
 * Stop-gap reader for oc's `examples/CASE-*.yaml` layout, used only by the status tests until
 * src/sources exports `loadHistory` (which will read this layout too). It validates every object
 * with the model's schemas, exactly as a source would.
 */
import { existsSync, readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { type ClusterHistory, emptySnapshot, type ObjectSnapshot } from '../../src/model/history.js';
import { isKnownKind, KIND_SCHEMAS } from '../../src/model/objects.js';

const SUFFIXES = ['-cv.yaml', '-co.yaml', '-mcp.yaml', '-mc.yaml', '-node.yaml'] as const;

const FIELD: Record<string, keyof ObjectSnapshot> = {
  ClusterVersion: 'clusterVersions',
  ClusterOperator: 'clusterOperators',
  MachineConfigPool: 'machineConfigPools',
  MachineConfig: 'machineConfigs',
  Node: 'nodes',
  Event: 'events',
  Pod: 'pods',
  PodDisruptionBudget: 'podDisruptionBudgets',
  ControllerConfig: 'controllerConfigs',
};

export function loadOcExample(prefix: string): ClusterHistory & { alerts?: unknown } {
  const objects = emptySnapshot();
  for (const suffix of SUFFIXES) {
    const file = `${prefix}${suffix}`;
    const doc = yaml.load(readFileSync(file, 'utf8'), { schema: yaml.CORE_SCHEMA }) as {
      kind?: string;
      items?: unknown[];
    };
    const items = Array.isArray(doc.items) ? doc.items : [doc];
    items.forEach((item, index) => {
      const kind = (item as { kind?: unknown }).kind;
      if (!isKnownKind(kind)) return;
      const object = KIND_SCHEMAS[kind].parse(item);
      const list = objects[FIELD[kind]!] as { object: unknown; ref: { file: string; path: string } }[];
      list.push({ object, ref: { file, path: `items[${index}]` } });
    });
  }
  const alertsFile = `${prefix}-alerts.json`;
  const alerts = existsSync(alertsFile) ? JSON.parse(readFileSync(alertsFile, 'utf8')) : undefined;
  return {
    objects,
    intervals: [],
    testLog: [],
    releases: {},
    inputs: [],
    span: undefined,
    notes: [],
    ...(alerts !== undefined ? { alerts } : {}),
  };
}
