/**
 * Recognising the URLs people copy from CI and mapping each to one Cloud Storage location (bucket and
 * object path). The forms (docs/urls.md):
 *
 * - a Prow job page:        https://prow.ci.openshift.org/view/gs/BUCKET/PATH (also `/view/gcs/`)
 * - a gcsweb page:          https://gcsweb-ci.apps.ci.l2s4.p1.openshiftapps.com/gcs/BUCKET/PATH
 * - a public object URL:    https://storage.googleapis.com/BUCKET/PATH (also storage.cloud.google.com)
 * - a gs:// URI:            gs://BUCKET/PATH
 *
 * The Prow and gcsweb forms are recognised by their path on any host (mirrors and the tests' fake
 * serve them too); where the bytes come from is the storage endpoint's business (see options.ts).
 */
import { InputError, printable } from '../../model/index.js';

export interface GcsLocation {
  readonly bucket: string;
  /** The object name or folder prefix, without a leading `/`; '' for the bucket root. May end in `/`. */
  readonly path: string;
  /** The URL as given, for messages. */
  readonly given: string;
  /** The URL's origin when it is on the loopback interface (a local mirror or fake), else undefined. */
  readonly loopbackOrigin?: string;
}

/** Cloud Storage's bucket naming rules: 3–63 characters (222 with dots), lowercase, digits, `-_.`. */
const BUCKET = /^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/;
/** Object names are at most 1024 bytes of UTF-8 and never hold CR or LF. */
const MAX_OBJECT_NAME_BYTES = 1024;

const STORAGE_HOSTS = new Set(['storage.googleapis.com', 'storage.cloud.google.com']);
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** True when an input argument is a URL atlevel fetches (rather than a local path). */
export function looksLikeUrl(arg: string): boolean {
  return /^(gs|https?):\/\//i.test(arg);
}

/**
 * The Cloud Storage location a URL names. Throws InputError (exit 2) naming the URL when it is a URL
 * but not one of the recognised forms, or when its bucket or object name is not valid.
 */
export function parseCiUrl(given: string): GcsLocation {
  const shown = printable(given, 300);
  if (/^gs:\/\//i.test(given)) {
    const rest = given.slice(5);
    const slash = rest.indexOf('/');
    const bucket = slash === -1 ? rest : rest.slice(0, slash);
    const path = slash === -1 ? '' : rest.slice(slash + 1);
    return checked(bucket, path, shown, undefined);
  }
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new InputError(shown, 'not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InputError(shown, `unsupported URL scheme ${printable(url.protocol, 20)}`, FORMS_HINT);
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname) ? url.origin : undefined;
  const segments = url.pathname.split('/').slice(1);
  const decoded = (from: number): string => {
    try {
      return segments.slice(from).map(decodeURIComponent).join('/');
    } catch {
      throw new InputError(shown, 'the URL path has malformed percent-escapes');
    }
  };
  // Prow's job page: /view/gs/BUCKET/PATH (Deck also serves /view/gcs/).
  if (segments[0] === 'view' && (segments[1] === 'gs' || segments[1] === 'gcs')) {
    return checked(segments[2] ?? '', decoded(3), shown, loopback);
  }
  // gcsweb: /gcs/BUCKET/PATH
  if (segments[0] === 'gcs') return checked(segments[1] ?? '', decoded(2), shown, loopback);
  if (STORAGE_HOSTS.has(url.hostname) || loopback !== undefined) {
    // The JSON API's own object URL: /storage/v1/b/BUCKET/o/NAME (NAME percent-encoded as one segment).
    if (segments[0] === 'storage' && segments[1] === 'v1' && segments[2] === 'b' && segments[4] === 'o') {
      return checked(segments[3] ?? '', decoded(5), shown, loopback);
    }
    // The public object URL (a loopback mirror serves the same path).
    return checked(segments[0] ?? '', decoded(1), shown, loopback);
  }
  throw new InputError(shown, 'not a CI artifact URL atlevel recognises', FORMS_HINT);
}

const FORMS_HINT =
  'give a Prow job URL (…/view/gs/BUCKET/PATH), a gcsweb URL (…/gcs/BUCKET/PATH), https://storage.googleapis.com/BUCKET/PATH or gs://BUCKET/PATH';

function checked(bucket: string, path: string, given: string, loopback: string | undefined): GcsLocation {
  if (bucket === '') throw new InputError(given, 'the URL names no bucket', FORMS_HINT);
  if (!BUCKET.test(bucket) || bucket.includes('..')) {
    throw new InputError(given, `"${printable(bucket, 80)}" is not a valid Cloud Storage bucket name`);
  }
  const name = path.replace(/^\/+/, '');
  if (/[\r\n]/.test(name)) throw new InputError(given, 'object names cannot hold line breaks');
  if (Buffer.byteLength(name, 'utf8') > MAX_OBJECT_NAME_BYTES) {
    throw new InputError(given, `the object name is longer than ${MAX_OBJECT_NAME_BYTES} bytes`);
  }
  return loopback === undefined
    ? { bucket, path: name, given }
    : { bucket, path: name, given, loopbackOrigin: loopback };
}

/** The canonical `gs://BUCKET/PATH` form, used as the display name of remote inputs in reports. */
export function gsUri(bucket: string, path: string): string {
  return `gs://${bucket}/${path}`;
}
