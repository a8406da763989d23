/** Errors as the API server returns them: a `Status` object with the HTTP code, reason and details. */

export interface StatusBody {
  readonly kind: 'Status';
  readonly apiVersion: 'v1';
  readonly metadata: Record<string, never>;
  readonly status: 'Failure';
  readonly message: string;
  readonly reason: string;
  readonly details?: {
    readonly name?: string;
    readonly group?: string;
    readonly kind?: string;
    readonly causes?: readonly StatusCause[];
    readonly retryAfterSeconds?: number;
  };
  readonly code: number;
}

interface StatusCause {
  readonly reason: string;
  readonly message: string;
  readonly field?: string;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusBody['details'],
  ) {
    super(message);
  }

  body(): StatusBody {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

export function notFound(what: string, details?: StatusBody['details']): ApiError {
  return new ApiError(404, 'NotFound', what, details);
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

/**
 * 405 for a method a resource does not have (a get of a create-only review): what client-go reports
 * when the API server's router has no route for the method (rest/request.go newUnstructuredResponseError).
 */
export function methodNotSupported(): ApiError {
  return new ApiError(
    405,
    'MethodNotAllowed',
    'the server does not allow this method on the requested resource',
  );
}

export function methodNotAllowed(method: string): ApiError {
  return new ApiError(
    405,
    'MethodNotAllowed',
    `${method} is not allowed: atlevel serve is a read-only recording (only get, list and watch are served)`,
  );
}

export function expired(message: string): ApiError {
  return new ApiError(410, 'Expired', message);
}

/** One invalid query parameter, as apimachinery's field.Error reports it. */
export interface FieldError {
  readonly field: string;
  /** `Forbidden: ...`, `Unsupported value: ...` or `Invalid value: ...` (field.Error.ErrorBody). */
  readonly body: string;
  /** The cause type: FieldValueForbidden, FieldValueNotSupported, FieldValueInvalid. */
  readonly type: string;
}

export function forbidden(field: string, detail: string): FieldError {
  return { field, body: `Forbidden: ${detail}`, type: 'FieldValueForbidden' };
}

export function notSupported(field: string, value: string, supported: readonly string[]): FieldError {
  return {
    field,
    body: `Unsupported value: ${JSON.stringify(value)}: supported values: ${supported.map((v) => JSON.stringify(v)).join(', ')}`,
    type: 'FieldValueNotSupported',
  };
}

/** field.Invalid: `value` is rendered by the caller as Go's field.Error.ErrorBody prints it. */
export function invalidValue(field: string, value: string, detail: string): FieldError {
  return { field, body: `Invalid value: ${value}: ${detail}`, type: 'FieldValueInvalid' };
}

/**
 * 422 Invalid, as apimachinery's errors.NewInvalid builds it: one cause per field error, and the message
 * `KIND.GROUP "NAME" is invalid: ` followed by the error (several in brackets, as an aggregate prints them).
 */
export function invalid(group: string, kind: string, name: string, errs: readonly FieldError[]): ApiError {
  const each = errs.map((e) => `${e.field}: ${e.body}`);
  const all = each.length === 1 ? each[0] : `[${each.join(', ')}]`;
  return new ApiError(422, 'Invalid', `${kind}.${group} ${JSON.stringify(name)} is invalid: ${all}`, {
    ...(name !== '' ? { name } : {}),
    group,
    // Empty for a review: its registry validates the internal object, whose kind decoding left unset.
    ...(kind !== '' ? { kind } : {}),
    causes: errs.map((e) => ({ reason: e.type, message: e.body, field: e.field })),
  });
}

/**
 * A list at a resourceVersion the server has not reached: apiserver storage.NewTooLargeResourceVersionError,
 * a 504 Timeout that tells the client to retry after a second, with a ResourceVersionTooLarge cause
 * (what client-go's reflector checks for, then re-lists from the latest state).
 */
export function tooLargeResourceVersion(requested: number, current: number): ApiError {
  return new ApiError(
    504,
    'Timeout',
    `Timeout: Too large resource version: ${requested}, current: ${current}`,
    {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: 1,
    },
  );
}

/** 413, as apiserver handlers' limitedReadBody answers a body over the limit. */
export function requestEntityTooLarge(limit: number): ApiError {
  return new ApiError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);
}

/** 415, as apiserver negotiation.NegotiateInputSerializer answers a body type it cannot decode. */
export function unsupportedMediaType(accepted: readonly string[]): ApiError {
  return new ApiError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}

/** 406, as the API server answers a representation it cannot produce. */
export function notAcceptable(message: string): ApiError {
  return new ApiError(406, 'NotAcceptable', message);
}
