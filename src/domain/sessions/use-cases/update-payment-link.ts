import { auditWrite } from '../../team/audit';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import type { PaymentLink } from '../entities';

/**
 * Turns a link off (its URL then answers 404 and opens no session) or on again. Audited as
 * `payment_link.deactivate` / `payment_link.activate` (`payment_link.update` when nothing is asked).
 */
export async function updatePaymentLink(deps: Deps, options: { scope: Scope; id: string; active?: boolean; actor: Actor | null }): Promise<PaymentLink> {
  return deps.store.transaction(async (tx) => {
    const at = deps.clock.now();
    const link =
      options.active === undefined
        ? await tx.paymentLinks.get(options.scope, options.id)
        : await tx.paymentLinks.setActive(options.scope, options.id, options.active, at);
    if (!link) throw resourceMissing('payment link', options.id);
    const action = options.active === false ? 'payment_link.deactivate' : options.active ? 'payment_link.activate' : 'payment_link.update';
    await auditWrite(tx, { scope: options.scope, actor: options.actor, action, target: link.id, at });
    return link;
  });
}
