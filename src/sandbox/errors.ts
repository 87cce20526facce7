// The declared error body of the spec ("Errors"), always with every field.

export interface ErrorDetail {
  field: string;
  message: string;
}

export interface ErrorBody {
  timestamp: string;
  code: string;
  message: string;
  path: string;
  correlationId: string;
  errors: { message: string; property?: string }[];
  error: { code: string; message: string; details: ErrorDetail[] | null };
}

/** Code and sample message per status, from the spec's Errors table (plus 405/413/429). */
export const ERROR_CODES: Readonly<Record<number, { code: string; message: string }>> = {
  400: { code: 'BAD_REQUEST', message: 'Invalid request parameters' },
  401: { code: 'UNAUTHORIZED', message: 'AUTHORIZATION_MISSING_TOKEN' },
  403: { code: 'FORBIDDEN', message: 'Insufficient permissions' },
  404: { code: 'NOT_FOUND', message: 'resource not found' },
  405: { code: 'METHOD_NOT_ALLOWED', message: 'method not allowed' },
  409: { code: 'CONFLICT', message: 'resource already exists or state conflict' },
  413: { code: 'PAYLOAD_TOO_LARGE', message: 'request body too large' },
  422: { code: 'VALIDATION_ERROR', message: 'Request validation failed' },
  429: { code: 'TOO_MANY_REQUESTS', message: 'rate limit exceeded' },
  500: { code: 'INTERNAL_SERVER_ERROR', message: 'an unexpected error occurred' },
  502: { code: 'BAD_GATEWAY', message: 'bad gateway' },
  503: { code: 'SERVICE_UNAVAILABLE', message: 'upstream dependency error' },
};

export interface ErrorOptions {
  /** overrides the table's sample message */
  message?: string;
  /** field-level failures (validation); `errors` gets one entry per detail */
  details?: ErrorDetail[];
}

export function errorBody(status: number, path: string, correlationId: string, opts: ErrorOptions = {}): ErrorBody {
  const base = ERROR_CODES[status] ?? { code: status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST', message: 'error' };
  const message = opts.message ?? base.message;
  const details = opts.details && opts.details.length > 0 ? opts.details : null;
  return {
    timestamp: new Date().toISOString(),
    code: base.code,
    message,
    path,
    correlationId,
    errors: details ? details.map((d) => ({ message: d.message, property: d.field })) : [{ message }],
    error: { code: base.code, message, details },
  };
}
