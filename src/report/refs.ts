import type { SourceRef } from '../model/index.js';

/**
 * `build-log.txt:123`, `machineconfigs.json items[7]`: how a reader finds the fact in the file. With a
 * path, the line is where the YAML document holding it starts (sources/ know no finer place), so it
 * is said as such, or left out for a file's first and only document: `-co.yaml:1 items[7]` would
 * point at line 1 for an item hundreds of lines below.
 */
export function formatRef(ref: SourceRef | undefined): string {
  if (!ref) return '';
  if (!ref.path) return ref.line !== undefined ? `${ref.file}:${ref.line}` : ref.file;
  const document = ref.line !== undefined && ref.line > 1 ? ` (document at line ${ref.line})` : '';
  return `${ref.file}${document} ${ref.path}`;
}
