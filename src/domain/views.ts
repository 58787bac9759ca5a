import type { CheckoutSession, Payment, PaymentLink, Price, Product, Refund } from './entities';
import type { DomainEvent } from './events';

/** Seconds since the epoch, the way the API shows every time. */
export function unixTime(date: Date | null): number | null {
  return date === null ? null : Math.floor(date.getTime() / 1000);
}

/** The checkout session as the merchant API and its events show it. */
export function checkoutSessionView(session: CheckoutSession, publicUrl: string) {
  return {
    id: session.id,
    object: 'checkout.session' as const,
    livemode: session.mode === 'live',
    status: session.status,
    url: session.status === 'open' ? `${publicUrl}/c/${session.id}` : null,
    currency: session.currency.toLowerCase(),
    line_items: session.lineItems.map((item) => ({
      name: item.name,
      unit_amount: item.unitAmount,
      quantity: item.quantity,
      amount: item.amount,
    })),
    amount_subtotal: session.amountSubtotal,
    amount_total: session.amountTotal,
    customer_email: session.customerEmail,
    success_url: session.successUrl,
    cancel_url: session.cancelUrl,
    capture_method: session.captureMethod,
    payment_method_types: session.paymentMethodTypes,
    locale: session.locale,
    metadata: session.metadata,
    client_reference_id: session.clientReferenceId,
    payment_link: session.paymentLinkId,
    payment: session.paymentId,
    expires_at: unixTime(session.expiresAt),
    completed_at: unixTime(session.completedAt),
    created: unixTime(session.createdAt),
  };
}

/** The payment as the merchant API and its events show it. */
export function paymentView(payment: Payment) {
  const method = payment.paymentMethod;
  return {
    id: payment.id,
    object: 'payment' as const,
    livemode: payment.mode === 'live',
    status: payment.status,
    amount: payment.amount,
    amount_captured: payment.amountCaptured,
    amount_refunded: payment.amountRefunded,
    currency: payment.currency.toLowerCase(),
    capture_method: payment.captureMethod,
    checkout_session: payment.checkoutSessionId,
    customer_email: payment.customerEmail,
    payment_method: method && {
      type: method.type,
      brand: method.brand,
      last4: method.last4,
      exp_month: method.expMonth,
      exp_year: method.expYear,
      fingerprint: method.fingerprint,
    },
    processor: payment.processor,
    processor_transaction_id: payment.processorTransactionId,
    processor_response: payment.processorResponse,
    failure_code: payment.failureCode,
    decline_code: payment.declineCode,
    three_d_secure: payment.threeDSecure && {
      status: payment.threeDSecure.status,
      liability_shifted: payment.threeDSecure.liabilityShifted,
    },
    created: unixTime(payment.createdAt),
  };
}

/** The refund as the merchant API and its events show it. */
export function refundView(refund: Refund) {
  return {
    id: refund.id,
    object: 'refund' as const,
    livemode: refund.mode === 'live',
    payment: refund.paymentId,
    amount: refund.amount,
    currency: refund.currency.toLowerCase(),
    reason: refund.reason,
    status: refund.status,
    failure_reason: refund.failureReason,
    created_by: refund.createdBy,
    processor_refund_id: refund.processorRefundId,
    created: unixTime(refund.createdAt),
    updated: unixTime(refund.updatedAt),
  };
}

/** An event as `GET /v1/events` shows it: the object's snapshot at the moment of the change. */
export function eventView(event: DomainEvent) {
  return {
    id: event.id,
    object: 'event' as const,
    livemode: event.mode === 'live',
    type: event.type,
    created: unixTime(event.createdAt),
    data: { object: event.data },
  };
}

export function priceView(price: Price) {
  return {
    id: price.id,
    object: 'price' as const,
    livemode: price.mode === 'live',
    product: price.productId,
    currency: price.currency.toLowerCase(),
    unit_amount: price.unitAmount,
    active: price.active,
    created: unixTime(price.createdAt),
  };
}

/** A product with its default price spelled out, so one call gives what a link needs. */
export function productView(product: Product, defaultPrice: Price | null) {
  return {
    id: product.id,
    object: 'product' as const,
    livemode: product.mode === 'live',
    name: product.name,
    description: product.description,
    active: product.active,
    default_price: defaultPrice && priceView(defaultPrice),
    created: unixTime(product.createdAt),
    updated: unixTime(product.updatedAt),
  };
}

export function paymentLinkView(link: PaymentLink, publicUrl: string) {
  const items = link.lineItems.map((item) => ({
    price: item.priceId ?? null,
    name: item.name,
    unit_amount: item.unitAmount,
    quantity: item.quantity,
    amount: item.unitAmount * item.quantity,
  }));
  return {
    id: link.id,
    object: 'payment_link' as const,
    livemode: link.mode === 'live',
    active: link.active,
    url: `${publicUrl}/l/${link.slug}`,
    currency: link.currency.toLowerCase(),
    line_items: items,
    amount_total: items.reduce((sum, item) => sum + item.amount, 0),
    created: unixTime(link.createdAt),
  };
}
