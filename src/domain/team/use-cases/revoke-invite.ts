import { recordAudit } from '../audit';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../entities';

/** Withdraws a pending invite so its link no longer works. */
export async function revokeInvite(deps: Deps, options: { accountId: string; actor: Actor; id: string }): Promise<void> {
  const now = deps.clock.now();
  await deps.store.transaction(async (tx) => {
    if (!(await tx.invites.revoke(options.accountId, options.id, now))) throw resourceMissing('invite', options.id);
    await recordAudit(tx, { accountId: options.accountId, mode: null, actor: options.actor, action: 'invite.revoke', target: options.id, at: now });
  });
}
