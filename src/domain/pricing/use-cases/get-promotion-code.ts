import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { Coupon, PromotionCode, Redemptions } from '../entities';
import { withRedemptions } from '../rules';

export interface PromotionCodeWithCoupon {
  promotionCode: PromotionCode & Redemptions;
  coupon: Coupon & Redemptions;
}

/** One promotion code of the scope with its coupon, each with how often it was redeemed. */
export async function getPromotionCode(deps: Deps, options: { scope: Scope; id: string }): Promise<PromotionCodeWithCoupon> {
  const found = await deps.store.read(async (reader) => {
    const promotionCode = await reader.promotionCodes.get(options.scope, options.id);
    if (!promotionCode) return null;
    const coupon = await reader.coupons.get(options.scope, promotionCode.couponId);
    const codeCounts = await reader.promotionCodes.timesRedeemed([promotionCode.id]);
    const couponCounts = await reader.coupons.timesRedeemed([promotionCode.couponId]);
    const now = deps.clock.now();
    return {
      promotionCode: withRedemptions(promotionCode, codeCounts.get(promotionCode.id) ?? 0, now),
      coupon: withRedemptions(coupon!, couponCounts.get(promotionCode.couponId) ?? 0, now),
    };
  });
  if (!found) throw resourceMissing('promotion code', options.id);
  return found;
}
