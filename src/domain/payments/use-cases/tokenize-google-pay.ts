import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { GooglePayTestPayment } from '../../processors/ports';
import { openSessionForPayment } from '../rules';

/**
 * Turns a Google Pay token from Google's test gateway (`gateway: "example"`) into a single-use
 * nonce. Only the test processor offers this, so only test mode accepts such tokens; with Braintree
 * the page gets a nonce from braintree-web's google-payment component instead.
 */
export async function tokenizeGooglePay(
  deps: Deps,
  options: { sessionId: string; payment: GooglePayTestPayment },
): Promise<{ nonce: string; brand: string | null; last4: string | null }> {
  const session = await openSessionForPayment(deps, options.sessionId);
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
