import type { Payment, Refund } from '../entities';
import type { CheckoutSession } from '../../sessions/entities';
import type { Dispute } from '../../disputes/entities';
import type { WebhookDelivery, WebhookEndpoint } from '../../webhooks/entities';
import type { ApiRequestRecord } from '../../team/entities';
import { can, type Role } from '../../team/permissions';
import { resourceMissing } from '../../shared/errors';
import type { DomainEvent } from '../../shared/events';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';

/** A payment has at most this many refunds on its page; more is not a real merchant's case. */
const REFUNDS_SHOWN = 100;
/** The request-log lines shown: the newest ones that name the payment, its session, refunds or disputes. */
const REQUEST_LOG_LINES_SHOWN = 50;

/** What the payment's page tells: everything about one payment, read in one transaction. */
export interface PaymentStory {
  payment: Payment;
  /** The checkout session paid (line items, metadata, client reference); null for a charge of a saved method. */
  session: CheckoutSession | null;
  refunds: Refund[];
  disputes: Dispute[];
  /** Every event of the payment, its session, refunds and disputes, oldest first. */
  events: DomainEvent[];
  /**
   * The webhook deliveries those events caused, with the endpoints they went to; null when the
   * role may not read webhooks.
   */
  deliveries: { delivery: WebhookDelivery; endpoint: Pick<WebhookEndpoint, 'id' | 'url'> | null }[] | null;
  /** The merchant API calls whose path names one of those objects, newest first; null when the role may not read the log. */
  requestLog: ApiRequestRecord[] | null;
}

/**
 * A payment's whole story: its session's line items and metadata, refunds, disputes, the timeline
 * of their events with the webhook deliveries each caused, and the request-log lines that touched
 * it. What a role may not read is left out (null), never fetched.
 */
export async function getPaymentStory(deps: Deps, options: { scope: Scope; id: string; role: Role }): Promise<PaymentStory> {
  const { scope, role } = options;
  const found = await deps.store.read(async (reader): Promise<PaymentStory | null> => {
    const payment = await reader.payments.get(scope, options.id);
    if (!payment) return null;
    const session = payment.checkoutSessionId ? await reader.checkoutSessions.get(scope, payment.checkoutSessionId) : null;
    const refunds = await reader.refunds.list(scope, { paymentId: payment.id, limit: REFUNDS_SHOWN });
    const disputes = await reader.disputes.listForPayment(scope, payment.id);
    const events: DomainEvent[] = [...(await reader.events.listForObject(payment.id))];
    for (const object of [...refunds, ...disputes]) events.push(...(await reader.events.listForObject(object.id)));
    events.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));

    let deliveries: PaymentStory['deliveries'] = null;
    if (can(role, 'webhooks.read')) {
      const rows = await reader.webhookDeliveries.listForEvents(
        scope,
        events.map((e) => e.id),
      );
      const endpoints = new Map<string, WebhookEndpoint | null>();
      for (const id of new Set(rows.map((d) => d.endpointId))) endpoints.set(id, await reader.webhookEndpoints.get(scope, id));
      deliveries = rows.map((delivery) => {
        const endpoint = endpoints.get(delivery.endpointId);
        return { delivery, endpoint: endpoint ? { id: endpoint.id, url: endpoint.url } : null };
      });
    }

    const touched = [payment.id, ...(session ? [session.id] : []), ...refunds.map((r) => r.id), ...disputes.map((d) => d.id)];
    const requestLog = can(role, 'request_log.read') ? await reader.apiRequests.listTouching(scope, touched, REQUEST_LOG_LINES_SHOWN) : null;
    return { payment, session, refunds, disputes, events, deliveries, requestLog };
  });
  if (!found) throw resourceMissing('payment', options.id);
  return found;
}
