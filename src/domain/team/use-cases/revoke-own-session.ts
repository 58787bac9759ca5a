import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../entities';
import { auditForUser } from '../access-rules';

/** Signs one of a person's browsers out: its cookie is worthless from then on, on every instance. */
export async function revokeOwnSession(deps: Deps, options: { actor: Actor; sessionId: string }): Promise<void> {
  const now = deps.clock.now();
  await deps.store.transaction(async (tx) => {
    if (!(await tx.userSessions.delete(options.actor.id, options.sessionId))) throw resourceMissing('session', options.sessionId);
    await auditForUser(tx, { userId: options.actor.id, actor: options.actor, action: 'user.session_revoke', target: options.sessionId, at: now });
  });
}
