/**
 * Inputs that do not belong together: two inputs whose ClusterVersion carries a different
 * `spec.clusterID` are snapshots of two clusters, and merging them would report one cluster that does
 * not exist (six masters where each has three). Refused as bad input, naming both IDs and files.
 */
import { InputError } from '../model/index.js';
import { loadParts } from './input.js';

/**
 * Each input is read on its own for its ClusterVersion's clusterID (the merged history keeps one
 * ClusterVersion, so the check cannot be made on it). Only runs when more than one input is given.
 */
export async function assertOneCluster(paths: readonly string[], flags: object): Promise<void> {
  if (paths.length < 2) return;
  const seen: { path: string; id: string }[] = [];
  for (const path of paths) {
    const parts = await loadParts([path], flags);
    for (const cv of parts.objects.clusterVersions) {
      const id: unknown = cv.object.spec?.clusterID;
      if (typeof id !== 'string' || id === '') continue;
      const other = seen.find((s) => s.id !== id);
      if (other) {
        throw new InputError(
          other.path,
          `its ClusterVersion has clusterID ${other.id}, but ${path} has clusterID ${id}: the inputs are from two clusters`,
          'give the inputs of one cluster at a time',
        );
      }
      seen.push({ path, id });
    }
  }
}
