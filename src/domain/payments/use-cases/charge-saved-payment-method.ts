import { auditWrite } from '../../team/audit';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import { TillpointError } from '../../shared/errors';
import { currencyRule } from '../../shared/currency';
import { assertPayableTotal } from '../../sessions/rules';
import type { CaptureMethod, Payment } from '../entities';
import { merchantInitiatedAuthorization, merchantInitiatedPayment, recordChargeOutcome, recordSettlementPending } from '../rules';

export interface ChargeSavedPaymentMethodOptions {
  scope: Scope;
  actor: Actor | null;
  /** The customer (`cus_…`) the saved method belongs to. */
  customerId: string;
  /** The saved payment method (`pm_…`) to charge. */
  paymentMethodId: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  captureMethod?: CaptureMethod;
}

/**
 * The merchant charges a customer's saved card (or debits a saved bank account: `processing` until it settles) from its server, with no shopper present
 * (a merchant-initiated transaction; docs/customers.md). The payment belongs to no checkout session
 * and otherwise lives like any other: `processing` until the processor answers, the same events,
 * capture, refunds and reconciliation.
 *
 * 1. Check everything before writing: the currency and amount, the customer, the method (the
 *    customer's, kept by the scope's processor). A refusal changes nothing.
 * 2. Record the intent (`processing`) with its audit line; ask the processor holding no transaction.
 * 3. Record the outcome; a decline fails the payment and answers `card_declined`, an unknown outcome
 *    answers `processor_timeout` and leaves the payment to reconciliation.
 *
 * @example chargeSavedPaymentMethod(deps, { scope, actor, customerId: 'cus_…', paymentMethodId: 'pm_…', amount: 1500, currency: 'usd' })
 */
export async function chargeSavedPaymentMethod(deps: Deps, options: ChargeSavedPaymentMethodOptions): Promise<Payment> {
  const rule = currencyRule(options.currency);
  if (!rule) throw new TillpointError('currency_not_supported', `Currency '${options.currency}' is not supported`, { param: 'currency' });
  if (!Number.isSafeInteger(options.amount)) {
    throw new TillpointError('parameter_invalid', `amount must be an integer (in the currency's minor unit)`, { param: 'amount' });
  }
  assertPayableTotal(options.amount, rule.code, 'amount');

  const { scope } = options;
  const [customer, method] = await deps.store.read((reader) =>
    Promise.all([reader.customers.get(scope, options.customerId), reader.savedPaymentMethods.get(scope, options.paymentMethodId)]),
  );
  if (!customer) throw new TillpointError('resource_missing', `No such customer: '${options.customerId}'`, { param: 'customer' });
  // Another customer's method reads as absent, as on the checkout page.
  if (!method || method.customerId !== customer.id)
    throw new TillpointError('resource_missing', `No such payment method: '${options.paymentMethodId}'`, { param: 'payment_method' });
  const processor = await deps.processors.forScope(scope);
  if (method.processor !== processor.name) {
    throw new TillpointError('parameter_invalid', `This payment method is kept by the ${method.processor} processor, which this account no longer uses`, {
      param: 'payment_method',
    });
  }

  const now = deps.clock.now();
  const payment = merchantInitiatedPayment({
    scope,
    customer,
    processor: processor.name,
    amount: options.amount,
    currency: rule.code,
    captureMethod: options.captureMethod,
    now,
  });
  await deps.store.transaction(async (tx) => {
    await tx.payments.insert(payment);
    await auditWrite(tx, { scope, actor: options.actor, action: 'payment.create', target: payment.id, at: now });
  });

  const result = await processor.authorize(merchantInitiatedAuthorization(payment, method.processorToken, { paymentMethodType: method.type }));
  if (result.outcome === 'unknown') {
    throw new TillpointError('processor_timeout', 'The processor did not answer in time; the payment stays processing until its outcome is known');
  }
  // A bank debit waits for its settlement, `processing`.
  if (result.outcome === 'pending') return recordSettlementPending(deps, { payment, result });
  const recorded = await recordChargeOutcome(deps, { payment, result });
  if (recorded.error) throw recorded.error;
  return recorded.payment;
}
