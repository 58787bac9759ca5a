import type { Payment, Refund } from '../entities';
import { resourceMissing } from '../../shared/errors';
import type { DomainEvent } from '../../shared/events';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';

/** A payment has at most this many refunds on its detail page; more is not a real merchant's case. */
const REFUNDS_SHOWN = 100;

/**
 * A payment with its refunds and every event recorded about it or its refunds, oldest first: what
 * the detail page shows.
 */
export async function getPaymentTimeline(
  deps: Deps,
  options: { scope: Scope; id: string },
): Promise<{ payment: Payment; refunds: Refund[]; events: DomainEvent[] }> {
  const found = await deps.store.transaction(async (tx) => {
    const payment = await tx.payments.get(options.scope, options.id);
    if (!payment) return null;
    const refunds = await tx.refunds.list(options.scope, { paymentId: payment.id, limit: REFUNDS_SHOWN });
    const events = [...(await tx.events.listForObject(payment.id))];
    for (const refund of refunds) events.push(...(await tx.events.listForObject(refund.id)));
    events.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
    return { payment, refunds, events };
  });
  if (!found) throw resourceMissing('payment', options.id);
  return found;
}
