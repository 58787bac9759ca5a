import type { Deps } from '../../deps';
import type { ApiRequestRecord } from '../../team/entities';
import type { PageRequest } from '../../team/ports';
import type { Scope } from '../../shared/scope';

/** The scope's recent merchant API calls, newest first. */
export async function listApiRequests(deps: Deps, options: { scope: Scope; page: PageRequest }): Promise<{ data: ApiRequestRecord[]; hasMore: boolean }> {
  const { limit } = options.page;
  const rows = await deps.store.readReplica((reader) => reader.apiRequests.list(options.scope, { ...options.page, limit: limit + 1 }));
  return { data: rows.slice(0, limit), hasMore: rows.length > limit };
}
