import type { Payment } from '../entities';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';

/** Reads one payment of the scope's account and mode. */
export async function getPayment(deps: Deps, options: { scope: Scope; id: string }): Promise<Payment> {
  const payment = await deps.store.read((reader) => reader.payments.get(options.scope, options.id));
  if (!payment) throw resourceMissing('payment', options.id);
  return payment;
}
