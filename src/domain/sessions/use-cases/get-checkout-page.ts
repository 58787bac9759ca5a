import type { Payment } from '../../payments/entities';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Account } from '../../team/entities';
import type { CheckoutSession } from '../entities';
import type { SavedPaymentMethod } from '../../customers/entities';
import { sessionAsOfNow } from '../rules';
import type { PaymentProcessor } from '../../processors/ports';

export interface CheckoutPage {
  session: CheckoutSession;
  account: Account;
  /** The payment that holds the session: under way, or the one that paid it. */
  payment: Payment | null;
  processor: { name: string; client: Record<string, unknown> };
  /** The session's customer's saved cards at the session's processor, offered for one tap while it is open. */
  savedPaymentMethods: SavedPaymentMethod[];
  /** A saved card asks for its CVC again: the session says so, or the processor requires it. */
  savedCardCvcRequired: boolean;
}

/**
 * Everything the shopper's page shows, read with only the session id as credential. The reads take
 * no lock (a session being paid, or held by anyone else, still shows at once); only a session whose
 * time is up is read again under its lock and expired (`sessionAsOfNow`).
 */
export async function getCheckoutPage(deps: Deps, options: { sessionId: string }): Promise<CheckoutPage> {
  const found = await deps.store.read((reader) => reader.checkoutSessions.get(null, options.sessionId));
  if (!found) throw resourceMissing('checkout session', options.sessionId);
  const session = await sessionAsOfNow(deps, found, null);
  const read = await deps.store.read(async (reader) => {
    const account = await reader.accounts.get(session.accountId);
    const payment = await reader.payments.holdingSession(session.id);
    // A setup session saves a new card: it offers none of the saved ones.
    const saved =
      session.customerId && session.status === 'open' && session.purpose === 'payment' && session.paymentMethodTypes.includes('card')
        ? await reader.savedPaymentMethods.listForCustomer(session, session.customerId)
        : [];
    return account && { session, account, payment, saved };
  });
  if (!read) throw resourceMissing('checkout session', options.sessionId);
  const processor = await deps.processors.forScope(read.session);
  const { saved, ...rest } = read;
  // The page pays a saved card in one tap; a saved bank account is debited from the server only (a subscription's renewal, an invoice).
  const savedPaymentMethods = saved.filter((method) => method.processor === processor.name && method.type === 'card');
  // With saved cards to offer, the processor's client side is scoped to their customer.
  const customerId = savedPaymentMethods.length > 0 ? read.session.customerId : null;
  return {
    ...rest,
    processor: { name: processor.name, client: await processor.clientConfiguration({ currency: read.session.currency, customerId }) },
    savedPaymentMethods,
    savedCardCvcRequired: savedCardCvcRequired(read.session, processor),
  };
}

/** The one rule for asking a saved card's CVC again, for the page and the payment alike. */
export function savedCardCvcRequired(session: CheckoutSession, processor: Pick<PaymentProcessor, 'requiresCvcForSavedCards'>): boolean {
  return session.requireCvcRecollection || processor.requiresCvcForSavedCards === true;
}
