import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { RawBankAccount, RawCard } from '../../processors/ports';
import { openSessionForPayment } from '../rules';

/**
 * Turns card details typed on the checkout page into a single-use nonce, for processors that take
 * card data on our side (the built-in test processor). The card number and CVC live only in this
 * call's memory.
 */
export async function tokenizeCard(
  deps: Deps,
  options: { sessionId: string; card: RawCard },
): Promise<{ nonce: string; brand: string | null; last4: string | null }> {
  const session = await openSessionForPayment(deps, options.sessionId);
  const processor = await deps.processors.forScope(session);
  if (!processor.tokenizeCard) {
    throw new TillpointError('parameter_invalid', 'This processor tokenizes cards in the browser', {
      param: 'card',
    });
  }
  const result = await processor.tokenizeCard(options.card);
  if (!result.ok) {
    if (result.declineCode === 'test_mode_live_card') {
      throw new TillpointError('card_declined', result.message, { declineCode: result.declineCode, param: result.param });
    }
    throw new TillpointError('parameter_invalid', result.message, { param: result.param });
  }
  return { nonce: result.nonce, brand: result.paymentMethod.brand, last4: result.paymentMethod.last4 };
}

/**
 * A saved card's CVC typed again → a CVC-only nonce, for processors that take card data on our
 * side (the test processor; Braintree's Hosted Fields make it in the browser). The card must be
 * the session's customer's; the CVC lives only in this call's memory.
 */
export async function tokenizeSavedCardCvc(deps: Deps, options: { sessionId: string; paymentMethodId: string; cvc: string }): Promise<{ nonce: string }> {
  const session = await openSessionForPayment(deps, options.sessionId);
  const processor = await deps.processors.forScope(session);
  if (!processor.tokenizeCvc) {
    throw new TillpointError('parameter_invalid', 'This processor tokenizes the CVC in the browser', { param: 'cvc' });
  }
  const scope = { accountId: session.accountId, mode: session.mode };
  const method = session.customerId ? await deps.store.read((reader) => reader.savedPaymentMethods.get(scope, options.paymentMethodId)) : null;
  if (!method || method.customerId !== session.customerId || method.processor !== processor.name) {
    throw new TillpointError('resource_missing', `No such payment method: '${options.paymentMethodId}'`, { param: 'payment_method' });
  }
  const result = await processor.tokenizeCvc({ cvc: options.cvc, brand: method.brand });
  if (!result.ok) throw new TillpointError('parameter_invalid', result.message, { param: result.param });
  return { nonce: result.nonce };
}

/**
 * A US bank account typed on the checkout page, with the mandate the shopper accepted → a
 * single-use nonce, for processors that take bank details on our side (the test processor;
 * braintree-web's `us-bank-account` tokenizes at Braintree). The account number lives only in this
 * call's memory; the answer names its last 4 digits.
 */
export async function tokenizeBankAccount(
  deps: Deps,
  options: { sessionId: string; account: RawBankAccount },
): Promise<{ nonce: string; last4: string | null; bank_name: string | null }> {
  const session = await openSessionForPayment(deps, options.sessionId);
  if (!session.paymentMethodTypes.includes('us_bank_account')) {
    throw new TillpointError('parameter_invalid', 'This session does not take US bank accounts', { param: 'payment_method_type' });
  }
  const processor = await deps.processors.forScope(session);
  if (!processor.tokenizeBankAccount) {
    throw new TillpointError('parameter_invalid', 'This processor tokenizes bank accounts in the browser', { param: 'account_number' });
  }
  const result = await processor.tokenizeBankAccount(options.account);
  if (!result.ok) throw new TillpointError('parameter_invalid', result.message, { param: result.param });
  return { nonce: result.nonce, last4: result.paymentMethod.last4, bank_name: result.paymentMethod.usBankAccount?.bankName ?? null };
}
