import type { SourceRef } from '../model/index.js';

/** `build-log.txt:123`, `machineconfigs.json items[7]`: how a reader finds the fact in the file. */
export function formatRef(ref: SourceRef | undefined): string {
  if (!ref) return '';
  const where = ref.line !== undefined ? `:${ref.line}` : '';
  const path = ref.path ? ` ${ref.path}` : '';
  return `${ref.file}${where}${path}`;
}
