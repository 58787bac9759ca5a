import { auditWrite } from '../../team/audit';
import type { EventType } from '../../shared/events';
import { newId } from '../../shared/ids';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import type { WebhookEndpoint } from '../entities';
import { newWebhookSecret, assertWebhookUrlAllowed } from '../rules';

export interface NewWebhookEndpoint {
  url: string;
  enabledEvents: Array<EventType | '*'>;
  description?: string | undefined;
}

/** Registers a webhook endpoint; the returned secret is the only time it is shown. */
export async function createWebhookEndpoint(deps: Deps, options: { scope: Scope; input: NewWebhookEndpoint; actor: Actor | null }): Promise<WebhookEndpoint> {
  const { scope, input } = options;
  await assertWebhookUrlAllowed(deps, input.url, scope);
  const now = deps.clock.now();
  const endpoint: WebhookEndpoint = {
    id: newId('we'),
    accountId: scope.accountId,
    mode: scope.mode,
    url: input.url,
    description: input.description ?? null,
    enabledEvents: [...new Set(input.enabledEvents)],
    secret: newWebhookSecret(),
    status: 'enabled',
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  };
  await deps.store.transaction(async (tx) => {
    await tx.webhookEndpoints.insert(endpoint);
    await auditWrite(tx, { scope, actor: options.actor, action: 'webhook_endpoint.create', target: endpoint.id, at: now });
  });
  return endpoint;
}
