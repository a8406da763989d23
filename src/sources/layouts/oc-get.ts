/**
 * A folder of `oc get -o yaml|json` output: any `*.yaml`, `*.yml`, `*.json` (in any compression),
 * and `image-references`, read by content. With no earlier layout, every file must parse (`strict`);
 * beside CI or must-gather files they are incidental, and one that does not parse is skipped with a
 * note. Beside gather-extra's dumps are dozens of other `oc get` dumps atlevel does not read: files in
 * a folder that holds CI files are left alone.
 */
import { withoutCompressionSuffix } from '../decoders/index.js';
import { baseName, type Claim, dirName, type Layout } from './types.js';

const OBJECT_FILE = /\.(ya?ml|json)$/i;

export const ocGet: Layout = {
  name: 'oc get files',
  detect: (rels, earlier) => {
    const ciDirs = new Set<string>();
    for (const c of earlier) if (c.spec.reader !== 'build-log') ciDirs.add(dirName(c.rel));
    const strict = earlier.length === 0;
    const claims: Claim[] = [];
    for (const rel of rels) {
      const name = baseName(rel);
      if (
        (OBJECT_FILE.test(withoutCompressionSuffix(name)) && !ciDirs.has(dirName(rel))) ||
        name === 'image-references'
      )
        claims.push({ rel, spec: { reader: 'oc-get', strict } });
    }
    return { claims, name: strict ? 'oc get files' : 'other YAML/JSON' };
  },
};
