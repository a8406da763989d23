/**
 * Read a release payload from disk for the CLI: a file (`oc adm release info -o json` output or an
 * image-references ImageStream) or a payload folder (`release-manifests/image-references` +
 * `release-metadata`, docs/domain.md 8.1). Analyses never call this; they get a ReleasePayload.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../model/errors.js';
import type { ReleasePayload } from '../model/history.js';
import { parseReleaseMetadata, parseReleasePayload } from './parse.js';

/** Real ReleaseInfo JSON is a few MB; anything near this is not a release description. */
const MAX_RELEASE_FILE_BYTES = 256 * 1024 * 1024;

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function readText(path: string): Promise<string> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(
      path,
      code === 'ENOENT' ? 'no such file or folder' : `cannot read (${code ?? 'error'})`,
    );
  }
  if (info.size > MAX_RELEASE_FILE_BYTES) {
    throw new InputError(path, `${info.size} bytes is too large for a release description`);
  }
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new InputError(path, `cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** The folder holding image-references: the folder itself or its `release-manifests/`. */
async function manifestsFolder(path: string): Promise<string | undefined> {
  for (const candidate of [join(path, 'release-manifests'), path]) {
    if (await exists(join(candidate, 'image-references'))) return candidate;
  }
  return undefined;
}

export async function loadReleasePayload(path: string): Promise<ReleasePayload> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch {
    throw new InputError(path, 'no such file or folder');
  }
  if (!info.isDirectory()) return parseReleasePayload(await readText(path), path);

  const folder = await manifestsFolder(path);
  if (folder === undefined) {
    throw new InputError(
      path,
      'folder has no image-references',
      'expected a release payload folder (release-manifests/image-references and release-metadata)',
    );
  }
  const refsFile = join(folder, 'image-references');
  const payload = parseReleasePayload(await readText(refsFile), refsFile);
  const metadataFile = join(folder, 'release-metadata');
  if (!(await exists(metadataFile))) return payload;
  // release-metadata is authoritative for the version (oc requires the two to agree).
  const { version } = parseReleaseMetadata(await readText(metadataFile), metadataFile);
  return { ...payload, version };
}
