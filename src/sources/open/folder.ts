/** A folder: every regular file below it is listed, and the layouts claim what they read. */
import type { Opener } from './types.js';

export const folderOpener: Opener = {
  name: 'folder',
  takes: 'path',
  claims: (_arg, found) => found.info?.isDirectory() === true,
  open: (arg, _found, context) => context.folder(arg),
};
