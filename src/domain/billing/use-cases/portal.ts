import type { Deps, UnitOfWork } from '../../deps';
import type { Actor } from '../../team/entities';
import type { SavedPaymentMethod } from '../../customers/entities';
import type { Scope } from '../../shared/scope';
import { newId } from '../../shared/ids';
import { TillpointError } from '../../shared/errors';
import { auditWrite } from '../../team/audit';
import { sessionLocale } from '../../shared/locale';
import { isAbsoluteHttpUrl } from '../../sessions/rules';
import { createCheckoutSession } from '../../sessions/use-cases/create-checkout-session';
import type { BillingPortalSession, Subscription } from '../entities';
import type { Portal } from '../hosted-pages';
import { updateSubscription } from './subscriptions';
import { chargeInvoice } from './run-billing';
import { isRecordedChargeFailure } from '../rules';

/** How long a portal session's page opens after it was made (docs/billing.md). */
export const PORTAL_SESSION_MINUTES = 60;

/** How many of a customer's invoices the portal lists, newest first. */
export const PORTAL_INVOICES_SHOWN = 24;

/** The statuses in which a subscription still bills its card: the portal shows these, and moves their card. */
const billingStatuses: readonly Subscription['status'][] = ['incomplete', 'trialing', 'active', 'past_due', 'unpaid'];

/**
 * Opens a customer portal session (`POST /v1/billing_portal/sessions`): the page at its URL shows one
 * customer their subscriptions and invoices for `PORTAL_SESSION_MINUTES`.
 */
export async function createPortalSession(
  deps: Deps,
  options: { scope: Scope; actor: Actor | null; customerId: string; returnUrl: string | null; locale: string | null },
): Promise<BillingPortalSession> {
  const { scope } = options;
  if (options.returnUrl !== null && !isAbsoluteHttpUrl(options.returnUrl)) {
    throw new TillpointError('parameter_invalid', 'return_url must be an absolute http or https URL', { param: 'return_url' });
  }
  const chosen = sessionLocale(options.locale, scope.mode);
  const locale = chosen === 'auto' ? null : chosen;
  return deps.store.transaction(async (tx) => {
    const customer = await tx.customers.get(scope, options.customerId);
    if (!customer) throw new TillpointError('resource_missing', `No such customer: '${options.customerId}'`, { param: 'customer' });
    const now = deps.clock.now();
    const session: BillingPortalSession = {
      id: newId('bps'),
      accountId: scope.accountId,
      mode: scope.mode,
      customerId: customer.id,
      returnUrl: options.returnUrl,
      locale,
      token: newId('bpt', 40),
      createdAt: now,
      expiresAt: new Date(now.getTime() + PORTAL_SESSION_MINUTES * 60_000),
    };
    await tx.billingPortalSessions.insert(session);
    await auditWrite(tx, { scope, actor: options.actor, action: 'billing_portal_session.create', target: session.id, at: now });
    return session;
  });
}

/** The session `token` opens, still open, with its customer; else why not. */
async function openSession(deps: Deps, tx: UnitOfWork, token: string) {
  const session = await tx.billingPortalSessions.getByToken(token);
  if (!session) throw new TillpointError('resource_missing', 'No such portal session', { param: 'token' });
  if (session.expiresAt <= deps.clock.now()) {
    throw new TillpointError('billing_portal_session_expired', 'This portal session has expired; open a new one from the merchant', { param: 'token' });
  }
  const [customer, account] = await Promise.all([tx.customers.get(session, session.customerId), tx.accounts.get(session.accountId)]);
  if (!customer || !account) throw new TillpointError('resource_missing', 'No such portal session', { param: 'token' });
  return { session, customer, account };
}

/** Everything the portal page of `token` shows. */
export async function openPortal(deps: Deps, token: string): Promise<Portal> {
  return deps.store.read(async (reader) => {
    const { session, customer, account } = await openSession(deps, reader, token);
    const [found, invoices, methods] = await Promise.all([
      reader.subscriptions.list(session, { customerId: customer.id, limit: 100 }),
      reader.invoices.list(session, { customerId: customer.id, limit: PORTAL_INVOICES_SHOWN }),
      reader.savedPaymentMethods.listForCustomer(session, customer.id),
    ]);
    const billing = found.filter((s) => billingStatuses.includes(s.status));
    // Their prices in one read; a customer has a handful of products at most.
    const prices = await reader.prices.getMany(session, [...new Set(billing.map((subscription) => subscription.priceId))]);
    const subscriptions = await Promise.all(
      billing.map(async (subscription) => {
        const price = prices.get(subscription.priceId)!;
        const product = await reader.products.get(session, price.productId);
        return { subscription, price, productName: product?.name ?? price.productId };
      }),
    );
    return {
      session,
      account,
      customer,
      subscriptions,
      invoices: invoices.filter((invoice) => invoice.status !== 'draft'),
      methods,
      defaultMethodId: billing[0]?.defaultPaymentMethodId ?? null,
    };
  });
}

/** The scope of an open portal session and its customer's id: what every action on the page acts within. */
async function portalScope(deps: Deps, token: string): Promise<{ scope: Scope; customerId: string; session: BillingPortalSession }> {
  const { session } = await deps.store.read((reader) => openSession(deps, reader, token));
  return { scope: { accountId: session.accountId, mode: session.mode }, customerId: session.customerId, session };
}

/** One of the portal customer's subscriptions, or resource_missing (another customer's reads as absent). */
async function ownSubscription(deps: Deps, scope: Scope, customerId: string, id: string): Promise<Subscription> {
  const subscription = await deps.store.read((reader) => reader.subscriptions.get(scope, id));
  if (!subscription || subscription.customerId !== customerId)
    throw new TillpointError('resource_missing', `No such subscription: '${id}'`, { param: 'subscription' });
  return subscription;
}

/**
 * The customer cancels a subscription from the portal, or takes the cancellation back: it ends at
 * the end of the period already paid for (`cancel_at_period_end`), as Stripe's portal does.
 */
export async function setPortalCancellation(deps: Deps, options: { token: string; subscriptionId: string; cancel: boolean }): Promise<Subscription> {
  const { scope, customerId } = await portalScope(deps, options.token);
  await ownSubscription(deps, scope, customerId, options.subscriptionId);
  const { subscription } = await updateSubscription(deps, { scope, actor: null, id: options.subscriptionId, change: { cancelAtPeriodEnd: options.cancel } });
  return subscription;
}

/** What moving the customer's billing to a card did to the invoices they owed. */
export interface CardChange {
  /** Owed invoices charged to the card and paid. */
  paid: number;
  /** Owed invoices whose charge to the card was refused (they stay owed, retried as planned). */
  declined: number;
}

/**
 * The customer bills their subscriptions to one of their saved cards (`methodId`): every subscription
 * still billing moves to it, and each invoice they owe is charged to it at once, as a customer who
 * just fixed their card expects. A refused charge leaves the invoice owed, as any failed attempt does.
 */
export async function useCardForSubscriptions(deps: Deps, options: { token: string; methodId: string }): Promise<CardChange> {
  const { scope, customerId } = await portalScope(deps, options.token);
  const { subscriptions, owed } = await deps.store.read(async (reader) => {
    const method = await reader.savedPaymentMethods.get(scope, options.methodId);
    if (!method || method.customerId !== customerId) {
      throw new TillpointError('resource_missing', `No such payment method: '${options.methodId}'`, { param: 'payment_method' });
    }
    const all = await reader.subscriptions.list(scope, { customerId, limit: 100 });
    const subscriptions = all.filter((s) => billingStatuses.includes(s.status));
    const open = await reader.invoices.list(scope, { customerId, status: 'open', limit: 100 });
    const uncollectible = await reader.invoices.list(scope, { customerId, status: 'uncollectible', limit: 100 });
    // An unpaid subscription's last invoice is uncollectible: paying it brings the subscription back.
    const unpaid = new Set(subscriptions.filter((s) => s.status === 'unpaid').map((s) => s.id));
    const owed = [...open, ...uncollectible.filter((i) => i.subscriptionId !== null && unpaid.has(i.subscriptionId))];
    return { subscriptions, owed };
  });
  for (const subscription of subscriptions) {
    if (subscription.defaultPaymentMethodId === options.methodId) continue;
    await updateSubscription(deps, { scope, actor: null, id: subscription.id, change: { paymentMethodId: options.methodId } });
  }
  const change: CardChange = { paid: 0, declined: 0 };
  for (const invoice of owed) {
    try {
      const charged = await chargeInvoice(deps, invoice.id, { manual: true, scope, paymentMethodId: options.methodId });
      if (charged?.invoice.status === 'paid') change.paid += 1;
    } catch (error) {
      if (!isRecordedChargeFailure(error) && !(error instanceof TillpointError && error.code === 'invoice_not_payable')) throw error;
      change.declined += 1;
    }
  }
  return change;
}

/**
 * A setup-mode checkout session for the portal's customer, whose page saves a new card and comes
 * back to `returnTo` (with `added={CHECKOUT_SESSION_ID}`). Used by the portal and the hosted invoice
 * page: the card is entered on the checkout page, with all it knows (3-D Secure, wallets, locales).
 */
export async function newCardSession(
  deps: Deps,
  options: { scope: Scope; customerId: string; currency: string; locale: string | null; returnTo: string },
): Promise<{ url: string }> {
  const separator = options.returnTo.includes('?') ? '&' : '?';
  const session = await createCheckoutSession(deps, {
    scope: options.scope,
    actor: null,
    input: {
      purpose: 'setup',
      currency: options.currency,
      lineItems: [],
      customerId: options.customerId,
      successUrl: `${options.returnTo}${separator}added={CHECKOUT_SESSION_ID}`,
      cancelUrl: options.returnTo,
      locale: options.locale ?? 'auto',
    },
  });
  return { url: `${deps.publicUrl}/c/${session.id}` };
}

/** The portal's "Add a card": a setup session that comes back to the portal. */
export async function addPortalCard(deps: Deps, options: { token: string; portalUrl: string }): Promise<{ url: string }> {
  const { scope, customerId, session } = await portalScope(deps, options.token);
  const account = await deps.store.read((reader) => reader.accounts.get(scope.accountId));
  return newCardSession(deps, { scope, customerId, currency: account?.defaultCurrency ?? 'USD', locale: session.locale, returnTo: options.portalUrl });
}

/**
 * The card a setup session for this customer saved (the `added` a card session comes back with), or
 * null when the session is not theirs, not a setup session or not complete.
 */
export async function addedCard(deps: Deps, options: { scope: Scope; customerId: string; checkoutSessionId: string }): Promise<SavedPaymentMethod | null> {
  return deps.store.read(async (reader) => {
    const session = await reader.checkoutSessions.get(options.scope, options.checkoutSessionId);
    if (session?.purpose !== 'setup' || session.status !== 'complete' || session.customerId !== options.customerId || !session.setupPaymentMethodId)
      return null;
    return reader.savedPaymentMethods.get(options.scope, session.setupPaymentMethodId);
  });
}

/** The portal came back from a card session: the saved card, when it is this customer's. */
export async function portalAddedCard(deps: Deps, options: { token: string; checkoutSessionId: string }): Promise<SavedPaymentMethod | null> {
  const { scope, customerId } = await portalScope(deps, options.token);
  return addedCard(deps, { scope, customerId, checkoutSessionId: options.checkoutSessionId });
}
