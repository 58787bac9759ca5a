import { apiObjectOf } from '../../domain/shared/resource-shape';
import { customFieldSnapshot } from '../../domain/sessions/shopper-options';
import { paymentLinks, type PaymentLink } from '../../domain/sessions/entities';

/**
 * A payment link: its fields as its definition shows them (`paymentLinks`), then its address, its
 * items with their amounts, and the shopper options every session it opens carries, in the shapes
 * they were given.
 */
export function paymentLinkView(link: PaymentLink, publicUrl: string) {
  const items = link.lineItems.map((item) => ({
    price: item.priceId ?? null,
    name: item.name,
    unit_amount: item.unitAmount,
    quantity: item.quantity,
    amount: item.unitAmount * item.quantity,
    ...(item.adjustableQuantity ? { adjustable_quantity: item.adjustableQuantity } : {}),
  }));
  const currency = link.currency.toLowerCase();
  return {
    ...apiObjectOf('payment_link', paymentLinks, link),
    url: `${publicUrl}/l/${link.slug}`,
    line_items: items,
    amount_total: items.reduce((sum, item) => sum + item.amount, 0),
    shipping_address_collection: link.shippingAllowedCountries ? { allowed_countries: link.shippingAllowedCountries } : null,
    shipping_options: link.shippingOptions.map((option) => ({
      shipping_rate_data: {
        type: 'fixed_amount' as const,
        display_name: option.displayName,
        fixed_amount: { amount: option.amount, currency },
        delivery_estimate: option.deliveryEstimate,
      },
    })),
    custom_fields: link.customFields.map(customFieldSnapshot),
  };
}
