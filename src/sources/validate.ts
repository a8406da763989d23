/**
 * Validation of one raw object against the model's schema for its kind, with a one-line error
 * that names where it is, its kind and name, and the field that is wrong.
 */
import type * as z from 'zod';
import { InputError, KINDS, type KindObject, type KnownKind, printable } from '../model/index.js';
import { fastPath } from './fast-path.js';

type Issue = z.core.$ZodIssue;

/** `status.conditions[0].type` */
function issuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out === '' ? String(p) : `.${String(p)}`;
  }
  return out;
}

function describeIssue(issue: Issue, value: unknown): string {
  if (issue.code === 'invalid_type') {
    const actual = valueAt(value, issue.path);
    if (actual === undefined) return `missing (expected ${issue.expected})`;
    return `expected ${issue.expected}`;
  }
  if (issue.code === 'too_small' && issue.origin === 'string' && issue.minimum === 1)
    return 'must not be empty';
  if (issue.code === 'invalid_value')
    return `expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}`;
  return issue.message;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = value;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

/** The object's name for messages, safe to print. */
function objectName(raw: unknown): string {
  const meta = (raw as { metadata?: unknown } | null)?.metadata;
  const name = meta !== null && typeof meta === 'object' ? (meta as { name?: unknown }).name : undefined;
  return typeof name === 'string' && name !== '' ? printable(name, 80) : '?';
}

/**
 * Validate `raw` as `kind`. `where` is the location inside the file (`items[3]`) or empty for a
 * single-object file. `parsed`: `raw` is a value as JSON.parse or js-yaml built it (fast-path.ts
 * isParsedObject), which lets the check skip what only other values can hold. Throws
 * InputError(file, `items[3] (MachineConfigPool master): status.conditions: expected array`).
 */
export function validateObject<K extends KnownKind>(
  kind: K,
  raw: unknown,
  file: string,
  where: string,
  parsed = false,
): KindObject<K> {
  const schema = KINDS[kind].schema;
  // An object zod would give back unchanged is kept as it is, without zod's copy (fast-path.ts).
  if (fastPath(schema, parsed)?.(raw) === true) return raw as KindObject<K>;
  const result = schema.safeParse(raw);
  if (result.success) return result.data as KindObject<K>;
  const issue = result.error.issues[0];
  const field = issue ? issuePath(issue.path) : '';
  const problem = issue ? describeIssue(issue, raw) : 'invalid';
  const label = `${where ? `${where} ` : ''}(${kind} ${objectName(raw)})`;
  throw new InputError(
    file,
    `${label}: ${field ? `${printable(field, 120)}: ` : ''}${printable(problem, 160)}`,
  );
}
