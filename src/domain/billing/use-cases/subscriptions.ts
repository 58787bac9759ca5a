import type { Deps, UnitOfWork } from '../../deps';
import { resourceMissing, TillpointError } from '../../shared/errors';
import { newId } from '../../shared/ids';
import { checkMetadata } from '../../shared/metadata';
import { readPage, type Page, type PageRequest } from '../../shared/pagination';
import type { Scope } from '../../shared/scope';
import { auditWrite } from '../../team/audit';
import type { Actor } from '../../team/entities';
import type { Price } from '../../sessions/entities';
import type { Invoice, Subscription, SubscriptionStatus } from '../entities';
import { prorationLines, recurrenceOf, startSubscription } from '../rules';
import { invoiceEvent, subscriptionEvent } from '../snapshots';
import { chargeInvoice } from './run-billing';
import { sendStartNotices } from './notices';
import { lineDescription } from '../line-description';

const MAX_TRIAL_DAYS = 730;
const MAX_QUANTITY = 10_000;

export interface SubscriptionInput {
  customerId: string;
  priceId: string;
  quantity?: number;
  /** The saved payment method (`pm_…`) to charge; the customer's newest when absent. */
  paymentMethodId?: string;
  trialPeriodDays?: number;
  metadata?: Record<string, string>;
  /** The checkout session that started it, if any. */
  checkoutSessionId?: string | null;
}

/** The time a customer is billed by: its test clock's, or the wall clock's. */
export async function customerNow(deps: Deps, tx: UnitOfWork, scope: Scope, testClockId: string | null): Promise<Date> {
  if (!testClockId) return deps.clock.now();
  const clock = await tx.testClocks.get(scope, testClockId);
  return clock ? clock.frozenTime : deps.clock.now();
}

/** A recurring, active price of the scope, or a refusal naming `param`. */
export async function recurringPrice(tx: UnitOfWork, scope: Scope, priceId: string, param: string): Promise<Price> {
  const price = await tx.prices.get(scope, priceId);
  if (!price) throw new TillpointError('resource_missing', `No such price: '${priceId}'`, { param });
  if (!price.active) throw new TillpointError('parameter_invalid', `The price '${priceId}' is archived (active: false)`, { param });
  if (!recurrenceOf(price))
    throw new TillpointError('parameter_invalid', `The price '${priceId}' is one-time; a subscription needs a recurring price`, { param });
  return price;
}

function checkQuantity(quantity: number, param: string) {
  if (!Number.isSafeInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY) {
    throw new TillpointError('parameter_invalid', `quantity must be a whole number from 1 to ${MAX_QUANTITY}`, { param });
  }
}

/**
 * Starts a subscription for a customer with a saved payment method (`POST /v1/subscriptions`):
 * with a trial, `trialing` until the trial ends (its first invoice comes to nothing); without, its
 * first invoice is charged at once and it is `active` when paid, else `incomplete` with the invoice
 * open and retried on the schedule. A refusal changes nothing.
 */
export async function createSubscription(
  deps: Deps,
  options: { scope: Scope; actor: Actor | null; input: SubscriptionInput },
): Promise<{ subscription: Subscription; price: Price; invoice: Invoice }> {
  const { scope, input } = options;
  const quantity = input.quantity ?? 1;
  checkQuantity(quantity, 'items[0][quantity]');
  if (
    input.trialPeriodDays !== undefined &&
    (!Number.isSafeInteger(input.trialPeriodDays) || input.trialPeriodDays < 1 || input.trialPeriodDays > MAX_TRIAL_DAYS)
  ) {
    throw new TillpointError('parameter_invalid', `trial_period_days must be a whole number from 1 to ${MAX_TRIAL_DAYS}`, { param: 'trial_period_days' });
  }
  if (input.metadata) checkMetadata(input.metadata);
  const made = await deps.store.transaction(async (tx) => {
    const customer = await tx.customers.get(scope, input.customerId, { forUpdate: true });
    if (!customer) throw new TillpointError('resource_missing', `No such customer: '${input.customerId}'`, { param: 'customer' });
    const price = await recurringPrice(tx, scope, input.priceId, 'items[0][price]');
    const methods = await tx.savedPaymentMethods.listForCustomer(scope, customer.id);
    const method = input.paymentMethodId ? methods.find((m) => m.id === input.paymentMethodId) : methods[0];
    if (!method) {
      throw new TillpointError(
        input.paymentMethodId ? 'resource_missing' : 'parameter_missing',
        input.paymentMethodId ? `No such payment method of this customer: '${input.paymentMethodId}'` : 'The customer has no saved payment method to charge',
        { param: 'default_payment_method' },
      );
    }
    const now = await customerNow(deps, tx, scope, customer.testClockId);
    const { subscription, invoice } = startSubscription(
      {
        id: newId('sub'),
        scope,
        customer,
        price,
        quantity,
        paymentMethodId: method.id,
        trialPeriodDays: input.trialPeriodDays ?? null,
        metadata: input.metadata ?? {},
        checkoutSessionId: input.checkoutSessionId ?? null,
        description: await lineDescription(tx, price, quantity),
        now,
      },
      'incomplete',
    );
    await tx.subscriptions.insert(subscription);
    await tx.invoices.insert(invoice);
    await tx.events.insert(subscriptionEvent(subscription, price, 'customer.subscription.created', now));
    await tx.events.insert(invoiceEvent(invoice, 'invoice.created', now, deps.publicUrl));
    await tx.events.insert(invoiceEvent(invoice, 'invoice.finalized', now, deps.publicUrl));
    if (invoice.status === 'paid') await tx.events.insert(invoiceEvent(invoice, 'invoice.paid', now, deps.publicUrl));
    await auditWrite(tx, { scope, actor: options.actor, action: 'subscription.create', target: subscription.id, at: deps.clock.now() });
    return { subscription, price, invoice };
  });
  await sendStartNotices(deps, made.subscription);
  if (made.invoice.status !== 'open') return made;
  // The first charge, at once, on the customer's clock; a decline leaves it `incomplete` and retried.
  const clockDeps = made.subscription.testClockId ? { ...deps, clock: { now: () => made.subscription.createdAt } } : deps;
  await chargeInvoice(clockDeps, made.invoice.id, { manual: false }).catch((error: unknown) => {
    if (!(error instanceof TillpointError) || !['card_declined', 'processor_timeout', 'processor_unavailable'].includes(error.code)) throw error;
  });
  return getSubscription(deps, { scope, id: made.subscription.id }).then(async (subscription) => ({
    ...subscription,
    invoice: (await deps.store.read((reader) => reader.invoices.get(scope, made.invoice.id)))!,
  }));
}

/** One subscription of the scope, with its price. */
export async function getSubscription(deps: Deps, options: { scope: Scope; id: string }): Promise<{ subscription: Subscription; price: Price }> {
  return deps.store.read(async (reader) => {
    const subscription = await reader.subscriptions.get(options.scope, options.id);
    if (!subscription) throw resourceMissing('subscription', options.id);
    const price = await reader.prices.get(subscription, subscription.priceId);
    return { subscription, price: price! };
  });
}

/** One page of the scope's subscriptions, newest first, each with its price. */
export async function listSubscriptions(
  deps: Deps,
  options: { scope: Scope; filter: { customerId?: string; status?: SubscriptionStatus }; page: PageRequest },
): Promise<Page<{ subscription: Subscription; price: Price }>> {
  return readPage(options.page, (page) =>
    deps.store.readReplica(async (reader) => {
      const found = await reader.subscriptions.list(options.scope, { ...options.filter, ...page });
      return Promise.all(found.map(async (subscription) => ({ subscription, price: (await reader.prices.get(subscription, subscription.priceId))! })));
    }),
  );
}

export interface SubscriptionChange {
  priceId?: string;
  quantity?: number;
  cancelAtPeriodEnd?: boolean;
  /** `create_prorations` (the default): the change's unused and remaining time are billed on the next invoice. */
  prorationBehavior?: 'create_prorations' | 'none';
  paymentMethodId?: string;
  metadata?: Record<string, string>;
}

/**
 * Changes a subscription (`POST /v1/subscriptions/:id`): its price or quantity (prorated onto the
 * next invoice unless `proration_behavior: none`), whether it ends at the period's end, its payment
 * method, its metadata. A canceled subscription changes no more.
 */
export async function updateSubscription(
  deps: Deps,
  options: { scope: Scope; actor: Actor | null; id: string; change: SubscriptionChange },
): Promise<{ subscription: Subscription; price: Price }> {
  const { scope, change } = options;
  if (change.quantity !== undefined) checkQuantity(change.quantity, 'quantity');
  if (change.metadata) checkMetadata(change.metadata);
  return deps.store.transaction(async (tx) => {
    const subscription = await tx.subscriptions.get(scope, options.id, { forUpdate: true });
    if (!subscription) throw resourceMissing('subscription', options.id);
    if (subscription.status === 'canceled') throw new TillpointError('subscription_canceled', 'This subscription is canceled; it cannot be changed');
    const now = await customerNow(deps, tx, scope, subscription.testClockId);
    const oldPrice = (await tx.prices.get(scope, subscription.priceId))!;
    const price = change.priceId && change.priceId !== subscription.priceId ? await recurringPrice(tx, scope, change.priceId, 'price') : oldPrice;
    if (price.currency !== subscription.currency) {
      throw new TillpointError(
        'parameter_invalid',
        `The price is in ${price.currency.toLowerCase()}; this subscription bills in ${subscription.currency.toLowerCase()}`,
        { param: 'price' },
      );
    }
    const a = recurrenceOf(oldPrice)!;
    const b = recurrenceOf(price)!;
    if (a.interval !== b.interval || a.count !== b.count) {
      throw new TillpointError('parameter_invalid', 'The new price must renew on the same interval as the current one', { param: 'price' });
    }
    if (change.paymentMethodId) {
      const method = await tx.savedPaymentMethods.get(scope, change.paymentMethodId);
      if (!method || method.customerId !== subscription.customerId) {
        throw new TillpointError('resource_missing', `No such payment method of this customer: '${change.paymentMethodId}'`, {
          param: 'default_payment_method',
        });
      }
    }
    const quantity = change.quantity ?? subscription.quantity;
    const next: Subscription = { ...subscription, priceId: price.id, quantity, updatedAt: now };
    if (change.paymentMethodId) next.defaultPaymentMethodId = change.paymentMethodId;
    if (change.metadata) {
      const merged = { ...subscription.metadata, ...change.metadata };
      for (const [key, value] of Object.entries(merged)) if (value === '') delete merged[key];
      checkMetadata(merged);
      next.metadata = merged;
    }
    if (change.cancelAtPeriodEnd !== undefined) {
      next.cancelAtPeriodEnd = change.cancelAtPeriodEnd;
      next.canceledAt = change.cancelAtPeriodEnd ? now : null;
    }
    const changed = price.id !== subscription.priceId || quantity !== subscription.quantity;
    if (changed && (change.prorationBehavior ?? 'create_prorations') === 'create_prorations' && subscription.status !== 'trialing') {
      next.pendingInvoiceLines = [
        ...subscription.pendingInvoiceLines,
        ...prorationLines(
          { from: { price: oldPrice, quantity: subscription.quantity }, to: { price, quantity } },
          { start: subscription.currentPeriodStart, end: subscription.currentPeriodEnd },
          now,
        ),
      ];
    }
    await tx.subscriptions.update(next);
    await tx.events.insert(subscriptionEvent(next, price, 'customer.subscription.updated', deps.clock.now()));
    await auditWrite(tx, { scope, actor: options.actor, action: 'subscription.update', target: subscription.id, at: deps.clock.now() });
    return { subscription: next, price };
  });
}

/**
 * Cancels a subscription now (`DELETE /v1/subscriptions/:id`): it ends at once, nothing more is
 * billed, and its open invoices are voided.
 */
export async function cancelSubscription(
  deps: Deps,
  options: { scope: Scope; actor: Actor | null; id: string },
): Promise<{ subscription: Subscription; price: Price }> {
  const { scope } = options;
  return deps.store.transaction(async (tx) => {
    const subscription = await tx.subscriptions.get(scope, options.id, { forUpdate: true });
    if (!subscription) throw resourceMissing('subscription', options.id);
    if (subscription.status === 'canceled') throw new TillpointError('subscription_canceled', 'This subscription is already canceled');
    const now = await customerNow(deps, tx, scope, subscription.testClockId);
    const price = (await tx.prices.get(scope, subscription.priceId))!;
    const ended: Subscription = { ...subscription, status: 'canceled', canceledAt: now, endedAt: now, cancelAtPeriodEnd: false, updatedAt: now };
    await tx.subscriptions.update(ended);
    for (const invoice of await tx.invoices.list(scope, { subscriptionId: subscription.id, status: 'open', limit: 100 })) {
      // One under way is left to finish: its outcome is recorded as usual.
      if (invoice.nextPaymentAttempt === null && invoice.paymentId) continue;
      await tx.invoices.update({ ...invoice, status: 'void', nextPaymentAttempt: null, voidedAt: now, updatedAt: now });
    }
    await tx.events.insert(subscriptionEvent(ended, price, 'customer.subscription.deleted', deps.clock.now()));
    await auditWrite(tx, { scope, actor: options.actor, action: 'subscription.cancel', target: subscription.id, at: deps.clock.now() });
    return { subscription: ended, price };
  });
}
