/**
 * The error codes the tests expect, written out by hand from design.md §8 (never imported from src/),
 * so a wrong mapping in the product fails the tests instead of agreeing with them. One copy, shared
 * by the unit test of the catalogue and the integration tests' envelope checks.
 */
/** design.md §8, copied by hand from the specification table. */
export const design: Record<string, { status: number; type: string }> = {
  parameter_missing: { status: 400, type: 'invalid_request_error' },
  parameter_invalid: { status: 400, type: 'invalid_request_error' },
  parameter_unknown: { status: 400, type: 'invalid_request_error' },
  amount_too_small: { status: 400, type: 'invalid_request_error' },
  amount_too_large: { status: 400, type: 'invalid_request_error' },
  currency_not_supported: { status: 400, type: 'invalid_request_error' },
  api_key_missing: { status: 401, type: 'authentication_error' },
  api_key_invalid: { status: 401, type: 'authentication_error' },
  api_key_revoked: { status: 401, type: 'authentication_error' },
  card_declined: { status: 402, type: 'card_error' },
  insufficient_role: { status: 403, type: 'permission_error' },
  wrong_mode: { status: 403, type: 'permission_error' },
  publishable_key_not_allowed: { status: 403, type: 'permission_error' },
  resource_missing: { status: 404, type: 'invalid_request_error' },
  idempotency_key_reused: { status: 409, type: 'idempotency_error' },
  idempotency_key_in_use: { status: 409, type: 'idempotency_error' },
  checkout_session_completed: { status: 409, type: 'invalid_request_error' },
  payment_not_capturable: { status: 409, type: 'invalid_request_error' },
  payment_not_refundable: { status: 409, type: 'invalid_request_error' },
  refund_exceeds_available: { status: 409, type: 'invalid_request_error' },
  payment_not_settled: { status: 409, type: 'invalid_request_error' },
  checkout_session_expired: { status: 410, type: 'invalid_request_error' },
  rate_limited: { status: 429, type: 'rate_limit_error' },
  // design.md §8 gives "502/504" for the processor errors: a bad gateway when the processor answered
  // that it is unavailable, a gateway timeout when it did not answer at all.
  processor_unavailable: { status: 502, type: 'processor_error' },
  processor_timeout: { status: 504, type: 'processor_error' },
  internal_error: { status: 500, type: 'api_error' },
};

/**
 * Codes the dashboard adds where design.md §8 has none for a browser session (docs/dashboard.md):
 * kept in the types of §8 so clients handle them like their neighbours.
 */
export const dashboardCodes: Record<string, { status: number; type: string }> = {
  not_signed_in: { status: 401, type: 'authentication_error' },
  sign_in_failed: { status: 401, type: 'authentication_error' },
  csrf_token_invalid: { status: 403, type: 'permission_error' },
  second_factor_required: { status: 401, type: 'authentication_error' },
  sign_up_closed: { status: 403, type: 'permission_error' },
  second_factor_enrolment_required: { status: 403, type: 'permission_error' },
};

/**
 * A restricted key (rk_…) calling a route whose resource it has no grant for (docs/api.md#api-keys):
 * design.md §8 names no code for it; it is a refusal of the permission_error type, like its neighbours.
 */
export const apiKeyCodes: Record<string, { status: number; type: string }> = {
  api_key_permission_denied: { status: 403, type: 'permission_error' },
};

/**
 * A body over the limit (design.md §5 says it is rejected, §8 names no code): the status every HTTP
 * client and proxy knows for it, in the type of the request's other refusals.
 */
export const requestCodes: Record<string, { status: number; type: string }> = {
  request_too_large: { status: 413, type: 'invalid_request_error' },
};

/**
 * Codes for an install's own trouble, which design.md §8 does not name (docs/reliability.md): the
 * database is down or the connection was lost. `api_error`, as internal_error, but 503: retry later.
 */
export const availabilityCodes: Record<string, { status: number; type: string }> = {
  database_unavailable: { status: 503, type: 'api_error' },
};

/**
 * Codes of disputes (docs/disputes.md), which design.md §8 predates: acting on a dispute that no
 * longer takes an answer (a 409, as the payment's own state refusals), and evidence files refused
 * by type or size (a 400: the file itself is the bad parameter).
 */
export const disputeCodes: Record<string, { status: number; type: string }> = {
  dispute_not_open: { status: 409, type: 'invalid_request_error' },
  file_type_not_allowed: { status: 400, type: 'invalid_request_error' },
  file_too_large: { status: 400, type: 'invalid_request_error' },
};

/** Recurring billing (docs/billing.md): acting on an ended subscription, an invoice not payable now, a clock advancing. */
export const billingCodes: Record<string, { status: number; type: string }> = {
  subscription_canceled: { status: 409, type: 'invalid_request_error' },
  invoice_not_payable: { status: 409, type: 'invalid_request_error' },
  test_clock_advancing: { status: 409, type: 'invalid_request_error' },
  billing_portal_session_expired: { status: 410, type: 'invalid_request_error' },
};

/** Receipts by email (docs/receipts.md). */
export const receiptCodes: Record<string, { status: number; type: string }> = {
  receipt_email_missing: { status: 400, type: 'invalid_request_error' },
  email_not_configured: { status: 409, type: 'invalid_request_error' },
  payment_not_succeeded: { status: 409, type: 'invalid_request_error' },
  email_not_sent: { status: 502, type: 'api_error' },
};
