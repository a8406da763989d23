/**
 * Puts a run's files on disk as one folder, atomically: the folder is built beside its target under a
 * temporary name and renamed into place once complete, so a failure (or an interrupt) never leaves half
 * a run where a reader would take it for a whole one. The target may be absent or an empty folder;
 * anything else is refused rather than merged into or replaced; its parent folder must exist (a typo in
 * the path is refused, not made into folders).
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { lstat, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError, onInterrupt } from '../model/index.js';

/** How errors name what is written and the flag that chose its folder. */
export interface FolderWording {
  /** e.g. `the simulated run`. */
  readonly what: string;
  /** e.g. `--artifacts`. */
  readonly flag: string;
}

const SIMULATED: FolderWording = { what: 'the simulated run', flag: '--artifacts' };

/** Write `files` (path relative to `dir` → text) as the folder `dir`; returns the paths written. */
export async function writeRunFolder(
  dir: string,
  files: ReadonlyMap<string, string>,
  wording: FolderWording = SIMULATED,
): Promise<string[]> {
  const target = resolve(dir);
  await checkTarget(dir, target, wording);
  const parent = dirname(target);
  const tmp = join(parent, `.${basename(target)}.${randomBytes(6).toString('hex')}.atlevel.tmp`);
  const stop = onInterrupt(() => rmSync(tmp, { recursive: true, force: true }));
  const written: string[] = [];
  try {
    try {
      await mkdir(tmp);
    } catch (err) {
      throw cannotWrite(dir, err, wording);
    }
    for (const [rel, content] of files) {
      const path = join(tmp, rel);
      try {
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, content, { flag: 'wx' });
      } catch (err) {
        throw cannotWrite(join(dir, rel), err, wording);
      }
      written.push(join(dir, rel));
    }
    try {
      // rename(2) replaces an empty folder and refuses a non-empty one (ENOTEMPTY/EEXIST).
      await rename(tmp, target);
    } catch (err) {
      throw cannotWrite(dir, err, wording);
    }
    return written;
  } catch (err) {
    await rm(tmp, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  } finally {
    stop();
  }
}

function cannotWrite(path: string, err: unknown, w: FolderWording): InputError {
  const code = (err as NodeJS.ErrnoException).code ?? 'error';
  const full = code === 'ENOTEMPTY' || code === 'EEXIST';
  if (code === 'ENOENT') {
    return new InputError(
      path,
      `cannot write ${w.what}: the folder it goes in does not exist`,
      `create that folder first (${w.flag} makes only the run folder itself)`,
    );
  }
  return new InputError(
    path,
    full ? `the ${w.flag.replace(/^--/, '')} folder is not empty` : `cannot write ${w.what} (${code})`,
    full ? 'name a new or empty folder' : `check that ${w.flag} names a writable folder`,
  );
}

/** The target of a run's folder: absent, or an empty folder (never a file, link or device). */
async function checkTarget(dir: string, target: string, w: FolderWording): Promise<void> {
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    info = await lstat(target);
  } catch {
    return;
  }
  if (!info.isDirectory()) {
    throw new InputError(dir, 'is not a folder', `name a new or empty folder for ${w.what}`);
  }
  if ((await readdir(target)).length > 0) {
    throw new InputError(
      dir,
      `the ${w.flag.replace(/^--/, '')} folder is not empty`,
      'name a new or empty folder',
    );
  }
}
