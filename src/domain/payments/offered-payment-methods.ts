import { paymentMethodTypes, type PaymentMethodType } from './payment-method-types';
import { TillpointError } from '../shared/errors';
import type { Deps } from '../deps';
import type { CheckoutSession } from '../sessions/entities';

/** The kill switches that can take a payment method away from every session of an account and mode. */
export interface PaymentMethodSwitches {
  cardEnabled: boolean;
  googlePayEnabled: boolean;
  /** Absent counts as on: a page or a caller that predates a method never switches it off. */
  applePayEnabled?: boolean;
  paypalEnabled?: boolean;
  venmoEnabled?: boolean;
}

const known: readonly string[] = paymentMethodTypes;

/** A method's kill switch flag: `card_enabled`, `google_pay_enabled`, `apple_pay_enabled`, `paypal_enabled`, `venmo_enabled`. */
export const switchFlag = (type: PaymentMethodType) => `${type}_enabled`;

/** A method's field of `PaymentMethodSwitches`: `google_pay` → `googlePayEnabled`. */
const switchField = (type: PaymentMethodType) => `${type.replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase())}Enabled` as keyof PaymentMethodSwitches;

/**
 * The one rule for which payment methods a session offers: those the merchant asked for in the
 * session (each checked when the session was made), minus those switched off. The checkout page and
 * the server both apply it.
 */
export function offeredPaymentMethods(types: readonly PaymentMethodType[], switches: PaymentMethodSwitches): PaymentMethodType[] {
  return types.filter((type) => switches[switchField(type)] !== false);
}

/**
 * Refuses a payment with a method that is switched off, so a kill switch holds even against a page
 * loaded before it was thrown. Read before any transaction opens: the flag source may be remote.
 */
export async function assertPaymentMethodEnabled(deps: Pick<Deps, 'flags'>, session: CheckoutSession, type: PaymentMethodType): Promise<void> {
  // Only the switch of the method paid with is asked: the others cannot make it offered.
  const enabled = known.includes(type) && (await deps.flags.booleanValue(session, switchFlag(type), true, session.id));
  if (!enabled || !session.paymentMethodTypes.includes(type)) {
    throw new TillpointError('parameter_invalid', 'This payment method is not offered for this session', {
      param: 'payment_method_type',
    });
  }
}
