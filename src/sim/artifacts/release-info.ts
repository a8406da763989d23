/**
 * A release as `oc adm release info -o json` prints it (docs/domain.md 8.4): the image, its digest, the
 * release metadata, and the image-references ImageStream whose tags name every component's pull
 * spec with its source commit.
 */
import type { Release } from '../release.js';
import { rfc3339 } from './timefmt.js';

export function releaseInfoJson(release: Release, createdWall: number): Record<string, unknown> {
  const created = rfc3339(createdWall);
  const displayVersions: Record<string, { Version: string; DisplayName: string }> = {};
  for (const c of release.components) {
    if (!c.buildVersions) continue;
    const names = new Map(
      (c.displayNames ?? '')
        .split(',')
        .filter(Boolean)
        .map((p) => p.split('=') as [string, string]),
    );
    for (const pair of c.buildVersions.split(',')) {
      const [name, version] = pair.split('=') as [string, string];
      displayVersions[name] = { Version: version, DisplayName: names.get(name) ?? '' };
    }
  }
  return {
    image: release.image,
    digest: release.digest,
    contentDigest: release.digest,
    config: {
      created,
      architecture: 'amd64',
      os: 'linux',
      config: {
        Labels: {
          'io.openshift.release': release.version,
          'io.openshift.release.base-image-digest': release.digest,
        },
      },
    },
    metadata: {
      kind: 'cincinnati-metadata-v0',
      version: release.version,
      ...(release.previous.length > 0 ? { previous: [...release.previous] } : {}),
      metadata: {},
    },
    references: {
      kind: 'ImageStream',
      apiVersion: 'image.openshift.io/v1',
      metadata: {
        name: release.version,
        creationTimestamp: created,
        annotations: {
          'release.openshift.io/from-image-stream': 'ocp/4.10-art-latest',
          'release.openshift.io/from-release': release.image,
        },
      },
      spec: {
        lookupPolicy: { local: false },
        tags: release.components.map((c) => ({
          name: c.name,
          annotations: {
            'io.openshift.build.commit.id': c.commit,
            'io.openshift.build.commit.ref': '',
            'io.openshift.build.source-location': c.sourceLocation,
            ...(c.buildVersions ? { 'io.openshift.build.versions': c.buildVersions } : {}),
            ...(c.displayNames ? { 'io.openshift.build.version-display-names': c.displayNames } : {}),
          },
          from: { kind: 'DockerImage', name: c.pullSpec },
          generation: 2,
          importPolicy: {},
          referencePolicy: { type: 'Source' },
        })),
      },
      status: { dockerImageRepository: '' },
    },
    displayVersions,
  };
}
