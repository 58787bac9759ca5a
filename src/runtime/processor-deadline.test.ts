import { describe, expect, it } from 'vitest';
import type { AuthorizeRequest, AuthorizeResult, PaymentProcessor } from '../domain/processors/ports';
import { withAuthorizeDeadline } from './processor-deadline';

/** A gateway that answers after `ms` (or never). */
function gateway(ms: number | null): PaymentProcessor {
  return {
    name: 'slow',
    authorize: () =>
      new Promise<AuthorizeResult>((resolve) => {
        if (ms !== null) setTimeout(() => resolve({ outcome: 'unavailable', response: null }), ms);
      }),
    capture: async () => ({ outcome: 'unknown', reason: 'unused' }),
    void: async () => ({ outcome: 'unknown', reason: 'unused' }),
    refund: async () => ({ outcome: 'unknown', reason: 'unused' }),
    findByPaymentId: async () => ({ found: false }),
    acceptDispute: async () => ({ outcome: 'unknown', reason: 'unused' }),
    addDisputeEvidence: async () => ({ outcome: 'unknown', reason: 'unused' }),
    finalizeDispute: async () => ({ outcome: 'unknown', reason: 'unused' }),
    searchDisputes: async () => [],
    clientConfiguration: async () => ({ from: 'gateway' }),
  };
}

const request: AuthorizeRequest = { paymentId: 'pay_1', amount: 1000, currency: 'usd', capture: true, nonce: 'n', deviceData: null, email: null };

describe('the processor call deadline', () => {
  it('turns an authorization that does not answer in time into an unknown outcome', async () => {
    const started = Date.now();
    expect(await withAuthorizeDeadline(gateway(null), 200).authorize(request)).toEqual({ outcome: 'unknown', reason: 'no answer within 0.2 s' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('passes an answer within the deadline through, and leaves the other calls alone', async () => {
    const processor = withAuthorizeDeadline(gateway(10), 5000);
    expect(await processor.authorize(request)).toEqual({ outcome: 'unavailable', response: null });
    expect(processor.name).toBe('slow');
    expect(await processor.clientConfiguration()).toEqual({ from: 'gateway' });
  });
});
