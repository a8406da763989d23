/** CI URLs (Prow, gcsweb, storage.googleapis.com, gs://): fetched by sources/url into its cache. */
import { looksLikeUrl } from '../url/location.js';
import type { Opener } from './types.js';

export const urlOpener: Opener = {
  name: 'URL',
  takes: 'path',
  claims: (arg) => looksLikeUrl(arg),
  open: async (arg, _found, context) => context.remoteInput(await context.remote(arg)),
};
