/** Errors as the API server returns them: a `Status` object with the HTTP code, reason and details. */

export interface StatusBody {
  readonly kind: 'Status';
  readonly apiVersion: 'v1';
  readonly metadata: Record<string, never>;
  readonly status: 'Failure';
  readonly message: string;
  readonly reason: string;
  readonly details?: { readonly name?: string; readonly group?: string; readonly kind?: string };
  readonly code: number;
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
