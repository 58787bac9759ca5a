import { resourceMissing } from '../errors';
import type { Deps, Scope } from '../ports';

/** Removes an endpoint and its delivery log; deliveries still owed to it are dropped. */
export async function deleteWebhookEndpoint(deps: Deps, options: { scope: Scope; id: string }): Promise<void> {
  const deleted = await deps.store.transaction((tx) => tx.webhookEndpoints.delete(options.scope, options.id));
  if (!deleted) throw resourceMissing('webhook endpoint', options.id);
}
