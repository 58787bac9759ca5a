import { describe, expect, it } from 'vitest';
import { declineCodes, errorCatalogue, resourceMissing, TillpointError, type ErrorCode } from './errors';

/** DESIGN §8, copied by hand from the specification table (not imported from errors.ts). */
const design: Record<string, { status: number; type: string }> = {
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
  // DESIGN §8 gives "502/504" for the processor errors: a bad gateway when the processor answered
  // that it is unavailable, a gateway timeout when it did not answer at all.
  processor_unavailable: { status: 502, type: 'processor_error' },
  processor_timeout: { status: 504, type: 'processor_error' },
  internal_error: { status: 500, type: 'api_error' },
};

/**
 * Codes the dashboard adds where DESIGN §8 has none for a browser session (docs/dashboard.md):
 * kept in the types of §8 so clients handle them like their neighbours.
 */
const dashboardCodes: Record<string, { status: number; type: string }> = {
  not_signed_in: { status: 401, type: 'authentication_error' },
  sign_in_failed: { status: 401, type: 'authentication_error' },
  csrf_token_invalid: { status: 403, type: 'permission_error' },
};

const designDeclineCodes = [
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
];

describe('error catalogue (DESIGN §8)', () => {
  it('has exactly the codes DESIGN §8 lists, plus the dashboard session codes', () => {
    expect(Object.keys(errorCatalogue).sort()).toEqual([...Object.keys(design), ...Object.keys(dashboardCodes)].sort());
  });

  it.each(Object.entries({ ...design, ...dashboardCodes }))('%s → %o', (code, expected) => {
    expect(errorCatalogue[code as ErrorCode]).toEqual(expected);
  });

  it.each(Object.entries(design))('a TillpointError %s answers with the status and type of DESIGN §8', (code, expected) => {
    const error = new TillpointError(code as ErrorCode, 'message');
    expect(error.status).toBe(expected.status);
    expect(error.type).toBe(expected.type);
    expect(error.code).toBe(code);
  });

  it('the processor_timeout answer is a 504, distinct from processor_unavailable', () => {
    expect(errorCatalogue.processor_timeout.status).toBe(504);
    expect(errorCatalogue.processor_unavailable.status).toBe(502);
  });

  it('has exactly the decline codes DESIGN §8 lists', () => {
    expect([...declineCodes].sort()).toEqual([...designDeclineCodes].sort());
  });
});

describe('TillpointError', () => {
  it('is an Error carrying code, message, param and decline code', () => {
    const error = new TillpointError('card_declined', 'Your card was declined', {
      param: 'number',
      declineCode: 'insufficient_funds',
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('TillpointError');
    expect(error.message).toBe('Your card was declined');
    expect(error.param).toBe('number');
    expect(error.declineCode).toBe('insufficient_funds');
    expect(error.status).toBe(402);
    expect(error.type).toBe('card_error');
  });

  it('leaves param and decline code undefined when not given', () => {
    const error = new TillpointError('internal_error', 'boom');
    expect(error.param).toBeUndefined();
    expect(error.declineCode).toBeUndefined();
  });

  it('resourceMissing is a 404 naming the id param, for absent and foreign objects alike', () => {
    const error = resourceMissing('checkout session', 'cs_123');
    expect(error.code).toBe('resource_missing');
    expect(error.status).toBe(404);
    expect(error.param).toBe('id');
    expect(error.message).toBe("No such checkout session: 'cs_123'");
  });
});
