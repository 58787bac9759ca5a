import type { Payment } from '../entities';
import { resourceMissing } from '../errors';
import type { DomainEvent } from '../events';
import type { Deps, Scope } from '../ports';

/** A payment with every event recorded about it, oldest first: what the detail page shows. */
export async function getPaymentTimeline(
  deps: Deps,
  options: { scope: Scope; id: string },
): Promise<{ payment: Payment; events: DomainEvent[] }> {
  const found = await deps.store.transaction(async (tx) => {
    const payment = await tx.payments.get(options.scope, options.id);
    return payment && { payment, events: await tx.events.listForObject(payment.id) };
  });
  if (!found) throw resourceMissing('payment', options.id);
  return found;
}
