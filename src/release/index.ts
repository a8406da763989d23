/**
 * release/ owns release payloads: parsing `oc adm release info -o json` output, image-references
 * ImageStreams and payload folders into a ReleasePayload; the digest → component index that names
 * an image by its release tag; and the component-level diff of two payloads with its consequence for
 * rendered MachineConfigs (docs/domain.md 8).
 */
export { ComponentIndex, type ComponentMatch, MIN_DIGEST_PREFIX, shortDigestPrefix } from './components.js';
export {
  configEmbedding,
  diffReleases,
  isOsImageTag,
  type ReleaseDiff,
} from './diff.js';
export { releaseName, UNKNOWN_VERSION } from './names.js';
export { parseReleaseMetadata, parseReleasePayload, referenceText } from './parse.js';
