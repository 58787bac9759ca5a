import { auditWrite } from '../../team/audit';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import type { Price } from '../entities';
import { applyPriceChanges, type PriceChanges } from '../price-rules';

/**
 * Archives a price (`active: false`) or brings it back, or changes its nickname or metadata. Its
 * amount never changes: a new amount is a new price. Audited as `price.update` when anything changed.
 */
export async function updatePrice(deps: Deps, options: { scope: Scope; id: string; changes: PriceChanges; actor: Actor | null }): Promise<Price> {
  return deps.store.transaction(async (tx) => {
    const current = await tx.prices.get(options.scope, options.id, { forUpdate: true });
    if (!current) throw resourceMissing('price', options.id);
    const next = applyPriceChanges(current, options.changes);
    const changed = next.active !== current.active || next.nickname !== current.nickname || JSON.stringify(next.metadata) !== JSON.stringify(current.metadata);
    if (!changed) return current;
    const now = deps.clock.now();
    await tx.prices.update(next);
    await auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'price.update', target: next.id, at: now });
    return next;
  });
}
