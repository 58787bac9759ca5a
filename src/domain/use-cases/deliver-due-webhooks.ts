import { newId } from '../ids';
import type { Deps } from '../ports';
import {
  failedTooLong,
  nextRetryAt,
  signatureHeader,
  WEBHOOK_LEASE_MS,
  WEBHOOK_TIMEOUT_MS,
  webhookPayload,
  type ClaimedDelivery,
  type WebhookSender,
  type WebhookSendResult,
} from '../webhooks';

/**
 * One pass of the webhook worker: claim the due deliveries (leased, so no other instance sends
 * them meanwhile), send each signed with no transaction open, then record each outcome and its next
 * attempt. Returns how many were attempted.
 */
export async function deliverDueWebhooks(
  deps: Deps,
  options: { sender: WebhookSender; batchSize?: number },
): Promise<number> {
  const now = deps.clock.now();
  const claimed = await deps.store.transaction((tx) =>
    tx.webhookDeliveries.claimDue({
      now,
      leaseUntil: new Date(now.getTime() + WEBHOOK_LEASE_MS),
      leaseToken: newId('lease', 16),
      limit: options.batchSize ?? 20,
    }),
  );
  await Promise.all(claimed.map((delivery) => deliver(deps, options.sender, delivery)));
  return claimed.length;
}

async function deliver(deps: Deps, sender: WebhookSender, delivery: ClaimedDelivery): Promise<void> {
  const startedAt = deps.clock.now();
  const body = webhookPayload(delivery.event);
  const signature = await signatureHeader(delivery.endpoint.secret, Math.floor(startedAt.getTime() / 1000), body);
  const result: WebhookSendResult = await sender
    .send({
      url: delivery.endpoint.url,
      mode: delivery.endpoint.mode,
      body,
      headers: { 'tillpoint-signature': signature },
      timeoutMs: WEBHOOK_TIMEOUT_MS,
    })
    .catch((error: unknown) => ({ ok: false, status: null, body: null, durationMs: 0, error: String(error) }));
  const at = deps.clock.now();
  const retryAt = result.ok ? null : nextRetryAt(delivery.firstDueAt, delivery.attempt);
  await deps.store.transaction(async (tx) => {
    const recorded = await tx.webhookDeliveries.recordAttempt({
      deliveryId: delivery.id,
      leaseToken: delivery.leaseToken,
      attempt: {
        attempt: delivery.attempt,
        outcome: result.ok ? 'succeeded' : 'failed',
        responseStatus: result.status,
        responseBody: result.body,
        durationMs: result.durationMs,
        error: result.ok ? null : result.error,
        startedAt,
      },
      status: result.ok ? 'delivered' : retryAt ? 'retrying' : 'abandoned',
      nextAttemptAt: retryAt,
      at,
    });
    // A lost lease means another worker has taken the delivery over; its outcome will count.
    if (!recorded) return;
    const failingSince = await tx.webhookEndpoints.noteDeliveryResult(delivery.endpoint.id, result.ok, startedAt);
    // Disabled after 3 days of failures: either the streak is that long, or a delivery has used up
    // its whole 3-day schedule without the endpoint succeeding once meanwhile.
    if (!result.ok && (failedTooLong(failingSince, at) || retryAt === null)) {
      await tx.webhookEndpoints.disable(delivery.endpoint.id, at);
    }
  });
}
