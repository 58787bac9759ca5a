import { apiObjectOf } from '../../domain/shared/resource-shape';
import { products, type Product, type Price } from '../../domain/sessions/entities';
import { priceSnapshot } from '../../domain/billing/snapshots';

/** A price: its fields as its definition shows them (`prices`), its renewal spelled out. */
export const priceView = priceSnapshot;

/**
 * A product: its fields as its definition shows them (`products`), with its default price spelled
 * out, so one call gives what a link needs.
 */
export function productView(product: Product, defaultPrice: Price | null) {
  return { ...apiObjectOf('product', products, product), default_price: defaultPrice && priceView(defaultPrice) };
}
