import { apiObjectOf } from '../../domain/shared/resource-shape';
import { priceIsRecurring, prices, products, type Product, type Price } from '../../domain/sessions/entities';

/** A price: its fields as its definition shows them (`prices`), with Stripe's `recurring` and `type`. */
export function priceView(price: Price) {
  const { recurringInterval: interval, recurringIntervalCount: count } = price;
  return {
    ...apiObjectOf('price', prices, price),
    recurring: interval === null ? null : { interval, interval_count: count ?? 1 },
    type: priceIsRecurring(price) ? ('recurring' as const) : ('one_time' as const),
  };
}

/**
 * A product: its fields as its definition shows them (`products`), with its default price spelled
 * out, so one call gives what a link needs.
 */
export function productView(product: Product, defaultPrice: Price | null) {
  return { ...apiObjectOf('product', products, product), default_price: defaultPrice && priceView(defaultPrice) };
}
