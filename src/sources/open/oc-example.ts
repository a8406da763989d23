/**
 * An oc examples case named by its prefix (`examples/CASE` for `examples/CASE-cv.yaml`, `-co.yaml`,
 * ...; oc pkg/cli/admin/upgrade/status/examples/README.md): the prefix is no file, so the case's
 * files beside it are listed and handed to the layouts, where the oc-examples layout claims them.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { InputError } from '../../model/index.js';
import type { Opener } from './types.js';

export const ocExampleOpener: Opener = {
  name: 'oc examples case',
  takes: 'path',
  claims: async (arg, found) => {
    if (found.info !== undefined || (found.error?.code !== 'ENOENT' && found.error?.code !== 'ENOTDIR'))
      return false;
    const cv = await stat(`${arg}-cv.yaml`).catch(() => undefined);
    return cv?.isFile() === true;
  },
  open: async (arg, _found, context) => {
    const dir = dirname(arg);
    const prefix = `${basename(arg)}-`;
    const names = (await readdir(dir)).filter((n) => n.startsWith(prefix)).sort();
    const files: { rel: string; abs: string; size: number }[] = [];
    for (const name of names) {
      // Named as the prefix was given (`examples/CASE` + `-cv.yaml`), as errors and evidence show it.
      const abs = `${arg}${name.slice(basename(arg).length)}`;
      const info = await stat(abs).catch(() => undefined);
      if (!info) continue;
      if (!info.isFile()) throw new InputError(abs, 'not a regular file');
      files.push({ rel: name, abs, size: info.size });
    }
    return context.files(arg, files);
  },
};
