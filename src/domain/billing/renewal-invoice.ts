import type { UnitOfWork } from '../deps';
import type { Price } from '../sessions/entities';
import type { Invoice, Subscription, SubscriptionDiscount } from './entities';
import { lineDescription } from './line-description';
import { billPeriod, nextPeriod, periodLine } from './rules';
import { taxRateTerms } from './tax-rates';

/**
 * The invoice `subscription`'s next renewal makes: its pending prorations and the next period's
 * line, discounted and taxed by its terms, as of the end of its current period. What renewing
 * stores, and what `invoice.upcoming` previews a week before; the discount is the one the
 * subscription keeps after it.
 */
export async function renewalInvoice(
  tx: UnitOfWork,
  subscription: Subscription,
  price: Price,
): Promise<{ invoice: Invoice; discount: SubscriptionDiscount | null; period: { start: Date; end: Date } }> {
  const period = nextPeriod(subscription, price);
  const lines = [
    ...subscription.pendingInvoiceLines,
    periodLine(price, subscription.quantity, period, await lineDescription(tx, price, subscription.quantity)),
  ];
  const taxRates = await taxRateTerms(tx, subscription, subscription.defaultTaxRates);
  const { invoice, discount } = billPeriod(subscription, lines, period, 'subscription_cycle', subscription.currentPeriodEnd, { taxRates });
  return { invoice, discount, period };
}
