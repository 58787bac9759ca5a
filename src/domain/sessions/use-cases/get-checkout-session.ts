import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { CheckoutSession } from '../entities';
import { sessionAsOfNow } from '../rules';

/**
 * Reads a session, expiring it first when its time is up and no payment holds it, so nobody ever
 * sees an `open` session past its `expires_at`. The read takes no lock: a session being paid, or
 * held by anyone else, is answered at once.
 */
export async function getCheckoutSession(deps: Deps, options: { scope: Scope | null; id: string }): Promise<CheckoutSession> {
  const session = await deps.store.read((reader) => reader.checkoutSessions.get(options.scope, options.id));
  if (!session) throw resourceMissing('checkout session', options.id);
  return sessionAsOfNow(deps, session, options.scope);
}
