import type { Mode } from './events';
import { newId } from './ids';
import type { UnitOfWork } from './ports';
import type { Actor } from './team-entities';

/**
 * Writes one audit-log line in the caller's transaction, so the log holds exactly the writes that
 * committed. `action` is `<object>.<verb>`, e.g. `checkout_session.expire`.
 */
export async function recordAudit(
  tx: UnitOfWork,
  entry: { accountId: string; mode: Mode | null; actor: Actor; action: string; target: string | null; at: Date },
): Promise<void> {
  await tx.auditLog.insert({ id: newId('audit', 20), ...entry });
}
