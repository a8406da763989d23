/**
 * SelfSubjectAccessReview and SelfSubjectRulesReview: the only POSTs this read-only server answers.
 * They create nothing; they ask what the asker may do (`kubectl auth can-i VERB RESOURCE`, `kubectl
 * auth can-i --list`), and access.ts answers from what the server serves.
 *
 * The body is read as the API server's create handler reads it (apiserver endpoints/handlers/create.go
 * and rest.go transformDecodeError): JSON or Kubernetes protobuf (kubectl 1.32 sends protobuf), the
 * group, version and kind defaulted from the URL's (runtime/serializer gvkWithDefaults), then checked.
 * Its errors are the handler's 400s, then the registry's: 422 Invalid from the validation of a
 * SelfSubjectAccessReview (kubernetes pkg/apis/authorization/validation/validation.go,
 * pkg/registry/authorization/selfsubjectaccessreview/rest.go) and 400 "no namespace on request" for a
 * rules review without one (pkg/registry/authorization/selfsubjectrulesreview/rest.go).
 */
import {
  AUTHORIZATION_GROUP,
  decideNonResource,
  decideResource,
  type NonResourceAttributes,
  nonResourceRules,
  type ResourceAttributes,
  resourceRules,
  SELF_ACCESS_REVIEWS,
  SELF_RULES_REVIEWS,
  type Served,
} from './access.js';
import { ProtobufError, ProtoMessage, unwrapEnvelope } from './protobuf.js';
import {
  type ApiError,
  badRequest,
  type FieldError,
  invalid,
  invalidValue,
  unsupportedMediaType,
} from './status.js';

export type ReviewKind = 'SelfSubjectAccessReview' | 'SelfSubjectRulesReview';

const VERSION = 'v1';
const GROUP_VERSION = `${AUTHORIZATION_GROUP}/${VERSION}`;

/** The review resources by the exact path a client POSTs them to. */
export const REVIEW_PATHS: ReadonlyMap<string, ReviewKind> = new Map<string, ReviewKind>([
  [`/apis/${GROUP_VERSION}/${SELF_ACCESS_REVIEWS}`, 'SelfSubjectAccessReview'],
  [`/apis/${GROUP_VERSION}/${SELF_RULES_REVIEWS}`, 'SelfSubjectRulesReview'],
]);

const JSON_TYPE = 'application/json';
const PROTOBUF_TYPE = 'application/vnd.kubernetes.protobuf';

/** A string field: its JSON name, its protobuf number, its Go name (authorization/v1 generated.proto). */
type StringField = readonly [json: string, proto: number, go: string];

const RESOURCE_FIELDS: readonly StringField[] = [
  ['namespace', 1, 'Namespace'],
  ['verb', 2, 'Verb'],
  ['group', 3, 'Group'],
  ['version', 4, 'Version'],
  ['resource', 5, 'Resource'],
  ['subresource', 6, 'Subresource'],
  ['name', 7, 'Name'],
];
const NON_RESOURCE_FIELDS: readonly StringField[] = [
  ['path', 1, 'Path'],
  ['verb', 2, 'Verb'],
];
const RULES_SPEC_FIELDS: readonly StringField[] = [['namespace', 1, 'Namespace']];
/** ObjectMeta's managedFields (protobuf 17): the validation ignores them. */
const MANAGED_FIELDS = 17;

/** Field values by JSON name; a null prototype, since the names come from the request. */
type Strings = Readonly<Record<string, string>>;

interface Metadata {
  /** ObjectMeta is all zero values (what "must be empty" asks). */
  readonly zero: boolean;
  /** The value an Invalid error shows (JSON: Go's %#v of ObjectMeta is not reproduced). */
  readonly shown: string;
}

interface Review {
  readonly metadata: Metadata;
  /** SelfSubjectAccessReview: spec.resourceAttributes, absent when the body has none. */
  readonly resourceAttributes?: Strings;
  readonly nonResourceAttributes?: Strings;
  /** SelfSubjectRulesReview: spec. */
  readonly rulesSpec?: Strings;
}

export interface ReviewAnswer {
  readonly code: number;
  readonly body: Record<string, unknown>;
}

/** The answer to a review POSTed to `kind`'s path, or the ApiError the API server would give. */
export function answerReview(
  kind: ReviewKind,
  contentType: string | undefined,
  body: Buffer,
  served: Served,
): ReviewAnswer {
  const review = mediaTypeOf(contentType) === PROTOBUF_TYPE ? readProtobuf(kind, body) : readJson(kind, body);
  return kind === 'SelfSubjectAccessReview' ? accessReview(review, served) : rulesReview(review, served);
}

function mediaTypeOf(header: string | undefined): string {
  const media = (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  // No Content-Type is read as the first serializer the server has, JSON (negotiation.go).
  if (media === '') return JSON_TYPE;
  if (media === JSON_TYPE || media === PROTOBUF_TYPE) return media;
  throw unsupportedMediaType([JSON_TYPE, PROTOBUF_TYPE]);
}

function accessReview(review: Review, served: Served): ReviewAnswer {
  const errs = validateAccess(review);
  // The kind is empty: the registry names the internal object, which decoding left without one.
  if (errs.length > 0) throw invalid(AUTHORIZATION_GROUP, '', '', errs);
  const ra = review.resourceAttributes;
  const nra = review.nonResourceAttributes as Strings;
  const decision = ra
    ? decideResource(served, resourceAttributes(ra))
    : decideNonResource(served, nonResource(nra));
  return {
    code: 201,
    body: {
      kind: 'SelfSubjectAccessReview',
      apiVersion: GROUP_VERSION,
      metadata: {},
      spec: ra ? { resourceAttributes: nonEmpty(ra) } : { nonResourceAttributes: nonEmpty(nra) },
      status: decision,
    },
  };
}

/** ValidateSelfSubjectAccessReview, in its order. */
function validateAccess(review: Review): FieldError[] {
  const errs: FieldError[] = [];
  const ra = review.resourceAttributes;
  const nra = review.nonResourceAttributes;
  if (ra && nra)
    errs.push(
      invalidValue(
        'spec.nonResourceAttributes',
        goStruct('authorization.NonResourceAttributes', NON_RESOURCE_FIELDS, nra),
        'cannot be specified in combination with resourceAttributes',
      ),
    );
  // The upstream check passes the (nil) nonResourceAttributes as the value: Go prints it "null".
  if (!ra && !nra)
    errs.push(
      invalidValue(
        'spec.resourceAttributes',
        '"null"',
        'exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ),
    );
  if (!review.metadata.zero) errs.push(invalidValue('metadata', review.metadata.shown, 'must be empty'));
  return errs;
}

function rulesReview(review: Review, served: Served): ReviewAnswer {
  if ((review.rulesSpec?.namespace ?? '') === '') throw badRequest('no namespace on request');
  return {
    code: 201,
    body: {
      kind: 'SelfSubjectRulesReview',
      apiVersion: GROUP_VERSION,
      metadata: {},
      // The registry answers with a new object: the spec is not echoed.
      spec: {},
      status: {
        resourceRules: resourceRules(served),
        nonResourceRules: nonResourceRules(served),
        incomplete: false,
      },
    },
  };
}

function resourceAttributes(s: Strings): ResourceAttributes {
  return {
    verb: s.verb ?? '',
    group: s.group ?? '',
    resource: s.resource ?? '',
    subresource: s.subresource ?? '',
  };
}

function nonResource(s: Strings): NonResourceAttributes {
  return { verb: s.verb ?? '', path: s.path ?? '' };
}

/** The fields as the v1 JSON encoding writes them: every one is omitempty. */
function nonEmpty(s: Strings): Record<string, string> {
  return Object.fromEntries(Object.entries(s).filter(([, v]) => v !== ''));
}

/** Go's %#v of a struct of strings: `authorization.NonResourceAttributes{Path:"/x", Verb:"get"}`. */
function goStruct(type: string, fields: readonly StringField[], s: Strings): string {
  return `${type}{${fields.map(([json, , go]) => `${go}:${JSON.stringify(s[json] ?? '')}`).join(', ')}}`;
}

/** apiserver handlers/rest.go summarizeData: a body's first 30 bytes, as text for JSON, else hex. */
function summarize(body: Buffer): string {
  if (body.length === 0) return '<empty>';
  const head = body.subarray(0, 30);
  const more = body.length > 30 ? ' ...' : '';
  return `${body[0] === 0x7b ? head.toString('utf8') : head.toString('hex')}${more}`;
}

/** transformDecodeError for a body whose kind could not be read. */
function unrecognized(kind: ReviewKind, cause: string, body: Buffer): ApiError {
  return badRequest(
    `the object provided is unrecognized (must be of type ${kind}): ${cause} (${summarize(body)})`,
  );
}

interface TypeOfBody {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** transformDecodeError for a body whose kind was read. */
function cannotHandle(t: TypeOfBody, expected: ReviewKind, cause: string): ApiError {
  return badRequest(
    `${t.kind} in version ${JSON.stringify(t.version)} cannot be handled as a ${expected}: ${cause}`,
  );
}

/** The body's apiVersion and kind, missing parts taken from the URL's (serializer gvkWithDefaults). */
function typeOf(apiVersion: string, kind: string, expected: ReviewKind): TypeOfBody {
  const slash = apiVersion.indexOf('/');
  let group = slash === -1 ? '' : apiVersion.slice(0, slash);
  let version = slash === -1 ? apiVersion : apiVersion.slice(slash + 1);
  if (version === '' && (group === '' || group === AUTHORIZATION_GROUP)) {
    group = AUTHORIZATION_GROUP;
    version = VERSION;
  }
  return { group, version, kind: kind === '' ? expected : kind };
}

const REVIEW_KINDS: ReadonlySet<string> = new Set<ReviewKind>([
  'SelfSubjectAccessReview',
  'SelfSubjectRulesReview',
]);
/** The versions of the review kinds the API server decodes (its scheme); this server answers v1 only. */
const DECODED_VERSIONS: ReadonlySet<string> = new Set([VERSION, 'v1beta1']);

/**
 * Refuse a body of another kind or version, as the create handler does: a kind its scheme decodes
 * but cannot convert to the URL's, one it has not registered, or the URL's kind in another version
 * ("the API version in the data ... does not match").
 */
function checkType(t: TypeOfBody, expected: ReviewKind): void {
  const decoded =
    t.group === AUTHORIZATION_GROUP && DECODED_VERSIONS.has(t.version) && REVIEW_KINDS.has(t.kind);
  if (decoded && t.kind === expected && t.version === VERSION) return;
  if (!decoded)
    throw cannotHandle(
      t,
      expected,
      `no kind ${JSON.stringify(t.kind)} is registered for version ${JSON.stringify(t.group === '' ? t.version : `${t.group}/${t.version}`)} in scheme "atlevel serve"`,
    );
  if (t.kind !== expected)
    throw cannotHandle(
      t,
      expected,
      `converting (${t.version}.${t.kind}) to (authorization.${expected}): unknown conversion`,
    );
  throw badRequest(
    `the API version in the data (${t.group}/${t.version}) does not match the expected API version (${GROUP_VERSION})`,
  );
}

// ---- JSON ----

/** A decode error inside the object: the create handler reports it as "cannot be handled as". */
class FieldTypeError extends Error {}

type JsonObject = Record<string, unknown>;

/** Go's word for a JSON value's type in encoding/json's UnmarshalTypeError. */
function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'object' ? 'object' : typeof v;
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An own property only: the names are the request's, never the prototype's (`constructor`). */
function own(o: JsonObject, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

/** A struct-typed field: absent or null is Go's nil pointer; anything but an object is a type error. */
function struct(
  o: JsonObject,
  key: string,
  goStructName: string,
  path: string,
  goType: string,
): JsonObject | undefined {
  const v = own(o, key);
  if (v === undefined || v === null) return undefined;
  if (!isObject(v))
    throw new FieldTypeError(
      `json: cannot unmarshal ${jsonType(v)} into Go struct field ${goStructName}.${path} of type ${goType}`,
    );
  return v;
}

function jsonStrings(
  o: JsonObject,
  fields: readonly StringField[],
  goStructName: string,
  path: string,
): Strings {
  const out: Record<string, string> = Object.create(null);
  for (const [json] of fields) {
    const v = own(o, json);
    if (v !== undefined && v !== null && typeof v !== 'string')
      throw new FieldTypeError(
        `json: cannot unmarshal ${jsonType(v)} into Go struct field ${goStructName}.${path}.${json} of type string`,
      );
    out[json] = typeof v === 'string' ? v : '';
  }
  return out;
}

/** Zero as apimachinery's semantic equality sees it: nil and empty slices and maps are equal. */
function isZeroJson(v: unknown): boolean {
  if (v === null || v === undefined || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isObject(v) && Object.keys(v).length === 0;
}

/** The part of FindKind's error Go's encoding/json writes for a body that is not a JSON object. */
const TYPE_META_STRUCT =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

function readJson(kind: ReviewKind, body: Buffer): Review {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (err) {
    // Node words a syntax error its own way; an empty body reads as Go's.
    const why = body.length === 0 ? 'unexpected end of JSON input' : (err as Error).message;
    throw unrecognized(kind, `couldn't get version/kind; json parse error: ${why}`, body);
  }
  if (value === null) value = {};
  if (!isObject(value))
    throw unrecognized(
      kind,
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonType(value)} into Go value of type ${TYPE_META_STRUCT}`,
      body,
    );
  const typeMeta: Record<string, string> = Object.create(null);
  for (const field of ['apiVersion', 'kind']) {
    const v = own(value, field);
    if (v !== undefined && v !== null && typeof v !== 'string')
      throw unrecognized(
        kind,
        `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonType(v)} into Go struct field .${field} of type string`,
        body,
      );
    typeMeta[field] = typeof v === 'string' ? v : '';
  }
  const t = typeOf(typeMeta.apiVersion ?? '', typeMeta.kind ?? '', kind);
  checkType(t, kind);
  try {
    return jsonReview(kind, value);
  } catch (err) {
    if (err instanceof FieldTypeError) throw cannotHandle(t, kind, err.message);
    throw err;
  }
}

function jsonReview(kind: ReviewKind, o: JsonObject): Review {
  const meta = struct(o, 'metadata', kind, 'metadata', 'v1.ObjectMeta') ?? {};
  const metadata: Metadata = {
    zero: Object.entries(meta).every(([k, v]) => k === 'managedFields' || isZeroJson(v)),
    shown: JSON.stringify(meta),
  };
  if (kind === 'SelfSubjectRulesReview') {
    const spec = struct(o, 'spec', kind, 'spec', 'v1.SelfSubjectRulesReviewSpec') ?? {};
    return {
      metadata,
      rulesSpec: jsonStrings(spec, RULES_SPEC_FIELDS, 'SelfSubjectRulesReviewSpec', 'spec'),
    };
  }
  const spec = struct(o, 'spec', kind, 'spec', 'v1.SelfSubjectAccessReviewSpec') ?? {};
  const specStruct = 'SelfSubjectAccessReviewSpec';
  const ra = struct(
    spec,
    'resourceAttributes',
    specStruct,
    'spec.resourceAttributes',
    'v1.ResourceAttributes',
  );
  const nra = struct(
    spec,
    'nonResourceAttributes',
    specStruct,
    'spec.nonResourceAttributes',
    'v1.NonResourceAttributes',
  );
  return {
    metadata,
    ...(ra
      ? {
          resourceAttributes: jsonStrings(
            ra,
            RESOURCE_FIELDS,
            'ResourceAttributes',
            'spec.resourceAttributes',
          ),
        }
      : {}),
    ...(nra
      ? {
          nonResourceAttributes: jsonStrings(
            nra,
            NON_RESOURCE_FIELDS,
            'NonResourceAttributes',
            'spec.nonResourceAttributes',
          ),
        }
      : {}),
  };
}

// ---- protobuf ----

function protoStrings(m: ProtoMessage, fields: readonly StringField[]): Strings {
  const out: Record<string, string> = Object.create(null);
  for (const [json, number, go] of fields) out[json] = m.string(number, go);
  return out;
}

/** ObjectMeta's name, generateName and namespace, to show in an Invalid error. */
const SHOWN_META_FIELDS: readonly StringField[] = [
  ['name', 1, 'Name'],
  ['generateName', 2, 'GenerateName'],
  ['namespace', 3, 'Namespace'],
];

function readProtobuf(kind: ReviewKind, body: Buffer): Review {
  let envelope: ReturnType<typeof unwrapEnvelope>;
  try {
    envelope = unwrapEnvelope(body);
  } catch (err) {
    if (err instanceof ProtobufError) throw unrecognized(kind, err.message, body);
    throw err;
  }
  const t = typeOf(envelope.apiVersion, envelope.kind, kind);
  checkType(t, kind);
  try {
    return protoReview(kind, ProtoMessage.parse(kind, envelope.raw));
  } catch (err) {
    if (err instanceof ProtobufError) throw cannotHandle(t, kind, err.message);
    throw err;
  }
}

function protoReview(kind: ReviewKind, root: ProtoMessage): Review {
  const meta = root.message(1, 'Metadata', 'ObjectMeta');
  const metadata: Metadata = {
    zero: meta?.isZero(new Set([MANAGED_FIELDS])) ?? true,
    shown: JSON.stringify(meta ? nonEmpty(protoStrings(meta, SHOWN_META_FIELDS)) : {}),
  };
  if (kind === 'SelfSubjectRulesReview') {
    const spec = root.message(2, 'Spec', 'SelfSubjectRulesReviewSpec');
    return { metadata, rulesSpec: spec ? protoStrings(spec, RULES_SPEC_FIELDS) : { namespace: '' } };
  }
  const spec = root.message(2, 'Spec', 'SelfSubjectAccessReviewSpec');
  const ra = spec?.message(1, 'ResourceAttributes', 'ResourceAttributes');
  const nra = spec?.message(2, 'NonResourceAttributes', 'NonResourceAttributes');
  return {
    metadata,
    ...(ra ? { resourceAttributes: protoStrings(ra, RESOURCE_FIELDS) } : {}),
    ...(nra ? { nonResourceAttributes: protoStrings(nra, NON_RESOURCE_FIELDS) } : {}),
  };
}
