import { resourceMissing } from '../errors';
import type { Deps, Scope } from '../ports';
import type { WebhookDelivery } from '../webhooks';

/**
 * Queues one more attempt of a delivery, due now, whatever its state (delivered and abandoned ones
 * included). The worker sends it; the delivery's log shows the outcome.
 */
export async function resendWebhookDelivery(
  deps: Deps,
  options: { scope: Scope; endpointId: string; deliveryId: string },
): Promise<WebhookDelivery> {
  const { scope, endpointId, deliveryId } = options;
  return deps.store.transaction(async (tx) => {
    const delivery = await tx.webhookDeliveries.get(scope, endpointId, deliveryId);
    if (!delivery) throw resourceMissing('webhook delivery', deliveryId);
    await tx.webhookDeliveries.requeue(scope, deliveryId, deps.clock.now());
    return (await tx.webhookDeliveries.get(scope, endpointId, deliveryId))!;
  });
}
