import type { PaymentStory } from '../../domain/payments/use-cases/get-payment-story';
import type { Membership } from '../../domain/team/entities';
import { apiRequestView } from './api-key';
import { disputeView } from './dispute';
import { timelineEventView } from './event';
import { dashboardPaymentView } from './payment';
import { refundView } from './refund';
import { unixTime } from './resource';

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
    metadata: session?.metadata ?? {},
    client_reference_id: session?.clientReferenceId ?? null,
    refunds: story.refunds.map(refundView),
    disputes: story.disputes.map((d) => {
      const { evidence: _evidence, ...rest } = disputeView(d);
      return rest;
    }),
    timeline: story.events.map((event) => ({ ...timelineEventView(event), deliveries: deliveriesOf(event.id) })),
    request_log: story.requestLog?.map(apiRequestView),
  };
}
