import type { Refund } from '../entities';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';

/** Reads one refund of the scope's account and mode. */
export async function getRefund(deps: Deps, options: { scope: Scope; id: string }): Promise<Refund> {
  const refund = await deps.store.read((reader) => reader.refunds.get(options.scope, options.id));
  if (!refund) throw resourceMissing('refund', options.id);
  return refund;
}
