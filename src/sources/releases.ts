/**
 * Which release payload is the one updated from and which the one updated to. Explicit
 * `--release-from`/`--release-to` files win; payloads found among the inputs are matched against
 * the ClusterVersion's history (to = the newest, from = the entry before it), then by file name
 * (`…from…`, `…to…`), then by version order. Every decision is written to the notes.
 */

import type { ClusterVersion, ReleasePayload } from '../model/index.js';
import { printable, withinParentheses } from '../model/index.js';

export interface ReleasePair {
  from?: ReleasePayload;
  to?: ReleasePayload;
  /** Given files not used because the ClusterVersion contradicts them (assignReleases). */
  setAside?: { from?: ReleasePayload; to?: ReleasePayload };
}

function fileName(p: ReleasePayload): string {
  const file = p.ref.file;
  const bang = file.lastIndexOf('!');
  const inner = bang === -1 ? file : file.slice(bang + 1);
  return inner.slice(inner.lastIndexOf('/') + 1);
}

const FROM_WORD = /(^|[^a-z])from([^a-z]|$)/i;
const TO_WORD = /(^|[^a-z])to([^a-z]|$)/i;

/** Compare versions by their numeric and textual runs: 4.10.0-0.nightly-2021-11-02 < 4.10.0-0.nightly-2021-11-03. */
export function compareVersions(a: string, b: string): number {
  const ta = a.match(/\d+|\D+/g) ?? [];
  const tb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(ta.length, tb.length); i++) {
    const x = ta[i] ?? '';
    const y = tb[i] ?? '';
    if (x === y) continue;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny) return Number(x) - Number(y) || x.length - y.length;
    return x < y ? -1 : 1;
  }
  return ta.length - tb.length;
}

/** The release image's digest when the pull spec names one, else the pull spec. */
function imageKey(image: string | undefined): string | undefined {
  if (!image) return undefined;
  return /@(sha256:[0-9a-f]{64})$/.exec(image)?.[1] ?? image;
}

function sameImage(a: string | undefined, b: string | undefined): boolean {
  const x = imageKey(a);
  return x !== undefined && x === imageKey(b);
}

/** Two payloads of one version that are not copies: both name their release image, and not the same. */
function otherPayload(a: ReleasePayload, b: ReleasePayload): boolean {
  return a.image !== undefined && b.image !== undefined && !sameImage(a.image, b.image);
}

export function assignReleases(
  found: readonly ReleasePayload[],
  explicit: ReleasePair,
  cv: ClusterVersion | undefined,
  notes: string[],
): ReleasePair {
  const describe = (p: ReleasePayload) =>
    p.version !== undefined
      ? `${printable(p.version, 100)} (${printable(withinParentheses(p.ref.file), 200)})`
      : `${printable(p.ref.file, 200)} (it carries no version)`;

  // The ClusterVersion names the update's versions: the desired (newest) one first, then the one
  // before it. history[0] is the newest entry, the target, never the release updated from.
  const entries = cv?.status?.history ?? [];
  const history = entries.map((h) => h.version ?? '');
  const desired = cv?.status?.desired?.version;
  const order = desired && history[0] !== desired ? [desired, ...history] : history;
  // The release images beside `order`: an update that keeps its version (a move to the
  // multi-architecture payload, a rebuild) names two payloads of one version, told apart only by them.
  const images = (
    desired && history[0] !== desired
      ? [cv?.status?.desired?.image, ...entries.map((h) => h.image)]
      : entries.map((h) => h.image)
  ).map((i) => i ?? '');
  const byImage = (p: ReleasePayload): number =>
    p.version === undefined
      ? -1
      : order.findIndex((v, i) => v === p.version && sameImage(images[i], p.image));
  // Entries a payload's own image names are its; another payload of that version (its file gives a
  // tag where history has the digest, or none) takes the first entry of its version left.
  const claimed = new Set<number>();
  for (const p of [...found, explicit.from, explicit.to]) {
    const i = p ? byImage(p) : -1;
    if (i !== -1) claimed.add(i);
  }
  const indexOf = (p: ReleasePayload): number => {
    if (p.version === undefined) return -1;
    const own = byImage(p);
    if (own !== -1) return own;
    const free = order.findIndex((v, i) => v === p.version && !claimed.has(i));
    return free !== -1 ? free : order.indexOf(p.version);
  };
  const updateVersion = { to: order[0] || undefined, from: order[1] || undefined };

  // Explicit files win, except one the ClusterVersion contradicts while a payload among the inputs
  // has exactly the version it names: a flag pointing at another release must not push the right
  // payload out of its slot (or, worse, into the other one). The CLI warns about the file set aside.
  const pair: ReleasePair = {};
  const setAside: { from?: ReleasePayload; to?: ReleasePayload } = {};
  for (const slot of ['from', 'to'] as const) {
    const given = explicit[slot];
    if (!given) continue;
    const want = updateVersion[slot];
    const match =
      want !== undefined && given.version !== want ? found.find((p) => p.version === want) : undefined;
    if (match) {
      setAside[slot] = given;
      notes.push(
        `--release-${slot} ${describe(given)} not used: the update in the inputs is ${slot} ${printable(want ?? '', 100)}, and release payload ${describe(match)} among the inputs is that version`,
      );
    } else pair[slot] = given;
  }
  if (setAside.from || setAside.to) pair.setAside = setAside;

  // Files without a version cannot be told to be copies of one another: each stays a candidate. Two
  // of one version are copies unless their release images differ (two payloads of one version).
  const seen: ReleasePayload[] = [];
  for (const p of [pair.from, pair.to]) if (p?.version !== undefined) seen.push(p);
  const candidates: ReleasePayload[] = [];
  for (const p of found) {
    if (p.version !== undefined && seen.some((q) => q.version === p.version && !otherPayload(q, p))) {
      notes.push(`release payload ${describe(p)} ignored: version already read from another file`);
      continue;
    }
    if (p.version !== undefined) seen.push(p);
    candidates.push(p);
  }
  if (candidates.length === 0) return pair;
  if (pair.from && pair.to) {
    for (const p of candidates)
      notes.push(`release payload ${describe(p)} ignored: --release-from and --release-to were given`);
    return pair;
  }

  let left = [...candidates];
  const take = (p: ReleasePayload, slot: 'from' | 'to', how: string) => {
    pair[slot] = p;
    left = left.filter((x) => x !== p);
    notes.push(`release payload ${describe(p)} taken as the release updated ${slot}: ${how}`);
  };

  // 1. ClusterVersion history: newest first.
  const matched = left
    .map((p) => ({ p, index: indexOf(p) }))
    .filter((m) => m.index !== -1)
    .sort((a, b) => a.index - b.index);
  let toIndex: number | undefined;
  if (!pair.to && matched[0]?.index === 0) {
    toIndex = 0;
    take(matched[0].p, 'to', 'it is the ClusterVersion desired version');
  } else if (!pair.to && matched[0]) {
    // Only the newest entry is the update's target: a payload of an older entry (the release updated
    // from, with no payload of the target in the inputs) is looked for as "from" below, never
    // taken for the target, or its images would be named as the ones the update brought.
    toIndex = 0;
  } else if (pair.to) {
    // A given "to" that the history does not name still leaves the newest entry the update's
    // target: "from" is looked for below it, never at it.
    const i = indexOf(pair.to);
    toIndex = i !== -1 ? i : 0;
  }
  if (!pair.from) {
    const after = matched.find((m) => left.includes(m.p) && (toIndex === undefined || m.index > toIndex));
    if (after) {
      const how =
        toIndex !== undefined && after.index === toIndex + 1
          ? 'it is the version before it in ClusterVersion history'
          : `it matches ClusterVersion history[${after.index}]`;
      take(after.p, 'from', how);
    }
  }

  // 2. File names.
  for (const p of [...left]) {
    const name = fileName(p);
    if (!pair.from && FROM_WORD.test(name) && !TO_WORD.test(name))
      take(p, 'from', 'its file name says "from"');
    else if (!pair.to && TO_WORD.test(name) && !FROM_WORD.test(name))
      take(p, 'to', 'its file name says "to"');
  }

  // 3. Version order: only files that carry a version can be ordered.
  const versioned = (p: ReleasePayload | undefined): p is ReleasePayload & { version: string } =>
    p?.version !== undefined;
  const byVersion = left.filter(versioned).sort((a, b) => compareVersions(a.version, b.version));
  if (!pair.from && !pair.to && byVersion.length === 0 && left.length === 1 && left[0]) {
    // One file without a version and nothing else: the same assumption as for one with a version.
    take(left[0], 'to', 'assumed, nothing else tells');
  } else if (!pair.from && !pair.to) {
    const newer = byVersion[byVersion.length - 1];
    const older = byVersion[byVersion.length - 2];
    if (newer) take(newer, 'to', older ? 'it is the newest version' : 'assumed, nothing else tells');
    if (older) take(older, 'from', 'it is the version before it');
  } else if (!pair.from && versioned(pair.to)) {
    const to = pair.to;
    const older = byVersion.filter((p) => compareVersions(p.version, to.version) < 0).pop();
    if (older) take(older, 'from', 'it is the newest version older than the release updated to');
  } else if (!pair.to && versioned(pair.from)) {
    const from = pair.from;
    const newer = byVersion.filter((p) => compareVersions(p.version, from.version) > 0).pop();
    if (newer) take(newer, 'to', 'it is the newest version newer than the release updated from');
  }
  for (const p of left)
    notes.push(`release payload ${describe(p)} ignored: could not tell whether it is from or to`);
  return pair;
}
