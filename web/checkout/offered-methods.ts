import { offeredPaymentMethods } from '../../src/domain/offered-payment-methods';
import type { PublicSession } from './api';
import type { CheckoutFlags } from './flags';

export type OfferedMethod = PublicSession['payment_method_types'][number];

/**
 * The payment methods this page offers: those the session asks for, minus those a kill switch has
 * turned off. The card form and the Google Pay button each render only when this lists them; the
 * server applies the same rule to every payment.
 */
export function offeredMethods(session: Pick<PublicSession, 'payment_method_types'>, flags: Pick<CheckoutFlags, 'cardEnabled' | 'googlePayEnabled'>): OfferedMethod[] {
  return offeredPaymentMethods(session.payment_method_types, { cardEnabled: flags.cardEnabled, googlePayEnabled: flags.googlePayEnabled });
}
