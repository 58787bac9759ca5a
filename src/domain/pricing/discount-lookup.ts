import { TillpointError } from '../shared/errors';
import type { Scope } from '../shared/scope';
import type { UnitOfWork } from '../deps';
import type { Coupon, PromotionCode } from './entities';

function missing(kind: string, id: string, param: string): TillpointError {
  return new TillpointError('resource_missing', `No such ${kind}: '${id}'`, { param });
}

/** What a developer names in `discounts[]`: a coupon or a promotion code, by id. */
export type DiscountReference = { coupon: string; promotionCode?: undefined } | { promotionCode: string; coupon?: undefined };

/**
 * The coupon and code a reference names, or `resource_missing` naming the parameter: `param` when
 * given, else the checkout session's `discounts[0][coupon|promotion_code]`. With `forUpdate`, the
 * code's row is locked, then the coupon's (the one order).
 */
export async function findDiscount(
  tx: UnitOfWork,
  scope: Scope,
  reference: DiscountReference,
  options: { forUpdate?: boolean; param?: string } = {},
): Promise<{ coupon: Coupon; promotionCode: PromotionCode | null }> {
  const lock = { forUpdate: options.forUpdate };
  if (reference.promotionCode !== undefined) {
    const param = options.param ?? 'discounts[0][promotion_code]';
    const promotionCode = await tx.promotionCodes.get(scope, reference.promotionCode, lock);
    if (!promotionCode) throw missing('promotion code', reference.promotionCode, param);
    const coupon = await tx.coupons.get(scope, promotionCode.couponId, lock);
    if (!coupon) throw missing('coupon', promotionCode.couponId, param);
    return { coupon, promotionCode };
  }
  const coupon = await tx.coupons.get(scope, reference.coupon, lock);
  if (!coupon) throw missing('coupon', reference.coupon, options.param ?? 'discounts[0][coupon]');
  return { coupon, promotionCode: null };
}

/** A limit reached: refused as `parameter_invalid` on `param`. */
export function redemptionsExhausted(param: string): TillpointError {
  return new TillpointError('parameter_invalid', 'This discount has been redeemed as many times as it may be', { param });
}
