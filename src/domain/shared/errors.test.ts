import { describe, expect, it } from 'vitest';
import {
  apiKeyCodes,
  availabilityCodes,
  billingCodes,
  dashboardCodes,
  design,
  disputeCodes,
  receiptCodes,
  requestCodes,
} from '../../../test/support/expected-errors';
import { declineCodes, errorCatalogue, resourceMissing, TillpointError, type ErrorCode } from './errors';

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

describe('error catalogue (design.md §8)', () => {
  it('has exactly the codes design.md §8 lists, plus the dashboard session codes, request_too_large, database_unavailable, the dispute and the billing codes', () => {
    expect(Object.keys(errorCatalogue).sort()).toEqual(
      [
        ...Object.keys(design),
        ...Object.keys(dashboardCodes),
        ...Object.keys(requestCodes),
        ...Object.keys(availabilityCodes),
        ...Object.keys(disputeCodes),
        ...Object.keys(receiptCodes),
        ...Object.keys(apiKeyCodes),
        ...Object.keys(billingCodes),
      ].sort(),
    );
  });

  it.each(
    Object.entries({ ...design, ...dashboardCodes, ...requestCodes, ...availabilityCodes, ...disputeCodes, ...receiptCodes, ...apiKeyCodes, ...billingCodes }),
  )('%s → %o', (code, expected) => {
    expect(errorCatalogue[code as ErrorCode]).toEqual(expected);
  });

  it.each(Object.entries(design))('a TillpointError %s answers with the status and type of design.md §8', (code, expected) => {
    const error = new TillpointError(code as ErrorCode, 'message');
    expect(error.status).toBe(expected.status);
    expect(error.type).toBe(expected.type);
    expect(error.code).toBe(code);
  });

  it('the processor_timeout answer is a 504, distinct from processor_unavailable', () => {
    expect(errorCatalogue.processor_timeout.status).toBe(504);
    expect(errorCatalogue.processor_unavailable.status).toBe(502);
  });

  it('has exactly the decline codes design.md §8 lists', () => {
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
