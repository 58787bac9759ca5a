import { auditWrite } from '../../team/audit';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { NewWebhookEndpoint } from './create-webhook-endpoint';
import type { Scope } from '../../shared/scope';
import type { WebhookEndpoint } from '../entities';
import { assertWebhookUrlAllowed } from '../rules';

/**
 * Changes an endpoint's url, events or description, or re-enables it (`disabled: false`) after it
 * was disabled for failing; re-enabling starts a fresh failure streak. Audited as
 * `webhook_endpoint.disable` / `webhook_endpoint.enable` when that is all it changes, else
 * `webhook_endpoint.update`.
 */
export async function updateWebhookEndpoint(
  deps: Deps,
  options: {
    scope: Scope;
    id: string;
    changes: Partial<NewWebhookEndpoint> & { disabled?: boolean | undefined };
    actor: Actor | null;
  },
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
    await auditWrite(tx, { scope, actor: options.actor, action: updateAction(changes), target: next.id, at: next.updatedAt });
    return next;
  });
}

/** Only switching the endpoint off or on is named as such in the audit log. */
function updateAction(changes: Partial<NewWebhookEndpoint> & { disabled?: boolean | undefined }): string {
  const switchedOnly = changes.disabled !== undefined && Object.entries(changes).every(([key, value]) => key === 'disabled' || value === undefined);
  if (!switchedOnly) return 'webhook_endpoint.update';
  return changes.disabled ? 'webhook_endpoint.disable' : 'webhook_endpoint.enable';
}
