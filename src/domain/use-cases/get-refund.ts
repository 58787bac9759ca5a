import type { Refund } from '../entities';
import { resourceMissing } from '../errors';
import type { Deps, Scope } from '../ports';

/** Reads one refund of the scope's account and mode. */
export async function getRefund(deps: Deps, options: { scope: Scope; id: string }): Promise<Refund> {
  const refund = await deps.store.transaction((tx) => tx.refunds.get(options.scope, options.id));
  if (!refund) throw resourceMissing('refund', options.id);
  return refund;
}
