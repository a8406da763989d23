/**
 * labelSelector and fieldSelector, parsed as the API server parses them (k8s.io/apimachinery
 * pkg/labels and pkg/fields): `a=b`, `a==b`, `a!=b`, `a`, `!a`, `a in (x,y)`, `a notin (x,y)` for
 * labels; `=`, `==`, `!=` for fields. A selector that does not parse is a SelectorError (400).
 */
import type { KubeObject } from './store.js';

export class SelectorError extends Error {
  override readonly name = 'SelectorError';
}

type LabelRequirement =
  | { readonly op: 'eq' | 'ne'; readonly key: string; readonly value: string }
  | { readonly op: 'in' | 'notin'; readonly key: string; readonly values: ReadonlySet<string> }
  | { readonly op: 'exists' | 'absent'; readonly key: string };

export type Matcher = (object: KubeObject) => boolean;

const MAX_SELECTOR_LENGTH = 4096;
/** A label key: optional DNS prefix, then a name of letters, digits, `-`, `_`, `.`. */
const KEY = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

/** Split on commas outside parentheses. */
function splitTop(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
    if (depth < 0) throw new SelectorError(`unbalanced parenthesis in ${JSON.stringify(text)}`);
  }
  if (depth !== 0) throw new SelectorError(`unbalanced parenthesis in ${JSON.stringify(text)}`);
  out.push(text.slice(start));
  return out;
}

function checkKey(key: string): string {
  if (!KEY.test(key) || key.length > 316) throw new SelectorError(`invalid label key ${JSON.stringify(key)}`);
  return key;
}

function checkValue(value: string): string {
  if (!VALUE.test(value) || value.length > 63)
    throw new SelectorError(`invalid label value ${JSON.stringify(value)}`);
  return value;
}

function parseLabelRequirement(raw: string): LabelRequirement {
  const part = raw.trim();
  const set = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(part);
  if (set) {
    const values = new Set(
      (set[3] ?? '')
        .split(',')
        .map((v) => v.trim())
        .map(checkValue),
    );
    return { op: set[2] === 'in' ? 'in' : 'notin', key: checkKey(set[1] ?? ''), values };
  }
  const cmp = /^([^=!\s]+)\s*(==|=|!=)\s*(.*)$/.exec(part);
  if (cmp) {
    return {
      op: cmp[2] === '!=' ? 'ne' : 'eq',
      key: checkKey(cmp[1] ?? ''),
      value: checkValue((cmp[3] ?? '').trim()),
    };
  }
  if (part.startsWith('!')) return { op: 'absent', key: checkKey(part.slice(1).trim()) };
  return { op: 'exists', key: checkKey(part) };
}

function labelsOf(object: KubeObject): Record<string, unknown> {
  const labels = object.metadata.labels;
  return labels && typeof labels === 'object' ? (labels as Record<string, unknown>) : {};
}

function own(map: Record<string, unknown>, key: string): string | undefined {
  if (!Object.hasOwn(map, key)) return undefined;
  const v = map[key];
  return typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);
}

export function parseLabelSelector(text: string | null): Matcher | undefined {
  if (text === null || text.trim() === '') return undefined;
  if (text.length > MAX_SELECTOR_LENGTH) throw new SelectorError('labelSelector too long');
  const reqs = splitTop(text).map(parseLabelRequirement);
  return (object) => {
    const labels = labelsOf(object);
    return reqs.every((r) => {
      const v = own(labels, r.key);
      switch (r.op) {
        case 'eq':
          return v === r.value;
        case 'ne':
          return v !== r.value;
        case 'in':
          return v !== undefined && r.values.has(v);
        case 'notin':
          return v === undefined || !r.values.has(v);
        case 'exists':
          return v !== undefined;
        default:
          return v === undefined;
      }
    });
  };
}

/** A field's value as the API server's selectable field set holds it. */
type FieldValue = (object: unknown) => string;

function at(object: unknown, path: string): unknown {
  let cur: unknown = object;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** A string field as the API server's Go struct holds it: a missing or null field is the zero value "". */
function text(path: string): FieldValue {
  return (o) => {
    const v = at(o, path);
    return v === undefined || v === null ? '' : typeof v === 'string' ? v : String(v);
  };
}

/**
 * A string field the API server defaults when it decodes a stored object (pkg/apis/core/v1/defaults.go):
 * a recorded object that lacks it reads as the default, as it would from etcd.
 */
function defaulted(path: string, fallback: string): FieldValue {
  const read = text(path);
  return (o) => read(o) || fallback;
}

/** A bool field, formatted as the API server formats it (strconv.FormatBool): a missing one is "false". */
function bool(path: string): FieldValue {
  return (o) => (at(o, path) === true ? 'true' : 'false');
}

/** An int32 field formatted with strconv.Itoa: a missing one is "0". */
function integer(path: string): FieldValue {
  return (o) => {
    const v = at(o, path);
    return typeof v === 'number' && Number.isFinite(v) ? String(Math.trunc(v)) : '0';
  };
}

const NAME: FieldValue = text('metadata.name');
const NAMESPACE: FieldValue = text('metadata.namespace');

/**
 * The field selectors of the kinds with their own field label conversion in the core group
 * (kubernetes pkg/apis/core/v1/conversion.go, addConversionFuncs and AddFieldLabelConversionsFor*):
 * exactly those fields are accepted, any other is 400 "field label not supported". Each value is what
 * the kind's selectable field set holds (pkg/registry/core/KIND/strategy.go, ToSelectableFields and
 * friends), read from the object after defaulting, so a field a recorded object leaves out reads as
 * the server would read it: Node's spec.unschedulable "false", a Pod's restartPolicy "Always".
 * Every other kind gets the default conversion (apimachinery runtime.DefaultMetaV1FieldSelectorConversion):
 * metadata.name and metadata.namespace.
 */
const CORE_FIELDS: ReadonlyMap<string, ReadonlyMap<string, FieldValue>> = new Map([
  [
    'Pod',
    new Map<string, FieldValue>([
      ['metadata.name', NAME],
      ['metadata.namespace', NAMESPACE],
      ['spec.nodeName', text('spec.nodeName')],
      // Old v1 clients' name for spec.nodeName (conversion.go maps it).
      ['spec.host', text('spec.nodeName')],
      // pkg/apis/core/v1/defaults.go SetDefaults_PodSpec.
      ['spec.restartPolicy', defaulted('spec.restartPolicy', 'Always')],
      ['spec.schedulerName', defaulted('spec.schedulerName', 'default-scheduler')],
      // Convert_v1_PodSpec_To_core_PodSpec: the deprecated serviceAccount stands in when serviceAccountName is empty.
      [
        'spec.serviceAccountName',
        (o) => text('spec.serviceAccountName')(o) || text('spec.serviceAccount')(o),
      ],
      ['spec.hostNetwork', bool('spec.hostNetwork')],
      ['status.phase', text('status.phase')],
      // The first pod IP (ToSelectableFields reads status.podIPs[0]; conversion fills podIPs from podIP).
      [
        'status.podIP',
        (o) => text('status.podIP')(o) || text('ip')((at(o, 'status.podIPs') as unknown[] | undefined)?.[0]),
      ],
      // Accepted by the conversion but absent from the pod's field set: it reads as "" (fields.Set.Get).
      ['status.podIPs', () => ''],
      ['status.nominatedNodeName', text('status.nominatedNodeName')],
    ]),
  ],
  [
    'Node',
    // Cluster-scoped, and its conversion accepts no metadata.namespace.
    new Map<string, FieldValue>([
      ['metadata.name', NAME],
      ['spec.unschedulable', bool('spec.unschedulable')],
    ]),
  ],
  [
    'ReplicationController',
    new Map<string, FieldValue>([
      ['metadata.name', NAME],
      ['metadata.namespace', NAMESPACE],
      ['status.replicas', integer('status.replicas')],
    ]),
  ],
  [
    'Event',
    new Map<string, FieldValue>([
      ['metadata.name', NAME],
      ['metadata.namespace', NAMESPACE],
      ['involvedObject.kind', text('involvedObject.kind')],
      ['involvedObject.namespace', text('involvedObject.namespace')],
      ['involvedObject.name', text('involvedObject.name')],
      ['involvedObject.uid', text('involvedObject.uid')],
      ['involvedObject.apiVersion', text('involvedObject.apiVersion')],
      ['involvedObject.resourceVersion', text('involvedObject.resourceVersion')],
      ['involvedObject.fieldPath', text('involvedObject.fieldPath')],
      ['reason', text('reason')],
      ['reportingComponent', text('reportingComponent')],
      // pkg/registry/core/event/strategy.go ToSelectableFields: source.component, else the reporting controller.
      ['source', (o) => text('source.component')(o) || text('reportingComponent')(o)],
      ['type', text('type')],
    ]),
  ],
  [
    'Namespace',
    new Map<string, FieldValue>([
      ['metadata.name', NAME],
      // SetDefaults_NamespaceStatus.
      ['status.phase', defaulted('status.phase', 'Active')],
    ]),
  ],
  [
    'Secret',
    new Map<string, FieldValue>([
      ['metadata.name', NAME],
      ['metadata.namespace', NAMESPACE],
      // SetDefaults_Secret.
      ['type', defaulted('type', 'Opaque')],
    ]),
  ],
  [
    'Service',
    new Map<string, FieldValue>([
      ['metadata.name', NAME],
      ['metadata.namespace', NAMESPACE],
      ['spec.clusterIP', text('spec.clusterIP')],
      // SetDefaults_Service.
      ['spec.type', defaulted('spec.type', 'ClusterIP')],
    ]),
  ],
]);

const DEFAULT_FIELDS: ReadonlyMap<string, FieldValue> = new Map([
  ['metadata.name', NAME],
  ['metadata.namespace', NAMESPACE],
]);

function fieldsOf(type: { readonly group: string; readonly kind: string }): ReadonlyMap<string, FieldValue> {
  return (type.group === '' ? CORE_FIELDS.get(type.kind) : undefined) ?? DEFAULT_FIELDS;
}

export function parseFieldSelector(
  selector: string | null,
  type: { readonly group: string; readonly kind: string },
): Matcher | undefined {
  if (selector === null || selector.trim() === '') return undefined;
  if (selector.length > MAX_SELECTOR_LENGTH) throw new SelectorError('fieldSelector too long');
  const fields = fieldsOf(type);
  const reqs = selector.split(',').map((raw) => {
    const m = /^\s*([^=!\s]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(raw);
    if (!m) throw new SelectorError(`invalid field selector: ${JSON.stringify(raw)}`);
    const field = m[1] ?? '';
    const read = fields.get(field);
    if (!read) throw new SelectorError(`field label not supported: ${field}`);
    return { read, negate: m[2] === '!=', value: m[3] ?? '' };
  });
  return (object) => reqs.every((r) => (r.read(object) === r.value) !== r.negate);
}
