import { auditWrite } from '../../team/audit';
import { resourceMissing, TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import type { Product, Price } from '../entities';
import { productNameOf } from './create-product';

/** What `POST /v1/products/:id` may change; a field left out is kept. */
export interface ProductChanges {
  name?: string;
  /** `null` or an empty string clears it. */
  description?: string | null;
  /** `false` archives it: it takes no new prices, and its prices stay as they are. */
  active?: boolean;
  /** One of its own active prices (`price_…`). */
  defaultPriceId?: string;
}

/**
 * Renames a product, changes its description or default price, or archives it (`active: false`).
 * Audited as `product.update` when anything changed.
 */
export async function updateProduct(
  deps: Deps,
  options: { scope: Scope; id: string; changes: ProductChanges; actor: Actor | null },
): Promise<{ product: Product; defaultPrice: Price | null }> {
  const { scope, changes } = options;
  return deps.store.transaction(async (tx) => {
    const current = await tx.products.get(scope, options.id, { forUpdate: true });
    if (!current) throw resourceMissing('product', options.id);
    const next: Product = { ...current };
    if (changes.name !== undefined) next.name = productNameOf(changes.name);
    if (changes.description !== undefined) next.description = changes.description?.trim() || null;
    if (changes.active !== undefined) next.active = changes.active;
    let defaultPrice = current.defaultPriceId ? await tx.prices.get(scope, current.defaultPriceId) : null;
    if (changes.defaultPriceId !== undefined) {
      const price = await tx.prices.get(scope, changes.defaultPriceId, { forUpdate: true });
      if (!price) throw new TillpointError('resource_missing', `No such price: '${changes.defaultPriceId}'`, { param: 'default_price' });
      if (price.productId !== current.id) {
        throw new TillpointError('parameter_invalid', `Price '${price.id}' is not a price of this product`, { param: 'default_price' });
      }
      if (!price.active) throw new TillpointError('parameter_invalid', `Price '${price.id}' is archived`, { param: 'default_price' });
      next.defaultPriceId = price.id;
      defaultPrice = price;
    }
    const changed =
      next.name !== current.name ||
      next.description !== current.description ||
      next.active !== current.active ||
      next.defaultPriceId !== current.defaultPriceId;
    if (!changed) return { product: current, defaultPrice };
    const now = deps.clock.now();
    next.updatedAt = now;
    await tx.products.update(next);
    await auditWrite(tx, { scope, actor: options.actor, action: 'product.update', target: next.id, at: now });
    return { product: next, defaultPrice };
  });
}
