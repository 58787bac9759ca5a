import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { WebhookEndpoint } from '../entities';

/** The account's endpoints in this mode, newest first, a page at a time. */
export async function listWebhookEndpoints(
  deps: Deps,
  options: { scope: Scope; limit: number; startingAfter?: string | undefined },
): Promise<{ data: WebhookEndpoint[]; hasMore: boolean }> {
  const rows = await deps.store.readReplica((reader) =>
    reader.webhookEndpoints.list(options.scope, { limit: options.limit + 1, startingAfter: options.startingAfter }),
  );
  return { data: rows.slice(0, options.limit), hasMore: rows.length > options.limit };
}
