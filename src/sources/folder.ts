/**
 * Listing the regular files below a folder: symlinks are followed only when their target is inside
 * the input folder (one pointing outside is skipped with a note, so an input cannot make atlevel read
 * /etc/passwd), a symlink loop is an error (unless it is a loop beside runs, which the caller names to
 * skip: runs.ts), special files (FIFOs, sockets, devices) are never opened,
 * names that are not valid UTF-8 are skipped with a note (no reader's name can match them), and
 * unreadable folders are an error. docs/limits.md, "Input trees".
 */
import type { Dirent, Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { InputError } from '../model/index.js';

interface ListedFile {
  /** Relative to the folder, `/`-separated. */
  readonly rel: string;
  readonly abs: string;
  readonly size: number;
}

export interface Listing {
  readonly files: ListedFile[];
  /** Dangling symlinks and special files: skipped, reported in a note. */
  readonly skipped: string[];
}

const MAX_DEPTH = 64;
const MAX_FILES = 2_000_000;

export function fsProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ELOOP':
      return 'symlink loop (too many levels of symbolic links)';
    case 'ENOTDIR':
      return 'not a directory';
    case 'EISDIR':
      return 'is a directory';
    default:
      return `cannot read (${code ?? (err instanceof Error ? err.message : String(err))})`;
  }
}

/** `skip`: the paths (as below `root`) of links not followed, named by the caller (runs.ts: link loops beside runs). */
export async function listFolder(root: string, skip: ReadonlySet<string> = new Set()): Promise<Listing> {
  const files: ListedFile[] = [];
  const skipped: string[] = [];
  const rootReal = await realpath(root).catch((err: unknown) => {
    throw new InputError(root, fsProblem(err));
  });
  // Real paths of the folders on the current descent path: meeting one again is a loop.
  const walk = async (abs: string, rel: string, real: string, ancestors: Set<string>, depth: number) => {
    if (depth > MAX_DEPTH) throw new InputError(abs, `folders nested deeper than ${MAX_DEPTH} levels`);
    let raw: Dirent<Buffer>[];
    try {
      raw = await readdir(abs, { withFileTypes: true, encoding: 'buffer' });
    } catch (err) {
      throw new InputError(abs, fsProblem(err));
    }
    const entries: { entry: Dirent<Buffer>; name: string }[] = [];
    for (const entry of raw) {
      const name = entry.name.toString('utf8');
      // A name that does not survive UTF-8 cannot be opened by its decoded form, nor claimed by name.
      if (!Buffer.from(name, 'utf8').equals(entry.name)) {
        skipped.push(`${rel === '' ? '' : `${rel}/`}${name} (name is not valid UTF-8)`);
        continue;
      }
      entries.push({ entry, name });
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const { entry, name } of entries) {
      const childAbs = join(abs, name);
      const childRel = rel === '' ? name : `${rel}/${name}`;
      let info: Stats;
      if (skip.has(childAbs)) continue;
      if (entry.isSymbolicLink()) {
        let target: string;
        try {
          target = await realpath(childAbs);
          info = await stat(childAbs);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'ELOOP') throw new InputError(childAbs, fsProblem(err));
          skipped.push(`${childRel} (dangling symlink)`);
          continue;
        }
        if (target !== rootReal && !target.startsWith(rootReal === sep ? sep : `${rootReal}${sep}`)) {
          skipped.push(`${childRel} (symlink to outside the input folder)`);
          continue;
        }
      } else if (entry.isDirectory() || entry.isFile()) {
        info = await stat(childAbs).catch((err: unknown) => {
          throw new InputError(childAbs, fsProblem(err));
        });
      } else {
        skipped.push(`${childRel} (not a regular file)`);
        continue;
      }
      if (info.isDirectory()) {
        const childReal = entry.isSymbolicLink()
          ? await realpath(childAbs).catch((err: unknown) => {
              throw new InputError(childAbs, fsProblem(err));
            })
          : join(real, name);
        if (ancestors.has(childReal)) {
          throw new InputError(childAbs, 'symlink loop: it points back to a folder above it');
        }
        ancestors.add(childReal);
        await walk(childAbs, childRel, childReal, ancestors, depth + 1);
        ancestors.delete(childReal);
      } else if (info.isFile()) {
        files.push({ rel: childRel, abs: childAbs, size: info.size });
        if (files.length > MAX_FILES) throw new InputError(root, `more than ${MAX_FILES} files`);
      } else {
        skipped.push(`${childRel} (not a regular file)`);
      }
    }
  };
  await walk(root, '', rootReal, new Set([rootReal]), 0);
  return { files, skipped };
}
