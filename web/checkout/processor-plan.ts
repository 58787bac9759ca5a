import type { PaymentMethodSwitches } from '../../src/domain/payments/offered-payment-methods';
import type { PublicSession } from './api';
import { offeredMethods, type OfferedMethods } from './payment-methods';

/** What the server puts in `session.processor` for a Braintree account. */
export interface BraintreeClientConfig {
  name: 'braintree';
  clientToken: string | null;
  threeDSecure?: { required: boolean };
  /** The session currency's merchant account (braintree-web's local-payment names it); absent: the default one. */
  merchantAccountId?: string | null;
}

/** What the page offers, decided from the session and the flags alone: the same on the server and in the browser. */
export interface ProcessorPlan extends Omit<OfferedMethods, 'card'> {
  /** Which card engine the form uses; null when cards are not offered. */
  card: 'builtin' | 'hosted-fields' | null;
  /** The processor cannot take payments right now (no client token). */
  unavailable: boolean;
}

/**
 * Its own module, with no processor code behind it: the page's first script (main.tsx) reads it
 * to decide whether to start Braintree Hosted Fields before React, and the server to choose the
 * page's scripts (src/http/checkout-page).
 */
export function processorPlan(session: PublicSession, switches: PaymentMethodSwitches): ProcessorPlan {
  const { card, ...wallets } = offeredMethods(session, switches);
  if (session.processor.name !== 'braintree') return { ...wallets, card: card ? 'builtin' : null, unavailable: false };
  const config = session.processor as unknown as BraintreeClientConfig;
  if (!config.clientToken) return { card: null, googlePay: null, applePay: false, paypal: false, venmo: false, unavailable: true };
  return { ...wallets, card: card ? 'hosted-fields' : null, unavailable: false };
}
