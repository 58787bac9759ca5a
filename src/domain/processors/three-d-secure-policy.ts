import type { PaymentMethodType } from '../payments/entities';

/** The `three_d_secure` flag's values: the kill switch for 3-D Secure. */
export const threeDSecureModes = ['off', 'when_required', 'always'] as const;
export type ThreeDSecureMode = (typeof threeDSecureModes)[number];

/** What a payment does about 3-D Secure. */
export interface ThreeDSecurePolicy {
  /** The page runs verifyCard before the first payment attempt. */
  verifyBeforePaying: boolean;
  /** The sale asks the processor to refuse a card that was not authenticated. */
  requireInSale: boolean;
  /** After a decline asking for authentication (2099, or a three_d_secure rejection) the page verifies and retries once. */
  verifyWhenIssuerAsks: boolean;
}

/** An unknown value (a flag set to something else) counts as the default, never as `off`. */
export function toThreeDSecureMode(value: string | null | undefined): ThreeDSecureMode {
  return (threeDSecureModes as readonly string[]).includes(value ?? '') ? (value as ThreeDSecureMode) : 'when_required';
}

/**
 * The one rule for 3-D Secure, applied by the checkout page and the server alike:
 * - `off`: never verify, never require it in the sale, no retry when the issuer asks;
 * - `when_required`: verify and require when the account's processor settings require it, and verify
 *   and retry once when the issuer asks;
 * - `always`: verify every card payment and require it in the sale.
 * Google Pay wallets carry their own authentication (a cryptogram, or the network's tokenization):
 * the page never verifies them, and the sale requires 3-D Secure only where the account requires it.
 *
 * @example threeDSecurePolicy({ mode: 'always', accountRequires: false, paymentMethodType: 'card' }).requireInSale // true
 */
export function threeDSecurePolicy(options: { mode: string; accountRequires: boolean; paymentMethodType: PaymentMethodType }): ThreeDSecurePolicy {
  const mode = toThreeDSecureMode(options.mode);
  if (mode === 'off') return { verifyBeforePaying: false, requireInSale: false, verifyWhenIssuerAsks: false };
  if (options.paymentMethodType !== 'card') {
    return { verifyBeforePaying: false, requireInSale: options.accountRequires, verifyWhenIssuerAsks: false };
  }
  const required = mode === 'always' || options.accountRequires;
  return { verifyBeforePaying: required, requireInSale: required, verifyWhenIssuerAsks: true };
}
