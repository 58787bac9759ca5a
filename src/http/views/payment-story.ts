import type { PaymentStory } from '../../domain/payments/use-cases/get-payment-story';
import type { Membership } from '../../domain/team/entities';
import { apiRequestView } from './api-key';
import { disputeView } from './dispute';
import { timelineEventView } from './event';
import { dashboardPaymentView } from './payment';
import { refundView } from './refund';
import { unixTime } from './resource';
import { sessionTaxBreakdown } from '../../domain/sessions/rules';
import type { CheckoutSession } from '../../domain/sessions/entities';
import type { Payment } from '../../domain/payments/entities';

/** A dispute in one of these statuses took its amount back for good (the Overview's "Lost to disputes"). */
const lostDisputeStatuses = new Set<string>(['lost', 'accepted', 'expired']);

/**
 * The order as the shopper saw it when this payment was made: subtotal of the lines, the discount
 * with its code, the shipping method chosen, each tax by its rate, and the total charged. Amounts
 * are the payment's own (`total_details` at the attempt); names come from the session.
 */
function orderView(payment: Payment, session: CheckoutSession | null) {
  const details = payment.totalDetails ?? { amountDiscount: 0, amountShipping: 0, amountTax: 0 };
  const applied = session?.discounts[0] ?? null;
  const rate = session?.shippingOptions.find((option) => option.id === session.shippingRateId) ?? null;
  return {
    amount_subtotal: session ? session.amountSubtotal : null,
    discount:
      details.amountDiscount > 0 || applied
        ? { amount: details.amountDiscount, code: applied?.promotionCode?.code ?? null, name: applied?.coupon.name ?? null }
        : null,
    shipping: details.amountShipping > 0 || rate ? { amount: details.amountShipping, name: rate?.displayName ?? null } : null,
    amount_tax: details.amountTax,
    taxes: session
      ? sessionTaxBreakdown(session).map((tax) => ({ amount: tax.amount, display_name: tax.displayName, percentage: tax.percentage, inclusive: tax.inclusive }))
      : [],
    amount_total: payment.amount,
  };
}

/**
 * A payment's whole story as its dashboard page reads it in one answer: the payment (emails masked
 * for roles that do not see them), its session's line items and metadata, refunds, disputes, the
 * timeline with each event's webhook deliveries (`null` for roles that may not read webhooks) and
 * the request-log lines that named it (`null` for roles that may not read the log).
 */
export function paymentStoryView(story: PaymentStory, membership: Membership) {
  const { session } = story;
  const deliveriesOf = (eventId: string) =>
    story.deliveries === null
      ? null
      : story.deliveries
          .filter(({ delivery }) => delivery.eventId === eventId)
          .map(({ delivery, endpoint }) => ({
            id: delivery.id,
            webhook_endpoint: delivery.endpointId,
            endpoint_url: endpoint?.url ?? null,
            status: delivery.status,
            attempts: delivery.attempts,
            last_response_status: delivery.lastResponseStatus,
            next_attempt_at: unixTime(delivery.nextAttemptAt),
            created: unixTime(delivery.createdAt),
          }));
  return {
    ...dashboardPaymentView(story.payment, membership),
    line_items: session
      ? session.lineItems.map((item) => ({ name: item.name, unit_amount: item.unitAmount, quantity: item.quantity, amount: item.amount }))
      : [],
    // Money the bank took back or may take back, beside what was captured and refunded: lost
    // disputes, and the whole debit when a bank debit was returned (ADR 0107).
    amount_disputed: story.disputes.reduce((sum, d) => sum + d.amount, 0),
    amount_lost:
      story.disputes.filter((d) => lostDisputeStatuses.has(d.status)).reduce((sum, d) => sum + d.amount, 0) +
      (story.payment.achReturn ? story.payment.amountCaptured : 0),
    order: orderView(story.payment, session),
    metadata: session?.metadata ?? {},
    client_reference_id: session?.clientReferenceId ?? null,
    refunds: story.refunds.map(refundView),
    disputes: story.disputes.map((d) => {
      const { evidence: _evidence, ...rest } = disputeView(d);
      return rest;
    }),
    timeline: story.events.map((event) => ({ ...timelineEventView(event), deliveries: deliveriesOf(event.id) })),
    request_log: story.requestLog?.map(apiRequestView) ?? null,
  };
}
