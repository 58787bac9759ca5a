import { auditWrite } from '../../team/audit';
import { buildCheckoutSession, type NewCheckoutSession } from '../rules';
import { allowedCountriesOf } from '../../addresses/rules';
import { TillpointError } from '../../shared/errors';
import { newId } from '../../shared/ids';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import { priceIsRecurring, type PaymentLink } from '../entities';

/** An item of a new link: a price of one of the account's products, or a name and an amount. */
export type NewPaymentLinkItem = ({ priceId: string; quantity: number } | { name: string; unitAmount: number; quantity: number }) & {
  adjustableQuantity?: { enabled: boolean; minimum?: number; maximum?: number };
};

/**
 * The shopper options a link gives every session it opens, in a session's terms: they are checked by
 * the same rules as a session's (buildCheckoutSession), so a link cannot hold what a session refuses.
 */
export type PaymentLinkOptions = Pick<
  NewCheckoutSession,
  'allowPromotionCodes' | 'billingAddressCollection' | 'shippingAllowedCountries' | 'shippingOptions' | 'customFields'
>;

/**
 * Creates a reusable link that opens a fresh session for the same items each time. A price's
 * product name and amount are copied into the link, so the link keeps selling what it said.
 */
export async function createPaymentLink(
  deps: Deps,
  options: { scope: Scope; currency?: string; lineItems: NewPaymentLinkItem[]; actor: Actor | null; options?: PaymentLinkOptions },
): Promise<PaymentLink> {
  const now = deps.clock.now();
  const { scope } = options;
  return deps.store.transaction(async (tx) => {
    let currency = options.currency;
    const items: Array<NewCheckoutSession['lineItems'][number] & { priceId: string | null }> = [];
    for (const [index, item] of options.lineItems.entries()) {
      const adjustable = item.adjustableQuantity ? { adjustableQuantity: item.adjustableQuantity } : {};
      if (!('priceId' in item)) {
        items.push({ name: item.name, unitAmount: item.unitAmount, quantity: item.quantity, priceId: null, ...adjustable });
        continue;
      }
      const param = `line_items[${index}][price]`;
      const price = await tx.prices.get(scope, item.priceId);
      const product = price && (await tx.products.get(scope, price.productId));
      if (!price || !product) throw new TillpointError('resource_missing', `No such price: '${item.priceId}'`, { param });
      if (!price.active || !product.active) {
        throw new TillpointError('parameter_invalid', 'This price or its product is not active', { param });
      }
      // A link opens payment-mode sessions, which take one-time prices only.
      if (priceIsRecurring(price)) throw new TillpointError('parameter_invalid', 'A payment link takes one-time prices only, not recurring ones', { param });
      if (currency && currency.toUpperCase() !== price.currency) {
        throw new TillpointError('parameter_invalid', 'Every item of a link must be in the same currency', { param });
      }
      currency = price.currency;
      items.push({ name: product.name, unitAmount: price.unitAmount, quantity: item.quantity, priceId: price.id, ...adjustable });
    }
    if (!currency) {
      throw new TillpointError('parameter_missing', 'currency is required when no item names a price', { param: 'currency' });
    }
    // A link must make valid sessions, so it meets the same rules a session does, options included.
    const given = options.options ?? {};
    const shippingAllowedCountries = given.shippingAllowedCountries ? allowedCountriesOf(given.shippingAllowedCountries, deps.addressFormats) : null;
    const sample = buildCheckoutSession({ currency, lineItems: items, ...given, shippingAllowedCountries }, scope, now);
    const link: PaymentLink = {
      id: newId('plink', 16),
      accountId: scope.accountId,
      mode: scope.mode,
      slug: newId('', 12).slice(1).toLowerCase(),
      currency: sample.currency,
      lineItems: sample.lineItems.map(({ name, unitAmount, quantity, adjustableQuantity }, i) => ({
        name,
        unitAmount,
        quantity,
        priceId: items[i]!.priceId ?? null,
        ...(adjustableQuantity ? { adjustableQuantity } : {}),
      })),
      active: true,
      createdAt: now,
      allowPromotionCodes: sample.allowPromotionCodes,
      billingAddressCollection: sample.billingAddressCollection,
      shippingAllowedCountries: sample.shippingAddressCollection?.allowedCountries ?? null,
      shippingOptions: sample.shippingOptions.map(({ displayName, amount, deliveryEstimate }) => ({ displayName, amount, deliveryEstimate })),
      customFields: sample.customFields,
    };
    await tx.paymentLinks.insert(link);
    await auditWrite(tx, { scope, actor: options.actor, action: 'payment_link.create', target: link.id, at: now });
    return link;
  });
}
