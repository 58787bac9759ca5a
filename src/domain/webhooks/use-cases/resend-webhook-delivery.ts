import { auditWrite } from '../../team/audit';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import type { WebhookDelivery } from '../entities';

/**
 * Queues one more attempt of a delivery, due now, whatever its state (delivered and abandoned ones
 * included). The worker sends it; the delivery's log shows the outcome.
 */
export async function resendWebhookDelivery(
  deps: Deps,
  options: { scope: Scope; endpointId: string; deliveryId: string; actor: Actor | null },
): Promise<WebhookDelivery> {
  const { scope, endpointId, deliveryId } = options;
  return deps.store.transaction(async (tx) => {
    const delivery = await tx.webhookDeliveries.get(scope, endpointId, deliveryId);
    if (!delivery) throw resourceMissing('webhook delivery', deliveryId);
    const at = deps.clock.now();
    await tx.webhookDeliveries.requeue(scope, deliveryId, at);
    await auditWrite(tx, { scope, actor: options.actor, action: 'webhook_delivery.resend', target: deliveryId, at });
    return (await tx.webhookDeliveries.get(scope, endpointId, deliveryId))!;
  });
}
