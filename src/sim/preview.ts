/**
 * A short description of an untrusted value for an error message. A scenario file can be a YAML
 * "billion laughs" (a few hundred bytes whose aliases expand to 10^9 nodes): stringifying it whole in
 * an error path hangs or exhausts the heap. This looks at the top level only, and caps every string.
 */
import { printable } from '../model/index.js';

export function preview(value: unknown, max = 60): string {
  if (typeof value === 'string') return JSON.stringify(printable(value, max));
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (Array.isArray(value)) return `a list of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 0) return 'an empty mapping';
    const shown = keys.slice(0, 5).map((k) => printable(k, 30));
    return `a mapping with keys ${shown.join(', ')}${keys.length > 5 ? ', …' : ''}`;
  }
  return typeof value;
}
