import { auditWrite } from '../../team/audit';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import type { WebhookEndpoint } from '../entities';
import { newWebhookSecret } from '../rules';

/** Replaces an endpoint's signing secret at once; the new one is shown only in this answer. */
export async function rollWebhookEndpointSecret(deps: Deps, options: { scope: Scope; id: string; actor: Actor | null }): Promise<WebhookEndpoint> {
  return deps.store.transaction(async (tx) => {
    const endpoint = await tx.webhookEndpoints.get(options.scope, options.id);
    if (!endpoint) throw resourceMissing('webhook endpoint', options.id);
    const rolled = { ...endpoint, secret: newWebhookSecret(), updatedAt: deps.clock.now() };
    await tx.webhookEndpoints.update(rolled);
    await auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'webhook_endpoint.roll_secret', target: rolled.id, at: rolled.updatedAt });
    return rolled;
  });
}
