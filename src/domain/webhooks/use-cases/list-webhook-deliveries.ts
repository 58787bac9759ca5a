import type { Deps } from '../../deps';
import { getWebhookEndpoint } from './get-webhook-endpoint';
import type { Scope } from '../../shared/scope';
import type { WebhookDelivery } from '../entities';

/** An endpoint's deliveries with their attempt logs, newest first, a page at a time. */
export async function listWebhookDeliveries(
  deps: Deps,
  options: { scope: Scope; endpointId: string; limit: number; startingAfter?: string | undefined },
): Promise<{ data: WebhookDelivery[]; hasMore: boolean }> {
  await getWebhookEndpoint(deps, { scope: options.scope, id: options.endpointId });
  const rows = await deps.store.readReplica((reader) =>
    reader.webhookDeliveries.list(options.scope, options.endpointId, {
      limit: options.limit + 1,
      startingAfter: options.startingAfter,
    }),
  );
  return { data: rows.slice(0, options.limit), hasMore: rows.length > options.limit };
}
