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
}

/**
 * Which payment methods this page offers: what the session allows, narrowed to what its processor
 * can take. The one place this is decided (a kill-switch filters here too).
 */
export function offeredMethods(session: PublicSession): OfferedMethods {
  const processor = session.processor as PublicSession['processor'] & { googlePay?: GooglePaySetup | null };
  return {
    card: session.payment_method_types.includes('card'),
    googlePay: session.payment_method_types.includes('google_pay') && processor.googlePay ? processor.googlePay : null,
  };
}
