import { auditWrite } from '../../team/audit';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import type { Coupon, Redemptions } from '../entities';
import { buildCoupon, withRedemptions, type NewCoupon } from '../rules';

/** Creates a coupon: a percentage or an amount off a session, redeemed once per session. */
export async function createCoupon(deps: Deps, options: { scope: Scope; input: NewCoupon; actor: Actor | null }): Promise<Coupon & Redemptions> {
  const coupon = buildCoupon(options.input, options.scope, deps.clock.now());
  await deps.store.transaction(async (tx) => {
    await tx.coupons.insert(coupon);
    await auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'coupon.create', target: coupon.id, at: coupon.createdAt });
  });
  return withRedemptions(coupon, 0, coupon.createdAt);
}
