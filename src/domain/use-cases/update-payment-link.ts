import type { PaymentLink } from '../entities';
import { resourceMissing } from '../errors';
import type { Deps, Scope } from '../ports';

/** Turns a link off (its URL then answers 404 and opens no session) or on again. */
export async function updatePaymentLink(
  deps: Deps,
  options: { scope: Scope; id: string; active?: boolean },
): Promise<PaymentLink> {
  const link = await deps.store.transaction(async (tx) =>
    options.active === undefined
      ? tx.paymentLinks.get(options.scope, options.id)
      : tx.paymentLinks.setActive(options.scope, options.id, options.active, deps.clock.now()),
  );
  if (!link) throw resourceMissing('payment link', options.id);
  return link;
}
