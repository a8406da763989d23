/**
 * OPENERS: the ways an argument is opened, asked in order; the first that claims it opens it. How to
 * add one is in CONTRIBUTING.md ("Inputs").
 */
import { stat } from 'node:fs/promises';
import { InputError } from '../../model/index.js';
import { fsProblem } from '../folder.js';
import { fileOpener } from './file.js';
import { folderOpener } from './folder.js';
import { liveOpener } from './live.js';
import { ocExampleOpener } from './oc-example.js';
import { stdinOpener } from './stdin.js';
import type { Found, LiveCluster, OpenContext, Opened, Opener } from './types.js';
import { urlOpener } from './url.js';

export { liveContext, planLive, readLive } from './live.js';
export { readStdin, STDIN } from './stdin.js';
export type { LiveCluster, OpenContext, Opened } from './types.js';

const OPENERS: readonly (Opener | Opener<LiveCluster>)[] = [
  urlOpener,
  stdinOpener,
  folderOpener,
  fileOpener,
  ocExampleOpener,
  liveOpener,
];

/** Open one argument (a path, `-`, a URL, or a live cluster) with the first opener that claims it. */
export async function openArgument<R extends Opened>(
  arg: string | LiveCluster,
  context: OpenContext<R>,
): Promise<R> {
  if (typeof arg !== 'string') {
    for (const opener of OPENERS)
      if (opener.takes === 'live' && (await opener.claims(arg, {}))) return opener.open(arg, {}, context);
    throw new InputError('(live cluster)', 'no opener reads a live cluster');
  }
  let found: Found | undefined;
  const lookup = async (): Promise<Found> => {
    found ??= await stat(arg).then(
      (info) => ({ info }),
      (error: NodeJS.ErrnoException) => ({ error }),
    );
    return found;
  };
  for (const opener of OPENERS) {
    if (opener.takes !== 'path') continue;
    // URL and stdin claim by the argument alone; the others need to know what is on disk.
    const f = opener === urlOpener || opener === stdinOpener ? {} : await lookup();
    if (await opener.claims(arg, f)) return opener.open(arg, f, context);
  }
  throw new InputError(arg, fsProblem((await lookup()).error));
}
