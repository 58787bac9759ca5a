import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import { createCheckoutSession } from './create-checkout-session';
import { customFieldInputOf } from '../shopper-options';
import type { CheckoutSession } from '../entities';

/**
 * A shopper opened `/l/:slug`: the session this browser opened for the link before, while it is open
 * and unexpired (`returning`, from the browser's cookie), else a fresh checkout session for the link's
 * items, with the link's shopper options. `reused` says which.
 */
export async function openPaymentLink(
  deps: Deps,
  options: { slug: string; returning?: string | null },
): Promise<{ session: CheckoutSession; reused: boolean }> {
  const { link, previous } = await deps.store.read(async (reader) => {
    const link = await reader.paymentLinks.getBySlug(options.slug);
    const previous = link?.active && options.returning ? await reader.checkoutSessions.get(link, options.returning) : null;
    return { link, previous };
  });
  if (!link?.active) throw resourceMissing('payment link', options.slug);
  if (previous && previous.paymentLinkId === link.id && previous.status === 'open' && previous.expiresAt.getTime() > deps.clock.now().getTime()) {
    return { session: previous, reused: true };
  }
  const session = await createCheckoutSession(deps, {
    scope: link,
    input: {
      currency: link.currency,
      lineItems: link.lineItems,
      paymentLinkId: link.id,
      allowPromotionCodes: link.allowPromotionCodes,
      billingAddressCollection: link.billingAddressCollection,
      shippingAllowedCountries: link.shippingAllowedCountries,
      shippingOptions: link.shippingOptions.map((option) => ({ ...option, currency: link.currency })),
      customFields: link.customFields.map(customFieldInputOf),
    },
    actor: null,
  });
  return { session, reused: false };
}
