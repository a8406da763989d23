/**
 * Parse a release payload's component list from the two text forms people have at hand: the output
 * of `oc adm release info -o json` (a ReleaseInfo whose `references` is the image-references
 * ImageStream) and a bare `image-references` ImageStream (JSON as oc writes it, or YAML as operators
 * ship it). docs/domain.md 8.2–8.4.
 */
import yaml from 'js-yaml';
import type { ReleaseComponent, ReleasePayload } from '../model/index.js';
import { InputError, printable } from '../model/index.js';

const COMMIT_ANNOTATION = 'io.openshift.build.commit.id';
const SOURCE_ANNOTATION = 'io.openshift.build.source-location';
const DIGEST_IN_PULLSPEC = /@(sha256:[0-9a-f]{64})$/;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parse the text as JSON when it looks like JSON (fast path for large ReleaseInfo), else as YAML. */
function parseDocument(text: string, file: string): unknown {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(text);
    } catch (err) {
      // JSON-looking text that is not JSON may still be YAML flow syntax; fall through to YAML.
      if (!(err instanceof SyntaxError)) throw err;
    }
  }
  try {
    return yaml.load(text, { schema: yaml.CORE_SCHEMA, filename: file });
  } catch (err) {
    const reason = err instanceof yaml.YAMLException ? err.reason : String(err);
    throw new InputError(file, `not JSON or YAML (${printable(reason, 120)})`);
  }
}

/** What a document is, in words, for an error message. */
function describeDocument(doc: unknown): string {
  if (doc === null || doc === undefined) return 'an empty document';
  if (Array.isArray(doc)) return 'a list';
  if (!isObject(doc)) return `a ${typeof doc} value`;
  const kind = typeof doc.kind === 'string' ? doc.kind : undefined;
  if (kind) return `kind ${printable(kind, 60)}`;
  const keys = Object.keys(doc)
    .slice(0, 5)
    .map((k) => printable(k, 30));
  return `an object with keys ${keys.join(', ')}${Object.keys(doc).length > 5 ? ', …' : ''}`;
}

/** Where operators' own image-references point before oc substitutes the release's images. */
const PLACEHOLDER_HOST = 'placeholder.url.oc.will.replace.this.org/';

/** A placeholder of an operator's source image-references: not an image at all. */
export function isPlaceholder(c: ReleaseComponent): boolean {
  return c.pullSpec.startsWith(PLACEHOLDER_HOST);
}

/**
 * What a component's tag references, as text: the pull spec, or for an image stream reference its
 * kind and namespace (`ImageStreamImage ocp/4.22@sha256:…`), which no registry can pull as written.
 */
export function referenceText(c: ReleaseComponent): string {
  if (c.fromKind === undefined) return c.pullSpec;
  return `${c.fromKind} ${c.fromNamespace ? `${c.fromNamespace}/` : ''}${c.pullSpec}`;
}

/** The digest of a pull spec by digest (`…@sha256:<64 hex>`), if it is one. */
function digestOfPullSpec(pullSpec: string): string | undefined {
  return DIGEST_IN_PULLSPEC.exec(pullSpec)?.[1];
}

function componentsOf(stream: Json, file: string, at: string): ReleaseComponent[] {
  const spec = stream.spec;
  if (spec === undefined || spec === null) return [];
  if (!isObject(spec)) throw new InputError(file, `${at}spec is not an object`);
  const tags = spec.tags;
  if (tags === undefined || tags === null) return [];
  if (!Array.isArray(tags)) throw new InputError(file, `${at}spec.tags is not a list`);
  const components: ReleaseComponent[] = [];
  const seen = new Set<string>();
  tags.forEach((tag: unknown, i) => {
    const where = `${at}spec.tags[${i}]`;
    if (!isObject(tag) || typeof tag.name !== 'string' || tag.name === '') {
      throw new InputError(file, `${where} has no name`);
    }
    const from = tag.from;
    // A tag without an image (oc skips these too) names no component image.
    if (!isObject(from) || typeof from.name !== 'string' || from.name === '') return;
    // oc keeps the first tag of a name; duplicates would make the index ambiguous.
    if (seen.has(tag.name)) return;
    seen.add(tag.name);
    const pullSpec = from.name;
    const annotations = isObject(tag.annotations) ? tag.annotations : {};
    const digest = digestOfPullSpec(pullSpec);
    const commit = annotations[COMMIT_ANNOTATION];
    const sourceLocation = annotations[SOURCE_ANNOTATION];
    // A release stream's ImageStream (e.g. the release controller's ocp/4.23) names images of other
    // image streams; the name is then not something a registry can pull.
    const kind = typeof from.kind === 'string' && from.kind !== '' ? from.kind : 'DockerImage';
    const namespace =
      typeof from.namespace === 'string' && from.namespace !== '' ? from.namespace : undefined;
    components.push({
      name: tag.name,
      pullSpec,
      ...(digest ? { digest } : {}),
      ...(typeof commit === 'string' && commit !== '' ? { commit } : {}),
      ...(typeof sourceLocation === 'string' && sourceLocation !== '' ? { sourceLocation } : {}),
      ...(kind !== 'DockerImage'
        ? { fromKind: kind, ...(namespace ? { fromNamespace: namespace } : {}) }
        : {}),
    });
  });
  return components;
}

function streamName(stream: Json): string | undefined {
  const meta = stream.metadata;
  return isObject(meta) && typeof meta.name === 'string' && meta.name !== '' ? meta.name : undefined;
}

function isImageStream(doc: Json): boolean {
  return doc.kind === 'ImageStream';
}

/** `oc adm release info -o json`: has `references` (an ImageStream) and usually `metadata`, `image`, `digest`. */
function isReleaseInfo(doc: Json): boolean {
  return isObject(doc.references) && doc.kind === undefined;
}

function fromReleaseInfo(doc: Json, file: string): ReleasePayload {
  const references = doc.references as Json;
  if (!isImageStream(references)) {
    throw new InputError(
      file,
      `references is ${describeDocument(references)}, expected an ImageStream (is this oc adm release info -o json output?)`,
    );
  }
  const metadata = isObject(doc.metadata) ? doc.metadata : {};
  const version =
    (typeof metadata.version === 'string' && metadata.version) || streamName(references) || undefined;
  if (!version) throw new InputError(file, 'release info names no version (metadata.version)');
  const image = typeof doc.image === 'string' && doc.image !== '' ? doc.image : undefined;
  const digest = typeof doc.digest === 'string' && doc.digest !== '' ? doc.digest : undefined;
  // `image` is what the user passed to oc (often a tag); pin it by digest when oc resolved one.
  const pinned =
    image && digest && !image.includes('@') ? `${image.replace(/:[^:/]+$/, '')}@${digest}` : image;
  return {
    version,
    ...(pinned ? { image: pinned } : {}),
    components: componentsOf(references, file, 'references.'),
    ref: { file },
  };
}

function fromImageStream(doc: Json, file: string): ReleasePayload {
  // An operator's own image-references (e.g. the MCO's install/image-references) has no name; it still
  // lists components, so accept it without a version rather than refuse it.
  const version = streamName(doc);
  return {
    ...(version !== undefined ? { version } : {}),
    components: componentsOf(doc, file, ''),
    ref: { file },
  };
}

/**
 * A release payload from `oc adm release info -o json` output or an `image-references` ImageStream.
 * Throws InputError (naming what was found instead) for anything else.
 */
export function parseReleasePayload(text: string, file: string): ReleasePayload {
  const doc = parseDocument(text, file);
  if (isObject(doc)) {
    if (isReleaseInfo(doc)) return fromReleaseInfo(doc, file);
    if (isImageStream(doc)) return fromImageStream(doc, file);
  }
  throw new InputError(
    file,
    `not a release payload: found ${describeDocument(doc)}`,
    'expected `oc adm release info -o json` output or an image-references ImageStream',
  );
}

/** `release-metadata` (cincinnati-metadata-v0): the version, and whether this is a multi-arch payload. */
export function parseReleaseMetadata(text: string, file: string): { version: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new InputError(file, 'release-metadata is not JSON');
  }
  if (!isObject(doc) || doc.kind !== 'cincinnati-metadata-v0') {
    throw new InputError(file, `not release-metadata: found ${describeDocument(doc)}`);
  }
  if (typeof doc.version !== 'string' || doc.version === '') {
    throw new InputError(file, 'release-metadata has no version');
  }
  return { version: doc.version };
}
