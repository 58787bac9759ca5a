import { resourceMissing, TillpointError } from '../errors';
import type { Deps, GooglePayTestPayment } from '../ports';

/**
 * Turns a Google Pay token from Google's test gateway (`gateway: "example"`) into a single-use
 * nonce. Only the test processor offers this, so only test mode accepts such tokens; with Braintree
 * the page gets a nonce from braintree-web's google-payment component instead.
 */
export async function tokenizeGooglePay(
  deps: Deps,
  options: { sessionId: string; payment: GooglePayTestPayment },
): Promise<{ nonce: string; brand: string | null; last4: string | null }> {
  const session = await deps.store.transaction((tx) => tx.checkoutSessions.get(null, options.sessionId));
  if (!session) throw resourceMissing('checkout session', options.sessionId);
  if (session.status === 'expired' || session.expiresAt <= deps.clock.now()) {
    throw new TillpointError('checkout_session_expired', 'This checkout session has expired');
  }
  if (session.status === 'complete') throw new TillpointError('checkout_session_completed', 'This checkout session is already paid');
  if (!session.paymentMethodTypes.includes('google_pay')) {
    throw new TillpointError('parameter_invalid', 'Google Pay is not offered for this session', { param: 'payment_method_type' });
  }
  const processor = await deps.processors.forScope(session);
  if (session.mode !== 'test' || !processor.tokenizeGooglePay) {
    throw new TillpointError('parameter_invalid', "Google Pay tokens are exchanged through the processor's own client here", {
      param: 'token',
    });
  }
  const result = await processor.tokenizeGooglePay(options.payment);
  if (!result.ok) throw new TillpointError('parameter_invalid', result.message, { param: result.param });
  return { nonce: result.nonce, brand: result.paymentMethod.brand, last4: result.paymentMethod.last4 };
}
