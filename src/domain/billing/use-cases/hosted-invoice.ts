import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import { TillpointError } from '../../shared/errors';
import type { Invoice } from '../entities';
import type { HostedInvoice } from '../hosted-pages';
import { chargeInvoice } from './run-billing';
import { updateSubscription } from './subscriptions';
import { newCardSession } from './portal';

const missing = () => new TillpointError('resource_missing', 'No such invoice', { param: 'token' });

/** The invoice whose hosted page `token` opens. Never expires: its link is in the customer's email. */
export async function openHostedInvoice(deps: Deps, token: string): Promise<HostedInvoice> {
  return deps.store.read(async (reader) => {
    const invoice = await reader.invoices.getByHostedToken(token);
    if (!invoice) throw missing();
    const [account, customer, methods, subscription, payment] = await Promise.all([
      reader.accounts.get(invoice.accountId),
      reader.customers.get(invoice, invoice.customerId),
      reader.savedPaymentMethods.listForCustomer(invoice, invoice.customerId),
      invoice.subscriptionId ? reader.subscriptions.get(invoice, invoice.subscriptionId) : Promise.resolve(null),
      invoice.paymentId ? reader.payments.get(invoice, invoice.paymentId) : Promise.resolve(null),
    ]);
    if (!account || !customer) throw missing();
    const underWay = payment !== null && invoice.status === 'open' && payment.status === 'processing';
    const payable = (invoice.status === 'open' || invoice.status === 'uncollectible') && !underWay;
    const subscriptionBilling = subscription !== null && subscription.status !== 'canceled';
    return { invoice, account, customer, methods, defaultMethodId: subscription?.defaultPaymentMethodId ?? null, payable, subscriptionBilling };
  });
}

function scopeOf(invoice: Invoice): Scope {
  return { accountId: invoice.accountId, mode: invoice.mode };
}

/**
 * The customer pays the invoice on its hosted page with one of their saved cards, now: the same
 * charge as `POST /v1/invoices/:id/pay` (one payment under way or won per invoice). A decline is
 * thrown as `card_declined`, recorded as a failed attempt. Paid, and `useForSubscription`, its
 * subscription bills that card from now on.
 */
export async function payHostedInvoice(deps: Deps, options: { token: string; methodId: string; useForSubscription?: boolean }): Promise<Invoice> {
  const { invoice, subscriptionBilling } = await openHostedInvoice(deps, options.token);
  const scope = scopeOf(invoice);
  const method = await deps.store.read((reader) => reader.savedPaymentMethods.get(scope, options.methodId));
  if (!method || method.customerId !== invoice.customerId) {
    throw new TillpointError('resource_missing', `No such payment method: '${options.methodId}'`, { param: 'payment_method' });
  }
  const charged = await chargeInvoice(deps, invoice.id, { manual: true, scope, paymentMethodId: method.id });
  const paid = charged?.invoice ?? invoice;
  if (options.useForSubscription && subscriptionBilling && paid.status === 'paid' && invoice.subscriptionId) {
    await updateSubscription(deps, { scope, actor: null, id: invoice.subscriptionId, change: { paymentMethodId: method.id } });
  }
  return paid;
}

/** "Pay with another card": a setup session that saves it and comes back to the invoice's page. */
export async function addHostedInvoiceCard(deps: Deps, options: { token: string; pageUrl: string; locale: string | null }): Promise<{ url: string }> {
  const { invoice, payable } = await openHostedInvoice(deps, options.token);
  if (!payable) throw new TillpointError('invoice_not_payable', `This invoice is ${invoice.status}; there is nothing to pay`);
  return newCardSession(deps, {
    scope: scopeOf(invoice),
    customerId: invoice.customerId,
    currency: invoice.currency,
    locale: options.locale,
    returnTo: options.pageUrl,
  });
}
