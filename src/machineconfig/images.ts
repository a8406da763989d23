/**
 * Container image references inside config text: pull specs by digest (`host/repo@sha256:<64 hex>`),
 * pull specs by tag on a registry host (`quay.io/org/repo:tag`), and bare digests (`sha256:<64 hex>`).
 * Used to say which images a changed line swaps, the way the seed's engineer read them off `diff -u0`.
 */
import type { ImageChange } from './types.js';

// A reference by digest: anything pull-spec-like before `@sha256:`. Scheme prefixes are stripped after.
const BY_DIGEST = /[A-Za-z0-9][A-Za-z0-9._\-/:]*@sha256:[0-9a-f]{64}/g;
// A reference by tag needs a registry host (a dot, a port or localhost) so that paths and URLs with a
// colon do not pass for images.
const BY_TAG =
  /(?<![A-Za-z0-9._\-/:@])(?:localhost|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+)(?::[0-9]{1,5})?\/[a-z0-9][a-z0-9._\-/]*:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}(?![A-Za-z0-9_.\-/:@])/g;
const BARE_DIGEST = /(?<![@A-Za-z0-9])sha256:[0-9a-f]{64}(?![0-9a-f])/g;
const SCHEME =
  /^(?:docker|oci|containers-storage|ostree-unverified-registry|ostree-remote-image|ostree-image-signed):\/*/;

/** Image references in one line, in the order they appear. */
export function imagesInLine(line: string): string[] {
  if (!line.includes('sha256:') && !line.includes('/')) return [];
  const found: { at: number; ref: string }[] = [];
  let masked = line;
  for (const m of line.matchAll(BY_DIGEST)) {
    found.push({ at: m.index, ref: m[0].replace(SCHEME, '') });
    masked = masked.slice(0, m.index) + ' '.repeat(m[0].length) + masked.slice(m.index + m[0].length);
  }
  for (const m of masked.matchAll(BY_TAG)) found.push({ at: m.index, ref: m[0] });
  for (const m of masked.matchAll(BARE_DIGEST)) found.push({ at: m.index, ref: m[0] });
  return found.sort((a, b) => a.at - b.at).map((f) => f.ref);
}

/**
 * Image swaps in changed line pairs: the n-th image of a removed line pairs with the n-th image of the
 * line that replaced it; images only on one side are added or removed. Unchanged images are dropped.
 */
export function imageChangesInLines(
  lines: readonly { readonly before?: string; readonly after?: string }[],
): ImageChange[] {
  const out: ImageChange[] = [];
  const seen = new Set<string>();
  const push = (before: string | undefined, after: string | undefined) => {
    if (before === after) return;
    const key = `${before ?? ''}\u0000${after ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ ...(before !== undefined ? { before } : {}), ...(after !== undefined ? { after } : {}) });
  };
  for (const { before, after } of lines) {
    const a = before === undefined ? [] : imagesInLine(before);
    const b = after === undefined ? [] : imagesInLine(after);
    // An image present on both sides of the pair (just moved within the line) did not change.
    const aOnly = a.filter((x) => !b.includes(x));
    const bOnly = b.filter((x) => !a.includes(x));
    const n = Math.max(aOnly.length, bOnly.length);
    for (let i = 0; i < n; i++) push(aOnly[i], bOnly[i]);
  }
  return out;
}
