import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { TaxRate } from '../entities';

/** One tax rate of the scope. */
export async function getTaxRate(deps: Deps, options: { scope: Scope; id: string }): Promise<TaxRate> {
  const found = await deps.store.read((reader) => reader.taxRates.get(options.scope, options.id));
  if (!found) throw resourceMissing('tax rate', options.id);
  return found;
}
