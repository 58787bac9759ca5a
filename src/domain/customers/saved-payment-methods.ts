import type { PaymentMethodDetails } from '../payments/entities';
import type { PaymentProcessor } from '../processors/ports';
import { paymentMethodSnapshot } from '../shared/event-payloads';
import { newEvent, type DomainEvent } from '../shared/events';
import { newId } from '../shared/ids';
import type { Customer, SavedPaymentMethod } from './entities';

/**
 * A card, or a US bank account (`card.type` 'us_bank_account', with its account as far as it may be
 * shown), the processor saved for `customer` under `token`.
 */
export function newSavedPaymentMethod(
  customer: Pick<Customer, 'id' | 'accountId' | 'mode'>,
  processor: string,
  token: string,
  card: PaymentMethodDetails,
  now: Date,
): SavedPaymentMethod {
  return {
    id: newId('pm'),
    accountId: customer.accountId,
    mode: customer.mode,
    customerId: customer.id,
    type: card.type === 'us_bank_account' ? 'us_bank_account' : 'card',
    brand: card.brand,
    last4: card.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
    fingerprint: card.fingerprint,
    usBankAccount: card.type === 'us_bank_account' ? (card.usBankAccount ?? null) : null,
    processor,
    processorToken: token,
    createdAt: now,
  };
}

/** `payment_method.attached` or `payment_method.detached`, with the method's snapshot. */
export function paymentMethodEvent(method: SavedPaymentMethod, type: 'payment_method.attached' | 'payment_method.detached', at: Date): DomainEvent {
  return newEvent(method, type, paymentMethodSnapshot(method), at);
}

/**
 * Removes a saved card at the processor that keeps it. A method kept by another processor than the
 * account's current one (the merchant switched) cannot be reached from here: it is only forgotten.
 * Throws (nothing is forgotten) when the processor cannot be reached.
 */
export async function removeAtProcessor(processor: PaymentProcessor, method: SavedPaymentMethod): Promise<void> {
  if (processor.name !== method.processor || !processor.deletePaymentMethod) return;
  await processor.deletePaymentMethod({ token: method.processorToken });
}
