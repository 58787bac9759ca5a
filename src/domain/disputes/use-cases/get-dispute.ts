import type { Dispute } from '../entities';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';

/** Reads one dispute of the scope's account and mode, with its evidence. */
export async function getDispute(deps: Deps, options: { scope: Scope; id: string }): Promise<Dispute> {
  const dispute = await deps.store.read((reader) => reader.disputes.get(options.scope, options.id));
  if (!dispute) throw resourceMissing('dispute', options.id);
  return dispute;
}
