/**
 * A catalogue entry's words for one finding. An entry describes a way of failing that many changes
 * share (bug 1999556 is any image the MCO's templates embed: the pause image, baremetal-runtimecfg,
 * haproxy, ...), so its text names what changed through placeholders filled from the finding's own
 * config diff, never from the case that made the entry known.
 */
import type { Signature } from '../model/index.js';
import type { CatalogueEntry } from './catalogue.js';

/** What the finding's config diff says changed: the release components of its changed images. */
export interface ChangedImages {
  /** Release components named by the changed images, each once, in diff order. */
  readonly components: readonly string[];
  /** Changed images no release read names. */
  readonly unnamed: number;
}

/** Components better known by another name than their payload tag. */
const KNOWN_AS: ReadonlyMap<string, string> = new Map([['pod', 'the pause image (release component pod)']]);

function images(n: number): string {
  return n === 1 ? '1 image' : `${n} images`;
}

function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** `{changedImages}` for a finding: a sentence (without its full stop) naming the images that changed. */
export function changedImagesWords(changed: ChangedImages | undefined): string {
  if (!changed || (changed.components.length === 0 && changed.unnamed === 0))
    return 'Which image changed here, atlevel could not tell from the inputs';
  const named = changed.components.map((c) => KNOWN_AS.get(c) ?? c);
  const rest = changed.unnamed > 0 ? `${images(changed.unnamed)} that no release read names` : '';
  const all = rest ? [...named, rest] : named;
  const one = named.length + changed.unnamed === 1;
  return `Here the changed image${one ? ' was' : 's were'} ${list(all)}`;
}

/** The entry's signature with its placeholders filled for one finding. */
export function describeSignature(entry: CatalogueEntry, changed: ChangedImages | undefined): Signature {
  const fill = (text: string) => text.replaceAll('{changedImages}', () => changedImagesWords(changed));
  const s = entry.signature;
  return { ...s, title: fill(s.title), detail: fill(s.detail) };
}
