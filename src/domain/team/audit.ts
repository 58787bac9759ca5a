import { newId } from '../shared/ids';
import type { UnitOfWork } from '../deps';
import type { Actor, AuditEntry } from './entities';
import type { Scope } from '../shared/scope';

/**
 * Writes one audit-log line in the caller's transaction, so the log holds exactly the writes that
 * committed. `action` is `<object>.<verb>`, e.g. `checkout_session.expire`.
 */
export async function recordAudit(tx: UnitOfWork, entry: Omit<AuditEntry, 'id'>): Promise<void> {
  await tx.auditLog.insert(newAuditEntry(entry));
}

/** An audit-log line with its id, for a store that writes it with a change of its own. */
export function newAuditEntry(entry: Omit<AuditEntry, 'id'>): AuditEntry {
  return { id: newId('audit', 20), ...entry };
}

/**
 * Writes the audit line of a write made in one mode of an account, in the write's transaction, so
 * the two commit or roll back together. `actor` is the key or member who asked; null for the
 * server's own writes (the first-start demo, the operator's CLI), which have no one to name.
 */
export async function auditWrite(tx: UnitOfWork, entry: { scope: Scope; actor: Actor | null; action: string; target: string | null; at: Date }): Promise<void> {
  if (!entry.actor) return;
  const { scope, ...line } = entry;
  await recordAudit(tx, { accountId: scope.accountId, mode: scope.mode, ...line, actor: entry.actor });
}
