import type { Deps, UnitOfWork } from '../../deps';
import { resourceMissing, TillpointError } from '../../shared/errors';
import { newId } from '../../shared/ids';
import { checkMetadata } from '../../shared/metadata';
import { readPage, type Page, type PageRequest } from '../../shared/pagination';
import type { Scope } from '../../shared/scope';
import { auditWrite } from '../../team/audit';
import type { Actor } from '../../team/entities';
import type { Price } from '../../sessions/entities';
import type { DiscountReference } from '../../pricing/discount-lookup';
import { redeemForSubscription } from '../../pricing/redemption';
import { appliedDiscount } from '../../pricing/rules';
import type { Customer } from '../../customers/entities';
import type { Invoice, Subscription, SubscriptionDiscount, SubscriptionStatus } from '../entities';
import { isRecordedChargeFailure, prorationLines, recurrenceOf, startSubscription, subscriptionDiscount } from '../rules';
import { invoiceEvent, subscriptionEvent } from '../snapshots';
import { chargeInvoice } from './run-billing';
import { sendStartNotices } from './notices';
import { lineDescription } from '../line-description';
import { checkedTaxRates } from '../tax-rates';

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
  /** A coupon (`coupon_…`) or a promotion code (`promo_…`) to apply, not both. */
  couponId?: string;
  promotionCodeId?: string;
  /** The tax rates (`txr_…`) each invoice adds. */
  defaultTaxRateIds?: string[];
}

/** The one discount named by `coupon` or `promotion_code`, or none; both at once are refused. */
function discountReference(given: { couponId?: string; promotionCodeId?: string }): DiscountReference | null {
  if (given.couponId !== undefined && given.promotionCodeId !== undefined) {
    throw new TillpointError('parameter_invalid', 'Give a coupon or a promotion_code, not both', { param: 'promotion_code' });
  }
  if (given.couponId !== undefined) return { coupon: given.couponId };
  if (given.promotionCodeId !== undefined) return { promotionCode: given.promotionCodeId };
  return null;
}

/**
 * The discount a subscription takes from `reference` at `now`, redeemed as checkout redeems one
 * (limits, expiry, currency, minimum amount against a period of `price` × `quantity`, a first-time
 * code against the customer's email) and recorded as the subscription's redemption.
 */
async function redeemedDiscount(
  tx: UnitOfWork,
  options: {
    reference: DiscountReference;
    subscription: Pick<Subscription, 'id' | 'accountId' | 'mode' | 'currency'>;
    amountSubtotal: number;
    customer: Customer | null;
    now: Date;
  },
): Promise<SubscriptionDiscount> {
  const param = options.reference.coupon !== undefined ? 'coupon' : 'promotion_code';
  const { coupon, promotionCode } = await redeemForSubscription(tx, {
    reference: options.reference,
    subscription: { ...options.subscription, amountSubtotal: options.amountSubtotal },
    email: options.customer?.email ?? null,
    now: options.now,
    param,
  });
  return subscriptionDiscount(appliedDiscount(coupon, promotionCode), coupon, options.now);
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
 * open and retried on the schedule (Stripe's `allow_incomplete`: a declined first charge is an
 * answer, not an error). Its discount (`coupon` or `promotion_code`) and `default_tax_rates` apply
 * from the first invoice. A refusal changes nothing.
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
  const reference = discountReference(input);
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
    const taxRates = await checkedTaxRates(tx, scope, input.defaultTaxRateIds ?? []);
    const id = newId('sub');
    const discount = reference
      ? await redeemedDiscount(tx, {
          reference,
          subscription: { id, ...scope, currency: price.currency },
          amountSubtotal: price.unitAmount * quantity,
          customer,
          now,
        })
      : null;
    const { subscription, invoice } = startSubscription(
      {
        id,
        scope,
        customer,
        price,
        quantity,
        paymentMethodId: method.id,
        trialPeriodDays: input.trialPeriodDays ?? null,
        metadata: input.metadata ?? {},
        checkoutSessionId: input.checkoutSessionId ?? null,
        description: await lineDescription(tx, price, quantity),
        discount,
        taxRates,
        shipping: null,
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
  // The first charge, at once, on the customer's clock. The subscription exists whatever it
  // answers: a failure recorded on the invoice leaves it `incomplete`, its invoice open and retried,
  // and the answer says so (200), never an error.
  const clockDeps = made.subscription.testClockId ? { ...deps, clock: { now: () => made.subscription.createdAt } } : deps;
  await chargeInvoice(clockDeps, made.invoice.id, { manual: false }).catch((error: unknown) => {
    if (!isRecordedChargeFailure(error)) throw error;
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
      const prices = await reader.prices.getMany(options.scope, [...new Set(found.map((subscription) => subscription.priceId))]);
      return found.map((subscription) => ({ subscription, price: prices.get(subscription.priceId)! }));
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
  /** A coupon to apply from now, replacing its discount; `''` removes its discount. */
  couponId?: string;
  /** A promotion code to apply from now, replacing its discount. */
  promotionCodeId?: string;
  /** The tax rates each invoice from now adds; `[]` removes them. */
  defaultTaxRateIds?: string[];
}

/**
 * Changes a subscription (`POST /v1/subscriptions/:id`): its price or quantity (prorated onto the
 * next invoice unless `proration_behavior: none`), whether it ends at the period's end, its payment
 * method, its metadata, its discount (a coupon or code applied from now, or `coupon: ""` to remove
 * it) and its tax rates, which the next invoices take. A canceled subscription changes no more.
 */
export async function updateSubscription(
  deps: Deps,
  options: { scope: Scope; actor: Actor | null; id: string; change: SubscriptionChange },
): Promise<{ subscription: Subscription; price: Price }> {
  const { scope, change } = options;
  if (change.quantity !== undefined) checkQuantity(change.quantity, 'quantity');
  if (change.metadata) checkMetadata(change.metadata);
  const removeDiscount = change.couponId === '';
  const reference = discountReference({ ...change, couponId: removeDiscount ? undefined : change.couponId });
  if (removeDiscount && reference) throw new TillpointError('parameter_invalid', 'Give a coupon or a promotion_code, not both', { param: 'promotion_code' });
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
    if (change.defaultTaxRateIds) next.defaultTaxRates = (await checkedTaxRates(tx, scope, change.defaultTaxRateIds)).map((rate) => rate.id);
    if (removeDiscount) next.discount = null;
    if (reference) {
      const customer = await tx.customers.get(scope, subscription.customerId);
      next.discount = await redeemedDiscount(tx, { reference, subscription, amountSubtotal: price.unitAmount * quantity, customer, now });
    }
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
