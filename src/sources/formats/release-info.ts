/**
 * Release info for `--release-from`/`--release-to`, `release info` and `release diff`: a file
 * (`oc adm release info -o json` output or an image-references ImageStream) or a payload folder
 * (`release-manifests/image-references` + `release-metadata`, docs/domain.md 8.1). Parsing is
 * release/'s; reading is the pipeline's edge (input-file.ts).
 */
import { join } from 'node:path';
import type { ReleasePayload } from '../../model/index.js';
import { InputError } from '../../model/index.js';
import { parseReleaseMetadata, parseReleasePayload } from '../../release/index.js';
import { type InputFileOptions, readInputText, statInput } from './input-file.js';

async function isFile(path: string): Promise<boolean> {
  return statInput(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

export async function loadReleasePayload(path: string, opts: InputFileOptions = {}): Promise<ReleasePayload> {
  const display = opts.display ?? path;
  const info = await statInput(path, display);
  if (!info.isDirectory()) return parseReleasePayload(await readInputText(path, opts), display);
  // The folder holding image-references: the folder itself or its `release-manifests/`.
  let folder: string | undefined;
  for (const candidate of [join(path, 'release-manifests'), path]) {
    if (await isFile(join(candidate, 'image-references'))) {
      folder = candidate;
      break;
    }
  }
  if (folder === undefined) {
    throw new InputError(
      display,
      'folder has no image-references',
      'expected a release payload folder (release-manifests/image-references and release-metadata)',
    );
  }
  const one = (file: string) => readInputText(file, { ...opts, display: file });
  const refsFile = join(folder, 'image-references');
  const payload = parseReleasePayload(await one(refsFile), refsFile);
  const metadataFile = join(folder, 'release-metadata');
  if (!(await isFile(metadataFile))) return payload;
  // release-metadata is authoritative for the version (oc requires the two to agree).
  const { version } = parseReleaseMetadata(await one(metadataFile), metadataFile);
  return { ...payload, version };
}
