/** What the API answers on an error (design.md §8). */
export interface ErrorBody {
  type: string;
  code: string;
  message: string;
  param?: string;
  decline_code?: string;
  request_id?: string;
}

/**
 * Any error the API answered, or the failure to get an answer. `code` is the catalogue code
 * (`parameter_missing`, `card_declined`, …), `param` the parameter at fault, `requestId` the id to
 * quote when asking for help.
 */
export class TillpointError extends Error {
  readonly type: string;
  readonly code: string;
  readonly param: string | undefined;
  readonly declineCode: string | undefined;
  readonly requestId: string | undefined;
  /** The HTTP status; undefined when no answer came. */
  readonly statusCode: number | undefined;

  constructor(body: ErrorBody, statusCode?: number, options?: { cause?: unknown }) {
    super(body.message, options);
    this.name = new.target.name;
    this.type = body.type;
    this.code = body.code;
    this.param = body.param;
    this.declineCode = body.decline_code;
    this.requestId = body.request_id;
    this.statusCode = statusCode;
  }
}

/** 400, 404, 409, 410 and 413 about the request itself: a missing, invalid or unknown parameter, a state that refuses it. */
export class InvalidRequestError extends TillpointError {}
/** 401: no key, an unknown key, a revoked key. */
export class AuthenticationError extends TillpointError {}
/** 402: the card was declined; `declineCode` says why. */
export class CardError extends TillpointError {}
/** 403: the key may not do this (wrong mode, publishable key). */
export class PermissionError extends TillpointError {}
/** 409: the Idempotency-Key was used with other parameters, or is in use by a request still running. */
export class IdempotencyError extends TillpointError {}
/** 429: too many requests; retried automatically up to `maxNetworkRetries`. */
export class RateLimitError extends TillpointError {}
/** 502/504: the payment processor failed or did not answer in time. */
export class ProcessorError extends TillpointError {}
/** 500: something went wrong on the server's side. */
export class ApiError extends TillpointError {}
/** No answer: the connection failed or timed out, after every retry. */
export class ConnectionError extends TillpointError {}

const byType: Record<string, new (body: ErrorBody, statusCode?: number) => TillpointError> = {
  invalid_request_error: InvalidRequestError,
  authentication_error: AuthenticationError,
  card_error: CardError,
  permission_error: PermissionError,
  idempotency_error: IdempotencyError,
  rate_limit_error: RateLimitError,
  processor_error: ProcessorError,
  api_error: ApiError,
};

/** The typed error for an error answer (whatever its body, even one that is not our envelope). */
export function errorFromResponse(status: number, body: unknown, requestId: string | null): TillpointError {
  const envelope = (body as { error?: ErrorBody } | undefined)?.error;
  if (envelope && typeof envelope.code === 'string') {
    const ErrorClass = byType[envelope.type] ?? TillpointError;
    return new ErrorClass({ ...envelope, request_id: envelope.request_id ?? requestId ?? undefined }, status);
  }
  return new ApiError(
    { type: 'api_error', code: 'unexpected_response', message: `Unexpected answer: HTTP ${status}`, request_id: requestId ?? undefined },
    status,
  );
}

/**
 * A webhook whose signature could not be verified. `reason`: the header is missing or malformed
 * (`bad_header`), no signature matches the body and secret (`bad_signature`), or the timestamp is
 * outside the tolerance (`stale_timestamp`).
 */
export class WebhookSignatureError extends Error {
  constructor(
    readonly reason: 'bad_header' | 'bad_signature' | 'stale_timestamp',
    message: string,
  ) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}
