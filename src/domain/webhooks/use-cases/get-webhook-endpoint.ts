import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { WebhookEndpoint } from '../entities';

/** One endpoint of the caller's account and mode. */
export async function getWebhookEndpoint(deps: Deps, options: { scope: Scope; id: string }): Promise<WebhookEndpoint> {
  const endpoint = await deps.store.read((reader) => reader.webhookEndpoints.get(options.scope, options.id));
  if (!endpoint) throw resourceMissing('webhook endpoint', options.id);
  return endpoint;
}
