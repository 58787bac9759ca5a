import type { Deps } from '../../deps';
import { newId } from '../../shared/ids';
import type { CheckoutSession } from '../../sessions/entities';
import type { Invoice, Subscription } from '../entities';
import { startSubscription } from '../rules';
import { invoiceEvent, subscriptionEvent } from '../snapshots';
import { lineDescription } from '../line-description';
import { sendStartNotices } from './notices';

const _DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Starts the subscription a completed subscription-mode session paid for (docs/billing.md), with the
 * id the session reserved: `active` with its first invoice paid by the session's payment, or
 * `trialing` with a first invoice of nothing. Charged to the card the session saved. Once per session
 * whoever calls it (the paying request, then the billing job after a crash): the id and the session
 * are unique. Null when there is nothing to start.
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
        now,
      },
      'active',
    );
    const { subscription } = started;
    const trialEnd = subscription.trialEnd;
    const lines = started.invoice.lines;
    // What the session charged beyond the period's price (its discount, shipping and tax), so the
    // first invoice is what was paid.
    const beyond = session.amountTotal - lines[0]!.amount;
    if (!trialEnd && beyond !== 0) lines.push({ ...lines[0]!, id: newId('il', 16), description: 'Discounts, shipping and tax at checkout', amount: beyond });
    const subtotal = lines.reduce((sum, l) => sum + l.amount, 0);
    const invoice: Invoice = {
      ...started.invoice,
      lines,
      subtotal,
      total: subtotal,
      amountDue: Math.max(0, subtotal),
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
