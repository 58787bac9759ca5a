import { resourceView } from './resource';
import { customFieldSnapshot } from '../../domain/sessions/shopper-options';
import type { PaymentLink } from '../../domain/sessions/entities';

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
  return resourceView('payment_link', link, {
    active: link.active,
    url: `${publicUrl}/l/${link.slug}`,
    currency,
    line_items: items,
    amount_total: items.reduce((sum, item) => sum + item.amount, 0),
    // The shopper options every session the link opens carries, in the shapes they were given.
    allow_promotion_codes: link.allowPromotionCodes ?? false,
    billing_address_collection: link.billingAddressCollection ?? 'auto',
    shipping_address_collection: link.shippingAddressCollection ? { allowed_countries: link.shippingAddressCollection.allowedCountries } : null,
    shipping_options: (link.shippingOptions ?? []).map((option) => ({
      shipping_rate_data: {
        type: 'fixed_amount' as const,
        display_name: option.displayName,
        fixed_amount: { amount: option.amount, currency },
        delivery_estimate: option.deliveryEstimate,
      },
    })),
    custom_fields: (link.customFields ?? []).map(customFieldSnapshot),
  });
}
