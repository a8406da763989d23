/**
 * `atlevel cache prune`: remove cache entries not used for a while (or all of them), broken entries,
 * and the tmp/ folders that killed downloads leave behind.
 */
import { rm } from 'node:fs/promises';
import type { ObjectCache } from './cache.js';

export interface PruneResult {
  removedObjects: number;
  removedBytes: number;
  removedTrees: number;
  removedPartial: number;
  keptObjects: number;
}

/** A tmp/ folder this old belongs to no running download. */
const PARTIAL_AFTER_MS = 60 * 60 * 1000;

export async function pruneCache(
  cache: ObjectCache,
  { olderThanMs, all = false, now = Date.now() }: { olderThanMs: number; all?: boolean; now?: number },
): Promise<PruneResult> {
  const { objects, trees, partial } = await cache.list();
  const result: PruneResult = {
    removedObjects: 0,
    removedBytes: 0,
    removedTrees: 0,
    removedPartial: 0,
    keptObjects: 0,
  };
  for (const o of objects) {
    if (all || o.broken || now - o.usedAt > olderThanMs) {
      await rm(o.dir, { recursive: true, force: true });
      result.removedObjects += 1;
      result.removedBytes += o.bytes;
    } else result.keptObjects += 1;
  }
  // A listing without its objects would send a later run to the network anyway; drop old ones with them.
  for (const t of trees) {
    if (all || !t.record || now - t.usedAt > olderThanMs) {
      await rm(t.path, { force: true });
      result.removedTrees += 1;
    }
  }
  for (const p of partial) {
    if (all || now - p.usedAt > PARTIAL_AFTER_MS) {
      await rm(p.dir, { recursive: true, force: true });
      result.removedPartial += 1;
    }
  }
  return result;
}
