/**
 * What one layout is: given the whole listing of one input (relative, `/`-separated paths, sorted),
 * it claims the files it reads, each with the format that reads it, and may cover files it knows and
 * does not read (so no later layout claims them). Earlier layouts (LAYOUTS order) claim first.
 */
import type { KnownKind } from '../../model/index.js';

export type ReaderSpec =
  | { readonly reader: 'gather-extra'; readonly expect: KnownKind }
  | { readonly reader: 'oc-example'; readonly expect: KnownKind }
  /** `guest`: the hosted cluster (hypershift dump's `hostedcluster-NAME/`) the file belongs to. */
  | { readonly reader: 'must-gather'; readonly guest?: string }
  | { readonly reader: 'build-log' }
  | { readonly reader: 'e2e-intervals'; readonly source: string }
  | { readonly reader: 'alerts' }
  /** oc examples' `CASE-mco-deployment.yaml`: the machine-config-operator Deployment, for its image. */
  | { readonly reader: 'mco-deployment' }
  /** Read by content: objects, intervals, release payloads, alerts. `strict`: a file that does not parse is an error. */
  | { readonly reader: 'oc-get'; readonly strict: boolean };

export interface Claim {
  readonly rel: string;
  readonly spec: ReaderSpec;
}

interface Detected {
  readonly claims: readonly Claim[];
  /** Files the layout recognises and does not read: ignored, not offered to later layouts. */
  readonly covers?: readonly string[];
  /** The name notes give the layout; may depend on what earlier layouts found. */
  readonly name?: string;
}

export interface Layout {
  readonly name: string;
  /** `rels`: the files no earlier layout claimed or covered; `earlier`: what earlier layouts claimed. */
  readonly detect: (rels: readonly string[], earlier: readonly Claim[]) => Detected;
}

export function baseName(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i === -1 ? rel : rel.slice(i + 1);
}

export function dirName(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i === -1 ? '' : rel.slice(0, i);
}
