import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { Price } from '../entities';

/** Reads one price of the scope. */
export async function getPrice(deps: Deps, options: { scope: Scope; id: string }): Promise<Price> {
  const price = await deps.store.read((reader) => reader.prices.get(options.scope, options.id));
  if (!price) throw resourceMissing('price', options.id);
  return price;
}
