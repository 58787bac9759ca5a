import { coupons, type Coupon, type PromotionCode, type Redemptions, type TaxRate } from '../../domain/pricing/entities';
import { apiObjectOf } from '../../domain/shared/resource-shape';
import { resourceView, unixTime } from './resource';

/** A coupon as Stripe shows one: its fields as its definition shows them (`coupons`), and its redemptions. */
export function couponView(coupon: Coupon & Redemptions) {
  return {
    ...apiObjectOf('coupon', coupons, coupon),
    times_redeemed: coupon.timesRedeemed,
    valid: coupon.valid,
  };
}

/** A promotion code with its coupon spelled out, as Stripe shows one. */
export function promotionCodeView(promotionCode: PromotionCode & Redemptions, coupon: Coupon & Redemptions) {
  return resourceView('promotion_code', promotionCode, {
    code: promotionCode.code,
    coupon: couponView(coupon),
    active: promotionCode.active,
    max_redemptions: promotionCode.maxRedemptions,
    expires_at: unixTime(promotionCode.expiresAt),
    restrictions: {
      first_time_transaction: promotionCode.restrictions.firstTimeTransaction,
      minimum_amount: promotionCode.restrictions.minimumAmount,
      minimum_amount_currency: promotionCode.restrictions.minimumAmountCurrency?.toLowerCase() ?? null,
    },
    times_redeemed: promotionCode.timesRedeemed,
    metadata: promotionCode.metadata,
  });
}

/** A tax rate as Stripe shows one. */
export function taxRateView(taxRate: TaxRate) {
  return resourceView('tax_rate', taxRate, {
    display_name: taxRate.displayName,
    description: taxRate.description,
    percentage: taxRate.percentage,
    inclusive: taxRate.inclusive,
    country: taxRate.country,
    state: taxRate.state,
    jurisdiction: taxRate.jurisdiction,
    active: taxRate.active,
    metadata: taxRate.metadata,
  });
}
