/**
 * The `release diff` and `release info` use cases: two release payloads compared (components added,
 * removed and changed, and whether nodes will roll), and one payload listed or searched by component
 * name or by image. Releases are read as loadRelease reads them (files, folders, URLs, `-`).
 */
import { printable, STDIN_NAME, UsageError, withinParentheses } from '../model/index.js';
import { ComponentIndex, diffReleases, type ReleaseDiff } from '../release/index.js';
import type { ReleaseInfoReport } from '../report/index.js';
import { STDIN } from '../sources/index.js';
import type { Conclusion } from './conclusion.js';
import { loadRelease, type ReadOptions } from './read.js';

export interface ReleaseDiffRequest {
  /** The release updated from and the one updated to: release info, image-references, payload folders, URLs, `-`. */
  readonly from: string;
  readonly to: string;
}

export interface ReleaseDiffOutcome {
  readonly diff: ReleaseDiff;
  /**
   * A failure when components differ; inconclusive when nothing is known to differ but something
   * could not be compared (a tag against a digest or another tag, placeholders, no components).
   */
  readonly conclusion: Conclusion;
}

export async function diffReleaseFiles(
  request: ReleaseDiffRequest,
  read: ReadOptions = {},
): Promise<ReleaseDiffOutcome> {
  const [a, b] = await Promise.all([loadRelease(request.from, read), loadRelease(request.to, read)]);
  const diff = diffReleases(a, b);
  const conclusion: Conclusion =
    diff.changed.length + diff.added.length + diff.removed.length > 0
      ? 'failure'
      : diff.incomparable.length > 0 || diff.cannotTell.length > 0
        ? 'inconclusive'
        : 'ok';
  return { diff, conclusion };
}

export interface ReleaseInfoRequest {
  readonly release: string;
  /** Look up a component's pull spec by its name, or the components an image (pull spec or digest, 12+ hex digits) belongs to. */
  readonly lookup?:
    | { readonly by: 'image-for'; readonly name: string }
    | { readonly by: 'component-for'; readonly ref: string };
}

export interface ReleaseInfoOutcome {
  readonly report: ReleaseInfoReport;
  /** What the caller should be told besides the report: a component that is no pull spec, nothing found. */
  readonly warnings: readonly string[];
  /** A failure when a lookup found nothing. */
  readonly conclusion: Conclusion;
}

export async function releaseInfo(
  request: ReleaseInfoRequest,
  read: ReadOptions = {},
): Promise<ReleaseInfoOutcome> {
  const payload = await loadRelease(request.release, read);
  const lookup = request.lookup;
  if (lookup === undefined) return { report: { payload }, warnings: [], conclusion: 'ok' };
  // Messages name standard input as its errors do, not by the `-` that was typed.
  const source = request.release === STDIN ? STDIN_NAME : request.release;
  const index = new ComponentIndex([payload]);
  if (lookup.by === 'component-for') refuseAmbiguous(index, lookup.ref, source);
  const found =
    lookup.by === 'image-for'
      ? { by: 'image-for' as const, matches: index.imageFor(lookup.name) }
      : { by: 'component-for' as const, matches: index.lookup(lookup.ref) };
  const warnings: string[] = [];
  for (const m of found.by === 'image-for' ? found.matches : []) {
    if (m.component.fromKind !== undefined)
      warnings.push(
        `${m.component.name} is an ${m.component.fromKind} reference (an image of another image stream), not a pull spec`,
      );
  }
  if (found.matches.length === 0) {
    const what =
      lookup.by === 'image-for' ? `no image tag "${lookup.name}"` : `no component with image "${lookup.ref}"`;
    warnings.push(
      `${what} in ${payload.version !== undefined ? `release ${payload.version} (${withinParentheses(source)})` : `${source} (it carries no version)`}`,
    );
  }
  return {
    report: { payload, lookup: found },
    warnings,
    conclusion: found.matches.length === 0 ? 'failure' : 'ok',
  };
}

/** A digest prefix that several images of the payload share is an error naming them. */
function refuseAmbiguous(index: ComponentIndex, ref: string, file: string): void {
  const digests = index.digestsStartingWith(ref);
  if (digests.length < 2) return;
  const named = digests.slice(0, 6).map((d) => {
    const names = [...new Set(index.matchesOfDigest(d).map((m) => m.component.name))].sort();
    return `${names.join('/')} (${d.slice(0, 7 + 16)}…)`;
  });
  throw new UsageError(
    `--component-for: "${printable(ref, 80)}" matches ${digests.length} images in ${printable(file, 200)}: ` +
      `${named.join(', ')}${digests.length > 6 ? ', …' : ''}; give more digits`,
  );
}
