import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { Product, Price } from '../entities';

/** Reads one product of the scope with its default price. */
export async function getProduct(deps: Deps, options: { scope: Scope; id: string }): Promise<{ product: Product; defaultPrice: Price | null }> {
  const found = await deps.store.read(async (reader) => {
    const product = await reader.products.get(options.scope, options.id);
    if (!product) return null;
    const defaultPrice = product.defaultPriceId ? await reader.prices.get(options.scope, product.defaultPriceId) : null;
    return { product, defaultPrice };
  });
  if (!found) throw resourceMissing('product', options.id);
  return found;
}
