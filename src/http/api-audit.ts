/**
 * Every write a secret key can make, and the audit-log action its use case records (design.md §6:
 * every write by a user or a key goes to the audit log). The handler passes the key as the use
 * case's `actor`, and the use case writes the line in the write's own transaction, so the write and
 * its line commit or roll back together; a refused write records nothing, and a replay of an
 * `Idempotency-Key` runs no use case, so it records nothing new either. The table is checked against
 * the write routes of the OpenAPI document (test/integration/api-audit.test.ts), so a new write
 * route cannot be added without saying how it is audited.
 */
export const auditedApiWrites: Readonly<Record<string, string>> = {
  'POST /v1/checkout/sessions': 'checkout_session.create',
  'POST /v1/checkout/sessions/:id/expire': 'checkout_session.expire',
  'POST /v1/payments': 'payment.create',
  'POST /v1/payments/:id/capture': 'payment.capture',
  'POST /v1/payments/:id/cancel': 'payment.cancel',
  'POST /v1/payments/:id/send_receipt': 'payment.send_receipt',
  'POST /v1/refunds': 'refund.create',
  'POST /v1/disputes/:id': 'dispute.add_evidence',
  'POST /v1/disputes/:id/accept': 'dispute.accept',
  'POST /v1/disputes/:id/submit': 'dispute.submit',
  'POST /v1/products': 'product.create',
  'POST /v1/products/:id': 'product.update',
  'POST /v1/prices': 'price.create',
  'POST /v1/prices/:id': 'price.update',
  'POST /v1/coupons': 'coupon.create',
  'POST /v1/promotion_codes': 'promotion_code.create',
  'POST /v1/tax_rates': 'tax_rate.create',
  'POST /v1/subscriptions': 'subscription.create',
  'POST /v1/billing_portal/sessions': 'billing_portal_session.create',
  'POST /v1/subscriptions/:id': 'subscription.update',
  'DELETE /v1/subscriptions/:id': 'subscription.cancel',
  'POST /v1/invoices/:id/pay': 'invoice.pay',
  'POST /v1/invoices/:id/void': 'invoice.void',
  'POST /v1/test_helpers/test_clocks': 'test_clock.create',
  'POST /v1/test_helpers/test_clocks/:id/advance': 'test_clock.advance',
  'POST /v1/customers': 'customer.create',
  'POST /v1/customers/:id': 'customer.update',
  'DELETE /v1/customers/:id': 'customer.delete',
  'DELETE /v1/payment_methods/:id': 'payment_method.delete',
  'POST /v1/payment_links': 'payment_link.create',
  'POST /v1/payment_links/:id': 'payment_link.update | payment_link.activate | payment_link.deactivate',
  'POST /v1/webhook_endpoints': 'webhook_endpoint.create',
  'POST /v1/webhook_endpoints/:id': 'webhook_endpoint.update | webhook_endpoint.enable | webhook_endpoint.disable',
  'DELETE /v1/webhook_endpoints/:id': 'webhook_endpoint.delete',
  'POST /v1/webhook_endpoints/:id/roll_secret': 'webhook_endpoint.roll_secret',
  'POST /v1/webhook_endpoints/:id/deliveries/:delivery_id/resend': 'webhook_delivery.resend',
  'POST /v1/flags': 'flag.create',
  'POST /v1/flags/:key': 'flag.update',
  'POST /v1/experiments': 'experiment.create',
  'POST /v1/experiments/:id': 'experiment.update | experiment.start | experiment.stop | experiment.draft',
};
