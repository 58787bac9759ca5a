import { recordAudit } from '../audit';
import type { Mode } from '../events';
import type { Deps } from '../ports';
import type { Actor } from '../team-entities';

/**
 * Appends one audit-log line in a transaction of its own, right after a write whose use case is
 * shared with the merchant API and calls a processor or a separate store (capture, refund,
 * processor credentials…), so it has no single transaction to join. A write that fails records
 * nothing; the line is written only once the write has succeeded.
 */
export async function recordAuditEntry(
  deps: Pick<Deps, 'store' | 'clock'>,
  entry: { accountId: string; mode: Mode | null; actor: Actor; action: string; target: string | null },
): Promise<void> {
  await deps.store.transaction((tx) => recordAudit(tx, { ...entry, at: deps.clock.now() }));
}
