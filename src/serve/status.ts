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
  /** `Forbidden: ...` or `Unsupported value: ...` (field.Error.ErrorBody). */
  readonly body: string;
  /** The cause type: FieldValueForbidden, FieldValueNotSupported. */
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
    kind,
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

/** 406, as the API server answers a representation it cannot produce. */
export function notAcceptable(message: string): ApiError {
  return new ApiError(406, 'NotAcceptable', message);
}
