import type { PaymentMethodType } from './entities';
import { TillpointError } from '../shared/errors';
import type { Deps } from '../deps';
import type { CheckoutSession } from '../sessions/entities';

/** The kill switches that can take a payment method away from every session of an account and mode. */
export interface PaymentMethodSwitches {
  cardEnabled: boolean;
  googlePayEnabled: boolean;
}

/**
 * The one rule for which payment methods a session offers: those the merchant asked for in the
 * session, minus those switched off. The checkout page and the server both apply it.
 */
export function offeredPaymentMethods(types: readonly PaymentMethodType[], switches: PaymentMethodSwitches): PaymentMethodType[] {
  return types.filter((type) => (type === 'card' ? switches.cardEnabled : type === 'google_pay' ? switches.googlePayEnabled : false));
}

/**
 * Refuses a payment with a method that is switched off, so a kill switch holds even against a page
 * loaded before it was thrown. Read before any transaction opens: the flag source may be remote.
 */
export async function assertPaymentMethodEnabled(
  deps: Pick<Deps, 'flags'>,
  session: CheckoutSession,
  type: PaymentMethodType,
): Promise<void> {
  // Only the switch of the method paid with is asked: the other cannot make it offered.
  const asked = async (method: PaymentMethodType, key: string) =>
    method === type && (await deps.flags.booleanValue(session, key, true, session.id));
  const [cardEnabled, googlePayEnabled] = await Promise.all([asked('card', 'card_enabled'), asked('google_pay', 'google_pay_enabled')]);
  const switches: PaymentMethodSwitches = { cardEnabled, googlePayEnabled };
  if (!offeredPaymentMethods(session.paymentMethodTypes, switches).includes(type)) {
    throw new TillpointError('parameter_invalid', 'This payment method is not offered for this session', {
      param: 'payment_method_type',
    });
  }
}
