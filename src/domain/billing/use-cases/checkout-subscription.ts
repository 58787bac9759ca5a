import type { Deps, UnitOfWork } from '../../deps';
import { newId } from '../../shared/ids';
import type { CheckoutSession } from '../../sessions/entities';
import { taxAddressOf } from '../../sessions/rules';
import { matchDynamicTaxRate } from '../../pricing/rules';
import type { Invoice, Subscription, SubscriptionDiscount } from '../entities';
import { startSubscription, subscriptionDiscount } from '../rules';
import { invoiceEvent, subscriptionEvent } from '../snapshots';
import { lineDescription } from '../line-description';
import { sendStartNotices } from './notices';

/**
 * Starts the subscription a completed subscription-mode session paid for (docs/billing.md), with the
 * id the session reserved: `active` with its first invoice paid by the session's payment, or
 * `trialing` with a first invoice of nothing. Charged to the card the session saved. It keeps the
 * session's discount (for as long as its coupon's duration says) and its line's tax rates, the
 * dynamic one the shopper's address chose included, as `default_tax_rates`; its first invoice
 * shows the period, the shipping chosen, the discount and the tax as the session priced them. Once
 * per session whoever calls it (the paying request, then the billing job after a crash): the id and
 * the session are unique. Null when there is nothing to start.
 */
export async function startCheckoutSubscription(deps: Deps, sessionId: string): Promise<Subscription | null> {
  const started = await deps.store.transaction(async (tx) => {
    const session = await tx.checkoutSessions.get(null, sessionId, { forUpdate: true });
    if (!isStartable(session)) return null;
    if (await tx.subscriptions.get(null, session.subscriptionId)) return null;
    const line = session.lineItems[0]!;
    const price = await tx.prices.get(session, line.priceId!);
    const customer = await tx.customers.get(session, session.customerId);
    if (!price || !customer) return null;
    const methods = await tx.savedPaymentMethods.listForCustomer(session, customer.id);
    const method = methods.find((m) => m.id === session.setupPaymentMethodId) ?? methods[0] ?? null;
    const clock = customer.testClockId ? await tx.testClocks.get(session, customer.testClockId) : null;
    const now = clock?.frozenTime ?? session.completedAt ?? deps.clock.now();
    const data = session.subscriptionData;
    const dynamic = matchDynamicTaxRate(line.dynamicTaxRates, taxAddressOf(session));
    const shipping = session.shippingOptions.find((option) => option.id === session.shippingRateId);
    const started = startSubscription(
      {
        id: session.subscriptionId,
        scope: session,
        customer,
        price,
        quantity: line.quantity,
        paymentMethodId: method?.id ?? null,
        trialPeriodDays: data.trialPeriodDays,
        metadata: data.metadata,
        checkoutSessionId: session.id,
        description: await lineDescription(tx, price, line.quantity),
        discount: await sessionDiscount(tx, session, now),
        taxRates: dynamic ? [...(line.taxRates ?? []), dynamic] : (line.taxRates ?? []),
        shipping: shipping && shipping.amount > 0 ? { description: `Shipping: ${shipping.displayName}`, amount: shipping.amount } : null,
        now,
      },
      'active',
    );
    const { subscription } = started;
    const trialEnd = subscription.trialEnd;
    // The invoice is priced as the session was, so it comes to what was paid; were it ever not to,
    // the difference is a line of its own, so the invoice still says what was paid.
    const paid = trialEnd ? 0 : session.amountTotal;
    const difference = paid - started.invoice.total;
    const adjusted =
      difference === 0
        ? started.invoice
        : {
            ...started.invoice,
            lines: [...started.invoice.lines, { ...started.invoice.lines[0]!, id: newId('il', 16), description: 'Paid at checkout', amount: difference }],
            subtotal: started.invoice.subtotal + difference,
            total: paid,
          };
    const invoice: Invoice = {
      ...adjusted,
      amountDue: Math.max(0, adjusted.total),
      status: 'paid',
      amountPaid: trialEnd ? 0 : session.amountTotal,
      attemptCount: trialEnd ? 0 : 1,
      nextPaymentAttempt: null,
      paymentId: session.paymentId,
      paidAt: now,
    };
    if (!(await tx.subscriptions.insert(subscription))) return null;
    await tx.invoices.insert(invoice);
    const at = deps.clock.now();
    await tx.events.insert(subscriptionEvent(subscription, price, 'customer.subscription.created', at));
    await tx.events.insert(invoiceEvent(invoice, 'invoice.created', at, deps.publicUrl));
    await tx.events.insert(invoiceEvent(invoice, 'invoice.finalized', at, deps.publicUrl));
    await tx.events.insert(invoiceEvent(invoice, 'invoice.paid', at, deps.publicUrl));
    return subscription;
  });
  if (started) await sendStartNotices(deps, started);
  return started;
}

/**
 * The session's discount as the subscription keeps it, from now: its coupon's duration read from
 * the coupon (the session keeps only its amount), `once` were the coupon gone.
 */
async function sessionDiscount(tx: UnitOfWork, session: CheckoutSession, now: Date): Promise<SubscriptionDiscount | null> {
  const applied = session.discounts[0];
  if (!applied) return null;
  const coupon = await tx.coupons.get(session, applied.coupon.id);
  return subscriptionDiscount(applied, coupon ?? { duration: 'once', durationInMonths: null }, now);
}

type Startable = CheckoutSession & { subscriptionId: string; customerId: string; subscriptionData: NonNullable<CheckoutSession['subscriptionData']> };

function isStartable(session: CheckoutSession | null): session is Startable {
  return (
    session?.purpose === 'subscription' &&
    session.status === 'complete' &&
    session.subscriptionId !== null &&
    session.customerId !== null &&
    session.subscriptionData !== null &&
    session.lineItems[0]?.priceId !== undefined
  );
}
