import { Readable } from 'node:stream';
import { currencyRule } from '../../domain/shared/currency';
import type { Payment } from '../../domain/payments/entities';
import type { Address } from '../../domain/addresses/entities';
import type { Deps } from '../../domain/deps';
import type { Membership } from '../../domain/team/entities';
import type { PaymentFilter } from '../../domain/team/ports';
import { searchPayments } from '../../domain/payments/use-cases/search-payments';
import { csvCell } from '../views/csv';
import { maskEmail } from '../../domain/sessions/customer-email';
import { dashboardPaymentView, seesEmails } from '../views/payment';
import type { Scope } from '../../domain/shared/scope';

const BATCH = 1000;

/** A decimal amount in the currency's own exponent: 1050 USD → 10.50, 1050 JPY → 1050. */
function decimalAmount(minor: number, currency: string): string {
  const exponent = currencyRule(currency)?.exponent ?? 2;
  return exponent === 0 ? String(minor) : (minor / 10 ** exponent).toFixed(exponent);
}

/**
 * `status` is the badge the list shows (`refunded`, `partially_refunded`, or the lifecycle status).
 * After who paid: the order's discount, shipping and tax, the shipping name and address, the billing
 * address and the shopper's answers to custom fields (`key: answer`, one per line of the cell).
 */
const header = [
  'id',
  'created_utc',
  'status',
  'amount',
  'amount_captured',
  'amount_refunded',
  'currency',
  'customer_email',
  'brand',
  'last4',
  'checkout_session',
  'decline_code',
  'payment_method_type',
  'payer',
  'amount_discount',
  'amount_shipping',
  'amount_tax',
  'shipping_name',
  'shipping_line1',
  'shipping_line2',
  'shipping_city',
  'shipping_state',
  'shipping_postal_code',
  'shipping_country',
  'billing_line1',
  'billing_line2',
  'billing_city',
  'billing_state',
  'billing_postal_code',
  'billing_country',
  'custom_fields',
];

/** An address's columns, empty when there is none. */
function addressCells(address: Address | null): Array<string | null> {
  return [
    address?.line1 ?? null,
    address?.line2 ?? null,
    address?.city ?? null,
    address?.state ?? null,
    address?.postal_code ?? null,
    address?.country ?? null,
  ];
}

/** The shopper's answers, as they read them: a dropdown's option label, else what was typed. */
function customFieldAnswers(payment: Payment): string | null {
  const answered = (payment.customFields ?? []).filter((field) => field.value !== null);
  if (answered.length === 0) return null;
  return answered.map((field) => `${field.key}: ${field.options?.find((option) => option.value === field.value)?.label ?? field.value}`).join('\n');
}

/** Who paid, as the wallet names them: PayPal's payer email (masked like customer emails), Venmo's username. */
function payer(payment: Payment, membership: Membership): string | null {
  const method = payment.paymentMethod;
  if (method?.payerEmail) return seesEmails(membership) ? method.payerEmail : maskEmail(method.payerEmail);
  return method?.username ?? null;
}

function row(payment: Payment, membership: Membership): string {
  const view = dashboardPaymentView(payment, membership);
  return [
    view.id,
    payment.createdAt.toISOString(),
    view.status_badge,
    decimalAmount(payment.amount, payment.currency),
    decimalAmount(payment.amountCaptured, payment.currency),
    decimalAmount(payment.amountRefunded, payment.currency),
    payment.currency,
    view.customer_email,
    view.payment_method?.brand ?? null,
    view.payment_method?.last4 ?? null,
    view.checkout_session,
    view.decline_code,
    view.payment_method?.type ?? null,
    payer(payment, membership),
    payment.totalDetails ? decimalAmount(payment.totalDetails.amountDiscount, payment.currency) : null,
    payment.totalDetails ? decimalAmount(payment.totalDetails.amountShipping, payment.currency) : null,
    payment.totalDetails ? decimalAmount(payment.totalDetails.amountTax, payment.currency) : null,
    payment.shippingDetails?.name ?? null,
    ...addressCells(payment.shippingDetails?.address ?? null),
    ...addressCells(payment.billingAddress),
    customFieldAnswers(payment),
  ]
    .map(csvCell)
    .join(',');
}

/**
 * Every payment matching the filter, newest first, as CSV (emails masked for roles that see them
 * masked), streamed in batches of 1,000 rows: memory stays flat however many payments match. The
 * first batch is read before anything is sent, so a refused filter still answers with its error.
 */
export async function paymentsCsv(deps: Deps, scope: Scope, filter: Omit<PaymentFilter, 'limit' | 'startingAfter'>, membership: Membership): Promise<Readable> {
  const batch = (startingAfter: string | undefined) =>
    searchPayments(deps, { scope, filter: { ...filter, limit: BATCH, startingAfter }, role: membership.role });
  const first = await batch(undefined);
  async function* lines() {
    yield `${header.join(',')}\r\n`;
    let page = first;
    for (;;) {
      if (page.data.length > 0) yield `${page.data.map((payment) => row(payment, membership)).join('\r\n')}\r\n`;
      if (!page.hasMore) return;
      page = await batch(page.data.at(-1)!.id);
    }
  }
  return Readable.from(lines(), { objectMode: false });
}
