import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { PaymentLink } from '../entities';

/** Reads one payment link of the scope's account and mode. */
export async function getPaymentLink(deps: Deps, options: { scope: Scope; id: string }): Promise<PaymentLink> {
  const link = await deps.store.read((reader) => reader.paymentLinks.get(options.scope, options.id));
  if (!link) throw resourceMissing('payment link', options.id);
  return link;
}
