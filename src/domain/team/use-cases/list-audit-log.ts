import type { Deps } from '../../deps';
import type { AuditEntry } from '../entities';
import type { PageRequest } from '../ports';

/** The account's audit log, newest first. */
export async function listAuditLog(deps: Deps, options: { accountId: string; page: PageRequest }): Promise<{ data: AuditEntry[]; hasMore: boolean }> {
  const { limit } = options.page;
  const rows = await deps.store.readReplica((reader) => reader.auditLog.list(options.accountId, { ...options.page, limit: limit + 1 }));
  return { data: rows.slice(0, limit), hasMore: rows.length > limit };
}
