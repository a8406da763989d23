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

/** Field paths each kind can be selected on (the API server's field label conversions). */
const COMMON_FIELDS = ['metadata.name', 'metadata.namespace'];
const KIND_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Pod: [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'status.phase',
    'status.podIP',
    'status.nominatedNodeName',
  ],
  Event: [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  Node: ['spec.unschedulable'],
  Secret: ['type'],
  Namespace: ['status.phase'],
};

function fieldValue(object: KubeObject, path: string): string {
  if (path === 'source') {
    const s = (object as { source?: { component?: unknown } }).source?.component;
    return typeof s === 'string' ? s : '';
  }
  let cur: unknown = object;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, part)) return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  if (cur === undefined || cur === null) return '';
  return typeof cur === 'string' ? cur : String(cur);
}

export function parseFieldSelector(text: string | null, kind: string): Matcher | undefined {
  if (text === null || text.trim() === '') return undefined;
  if (text.length > MAX_SELECTOR_LENGTH) throw new SelectorError('fieldSelector too long');
  const allowed = new Set([
    ...COMMON_FIELDS,
    ...((Object.hasOwn(KIND_FIELDS, kind) ? KIND_FIELDS[kind] : undefined) ?? []),
  ]);
  const reqs = text.split(',').map((raw) => {
    const m = /^\s*([^=!\s]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(raw);
    if (!m) throw new SelectorError(`invalid field selector: ${JSON.stringify(raw)}`);
    const field = m[1] ?? '';
    if (!allowed.has(field)) throw new SelectorError(`field label not supported: ${field}`);
    return { field, negate: m[2] === '!=', value: m[3] ?? '' };
  });
  return (object) => reqs.every((r) => (fieldValue(object, r.field) === r.value) !== r.negate);
}
