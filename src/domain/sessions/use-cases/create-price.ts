import { auditWrite } from '../../team/audit';
import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import type { Price } from '../entities';
import { buildPrice, type NewPrice } from '../price-rules';

/** Creates a price of one of the scope's active products: paid once, or every interval. */
export async function createPrice(deps: Deps, options: { scope: Scope; productId: string; input: NewPrice; actor: Actor | null }): Promise<Price> {
  const { scope } = options;
  return deps.store.transaction(async (tx) => {
    // Locked so an archive of the product cannot pass between the check and the insert.
    const product = await tx.products.get(scope, options.productId, { forUpdate: true });
    if (!product) throw new TillpointError('resource_missing', `No such product: '${options.productId}'`, { param: 'product' });
    if (!product.active) {
      throw new TillpointError('parameter_invalid', `Product '${product.id}' is archived: it takes no new prices`, { param: 'product' });
    }
    const now = deps.clock.now();
    const price = buildPrice(options.input, product, scope, now);
    await tx.prices.insert(price);
    await auditWrite(tx, { scope, actor: options.actor, action: 'price.create', target: price.id, at: now });
    return price;
  });
}
