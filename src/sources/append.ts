/** `target.push(...source)` without the argument-count limit that spreads hit at ~100k elements. */
export function append<T>(target: T[], source: readonly T[]): void {
  for (const item of source) target.push(item);
}
