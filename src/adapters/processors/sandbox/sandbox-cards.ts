import type { SandboxCardBehavior } from '../../../domain/processors/sandbox-ports';

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
  // Charged as usual, then disputed some seconds after capture (docs/test-processor.md).
  ['4023898493988028', 'dispute'],
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

/** Braintree's fake nonces: a payment method without typing a card, as in its sandbox. */
export const fakeNonces: ReadonlyMap<
  string,
  { brand: string | null; last4: string | null; behavior: SandboxCardBehavior | 'invalid' }
> = new Map([
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
