/**
 * The release payloads given by `--release-from F` / `--release-to F` (a file, a URL or `-`), and
 * where they go among the payloads the inputs hold. Shared by the file inputs (load.ts) and a live
 * cluster's snapshot (withGivenReleases), so the flags mean the same thing wherever the data lives.
 */
import { stat } from 'node:fs/promises';
import type { ClusterVersion, HistoryParts, InputFile, ReleasePayload } from '../model/index.js';
import { InputError, plural } from '../model/index.js';
import { DEFAULT_MAX_FILE_BYTES, MAX_PARSED_BYTES } from './bytes.js';
import { loadReleasePayload } from './formats/index.js';
import { readStdin, STDIN } from './open/index.js';
import { type ReadLimits, releaseWords } from './readers.js';
import { assignReleases } from './releases.js';
import type { LoadOptions } from './types.js';
import type { RemoteSession } from './url/index.js';
import { looksLikeUrl } from './url/location.js';
import { lazySession } from './url-client.js';

/** The payloads the flags gave, and their lines for the inputs list, by the slot each was given for. */
export interface GivenReleases {
  readonly payloads: { from?: ReleasePayload; to?: ReleasePayload };
  readonly inputs: readonly { readonly slot: 'from' | 'to'; readonly input: InputFile }[];
}

/** Read the payloads of `--release-from` and `--release-to`, when given. */
export async function readGivenReleases(
  opts: Pick<LoadOptions, 'releaseFrom' | 'releaseTo'>,
  limits: ReadLimits,
  remote: () => Promise<RemoteSession>,
): Promise<GivenReleases> {
  const payloads: { from?: ReleasePayload; to?: ReleasePayload } = {};
  const inputs: { slot: 'from' | 'to'; input: InputFile }[] = [];
  for (const slot of ['from', 'to'] as const) {
    const given = slot === 'from' ? opts.releaseFrom : opts.releaseTo;
    if (given === undefined) continue;
    const { payload, display, bytes } = await readReleaseFlag(given, limits, remote);
    payloads[slot] = payload;
    inputs.push({
      slot,
      input: {
        path: display,
        reader: 'release',
        bytes,
        contributed: `${releaseWords(payload.version)} (${plural(payload.components.length, 'component')}), given as --release-${slot}`,
      },
    });
  }
  return { payloads, inputs };
}

async function readReleaseFlag(
  given: string,
  limits: ReadLimits,
  remote: () => Promise<RemoteSession>,
): Promise<{ payload: ReleasePayload; display: string; bytes: number }> {
  if (given === STDIN) {
    return readStdin('a release file', async (path, display, bytes) => ({
      payload: await readReleaseFile(path, limits, display),
      display,
      bytes,
    }));
  }
  const fetched = looksLikeUrl(given) ? await (await remote()).open(given) : undefined;
  if (fetched?.kind === 'tree') throw new InputError(fetched.display, 'a folder, not a release info file');
  const file = fetched?.path ?? given;
  const display = fetched?.display ?? given;
  const payload = await readReleaseFile(file, limits, display);
  const bytes = await stat(file).then(
    (s) => s.size,
    () => 0,
  );
  return { payload, display, bytes };
}

function readReleaseFile(file: string, limits: ReadLimits, display: string): Promise<ReleasePayload> {
  return loadReleasePayload(file, {
    display,
    maxBytes: Math.min(limits.maxFileBytes, MAX_PARSED_BYTES),
    ...(limits.budget ? { budget: limits.budget } : {}),
  });
}

/**
 * The update's releases from the payloads the inputs hold and those given (assignReleases), and the
 * given files' lines for the inputs list: one set aside says so, rather than claim it was used.
 */
export function placeReleases(
  found: readonly ReleasePayload[],
  given: GivenReleases,
  cv: ClusterVersion | undefined,
  notes: string[],
): { releases: HistoryParts['releases']; inputs: InputFile[] } {
  const releases = assignReleases(found, given.payloads, cv, notes);
  const inputs = given.inputs.map(({ slot, input }) =>
    releases.setAside?.[slot]
      ? { ...input, contributed: `${input.contributed}; not used, see the notes` }
      : input,
  );
  return { releases, inputs };
}

/**
 * A live cluster's parts with the releases given by the flags: the cluster holds no payload, so
 * the given files take the slots the ClusterVersion's history names, as they do for files.
 */
export async function withGivenReleases(
  parts: HistoryParts,
  opts: Pick<LoadOptions, 'releaseFrom' | 'releaseTo' | 'maxFileBytes' | 'budget' | 'remote'>,
): Promise<HistoryParts> {
  if (opts.releaseFrom === undefined && opts.releaseTo === undefined) return parts;
  const limits: ReadLimits = {
    maxFileBytes: opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    ...(opts.budget ? { budget: opts.budget } : {}),
  };
  const session = lazySession(opts.remote, limits.maxFileBytes);
  try {
    const given = await readGivenReleases(opts, limits, session.open);
    const notes = [...parts.notes];
    const cv = parts.objects.clusterVersions[0]?.object;
    const placed = placeReleases([], given, cv, notes);
    return { ...parts, releases: placed.releases, inputs: [...parts.inputs, ...placed.inputs], notes };
  } finally {
    session.close();
  }
}
