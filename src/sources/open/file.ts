/**
 * One regular file: a tar archive when its name or its first decoded bytes say so, otherwise one
 * input file read by what its name says. FIFOs, sockets and devices are refused without being opened,
 * so a FIFO never blocks the run.
 */
import { InputError } from '../../model/index.js';
import { isArchiveName } from '../decoders/index.js';
import type { Opener } from './types.js';

export const fileOpener: Opener = {
  name: 'file',
  takes: 'path',
  claims: (_arg, found) => found.info !== undefined,
  open: async (arg, found, context) => {
    const info = found.info;
    if (!info?.isFile()) throw new InputError(arg, 'not a regular file or folder');
    const name = arg.slice(arg.lastIndexOf('/') + 1);
    if (isArchiveName(name) || (await context.looksLikeArchive(arg, arg))) return context.archive(arg, arg);
    return context.file(arg, arg, info.size);
  },
};
