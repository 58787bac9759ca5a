import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import { createCheckoutSession } from './create-checkout-session';
import { customFieldInputOf } from '../shopper-options';
import type { CheckoutSession } from '../entities';

/** A shopper opened `/l/:slug`: a fresh checkout session for the link's items, with the link's shopper options. */
export async function openPaymentLink(deps: Deps, options: { slug: string }): Promise<CheckoutSession> {
  const link = await deps.store.read((reader) => reader.paymentLinks.getBySlug(options.slug));
  if (!link || !link.active) throw resourceMissing('payment link', options.slug);
  return createCheckoutSession(deps, {
    scope: link,
    input: {
      currency: link.currency,
      lineItems: link.lineItems,
      paymentLinkId: link.id,
      allowPromotionCodes: link.allowPromotionCodes,
      billingAddressCollection: link.billingAddressCollection,
      shippingAllowedCountries: link.shippingAddressCollection?.allowedCountries ?? null,
      shippingOptions: link.shippingOptions.map((option) => ({ ...option, currency: link.currency })),
      customFields: link.customFields.map(customFieldInputOf),
    },
    actor: null,
  });
}
