/**
 * kubectl's printer columns, as each kind's descriptor lists them and serve's Table prints them
 * (kubernetes pkg/printers/internalversion for the core kinds, the CRDs' additionalPrinterColumns for
 * OpenShift's). Ages and "since" times count from `now`, the served moment, not the wall clock.
 */
import { resolveDeferred } from '../deferred-json.js';

type Loose = Record<string, unknown>;

interface ColumnDefinition {
  readonly name: string;
  readonly type: string;
  readonly format: string;
  readonly description: string;
  readonly priority: number;
}

export interface PrinterColumn extends ColumnDefinition {
  readonly cell: (o: Loose, now: number) => unknown;
}

export function get(o: unknown, ...path: (string | number)[]): unknown {
  let cur = o;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    // A rendered config's spec.config may still be its bytes (model/deferred-json.ts).
    cur = resolveDeferred((cur as Record<string | number, unknown>)[p]);
  }
  return cur;
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

export function arr(v: unknown): Loose[] {
  return Array.isArray(v) ? (v.filter((x) => x !== null && typeof x === 'object') as Loose[]) : [];
}

export function condition(o: Loose, type: string): Loose | undefined {
  return arr(get(o, 'status', 'conditions')).find((c) => c.type === type);
}

/** kubectl's duration.HumanDuration (k8s.io/apimachinery pkg/util/duration). */
function humanDuration(ms: number): string {
  if (ms < -1000) return '<invalid>';
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return s % 60 === 0 ? `${m}m` : `${m}m${s % 60}s`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return m % 60 === 0 ? `${h}h` : `${h}h${m % 60}m`;
  if (h < 48) return `${h}h`;
  if (h < 24 * 8) return h % 24 === 0 ? `${Math.floor(h / 24)}d` : `${Math.floor(h / 24)}d${h % 24}h`;
  if (h < 24 * 365 * 2) return `${Math.floor(h / 24)}d`;
  const y = Math.floor(h / 24 / 365);
  const d = Math.floor(h / 24) - y * 365;
  if (h < 24 * 365 * 8) return d === 0 ? `${y}y` : `${y}y${d}d`;
  return `${y}y`;
}

export function age(value: unknown, now: number): string {
  const t = Date.parse(str(value));
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
}

/** translateTimestampSince and translateMicroTimestampSince: a zero (missing) time is "<unknown>". */
export function since(value: unknown, now: number): string {
  return str(value) === '' ? '<unknown>' : age(value, now);
}

export function col(
  name: string,
  cell: PrinterColumn['cell'],
  opts: { type?: string; format?: string; priority?: number; description?: string } = {},
): PrinterColumn {
  return {
    name,
    type: opts.type ?? 'string',
    format: opts.format ?? '',
    description: opts.description ?? '',
    priority: opts.priority ?? 0,
    cell,
  };
}

export const NAME = col('Name', (o) => str(get(o, 'metadata', 'name')), {
  format: 'name',
  description: 'Name must be unique within a namespace.',
});

export const AGE = col('Age', (o, now) => age(get(o, 'metadata', 'creationTimestamp'), now), {
  type: 'date',
  description: 'CreationTimestamp of the object, counted from the served moment.',
});

/** The columns of a kind that declares none: what the API server prints for any resource. */
export const DEFAULT_COLUMNS: readonly PrinterColumn[] = [NAME, AGE];

export const condStatus = (type: string) => (o: Loose) => str(condition(o, type)?.status);

/** A number of `status`, printed as a number (or as given when it is not one). */
export const count =
  (field: string) =>
  (o: Loose): unknown => {
    const v = get(o, 'status', field);
    return typeof v === 'number' ? v : str(v);
  };

/** A number of `status` that the API server leaves out when zero: printed 0, as kubectl's printers do. */
export const countOr0 =
  (field: string) =>
  (o: Loose): number => {
    const v = get(o, 'status', field);
    return typeof v === 'number' ? v : 0;
  };

/** Comma-joined container names and images of a pod template (kubectl's wide columns). */
export function templateContainers(o: Loose, what: 'name' | 'image'): string {
  return arr(get(o, 'spec', 'template', 'spec', 'containers'))
    .map((c) => str(c[what]))
    .join(',');
}

/** metav1.FormatLabelSelector, for matchLabels (expressions print as the API server words them). */
export function formatSelector(o: Loose): string {
  const sel = get(o, 'spec', 'selector');
  if (sel === null || typeof sel !== 'object') return '<none>';
  const parts: string[] = [];
  const labels = get(sel, 'matchLabels');
  if (labels && typeof labels === 'object')
    for (const [k, v] of Object.entries(labels as Loose)) parts.push(`${k}=${str(v)}`);
  for (const e of arr(get(sel, 'matchExpressions'))) {
    const values = Array.isArray(e.values) ? (e.values as unknown[]).map(str).join(',') : '';
    const op = str(e.operator);
    if (op === 'In') parts.push(`${str(e.key)} in (${values})`);
    else if (op === 'NotIn') parts.push(`${str(e.key)} notin (${values})`);
    else if (op === 'Exists') parts.push(str(e.key));
    else if (op === 'DoesNotExist') parts.push(`!${str(e.key)}`);
  }
  return parts.length === 0 ? '<none>' : parts.join(',');
}
