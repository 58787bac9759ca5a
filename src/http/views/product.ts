import { resourceView } from './resource';
import { apiObjectOf } from '../../domain/shared/resource-shape';
import { products, type Product, type Price } from '../../domain/sessions/entities';

export function priceView(price: Price) {
  return resourceView('price', price, {
    product: price.productId,
    currency: price.currency.toLowerCase(),
    unit_amount: price.unitAmount,
    active: price.active,
  });
}

/**
 * A product: its fields as its definition shows them (`products`), with its default price spelled
 * out, so one call gives what a link needs.
 */
export function productView(product: Product, defaultPrice: Price | null) {
  return { ...apiObjectOf('product', products, product), default_price: defaultPrice && priceView(defaultPrice) };
}
