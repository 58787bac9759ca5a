/**
 * The error catalogue of design.md §8: every code Tillpoint answers with, its type and HTTP status.
 * This table is the only place a code is mapped to a status; the shopper's wording lives in the
 * checkout page's message catalogue, keyed by the same codes.
 */
export const errorCatalogue = {
  parameter_missing: { status: 400, type: 'invalid_request_error' },
  parameter_invalid: { status: 400, type: 'invalid_request_error' },
  parameter_unknown: { status: 400, type: 'invalid_request_error' },
  amount_too_small: { status: 400, type: 'invalid_request_error' },
  amount_too_large: { status: 400, type: 'invalid_request_error' },
  currency_not_supported: { status: 400, type: 'invalid_request_error' },
  api_key_missing: { status: 401, type: 'authentication_error' },
  api_key_invalid: { status: 401, type: 'authentication_error' },
  api_key_revoked: { status: 401, type: 'authentication_error' },
  // The dashboard's own: a browser without a valid session, a wrong email or password, a missing CSRF token.
  not_signed_in: { status: 401, type: 'authentication_error' },
  sign_in_failed: { status: 401, type: 'authentication_error' },
  csrf_token_invalid: { status: 403, type: 'permission_error' },
  // Account security (docs/dashboard.md): the password was right and a code from the authenticator
  // app is needed too; sign-up without an invite on a closed install; an account that requires a
  // second factor of every member who has none yet.
  second_factor_required: { status: 401, type: 'authentication_error' },
  sign_up_closed: { status: 403, type: 'permission_error' },
  second_factor_enrolment_required: { status: 403, type: 'permission_error' },
  card_declined: { status: 402, type: 'card_error' },
  insufficient_role: { status: 403, type: 'permission_error' },
  wrong_mode: { status: 403, type: 'permission_error' },
  publishable_key_not_allowed: { status: 403, type: 'permission_error' },
  // A restricted key (rk_…) without the permission the route needs on its resource (docs/api.md#api-keys).
  api_key_permission_denied: { status: 403, type: 'permission_error' },
  resource_missing: { status: 404, type: 'invalid_request_error' },
  idempotency_key_reused: { status: 409, type: 'idempotency_error' },
  idempotency_key_in_use: { status: 409, type: 'idempotency_error' },
  checkout_session_completed: { status: 409, type: 'invalid_request_error' },
  payment_not_capturable: { status: 409, type: 'invalid_request_error' },
  payment_not_refundable: { status: 409, type: 'invalid_request_error' },
  refund_exceeds_available: { status: 409, type: 'invalid_request_error' },
  payment_not_settled: { status: 409, type: 'invalid_request_error' },
  // Disputes (docs/disputes.md): acting on a dispute that no longer takes an answer; an evidence
  // file of a type the processor does not take, or over its size limit.
  dispute_not_open: { status: 409, type: 'invalid_request_error' },
  file_type_not_allowed: { status: 400, type: 'invalid_request_error' },
  file_too_large: { status: 400, type: 'invalid_request_error' },
  // Receipts by email (docs/receipts.md): the payment has no email to send to; the install has no
  // mail server (SMTP_URL); the payment has taken no money yet; the mail server refused the email.
  receipt_email_missing: { status: 400, type: 'invalid_request_error' },
  email_not_configured: { status: 409, type: 'invalid_request_error' },
  payment_not_succeeded: { status: 409, type: 'invalid_request_error' },
  email_not_sent: { status: 502, type: 'api_error' },
  checkout_session_expired: { status: 410, type: 'invalid_request_error' },
  // Recurring billing (docs/billing.md): changing a subscription that has ended; paying or voiding an
  // invoice in a status that does not allow it; advancing a test clock that is advancing already.
  subscription_canceled: { status: 409, type: 'invalid_request_error' },
  invoice_not_payable: { status: 409, type: 'invalid_request_error' },
  test_clock_advancing: { status: 409, type: 'invalid_request_error' },
  // The customer portal's page after its session's time (docs/billing.md).
  billing_portal_session_expired: { status: 410, type: 'invalid_request_error' },
  // design.md §5: bodies over 256 KB are rejected; 413 says so to every HTTP client and proxy.
  request_too_large: { status: 413, type: 'invalid_request_error' },
  rate_limited: { status: 429, type: 'rate_limit_error' },
  processor_unavailable: { status: 502, type: 'processor_error' },
  processor_timeout: { status: 504, type: 'processor_error' },
  internal_error: { status: 500, type: 'api_error' },
  // The database cannot be reached (down, restarting, connection lost): retry later (docs/reliability.md).
  database_unavailable: { status: 503, type: 'api_error' },
} as const satisfies Record<string, { status: number; type: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** Why a card was declined (design.md §8, the `decline_code` of a `card_declined`). */
export const declineCodes = [
  'insufficient_funds',
  'do_not_honor',
  'expired_card',
  'incorrect_cvc',
  'incorrect_number',
  'lost_card',
  'stolen_card',
  'fraudulent',
  'processing_error',
  'authentication_failed',
  'card_not_supported',
  'test_mode_live_card',
] as const;
export type DeclineCode = (typeof declineCodes)[number];

/**
 * The one error type of the domain. `message` is safe to show a merchant's developer; it must
 * never contain card data. Expected outcomes (a declined card) are results, not errors, until the
 * edge turns them into an answer.
 */
export class TillpointError extends Error {
  readonly code: ErrorCode;
  readonly param: string | undefined;
  readonly declineCode: DeclineCode | undefined;

  constructor(code: ErrorCode, message: string, options: { param?: string; declineCode?: DeclineCode; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TillpointError';
    this.code = code;
    this.param = options.param;
    this.declineCode = options.declineCode;
  }

  get status(): number {
    return errorCatalogue[this.code].status;
  }

  get type(): string {
    return errorCatalogue[this.code].type;
  }
}

/** Shorthand for the common 404: the same answer whether the object is absent or another account's. */
export function resourceMissing(kind: string, id: string): TillpointError {
  return new TillpointError('resource_missing', `No such ${kind}: '${id}'`, { param: 'id' });
}
