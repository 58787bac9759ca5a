import { resourceMissing } from '../errors';
import type { Deps, Scope } from '../ports';
import type { WebhookEndpoint } from '../webhooks';
import { assertWebhookUrlAllowed, type NewWebhookEndpoint } from './create-webhook-endpoint';

/**
 * Changes an endpoint's url, events or description, or re-enables it (`disabled: false`) after it
 * was disabled for failing; re-enabling starts a fresh failure streak.
 */
export async function updateWebhookEndpoint(
  deps: Deps,
  options: { scope: Scope; id: string; changes: Partial<NewWebhookEndpoint> & { disabled?: boolean | undefined } },
): Promise<WebhookEndpoint> {
  const { scope, id, changes } = options;
  if (changes.url !== undefined) await assertWebhookUrlAllowed(deps, changes.url, scope);
  return deps.store.transaction(async (tx) => {
    const endpoint = await tx.webhookEndpoints.get(scope, id);
    if (!endpoint) throw resourceMissing('webhook endpoint', id);
    const next: WebhookEndpoint = {
      ...endpoint,
      url: changes.url ?? endpoint.url,
      enabledEvents: changes.enabledEvents ? [...new Set(changes.enabledEvents)] : endpoint.enabledEvents,
      description: changes.description ?? endpoint.description,
      status: changes.disabled === undefined ? endpoint.status : changes.disabled ? 'disabled' : 'enabled',
      failingSince: changes.disabled === false ? null : endpoint.failingSince,
      updatedAt: deps.clock.now(),
    };
    await tx.webhookEndpoints.update(next);
    return next;
  });
}
