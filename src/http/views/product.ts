import { resourceView, unixTime } from './resource';
import type { Product, Price } from '../../domain/sessions/entities';

export function priceView(price: Price) {
  return resourceView('price', price, {
    product: price.productId,
    currency: price.currency.toLowerCase(),
    unit_amount: price.unitAmount,
    active: price.active,
  });
}

/** A product with its default price spelled out, so one call gives what a link needs. */
export function productView(product: Product, defaultPrice: Price | null) {
  return resourceView(
    'product',
    product,
    {
      name: product.name,
      description: product.description,
      active: product.active,
      default_price: defaultPrice && priceView(defaultPrice),
    },
    { updated: unixTime(product.updatedAt) },
  );
}
