import { apiObjectOf } from '../../domain/shared/resource-shape';
import { prices, products, type Product, type Price } from '../../domain/sessions/entities';

/** A price: its fields as its definition shows them (`prices`). */
export function priceView(price: Price) {
  return apiObjectOf('price', prices, price);
}

/**
 * A product: its fields as its definition shows them (`products`), with its default price spelled
 * out, so one call gives what a link needs.
 */
export function productView(product: Product, defaultPrice: Price | null) {
  return { ...apiObjectOf('product', products, product), default_price: defaultPrice && priceView(defaultPrice) };
}
