import { auditWrite } from '../../team/audit';
import { TillpointError } from '../../shared/errors';
import { newId } from '../../shared/ids';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import type { Product, Price } from '../entities';
import { buildPrice, type NewPrice } from '../price-rules';

export interface NewProduct {
  name: string;
  description?: string | null;
  active?: boolean;
  /** Creates the product's default price with it, as Stripe's `default_price_data` (one-time or recurring). */
  defaultPrice?: NewPrice;
}

/** A product's name, trimmed: 1 to 250 characters. */
export function productNameOf(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 250) throw new TillpointError('parameter_invalid', 'name must be 1 to 250 characters', { param: 'name' });
  return trimmed;
}

/** Creates a product and, when given, its default price. */
export async function createProduct(
  deps: Deps,
  options: { scope: Scope; input: NewProduct; actor: Actor | null },
): Promise<{ product: Product; defaultPrice: Price | null }> {
  const { input, scope } = options;
  const name = productNameOf(input.name);
  const now = deps.clock.now();
  const product: Product = {
    id: newId('prod', 16),
    accountId: scope.accountId,
    mode: scope.mode,
    name,
    description: input.description?.trim() || null,
    active: input.active ?? true,
    defaultPriceId: null,
    createdAt: now,
    updatedAt: now,
  };
  const defaultPrice = input.defaultPrice ? buildPrice(input.defaultPrice, product, scope, now, 'default_price_data') : null;
  if (defaultPrice) product.defaultPriceId = defaultPrice.id;
  await deps.store.transaction(async (tx) => {
    await tx.products.insert(product);
    if (defaultPrice) await tx.prices.insert(defaultPrice);
    await auditWrite(tx, { scope, actor: options.actor, action: 'product.create', target: product.id, at: now });
  });
  return { product, defaultPrice };
}
