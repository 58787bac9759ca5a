import type { Deps } from '../../deps';
import type { SavedPaymentMethod } from '../../customers/entities';
import { newSavedPaymentMethod, paymentMethodEvent } from '../../customers/saved-payment-methods';
import { withSessionCustomer } from '../../customers/session-customer';
import type { PaymentProcessor, SavePaymentMethodResult } from '../../processors/ports';
import { TillpointError } from '../../shared/errors';
import { refusalToPay } from '../../payments/rules';
import { transitionCheckoutSession } from '../../payments/transition';
import type { CheckoutSession } from '../entities';
import { sessionAsOfNow } from '../rules';

export interface SetUpCheckoutSessionOptions {
  session: CheckoutSession;
  processor: PaymentProcessor;
  /** The card's single-use nonce (braintree-web, or the test processor's tokenizer). */
  nonce: string;
  email: string;
  deviceData: string | null;
}

/** A completed setup session and the card it saved. */
export interface SetUpCheckout {
  session: CheckoutSession;
  paymentMethod: SavedPaymentMethod;
}

/**
 * The shopper saves a card on a `setup` session, without being charged (docs/customers.md):
 *
 * 1. The session's customer (made of the shopper, by their email, when it has none).
 * 2. The processor vaults the card, verifying it (Braintree: `paymentMethod.create` with
 *    `verifyCard`; the test processor: its vault), holding no transaction. A refused card answers
 *    as a declined payment would (402 `card_declined`) and changes nothing but the customer.
 * 3. In one transaction: the saved method with `payment_method.attached`, and the session completed
 *    with its `setup_intent` and `checkout.session.completed`. A session completed or expired
 *    meanwhile keeps nothing: the card just vaulted is removed at the processor.
 */
export async function setUpCheckoutSession(deps: Deps, options: SetUpCheckoutSessionOptions): Promise<SetUpCheckout> {
  const { processor } = options;
  if (!processor.savePaymentMethod) {
    throw new TillpointError('processor_unavailable', 'This processor cannot save cards');
  }
  let session = await sessionAsOfNow(deps, options.session, null);
  const refused = refusalToPay(session);
  if (refused) throw refused;
  session = await withSessionCustomer(deps, session, options.email, true);
  const customerId = session.customerId!;

  const kept = await processor.savePaymentMethod({
    customerId,
    email: options.email,
    nonce: options.nonce,
    deviceData: options.deviceData,
    currency: session.currency,
  });
  if (kept.outcome !== 'saved') throw vaultError(kept);

  const now = deps.clock.now();
  const method = newSavedPaymentMethod(
    { id: customerId, accountId: session.accountId, mode: session.mode },
    processor.name,
    kept.token,
    kept.paymentMethod,
    now,
  );
  const completed = await deps.store.transaction(async (tx) => {
    const current = await tx.checkoutSessions.get(null, session.id, { forUpdate: true });
    if (current?.status !== 'open' || current.expiresAt <= now) return null;
    await tx.savedPaymentMethods.insert(method);
    await tx.events.insert(paymentMethodEvent(method, 'payment_method.attached', now));
    return transitionCheckoutSession(
      tx,
      current,
      'complete',
      { completedAt: now, setupPaymentMethodId: method.id, customerEmail: current.customerEmail ?? options.email },
      now,
      deps.publicUrl,
    );
  });
  if (!completed) {
    // Best effort: the refusal is what the shopper is told either way.
    await processor.deletePaymentMethod?.({ token: kept.token }).catch(() => undefined);
    const current = await deps.store.read((reader) => reader.checkoutSessions.get(null, session.id));
    const moved = current ?? session;
    throw refusalToPay(moved, moved.status === 'open') ?? new TillpointError('checkout_session_completed', 'This checkout session is already complete');
  }
  return { session: completed, paymentMethod: method };
}

/** The error a refused vaulting answers: the same as a refused charge's. */
function vaultError(kept: Exclude<SavePaymentMethodResult, { outcome: 'saved' }>): TillpointError {
  if (kept.outcome === 'declined') {
    return new TillpointError('card_declined', `Your card was declined (${kept.declineCode})`, { declineCode: kept.declineCode });
  }
  if (kept.outcome === 'invalid_payment_method') return new TillpointError('parameter_invalid', kept.message, { param: 'nonce' });
  return new TillpointError('processor_unavailable', 'The payment processor is unavailable; try again shortly');
}
