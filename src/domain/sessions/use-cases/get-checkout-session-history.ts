import type { Payment } from '../../payments/entities';
import type { DomainEvent } from '../../shared/events';
import type { Deps } from '../../deps';
import { getCheckoutSession } from './get-checkout-session';
import type { Scope } from '../../shared/scope';
import type { CheckoutSession } from '../entities';

/** A checkout session with its payment attempts (newest first) and its events (oldest first). */
export async function getCheckoutSessionHistory(
  deps: Deps,
  options: { scope: Scope; id: string },
): Promise<{ session: CheckoutSession; payments: Payment[]; events: DomainEvent[] }> {
  const session = await getCheckoutSession(deps, options);
  return deps.store.read(async (reader) => ({
    session,
    payments: await reader.payments.list(options.scope, { checkoutSessionId: session.id, limit: 100 }),
    events: await reader.events.listForObject(session.id),
  }));
}
