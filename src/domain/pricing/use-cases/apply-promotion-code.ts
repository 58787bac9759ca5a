import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { CheckoutSession } from '../../sessions/entities';
import { assertRedeemable } from '../redemption';
import { repriceOpenSession } from '../reprice';
import { appliedDiscount } from '../rules';

/**
 * The shopper types a promotion code on the page (or removes it with `code: null`): the server
 * finds it, checks it applies, and prices the session again.
 */
export async function applyPromotionCode(deps: Deps, options: { sessionId: string; code: string | null }): Promise<CheckoutSession> {
  const param = 'promotion_code';
  return repriceOpenSession(deps, {
    sessionId: options.sessionId,
    param,
    change: async (tx, session, now) => {
      if (!session.allowPromotionCodes) throw new TillpointError('parameter_invalid', 'This checkout does not take promotion codes', { param });
      if (options.code === null) {
        await tx.discountRedemptions.forget(session.id);
        return { discounts: [] };
      }
      const scope = { accountId: session.accountId, mode: session.mode };
      const promotionCode = await tx.promotionCodes.findActiveByCode(scope, options.code.trim());
      const coupon = promotionCode && (await tx.coupons.get(scope, promotionCode.couponId));
      if (!promotionCode || !coupon) throw new TillpointError('parameter_invalid', 'This code is not valid', { param });
      await assertRedeemable(tx, { coupon, promotionCode }, session, null, now, param);
      return { discounts: [appliedDiscount(coupon, promotionCode)] };
    },
  });
}
