/**
 * A simulated release as `oc adm release info -o json` describes it (docs/domain.md 8.4): the image,
 * its digest, the release metadata and the image-references tags with each component's pull spec and
 * source commit. The JSON itself is written by the CI layout writer.
 */

import type { ReleaseInfoSpec } from '../../artifacts/index.js';
import type { Release } from '../release.js';

export function releaseInfo(release: Release, createdWall: number): ReleaseInfoSpec {
  return {
    image: release.image,
    version: release.version,
    digest: release.digest,
    created: createdWall,
    referencesCreated: createdWall,
    baseImageDigest: release.digest,
    previous: release.previous,
    fromImageStream: 'ocp/4.10-art-latest',
    fromRelease: release.image,
    generation: 2,
    tags: release.components.map((c) => ({
      name: c.name,
      pullSpec: c.pullSpec,
      commit: c.commit,
      sourceLocation: c.sourceLocation,
      ...(c.buildVersions ? { versions: c.buildVersions } : {}),
      ...(c.displayNames ? { displayNames: c.displayNames } : {}),
    })),
  };
}
