import { auditWrite } from '../../team/audit';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';

/** Removes an endpoint and its delivery log; deliveries still owed to it are dropped. */
export async function deleteWebhookEndpoint(deps: Deps, options: { scope: Scope; id: string; actor: Actor | null }): Promise<void> {
  await deps.store.transaction(async (tx) => {
    if (!(await tx.webhookEndpoints.delete(options.scope, options.id))) throw resourceMissing('webhook endpoint', options.id);
    await auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'webhook_endpoint.delete', target: options.id, at: deps.clock.now() });
  });
}
