/**
 * A CI run's artifacts (docs/domain.md 7): gather-extra `List` files by name, `build-log.txt`,
 * `e2e-{events,intervals,timelines}*.json`, and ci-operator's `release-images-{initial,latest}`,
 * anywhere below the root (CI nests them under `artifacts/<target>/...`).
 */
import { kindOfGatherExtraFile } from '../../model/index.js';
import { withoutCompressionSuffix } from '../decoders/index.js';
import { baseName, type Claim, type Layout, type ReaderSpec } from './types.js';

const BUILD_LOG = /^build-log\.txt$/;
/**
 * ci-operator writes the image-references ImageStream of each release it imports (`initial`, `latest`,
 * per architecture) to `artifacts/release/artifacts/release-images-NAME` (openshift/ci-tools
 * pkg/steps/release/import_release.go): the payloads an upgrade run went from and to.
 */
const RELEASE_IMAGES = /^release-images-[a-z0-9][a-z0-9-]*$/;
const E2E_INTERVALS = /^e2e-(events|intervals|timelines).*\.json$/;

/** Which writer produced a file, from its name (`e2e-timelines_spyglass_…json` → `e2e-timelines`). */
function intervalSourceOf(name: string): string {
  const m = /^(e2e-events|e2e-intervals|e2e-timelines)/.exec(name);
  return m?.[1] ?? 'intervals-json';
}

/** The reader a file's name alone selects (CI names), or undefined. */
export function readerByName(name: string): ReaderSpec | undefined {
  const plain = withoutCompressionSuffix(name);
  const kind = kindOfGatherExtraFile(plain);
  if (kind) return { reader: 'gather-extra', expect: kind };
  if (BUILD_LOG.test(plain)) return { reader: 'build-log' };
  if (E2E_INTERVALS.test(plain)) return { reader: 'e2e-intervals', source: intervalSourceOf(name) };
  if (RELEASE_IMAGES.test(name)) return { reader: 'oc-get', strict: false };
  return undefined;
}

export const ciRun: Layout = {
  name: 'CI run',
  detect: (rels) => {
    const claims: Claim[] = [];
    for (const rel of rels) {
      const spec = readerByName(baseName(rel));
      if (spec) claims.push({ rel, spec });
    }
    return { claims };
  },
};
