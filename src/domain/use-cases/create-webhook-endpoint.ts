import { auditWrite } from '../audit';
import { TillpointError } from '../errors';
import type { EventType } from '../events';
import { newId } from '../ids';
import type { Deps, Scope } from '../ports';
import type { Actor } from '../team-entities';
import type { WebhookEndpoint } from '../webhooks';

export interface NewWebhookEndpoint {
  url: string;
  enabledEvents: Array<EventType | '*'>;
  description?: string | undefined;
}

/** A fresh signing secret, `whsec_` and 32 base62 characters (~190 bits). */
export const newWebhookSecret = () => newId('whsec', 32);

/** Refuses a URL the mode does not allow (design.md §5: https and public addresses in live mode). */
export async function assertWebhookUrlAllowed(deps: Deps, url: string, scope: Scope): Promise<void> {
  const verdict = await deps.webhookUrls.check(url, scope.mode);
  if (!verdict.allowed) throw new TillpointError('parameter_invalid', `Invalid url: ${verdict.reason}`, { param: 'url' });
}

/** Registers a webhook endpoint; the returned secret is the only time it is shown. */
export async function createWebhookEndpoint(
  deps: Deps,
  options: { scope: Scope; input: NewWebhookEndpoint; actor: Actor | null },
): Promise<WebhookEndpoint> {
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
