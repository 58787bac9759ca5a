import type { Deps } from '../../deps';
import { TillpointError, resourceMissing } from '../../shared/errors';
import { isValidCustomerEmail } from '../../sessions/customer-email';
import { assertPaymentMethodEnabled } from '../offered-payment-methods';
import { isLocalPaymentMethod, type PaymentMethodType } from '../payment-method-types';
import { localMethodName, localMethodTakes, localPaymentCountry, localPaymentMethods } from '../local-payment-methods';
import { missingAddress } from '../../addresses/use-cases/set-checkout-addresses';
import { withSessionCustomer } from '../../customers/session-customer';
import { recordIntent, withCustomFieldAnswers } from './pay-checkout-session';
import type { PaidCheckout } from '../rules';

export interface StartLocalPaymentOptions {
  sessionId: string;
  paymentMethodType: PaymentMethodType;
  email: string;
  /**
   * With Braintree: the id braintree-web's `local-payment` got for the payment it is opening (its
   * `onPaymentStart` `paymentId`). The test processor opens its own, so none is given.
   */
  processorPaymentId?: string | null;
  /** Answers to the session's custom fields, by key (checked against the session's questions). */
  customFields?: Record<string, string | null>;
}

/** What the page needs to open the bank's window: the payment waiting for it, and the country it is made for. */
export interface StartedLocalPayment extends PaidCheckout {
  country: string;
}

/**
 * The shopper starts paying with a local payment method (iDEAL, Bancontact…): the payment is
 * recorded `processing`, naming the processor's local payment, with its `payment.processing` event.
 * It stays so until the processor reports the bank's confirmation (`recordLocalPaymentReport`), the
 * shopper cancels in the bank's window (`answerLocalPayment`), or it expires. Refused with nothing
 * recorded: a method the session does not offer (or switched off), a currency or a shopper's
 * country the method does not serve, a session that cannot be paid.
 */
export async function startLocalPayment(deps: Deps, options: StartLocalPaymentOptions): Promise<StartedLocalPayment> {
  const type = options.paymentMethodType;
  if (!isLocalPaymentMethod(type)) {
    throw new TillpointError('parameter_invalid', `${type} is not a local payment method: pay with POST /api/checkout/sessions/:id/payments`, {
      param: 'payment_method_type',
    });
  }
  const email = options.email.trim();
  if (!isValidCustomerEmail(email)) throw new TillpointError('parameter_invalid', 'Enter a valid email address', { param: 'email' });

  const target = await deps.store.read((reader) => reader.checkoutSessions.get(null, options.sessionId));
  if (!target) throw resourceMissing('checkout session', options.sessionId);
  const [enabled, forScope] = await Promise.allSettled([assertPaymentMethodEnabled(deps, target, type), deps.processors.forScope(target)]);
  if (enabled.status === 'rejected') throw enabled.reason;
  if (forScope.status === 'rejected') throw forScope.reason;
  const processor = forScope.value;
  const name = localMethodName(type)!;
  if (target.purpose !== 'payment' || !localMethodTakes(type, target.currency)) {
    throw new TillpointError('parameter_invalid', `${name} takes ${localPaymentMethods[type].currencies.join(' or ')} payments only`, {
      param: 'payment_method_type',
    });
  }
  const noAddress = target.status === 'open' ? missingAddress(target) : null;
  if (noAddress) throw noAddress;
  const country = localPaymentCountry(type, target.billingAddress?.country);
  if (!country) {
    throw new TillpointError('parameter_invalid', `${name} is for shoppers in ${localPaymentMethods[type].countries.join(', ')}`, {
      param: 'payment_method_type',
    });
  }

  // The processor's local payment: the page's (Braintree), or one the test processor opens now.
  let processorPaymentId = options.processorPaymentId ?? null;
  if (processor.beginTestLocalPayment) {
    if (processorPaymentId)
      throw new TillpointError('parameter_unknown', 'The test processor opens its own local payment: send no local_payment_id', { param: 'local_payment_id' });
  } else if (!processorPaymentId) {
    throw new TillpointError('parameter_missing', "Give the processor's local payment id (braintree-web's onPaymentStart paymentId)", {
      param: 'local_payment_id',
    });
  } else {
    const scope = { accountId: target.accountId, mode: target.mode };
    const known = processorPaymentId;
    if (await deps.store.read((reader) => reader.payments.findByProcessorPaymentId(scope, processor.name, known))) {
      throw new TillpointError('parameter_invalid', 'This local payment was started already', { param: 'local_payment_id' });
    }
  }

  const answered = await withCustomFieldAnswers(deps, target, options.customFields ?? {});
  const withCustomer = await withSessionCustomer(deps, answered, email, false);
  if (processor.beginTestLocalPayment) {
    processorPaymentId = (
      await processor.beginTestLocalPayment({
        scope: { accountId: target.accountId, mode: target.mode },
        paymentMethodType: type,
        amount: withCustomer.amountTotal,
        currency: withCustomer.currency,
      })
    ).processorPaymentId;
  }
  const started = await recordIntent(deps, {
    session: withCustomer,
    email,
    processor: processor.name,
    paymentMethodType: type,
    awaitingBank: { processorPaymentId: processorPaymentId! },
  });
  return { ...started, country };
}
