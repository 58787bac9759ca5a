import type { PaymentLink } from '../entities';
import { resourceMissing } from '../errors';
import type { Deps, Scope } from '../ports';

/** Reads one payment link of the scope's account and mode. */
export async function getPaymentLink(deps: Deps, options: { scope: Scope; id: string }): Promise<PaymentLink> {
  const link = await deps.store.transaction((tx) => tx.paymentLinks.get(options.scope, options.id));
  if (!link) throw resourceMissing('payment link', options.id);
  return link;
}
