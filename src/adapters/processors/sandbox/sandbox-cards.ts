import type { PaymentMethodType } from '../../../domain/payments/entities';
import type { SandboxCardBehavior, SandboxNonceThreeDSecure, SandboxThreeDSecureScenario } from '../../../domain/processors/sandbox-ports';

/**
 * The 3-D Secure test cards: Braintree's sandbox numbers for each scenario (Visa). Charged without
 * verification they behave as any test card (the amount decides); verified, they authenticate as
 * their scenario says.
 */
export const threeDSecureCards: ReadonlyMap<string, SandboxThreeDSecureScenario> = new Map([
  ['4000000000002701', 'frictionless'],
  ['4000000000002503', 'challenge'],
  ['4000000000002925', 'failed'],
  ['4000000000002313', 'unavailable'],
]);

/** What verifying a card of each scenario answers; `challenge` waits for the shopper's answer. */
export const threeDSecureResults = {
  frictionless: { status: 'authenticate_successful', liabilityShifted: true, liabilityShiftPossible: true },
  challenge: { status: 'challenge_required', liabilityShifted: false, liabilityShiftPossible: true },
  challengePassed: { status: 'authenticate_successful', liabilityShifted: true, liabilityShiftPossible: true },
  challengeFailed: { status: 'authenticate_failed', liabilityShifted: false, liabilityShiftPossible: true },
  failed: { status: 'authenticate_frictionless_failed', liabilityShifted: false, liabilityShiftPossible: true },
  unavailable: { status: 'authenticate_unable_to_authenticate', liabilityShifted: false, liabilityShiftPossible: false },
  notEnrolled: { status: 'lookup_not_enrolled', liabilityShifted: false, liabilityShiftPossible: false },
} as const;

/** The CVCs that do not match a saved card typed again (Braintree's sandbox CVV 200, 2000 on an Amex: "N"). */
export const SANDBOX_CVC_MISMATCH: readonly string[] = ['200', '2000'];

/**
 * The card numbers the built-in test processor accepts: the Braintree sandbox's documented test
 * cards. Any other number, however valid, is refused with `test_mode_live_card`.
 */
export const testCards: ReadonlyMap<string, SandboxCardBehavior> = new Map([
  // Visa
  ['4111111111111111', 'amount'],
  ['4005519200000004', 'amount'],
  ['4009348888881881', 'amount'],
  ['4012000033330026', 'amount'],
  ['4012000077777777', 'amount'],
  ['4012888888881881', 'amount'],
  ['4217651111111119', 'amount'],
  ['4500600000000061', 'amount'],
  ['4000111111111115', 'decline'],
  // Saved to a customer as usual; every charge of it is declined (a subscription's renewals, docs/test-processor.md).
  ['4000000000000341', 'decline_after_save'],
  // Charged as usual, then disputed some seconds after capture (docs/test-processor.md).
  ['4023898493988028', 'dispute'],
  ...[...threeDSecureCards.keys()].map((number) => [number, 'amount'] as const),
  // Mastercard
  ['5555555555554444', 'amount'],
  ['2223000048400011', 'amount'],
  ['5105105105105100', 'decline'],
  // American Express
  ['378282246310005', 'amount'],
  ['371449635398431', 'amount'],
  ['378734493671000', 'decline'],
  // Discover
  ['6011111111111117', 'amount'],
  ['6011000990139424', 'decline'],
  // JCB
  ['3530111333300000', 'amount'],
  ['3566002020360505', 'processor_failure'],
  // Diners Club
  ['36259600000004', 'amount'],
  ['38520000023237', 'amount'],
  // Maestro, UnionPay
  ['6304000000000000', 'amount'],
  ['6243030000000001', 'amount'],
]);

export interface FakeNonce {
  brand: string | null;
  last4: string | null;
  behavior: SandboxCardBehavior | 'invalid';
  /** A wallet's nonce pays only as that wallet; card when absent. */
  type?: PaymentMethodType;
  payerEmail?: string;
  username?: string;
  /** A nonce that has been through 3-D Secure already, with its result. */
  threeDSecure?: SandboxNonceThreeDSecure;
  /** A local payment's nonce: it pays as the local payment method paid with (iDEAL, Bancontact…), and only as one. */
  local?: true;
}

/** Braintree's fake nonce of a completed local payment: what the test processor's completions carry. */
export const FAKE_LOCAL_PAYMENT_NONCE = 'fake-local-payment-method-nonce';

/** Braintree's fake nonces: a payment method without typing a card, as in its sandbox. */
export const fakeNonces: ReadonlyMap<string, FakeNonce> = new Map<string, FakeNonce>([
  // Wallets: what each reveals (card brand and last4 for Apple Pay, payer email, username).
  ['fake-apple-pay-visa-nonce', { type: 'apple_pay', brand: 'visa', last4: '1881', behavior: 'amount' }],
  ['fake-apple-pay-mastercard-nonce', { type: 'apple_pay', brand: 'mastercard', last4: '4444', behavior: 'amount' }],
  ['fake-paypal-one-time-nonce', { type: 'paypal', brand: null, last4: null, payerEmail: 'payer@example.com', behavior: 'amount' }],
  ['fake-venmo-account-nonce', { type: 'venmo', brand: null, last4: null, username: 'venmojoe', behavior: 'amount' }],
  // A local payment method's (iDEAL, Bancontact…): what the bank's completion hands the sale.
  [FAKE_LOCAL_PAYMENT_NONCE, { brand: null, last4: null, behavior: 'amount', local: true }],
  // 3-D Secure already run: the verification's result travels with the nonce.
  [
    'fake-three-d-secure-visa-full-authentication-nonce',
    { brand: 'visa', last4: '0002', behavior: 'amount', threeDSecure: { result: threeDSecureResults.frictionless } },
  ],
  [
    'fake-three-d-secure-two-visa-successful-frictionless-authentication-nonce',
    { brand: 'visa', last4: '2701', behavior: 'amount', threeDSecure: { result: threeDSecureResults.frictionless } },
  ],
  [
    'fake-three-d-secure-two-visa-successful-step-up-authentication-nonce',
    { brand: 'visa', last4: '2503', behavior: 'amount', threeDSecure: { result: threeDSecureResults.challengePassed } },
  ],
  [
    'fake-three-d-secure-visa-failed-authentication-nonce',
    { brand: 'visa', last4: '0002', behavior: 'amount', threeDSecure: { result: threeDSecureResults.challengeFailed } },
  ],
  [
    'fake-three-d-secure-visa-authentication-unavailable-nonce',
    { brand: 'visa', last4: '0002', behavior: 'amount', threeDSecure: { result: threeDSecureResults.unavailable } },
  ],
  ['fake-valid-nonce', { brand: 'visa', last4: '1881', behavior: 'amount' }],
  ['fake-valid-visa-nonce', { brand: 'visa', last4: '1881', behavior: 'amount' }],
  ['fake-valid-mastercard-nonce', { brand: 'mastercard', last4: '4444', behavior: 'amount' }],
  ['fake-valid-amex-nonce', { brand: 'amex', last4: '0005', behavior: 'amount' }],
  ['fake-valid-discover-nonce', { brand: 'discover', last4: '1117', behavior: 'amount' }],
  ['fake-valid-jcb-nonce', { brand: 'jcb', last4: '0000', behavior: 'amount' }],
  ['fake-processor-declined-visa-nonce', { brand: 'visa', last4: '1115', behavior: 'decline' }],
  ['fake-processor-declined-mastercard-nonce', { brand: 'mastercard', last4: '5100', behavior: 'decline' }],
  ['fake-processor-failure-jcb-nonce', { brand: 'jcb', last4: '0505', behavior: 'processor_failure' }],
  ['fake-consumed-nonce', { brand: null, last4: null, behavior: 'invalid' }],
  ['fake-luhn-invalid-nonce', { brand: null, last4: null, behavior: 'invalid' }],
]);
