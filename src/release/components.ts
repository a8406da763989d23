/**
 * Digest → component index over one or more release payloads: answers "which release component is
 * this pull spec or digest?" (the reverse of `oc adm release info --image-for`).
 */
import type { ReleaseComponent, ReleasePayload } from '../model/index.js';

export interface ComponentMatch {
  readonly component: ReleaseComponent;
  readonly release: ReleasePayload;
  /** How it matched: the same digest, or the same pull spec by tag. */
  readonly by: 'digest' | 'pullSpec';
}

/**
 * The `sha256:<64 hex>` digest a pull spec or bare digest carries, if any. It ends a pull spec: one
 * with more after it is mistyped, and was taken for the image of its first 64 digits.
 */
function digestOfReference(ref: string): string | undefined {
  const at = ref.lastIndexOf('sha256:');
  if (at === -1) return undefined;
  const digest = ref.slice(at);
  return /^sha256:[0-9a-f]{64}$/.test(digest) ? digest : undefined;
}

/** The fewest hex digits of a digest prefix that is accepted: atlevel prints twelve. */
export const MIN_DIGEST_PREFIX = 12;

/**
 * The digest prefix a user typed, as `sha256:<hex>`: the form atlevel prints (`sha256:0adaefcf3675…`),
 * the same without the ellipsis (`…` or `...`), or bare hex, of at least MIN_DIGEST_PREFIX digits.
 */
export function digestPrefixOf(ref: string): string | undefined {
  const hex = DIGEST_PREFIX.exec(ref.trim())?.[1];
  if (hex === undefined || hex.length < MIN_DIGEST_PREFIX || hex.length > 64) return undefined;
  return `sha256:${hex.toLowerCase()}`;
}

/** A digest prefix's shape, any case (`SHA256:0ADAEF…` is the same digest), any length. */
const DIGEST_PREFIX = /^(?:sha256:)?([0-9a-f]*)(?:…|\.\.\.)?$/i;

/**
 * How many hex digits `ref` has when it is shaped as a digest prefix but too short to be taken as
 * one (`ef`, `sha256:0ada…`); undefined otherwise. No pull spec in a payload has that shape, so the
 * user is told the prefix is too short rather than that no image is called `ef`.
 */
export function shortDigestPrefix(ref: string): number | undefined {
  const trimmed = ref.trim();
  const hex = DIGEST_PREFIX.exec(trimmed)?.[1];
  return hex !== undefined && trimmed !== '' && hex.length < MIN_DIGEST_PREFIX ? hex.length : undefined;
}

export class ComponentIndex {
  private readonly byDigest = new Map<string, ComponentMatch[]>();
  private readonly byPullSpec = new Map<string, ComponentMatch[]>();
  private readonly byName = new Map<string, ComponentMatch[]>();

  constructor(releases: readonly (ReleasePayload | undefined)[]) {
    for (const release of releases) {
      if (!release) continue;
      for (const component of release.components) {
        const digest = component.digest ?? digestOfReference(component.pullSpec);
        if (digest) add(this.byDigest, digest, { component, release, by: 'digest' });
        add(this.byPullSpec, component.pullSpec, { component, release, by: 'pullSpec' });
        add(this.byName, component.name, { component, release, by: 'pullSpec' });
      }
    }
  }

  /**
   * Components a pull spec or bare digest belongs to. A digest identifies the image whatever registry
   * mirrors it, so digests match first; a tag pull spec matches only exactly.
   */
  lookup(ref: string): ComponentMatch[] {
    const digest = digestOfReference(ref);
    if (digest) {
      const hit = this.byDigest.get(digest);
      if (hit) return hit;
    }
    const exact = this.byPullSpec.get(ref);
    if (exact) return exact;
    // A digest as printed (shortened) or typed (bare hex): only when it names one image.
    const digests = this.digestsStartingWith(ref);
    return digests.length === 1 ? (this.byDigest.get(digests[0]!) ?? []) : [];
  }

  /**
   * The digests of the payloads that a digest prefix (digestPrefixOf) names, sorted; none when `ref`
   * is no prefix. More than one means the prefix is ambiguous.
   */
  digestsStartingWith(ref: string): string[] {
    const prefix = digestPrefixOf(ref);
    if (prefix === undefined) return [];
    return [...this.byDigest.keys()].filter((d) => d.startsWith(prefix)).sort();
  }

  /** The matches of one digest (what `digestsStartingWith` lists). */
  matchesOfDigest(digest: string): ComponentMatch[] {
    return this.byDigest.get(digest) ?? [];
  }

  /** The component name for a reference, when every match agrees on one. */
  componentOf(ref: string): string | undefined {
    const names = new Set(this.lookup(ref).map((m) => m.component.name));
    // One image can back several tags (e.g. `machine-os-content` and `rhel-coreos` in some releases).
    return names.size === 0 ? undefined : [...names].sort().join('/');
  }

  /** `--image-for NAME`: the pull spec of a component, per release. */
  imageFor(name: string): ComponentMatch[] {
    return this.byName.get(name) ?? [];
  }

  get size(): number {
    return this.byName.size;
  }
}

function add<K>(map: Map<K, ComponentMatch[]>, key: K, match: ComponentMatch): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [match]);
  else if (!list.some((m) => m.component.name === match.component.name && m.release === match.release)) {
    list.push(match);
  }
}
