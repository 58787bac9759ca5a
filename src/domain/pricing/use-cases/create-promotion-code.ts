import { auditWrite } from '../../team/audit';
import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import { buildPromotionCode, couponUnexpired, withRedemptions, type NewPromotionCode } from '../rules';
import type { PromotionCodeWithCoupon } from './get-promotion-code';

/** Creates a promotion code for a coupon of the scope; its code is unique among active ones. */
export async function createPromotionCode(
  deps: Deps,
  options: { scope: Scope; input: NewPromotionCode; actor: Actor | null },
): Promise<PromotionCodeWithCoupon> {
  const now = deps.clock.now();
  return deps.store.transaction(async (tx) => {
    const coupon = await tx.coupons.get(options.scope, options.input.coupon);
    if (!coupon) throw new TillpointError('resource_missing', `No such coupon: '${options.input.coupon}'`, { param: 'coupon' });
    if (!couponUnexpired(coupon, now)) throw new TillpointError('parameter_invalid', 'This coupon can no longer be redeemed', { param: 'coupon' });
    const promotionCode = buildPromotionCode(options.input, coupon, options.scope, now);
    if (!(await tx.promotionCodes.insert(promotionCode))) {
      throw new TillpointError('parameter_invalid', `An active promotion code '${promotionCode.code}' already exists`, { param: 'code' });
    }
    await auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'promotion_code.create', target: promotionCode.id, at: now });
    const couponCounts = await tx.coupons.timesRedeemed([coupon.id]);
    return { promotionCode: withRedemptions(promotionCode, 0, now), coupon: withRedemptions(coupon, couponCounts.get(coupon.id) ?? 0, now) };
  });
}
