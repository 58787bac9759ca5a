import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { Coupon, Redemptions } from '../entities';
import { withRedemptions } from '../rules';

/** One coupon of the scope, with how often it was redeemed. */
export async function getCoupon(deps: Deps, options: { scope: Scope; id: string }): Promise<Coupon & Redemptions> {
  const found = await deps.store.read(async (reader) => {
    const coupon = await reader.coupons.get(options.scope, options.id);
    if (!coupon) return null;
    const counts = await reader.coupons.timesRedeemed([coupon.id]);
    return withRedemptions(coupon, counts.get(coupon.id) ?? 0, deps.clock.now());
  });
  if (!found) throw resourceMissing('coupon', options.id);
  return found;
}
