import { offeredPaymentMethods, type PaymentMethodSwitches } from '../../src/domain/payments/offered-payment-methods';
import { isLocalPaymentMethod } from '../../src/domain/payments/payment-method-types';
import type { PublicSession } from './api';

/** Google Pay as the server configured it: Braintree's environment, or Google's test gateway. */
export interface GooglePaySetup {
  environment: 'TEST' | 'PRODUCTION';
  /** Google's merchant id (production); absent in TEST. */
  merchantId?: string | null;
  /** Test processor only: Google's documented test gateway. */
  gateway?: 'example';
  gatewayMerchantId?: string;
}

export interface OfferedMethods {
  card: boolean;
  googlePay: GooglePaySetup | null;
  /** The Apple Pay button may show (where the browser can pay with Apple Pay). */
  applePay: boolean;
  /** The PayPal and Venmo buttons may show (Venmo: where braintree-web says the browser can switch to its app). */
  paypal: boolean;
  venmo: boolean;
  /** The buttons of the session's local payment methods (iDEAL, Bancontact…), paid at the bank, may show (absent: none). */
  banks?: boolean;
  /** The ACH bank debit form (`us_bank_account`), loaded on demand, may show (absent: not offered). */
  bankDebit?: boolean;
}

/**
 * Which payment methods this page offers: what the session allows, minus what a kill switch has
 * turned off (the same rule the server applies to every payment), narrowed to what its processor
 * can take. The card form and each wallet button render only when this offers them.
 */
export function offeredMethods(session: Pick<PublicSession, 'payment_method_types' | 'processor'>, switches: PaymentMethodSwitches): OfferedMethods {
  const allowed = offeredPaymentMethods(session.payment_method_types, switches);
  const processor = session.processor as PublicSession['processor'] & { googlePay?: GooglePaySetup | null };
  return {
    card: allowed.includes('card'),
    googlePay: allowed.includes('google_pay') && processor.googlePay ? processor.googlePay : null,
    applePay: allowed.includes('apple_pay'),
    paypal: allowed.includes('paypal'),
    venmo: allowed.includes('venmo'),
    banks: allowed.some(isLocalPaymentMethod),
    bankDebit: allowed.includes('us_bank_account'),
  };
}
