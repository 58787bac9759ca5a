import type { Deps } from '../../deps';
import type { Actor, Membership } from '../entities';
import { joinWithInvite } from '../rules';

/** A signed-in user accepts an invite link. */
export async function acceptInvite(deps: Deps, options: { token: string; actor: Actor }): Promise<Membership> {
  return deps.store.transaction((tx) => joinWithInvite(tx, { ...options, at: deps.clock.now() }));
}
